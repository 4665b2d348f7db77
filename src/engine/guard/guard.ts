/**
 * The guard (docs/tools.md, "Permissions and limits"; docs/security.md): the one place that decides what a search may touch. It resolves a tool's `path`
 * (through roots.ts) and decides:
 *
 * - granted: inside a workspace folder (by its lexical and its real path);
 * - pending: outside every workspace folder, so a person must confirm (VS Code's confirmation in chat,
 *   `--allow-outside` in the CLI);
 * - denied: the path, or where a symlink on it leads, matches `grepTools.deniedPaths`, or lies outside a
 *   non-empty `grepTools.allowedPaths`;
 * - invalid: the path cannot be searched at all (malformed, not found, no workspace open);
 * - untitled: the path names an open untitled editor (untitled.ts), searched from its text: nothing on
 *   disk is read, so no confirmation, wherever it would be saved; the denied rules and the allow-list
 *   still judge it by the path it would be saved to (or, without one, by its name).
 *
 * Deciding only stats and resolves symlinks (`kind`, `realpath`): it never opens or lists anything, so
 * `prepareInvocation` can call it. During a walk, `judgeLink` decides where a symlink may lead, for
 * every file source alike. No `vscode` import: the tools, the Command Palette and the CLI share it.
 */
import { realpathSync, statSync } from 'fs';
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import { braceExpand, Minimatch } from 'minimatch';
import type { EngineConfig } from '../api/config';
import { deniedDirectoryGlobs, deniedRule, GLOB_OPTIONS, globComplexityProblem, splitAbsoluteGlob } from '../globset/globs';
import { notFoundHint } from './pathHint';
import { isInside, relativePosix, resolveBases, type SearchBase, type WorkspaceFolder } from './roots';
import { InputError } from '../api/errors';
import { untitledAt, untitledByName, untitledByUri, untitledNotFoundMessage, isUntitledUri, type UntitledDocument } from './untitled';

/** What the guard needs to know about the workspace and the file system. */
export interface GuardContext {
  folders: readonly WorkspaceFolder[];
  config: Pick<EngineConfig, 'deniedPaths' | 'allowedPaths'>;
  /** 'file', 'directory', or undefined when nothing is there (a stat; follows symlinks). */
  kind(absolute: string): Promise<'file' | 'directory' | undefined>;
  /** The open untitled editors a `path` may name (VS Code); undefined where there are none (the CLI). */
  untitled?: readonly UntitledDocument[];
}

export type Decision =
  | { kind: 'granted'; bases: SearchBase[] }
  | {
      kind: 'pending';
      bases: SearchBase[];
      /** The path as the call gave it. */
      requested: string;
      /** Where it leads: the real path (symlinks resolved). */
      resolved: string;
      /** The error for a caller that cannot ask the person. */
      message: string;
      /** Nothing exists there: said only once the person has confirmed (before, outside paths answer alike). */
      missing?: boolean;
    }
  | { kind: 'denied'; requested: string; resolved: string; rule: string; message: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'untitled'; document: UntitledDocument };

/** What a search may touch once the guard said yes: files below bases, or one untitled editor's text. */
export type Access =
  | {
      kind: 'files';
      bases: SearchBase[];
      /**
       * Real paths of the places a symlink met during the walk may lead to: every workspace folder, and a
       * confirmed outside base. Anything else is outside.
       */
      granted: string[];
    }
  | { kind: 'untitled'; document: UntitledDocument };

/** The directory denied paths are matched from: the workspace folder, or for an outside base the file system root. */
export function policyRoot(base: SearchBase): string {
  return base.folderIndex === -1 ? nodePath.parse(base.base).root : base.root;
}

/** Per rule list: the directories its `/**` rules hide (`**\/.ssh`), compiled once like the list. */
const hiddenDirectories = new WeakMap<readonly string[], readonly string[]>();

/** The denied-path rule a root-relative path matches, as a file or as a directory a rule hides. */
function deniedRelativeRule(relative: string, rules: readonly string[]): string | undefined {
  const asFile = deniedRule(relative, rules);
  if (asFile !== undefined) return asFile;
  let directories = hiddenDirectories.get(rules);
  if (directories === undefined) hiddenDirectories.set(rules, (directories = deniedDirectoryGlobs(rules)));
  const directory = deniedRule(relative, directories);
  return directory === undefined ? undefined : `${directory}/**`;
}

/** The denied-path rule a path matches, as a file or as a directory a rule hides; the root itself never matches. */
export function deniedPathRule(absolute: string, root: string, rules: readonly string[]): string | undefined {
  const relative = relativePosix(root, absolute);
  return relative === '' ? undefined : deniedRelativeRule(relative, rules);
}

const ALLOW_OPTIONS = GLOB_OPTIONS;

/**
 * `grepTools.allowedPaths` as predicates over root-relative paths: `file` for a file to read, `directory`
 * for a directory that may hold an allowed file. Undefined when the list is empty (everything not denied).
 */
export function allowList(rules: readonly string[]): { file(relative: string): boolean; directory(relative: string): boolean } | undefined {
  if (rules.length === 0) return undefined;
  const matchers = rules.map((rule) => new Minimatch(rule.replace(/^\.\//, ''), { ...ALLOW_OPTIONS, matchBase: !rule.includes('/') }));
  return {
    file: (relative) => matchers.some((m) => m.match(relative)),
    directory: (relative) => relative === '' || matchers.some((m) => !m.pattern.includes('/') || m.match(relative) || m.match(relative, true)),
  };
}

function quote(rules: readonly string[]): string {
  return rules.map((rule) => JSON.stringify(rule)).join(', ');
}

function deniedMessage(requested: string, resolved: string, rule: string, real: boolean): string {
  const where = real ? ` (it leads to ${resolved})` : '';
  return (
    `permission denied by policy: ${JSON.stringify(requested)}${where} matches ${JSON.stringify(rule)} (grepTools.deniedPaths). ` +
    'Secrets, keys and .git are never searched or listed, whatever the input says; search another path.'
  );
}

function deniedFolderMessage(folder: string, rule: string): string {
  return (
    `permission denied by policy: the workspace folder ${folder} is itself a denied place: it matches ${JSON.stringify(rule)} (grepTools.deniedPaths). ` +
    'Its files are never searched or listed; open the project folder instead.'
  );
}

function notAllowedMessage(requested: string, resolved: string, rules: readonly string[]): string {
  return (
    `permission denied by policy: ${JSON.stringify(requested)} (${resolved}) is not covered by grepTools.allowedPaths (${quote(rules)}). ` +
    'Only files those globs match are searched; search a path below one of them.'
  );
}

/** The error for an outside path when nobody can confirm; `hint` says how to get a confirmation. */
export function outsideMessage(requested: string | undefined, resolved: string, folders: readonly WorkspaceFolder[], hint?: string): string {
  const open = folders.map((f) => f.path).join(', ') || 'none open';
  return (
    `Path ${JSON.stringify(requested ?? resolved)} resolves to ${resolved}, which is outside every workspace folder (${open}). ` +
    (hint ?? 'Searching outside the workspace needs the user\'s confirmation. Search inside the workspace, or ask the user to open that folder.')
  );
}

async function realpathOr(path: string): Promise<string> {
  return fs.realpath(path).catch(() => path);
}

/** Index of the innermost (longest) root holding `absolute`, or -1. */
function innermost(absolute: string, roots: readonly string[]): number {
  let best = -1;
  roots.forEach((root, index) => {
    if (isInside(absolute, root) && (best === -1 || root.length > roots[best].length)) best = index;
  });
  return best;
}

/**
 * Whether an untitled editor `path` names may be searched: nothing on disk is read, so it is granted
 * wherever it would be saved, unless the denied rules or a non-empty allow-list refuse the path it would
 * be saved to (judged from its workspace folder, or from '/' outside them) or, without one, its name.
 * An allow-list lets through only a document whose path it allows, never one without a path.
 */
function judgeUntitled(requested: string, document: UntitledDocument, ctx: GuardContext): Decision {
  const { deniedPaths, allowedPaths } = ctx.config;
  const associated = document.associatedPath;
  const holder = associated === undefined ? -1 : innermost(associated, ctx.folders.map((folder) => folder.path));
  const relative = associated === undefined ? document.name : relativePosix(holder === -1 ? nodePath.parse(associated).root : ctx.folders[holder].path, associated);
  const resolved = associated ?? document.uri;
  const rule = deniedRelativeRule(relative, deniedPaths);
  if (rule !== undefined) return { kind: 'denied', requested, resolved, rule, message: deniedMessage(requested, resolved, rule, false) };
  const allowed = allowList(allowedPaths);
  if (allowed && (holder === -1 || !allowed.file(relative))) {
    return { kind: 'denied', requested, resolved, rule: 'grepTools.allowedPaths', message: notAllowedMessage(requested, resolved, allowedPaths) };
  }
  return { kind: 'untitled', document };
}

/** Whether a name leads (through a link on the way) to a place judgeReal refuses: never suggested, whatever name leads there. */
function hiddenWhereItIs(absolute: string, scope: ReadScope): boolean {
  try {
    const real = realpathSync(absolute);
    return real !== absolute && judgeReal(real, scope, statSync(real).isDirectory()) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Decides whether `path` may be searched. Stats and resolves symlinks only: nothing is opened or listed.
 */
export async function decide(path: string | undefined, ctx: GuardContext): Promise<Decision> {
  const { deniedPaths } = ctx.config;
  const untitled = ctx.untitled ?? [];
  // An untitled editor's URI names it whatever is on disk: answers name files on disk by absolute paths.
  const byUri = path === undefined ? undefined : untitledByUri(path, untitled);
  if (path !== undefined && byUri !== undefined) return judgeUntitled(path, byUri, ctx);
  let bases: SearchBase[];
  try {
    // The path an untitled editor will be saved to counts as there, so a relative path finds its folder.
    bases = await resolveBases(path, ctx.folders, async (p) => (await ctx.kind(p)) !== undefined || untitledAt(p, untitled) !== undefined);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // A relative path with no folder open may still be an untitled editor's name.
    const byName = path === undefined ? undefined : untitledByName(path, untitled);
    return path !== undefined && byName !== undefined ? judgeUntitled(path, byName, ctx) : { kind: 'invalid', message: error.message };
  }
  const whole = path === undefined || path === '' || path === '.';
  if (whole) {
    for (const base of bases) {
      if ((await ctx.kind(base.base)) !== 'directory') {
        return { kind: 'invalid', message: `Workspace folder not found: ${base.base} does not exist. Open an existing folder, or pass an absolute "path".` };
      }
    }
    return wholeWorkspace(bases, deniedPaths);
  }
  const requested = path;
  const base = bases[0];
  // 1. The path as written: '..' is resolved, so 'src/../.env' is '.env'; an outside path is judged from '/'.
  const rule = deniedPathRule(base.base, policyRoot(base), deniedPaths);
  if (rule !== undefined) return { kind: 'denied', requested, resolved: base.base, rule, message: deniedMessage(requested, base.base, rule, false) };
  const kind = await ctx.kind(base.base);
  if (kind === undefined) {
    // Nothing on disk there (a real file wins): an untitled editor saved to that path, or by that name.
    const document = untitledAt(base.base, untitled) ?? untitledByName(requested, untitled);
    if (document !== undefined) return judgeUntitled(requested, document, ctx);
    if (ctx.untitled !== undefined && isUntitledUri(requested)) return { kind: 'invalid', message: untitledNotFoundMessage(requested, untitled) };
    // Where it would be: an outside or denied place answers as if it existed (no existence oracle).
    const wouldBe = await realOfMissing(base.base, ctx.kind);
    const realFolders = await Promise.all(ctx.folders.map((folder) => realpathOr(folder.path)));
    const holder = innermost(wouldBe, realFolders);
    if (holder === -1 || deniedPathRule(wouldBe, realFolders[holder], deniedPaths) !== undefined || deniedFromTop(wouldBe, deniedPaths) !== undefined) {
      return judgeTarget(requested, base, bases, wouldBe, undefined, ctx);
    }
    // A misspelled name, or the nearest existing directory (pathHint.ts); never a hidden entry.
    return { kind: 'invalid', message: await notFoundMessage(requested, base.base, ctx) };
  }
  return judgeTarget(requested, base, bases, await realpathOr(base.base), kind, ctx);
}

/**
 * The whole workspace: every folder, except one that is itself a denied place (~/.ssh, a repository's
 * .git opened as a folder), judged by its path and its real path from '/'. Denied when none is left.
 */
async function wholeWorkspace(bases: SearchBase[], deniedPaths: readonly string[]): Promise<Decision> {
  const open: SearchBase[] = [];
  let refused: { folder: string; rule: string } | undefined;
  for (const base of bases) {
    const rule = deniedFromTop(base.base, deniedPaths) ?? deniedFromTop(await realpathOr(base.base), deniedPaths);
    if (rule === undefined) open.push(base);
    else refused ??= { folder: base.base, rule };
  }
  if (open.length > 0 || !refused) return { kind: 'granted', bases: open };
  return { kind: 'denied', requested: refused.folder, resolved: refused.folder, rule: refused.rule, message: deniedFolderMessage(refused.folder, refused.rule) };
}

/** The error for a path that does not exist, with the hint of pathHint.ts (never naming a hidden entry). */
async function notFoundMessage(requested: string, missing: string, ctx: GuardContext): Promise<string> {
  const { deniedPaths, allowedPaths } = ctx.config;
  const allowed = allowList(allowedPaths);
  const scope: ReadScope = { granted: await Promise.all(ctx.folders.map((folder) => realpathOr(folder.path))), denied: deniedPaths, allowed: allowedPaths };
  const hidden = (absolute: string, root: string) => {
    if (deniedPathRule(absolute, root, deniedPaths) !== undefined) return true;
    const relative = relativePosix(root, absolute);
    if (allowed !== undefined && !allowed.file(relative) && !allowed.directory(relative)) return true;
    return hiddenWhereItIs(absolute, scope);
  };
  const hint = await notFoundHint(missing, { folders: ctx.folders, kind: ctx.kind, hidden });
  return `Path not found: ${JSON.stringify(requested)} (resolved to ${missing}).${hint} Check the path, or omit "path" to search the whole workspace.`;
}

/** Where a missing path would really be: the real path of its nearest existing ancestor, and the rest. */
async function realOfMissing(missing: string, kind: GuardContext['kind']): Promise<string> {
  let existing = nodePath.dirname(missing);
  while ((await kind(existing)) === undefined && nodePath.dirname(existing) !== existing) existing = nodePath.dirname(existing);
  return nodePath.join(await realpathOr(existing), nodePath.relative(existing, missing));
}

/** The denied rule a path matches from the file system's root. */
function deniedFromTop(path: string, rules: readonly string[]): string | undefined {
  return deniedPathRule(path, nodePath.parse(path).root, rules);
}

/**
 * Steps 2-4 of `decide` for a path that exists (`kind`) or would be outside or denied if it did
 * (`kind` undefined: judged the same way, and marked `missing` so a confirmed call reports it then).
 */
async function judgeTarget(requested: string, base: SearchBase, bases: SearchBase[], real: string, kind: 'file' | 'directory' | undefined, ctx: GuardContext): Promise<Decision> {
  const { deniedPaths, allowedPaths } = ctx.config;
  // 2. Where it really is: a symlink on the way may lead out of the workspace, or to a secret.
  const realFolders = await Promise.all(ctx.folders.map((folder) => realpathOr(folder.path)));
  const holder = innermost(real, realFolders);
  const realRoot = holder === -1 ? nodePath.parse(real).root : realFolders[holder];
  const realRule = deniedPathRule(real, realRoot, deniedPaths) ?? deniedFromTop(real, deniedPaths);
  if (realRule !== undefined) {
    return { kind: 'denied', requested, resolved: real, rule: realRule, message: deniedMessage(requested, real, realRule, real !== base.base) };
  }
  // 3. A non-empty allow-list: the base must be, or may hold, an allowed file (judged where it really is).
  const allowed = allowList(allowedPaths);
  if (allowed) {
    const relative = relativePosix(realRoot, real);
    if (!(kind === 'file' ? allowed.file(relative) : allowed.directory(relative) || (kind === undefined && allowed.file(relative)))) {
      return { kind: 'denied', requested, resolved: real, rule: 'grepTools.allowedPaths', message: notAllowedMessage(requested, real, allowedPaths) };
    }
  }
  // 4. Inside a workspace folder where it really is: granted. Otherwise a person must confirm.
  if (base.folderIndex !== -1 && holder !== -1) return { kind: 'granted', bases };
  if (base.folderIndex === -1 && holder !== -1) {
    // An outside path that leads into a folder (a link to the workspace) is searched there.
    return { kind: 'granted', bases: [{ root: ctx.folders[holder].path, base: nodePath.join(ctx.folders[holder].path, nodePath.relative(realFolders[holder], real)), folderIndex: holder }] };
  }
  return { kind: 'pending', bases, requested, resolved: real, message: outsideMessage(requested, real, ctx.folders), ...(kind === undefined ? { missing: true } : {}) };
}

/** A list setting as VS Code's `inspect` gives it: each level's value, unchecked. */
export interface SettingLevels {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/**
 * The policy settings merged so that a workspace can only narrow what is searched, never widen it (a
 * cloned repository's .vscode/settings.json must not switch off the protection of ~/.ssh or .env):
 * - deniedPaths: the user's list (or the defaults), plus any rules the workspace or folder settings add;
 * - allowedPaths: the user's list when not empty, otherwise the folder's or workspace's list.
 */
export function mergePolicy(denied: SettingLevels | undefined, allowed: SettingLevels | undefined, defaults: readonly string[]): Pick<EngineConfig, 'deniedPaths' | 'allowedPaths'> {
  const userDenied = stringList(denied?.globalValue) ?? [...defaults];
  const addedDenied = [denied?.workspaceValue, denied?.workspaceFolderValue].flatMap((value) => stringList(value) ?? []);
  const userAllowed = stringList(allowed?.globalValue) ?? [];
  const workspaceAllowed = stringList(allowed?.workspaceFolderValue) ?? stringList(allowed?.workspaceValue) ?? [];
  return {
    deniedPaths: [...new Set([...userDenied, ...addedDenied])],
    allowedPaths: userAllowed.length > 0 ? userAllowed : workspaceAllowed,
  };
}

/** What `authorize` needs: the guard's context, and whether an outside path was confirmed. */
export interface AuthorizeContext extends GuardContext {
  /** The person confirmed a search outside the workspace (VS Code's confirmation, `--allow-outside`). */
  allowOutside: boolean;
  /** Replaces the advice of the outside-the-workspace error (how this caller gets a confirmation). */
  outsideHint?: string;
  /**
   * Where the path resolved when the person confirmed it (the real path VS Code's confirmation named):
   * an outside path is searched only while it still resolves there. Undefined: any outside path
   * `allowOutside` lets through (the CLI's --allow-outside).
   */
  confirmedTarget?: string;
}

/** The error when the path no longer leads where the person confirmed (a symlink changed in between). */
export function changedTargetMessage(requested: string, resolved: string, confirmed: string): string {
  return (
    `Path ${JSON.stringify(requested)} now resolves to ${resolved}, not to ${confirmed}, which the user confirmed; nothing was searched. ` +
    'Call the tool again so the user can confirm the new location.'
  );
}

/**
 * The guard's decision enforced: the bases to search and where symlinks may lead, or an InputError
 * written for the model (denied, outside without confirmation, invalid). Nothing is opened or listed.
 */
export async function authorize(path: string | undefined, ctx: AuthorizeContext): Promise<Access> {
  const decision = await decide(path, ctx);
  if (decision.kind === 'invalid' || decision.kind === 'denied') throw new InputError(decision.message);
  if (decision.kind === 'untitled') return decision;
  if (decision.kind === 'pending' && !ctx.allowOutside) {
    throw new InputError(outsideMessage(decision.requested, decision.resolved, ctx.folders, ctx.outsideHint));
  }
  if (decision.kind === 'pending' && ctx.confirmedTarget !== undefined && decision.resolved !== ctx.confirmedTarget) {
    throw new InputError(changedTargetMessage(decision.requested, decision.resolved, ctx.confirmedTarget));
  }
  if (decision.kind === 'pending' && decision.missing) throw new InputError(await notFoundMessage(decision.requested, decision.bases[0].base, ctx));
  const granted = await Promise.all(ctx.folders.map((folder) => realpathOr(folder.path)));
  if (decision.kind === 'pending') granted.push(decision.resolved);
  return { kind: 'files', bases: decision.bases, granted };
}

/** The longest include, exclude or glob pattern accepted (minimatch refuses 64 KB). */
export const MAX_GLOB_LENGTH = 4096;

/**
 * An include, exclude or glob pattern is relative to the search path: it cannot be absolute (the base
 * belongs in "path", where the guard judges it) nor climb out with '..' (in any brace alternative).
 */
export function checkSearchGlob(glob: string, field: 'include' | 'exclude' | 'glob'): void {
  const name = field === 'glob' ? 'glob' : `${field} glob`;
  // minimatch throws a TypeError past 64 KB; a glob this long is a mistake, so say so first.
  if (glob.length > MAX_GLOB_LENGTH) {
    throw new InputError(`Invalid ${name} ${JSON.stringify(glob.slice(0, 40))}…: it is ${glob.length} characters long, at most ${MAX_GLOB_LENGTH} are accepted.`);
  }
  const problem = globComplexityProblem(glob);
  if (problem) {
    throw new InputError(
      `Invalid ${name} ${JSON.stringify(glob.length > 200 ? `${glob.slice(0, 200)}…` : glob)}: ${problem}. Such a glob can take minutes to match; write a simpler one (or use grep's pattern, or glob's mode "regex", which run under the time limit).`,
    );
  }
  if (glob.startsWith('/') || glob.startsWith('~')) {
    throw new InputError(
      `Invalid ${name} ${JSON.stringify(glob)}: it is matched relative to the search path and cannot name an absolute location. Put the directory in "path" and keep the glob relative, e.g. "**/*.ts".`,
    );
  }
  if (braceExpand(glob).some((expanded) => expanded.split('/').includes('..'))) {
    throw new InputError(
      `Invalid ${name} ${JSON.stringify(glob)}: '..' cannot climb out of the search path. Set "path" to the directory to search instead.`,
    );
  }
}

/** The base a glob call searches: `path`, or the static prefix of an absolute glob pattern. */
export function globRequest(pattern: string, path: string | undefined, mode: 'glob' | 'regex' | undefined): { pattern: string; path: string | undefined } {
  if ((mode ?? 'glob') !== 'glob' || !nodePath.isAbsolute(pattern)) return { pattern, path };
  const split = splitAbsoluteGlob(pattern);
  if (path !== undefined && nodePath.resolve(path) !== split.base) {
    throw new InputError(`Give either an absolute glob or "path", not both: pattern ${JSON.stringify(pattern)} already names the base ${split.base}.`);
  }
  return { pattern: split.rest, path: split.base };
}

export type LinkVerdict =
  | { kind: 'dangling' }
  | { kind: 'outside'; real: string; directory: boolean }
  | { kind: 'denied'; real: string; directory: boolean }
  | { kind: 'follow'; real: string; directory: boolean; file: boolean };

/** What may be read once a file or directory is open: the granted roots' real paths and the policy. */
export interface ReadScope {
  granted: readonly string[];
  denied: readonly string[];
  /** `grepTools.allowedPaths` (judged from the granted root holding the real path); empty or absent: everything not denied. */
  allowed?: readonly string[];
}

const compiledAllowLists = new WeakMap<readonly string[], ReturnType<typeof allowList>>();

function cachedAllowList(rules: readonly string[] | undefined): ReturnType<typeof allowList> {
  if (!rules || rules.length === 0) return undefined;
  if (!compiledAllowLists.has(rules)) compiledAllowLists.set(rules, allowList(rules));
  return compiledAllowLists.get(rules);
}

/**
 * The check on a real path, whatever name led to it (a symlink, a swapped directory, an open file):
 * it must lie in a granted root, match no denied rule (from that root, and from '/': a confirmed
 * outside base such as ~/.aws keeps the rule "**\/.aws/credentials"), and, with an allow-list, be an
 * allowed file or a directory that may hold one.
 */
export function judgeReal(real: string, scope: ReadScope, directory: boolean): 'outside_workspace' | 'denied' | undefined {
  const holder = innermost(real, scope.granted);
  if (holder === -1) return 'outside_workspace';
  const root = scope.granted[holder];
  if (deniedPathRule(real, root, scope.denied) !== undefined || deniedPathRule(real, nodePath.parse(real).root, scope.denied) !== undefined) return 'denied';
  const allowed = cachedAllowList(scope.allowed);
  if (allowed) {
    const relative = relativePosix(root, real);
    if (!(directory ? allowed.directory(relative) : allowed.file(relative))) return 'denied';
  }
  return undefined;
}

/**
 * The check on a file once it is open, by the real path of the open file: a file replaced by a symlink
 * after it was listed must not lead outside the granted roots, nor to a denied file inside them.
 */
export function judgeOpened(real: string, scope: ReadScope): 'outside_workspace' | 'denied' | undefined {
  return judgeReal(real, scope, false);
}

/**
 * Where a symlink met during a walk may lead: it is followed only when its real path passes judgeReal
 * (in a granted root, `Access.granted`; not denied, notes.txt -> .env; allowed). Stats only.
 */
export function judgeLink(link: string, scope: ReadScope): LinkVerdict {
  let real: string;
  try {
    real = realpathSync(link);
  } catch {
    return { kind: 'dangling' };
  }
  let directory = false;
  let file = false;
  try {
    const stat = statSync(real);
    directory = stat.isDirectory();
    file = stat.isFile();
  } catch {
    return { kind: 'dangling' };
  }
  const verdict = judgeReal(real, scope, directory);
  if (verdict === 'outside_workspace') return { kind: 'outside', real, directory };
  if (verdict === 'denied') return { kind: 'denied', real, directory };
  return { kind: 'follow', real, directory, file };
}
