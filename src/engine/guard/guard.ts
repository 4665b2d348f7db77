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
 * Deciding only stats and resolves symlinks (`kind`, `realpath`): it never opens anything, and lists
 * directories only for the hint of a path not found, inside a workspace folder (pathHint.ts), so
 * `prepareInvocation` can call it. What a walk or a read may reach once the search runs is judged by
 * scope.ts (real paths) and links.ts (symlinks); the glob inputs by globInput.ts, the settings merged by
 * policy.ts. No `vscode` import: the tools, the Command Palette and the CLI share it.
 */
import type { EngineConfig } from '../api/config';
import { InputError } from '../api/errors';
import { changedTargetMessage, deniedFolderMessage, deniedMessage, notAllowedMessage, outsideMessage } from './messages';
import { notFoundHint, type HintEntry } from './pathHint';
import { HOST_FLAVOUR, flavourName, innermost, realPathOf, relativePosix, type PathFlavour } from './paths';
import { resolveBases, type SearchBase, type WorkspaceFolder } from './roots';
import { allowList, deniedFromTop, deniedPathRule, deniedRelativeRule, judgeReal, policyRoot, type ReadScope } from './scope';
import { untitledAt, untitledByName, untitledByUri, untitledNotFoundMessage, isUntitledUri, type UntitledDocument } from './untitled';

/** What the guard needs to know about the workspace and the file system. */
export interface GuardContext {
  folders: readonly WorkspaceFolder[];
  config: Pick<EngineConfig, 'deniedPaths' | 'allowedPaths'>;
  /** 'file', 'directory', or undefined when nothing is there (a stat; follows symlinks). */
  kind(absolute: string): Promise<'file' | 'directory' | undefined>;
  /** The open untitled editors a `path` may name (VS Code); undefined where there are none (the CLI). */
  untitled?: readonly UntitledDocument[];
  /**
   * The path rules every decision is made under (spelling, separators, roots, case of names): this
   * platform's (`HOST_FLAVOUR`: `darwinPath` on macOS) when absent; tests pass `path.posix`, `path.win32`
   * or `darwinPath` (docs/platforms.md).
   */
  flavour?: PathFlavour;
  /**
   * The real path of an existing path (links, junctions and on Windows 8.3 short names resolved), or
   * undefined when it cannot be resolved; absent, the file system's `realpath`.
   */
  realPath?(absolute: string): Promise<string | undefined>;
  /**
   * A directory's entries, links not followed (rejects when it cannot be listed): read only for the hint
   * of a path not found, inside a workspace folder (pathHint.ts); absent, the file system's.
   */
  entries?(dir: string): Promise<HintEntry[]>;
}

/** The guard's path rules and real paths: the context's, or this platform's. */
function pathRoles(ctx: GuardContext): { flavour: PathFlavour; real(absolute: string): Promise<string> } {
  const flavour = ctx.flavour ?? HOST_FLAVOUR;
  const realPath = ctx.realPath;
  return {
    flavour,
    real: realPath === undefined ? (absolute) => realPathOf(absolute, absolute) : async (absolute) => (await realPath(absolute)) ?? absolute,
  };
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

/**
 * Whether an untitled editor `path` names may be searched: nothing on disk is read, so it is granted
 * wherever it would be saved, unless the denied rules or a non-empty allow-list refuse the path it would
 * be saved to (judged from its workspace folder, or from '/' outside them) or, without one, its name.
 * An allow-list lets through only a document whose path it allows, never one without a path.
 */
function judgeUntitled(requested: string, document: UntitledDocument, ctx: GuardContext): Decision {
  const { deniedPaths, allowedPaths } = ctx.config;
  const { flavour } = pathRoles(ctx);
  const associated = document.associatedPath;
  const holder =
    associated === undefined
      ? -1
      : innermost(
          associated,
          ctx.folders.map((folder) => folder.path),
          flavour,
        );
  const relative =
    associated === undefined ? document.name : relativePosix(holder === -1 ? flavour.parse(associated).root : ctx.folders[holder].path, associated, flavour);
  const resolved = associated ?? document.uri;
  const rule = deniedRelativeRule(relative, deniedPaths);
  if (rule !== undefined) return { kind: 'denied', requested, resolved, rule, message: deniedMessage(requested, resolved, rule, false) };
  const allowed = allowList(allowedPaths);
  if (allowed && (holder === -1 || !allowed.file(relative))) {
    return { kind: 'denied', requested, resolved, rule: 'grepTools.allowedPaths', message: notAllowedMessage(requested, resolved, allowedPaths) };
  }
  return { kind: 'untitled', document };
}

/**
 * Decides whether `path` may be searched. Stats and resolves symlinks only: nothing is opened or listed.
 */
export async function decide(path: string | undefined, ctx: GuardContext): Promise<Decision> {
  const { deniedPaths } = ctx.config;
  const { flavour, real } = pathRoles(ctx);
  const untitled = ctx.untitled ?? [];
  // An untitled editor's URI names it whatever is on disk: answers name files on disk by absolute paths.
  const byUri = path === undefined ? undefined : untitledByUri(path, untitled);
  if (path !== undefined && byUri !== undefined) return judgeUntitled(path, byUri, ctx);
  let bases: SearchBase[];
  try {
    // The path an untitled editor will be saved to counts as there, so a relative path finds its folder.
    bases = await resolveBases(path, ctx.folders, async (p) => (await ctx.kind(p)) !== undefined || untitledAt(p, untitled, flavour) !== undefined, flavour);
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
    return wholeWorkspace(bases, deniedPaths, ctx);
  }
  const requested = path;
  const base = bases[0];
  // 1. The path as written: '..' is resolved, so 'src/../.env' is '.env'; an outside path is judged from '/'.
  const rule = deniedPathRule(base.base, policyRoot(base, flavour), deniedPaths, flavour);
  if (rule !== undefined) return { kind: 'denied', requested, resolved: base.base, rule, message: deniedMessage(requested, base.base, rule, false) };
  const kind = await ctx.kind(base.base);
  if (kind === undefined) {
    // Nothing on disk there (a real file wins): an untitled editor saved to that path, or by that name.
    const document = untitledAt(base.base, untitled, flavour) ?? untitledByName(requested, untitled);
    if (document !== undefined) return judgeUntitled(requested, document, ctx);
    if (ctx.untitled !== undefined && isUntitledUri(requested)) return { kind: 'invalid', message: untitledNotFoundMessage(requested, untitled) };
    // Where it would be: an outside or denied place answers as if it existed (no existence oracle).
    const wouldBe = await realOfMissing(base.base, ctx);
    const realFolders = await Promise.all(ctx.folders.map((folder) => real(folder.path)));
    const holder = innermost(wouldBe, realFolders, flavour);
    if (
      holder === -1 ||
      deniedPathRule(wouldBe, realFolders[holder], deniedPaths, flavour) !== undefined ||
      deniedFromTop(wouldBe, deniedPaths, flavour) !== undefined
    ) {
      return judgeTarget(requested, base, bases, wouldBe, undefined, ctx);
    }
    // A misspelled name, or the nearest existing directory (pathHint.ts); never a hidden entry.
    return { kind: 'invalid', message: await notFoundMessage(requested, base.base, ctx) };
  }
  return judgeTarget(requested, base, bases, await real(base.base), kind, ctx);
}

/**
 * The whole workspace: every folder, except one that is itself a denied place (~/.ssh, a repository's
 * .git opened as a folder), judged by its path and its real path from '/'. Denied when none is left.
 */
async function wholeWorkspace(bases: SearchBase[], deniedPaths: readonly string[], ctx: GuardContext): Promise<Decision> {
  const { flavour, real } = pathRoles(ctx);
  const open: SearchBase[] = [];
  let refused: { folder: string; rule: string } | undefined;
  for (const base of bases) {
    const rule = deniedFromTop(base.base, deniedPaths, flavour) ?? deniedFromTop(await real(base.base), deniedPaths, flavour);
    if (rule === undefined) open.push(base);
    else refused ??= { folder: base.base, rule };
  }
  if (open.length > 0 || !refused) return { kind: 'granted', bases: open };
  return {
    kind: 'denied',
    requested: refused.folder,
    resolved: refused.folder,
    rule: refused.rule,
    message: deniedFolderMessage(refused.folder, refused.rule),
  };
}

/** The error for a path that does not exist, with the hint of pathHint.ts (never naming a hidden entry). */
async function notFoundMessage(requested: string, missing: string, ctx: GuardContext): Promise<string> {
  const { deniedPaths, allowedPaths } = ctx.config;
  const { flavour, real } = pathRoles(ctx);
  const allowed = allowList(allowedPaths);
  const scope: ReadScope = {
    granted: await Promise.all(ctx.folders.map((folder) => real(folder.path))),
    denied: deniedPaths,
    allowed: allowedPaths,
    flavour: flavourName(flavour),
  };
  const hidden = (absolute: string, root: string) => {
    if (deniedPathRule(absolute, root, deniedPaths, flavour) !== undefined) return true;
    const relative = relativePosix(root, absolute, flavour);
    return allowed !== undefined && !allowed.file(relative) && !allowed.directory(relative);
  };
  // A name that leads (through a link, a junction) to a place judgeReal refuses is never suggested either.
  const refusedReal = (realPath: string, directory: boolean) => judgeReal(realPath, scope, directory) !== undefined;
  const hint = await notFoundHint(missing, {
    folders: ctx.folders,
    kind: ctx.kind,
    hidden,
    refusedReal,
    flavour,
    realPath: ctx.realPath,
    entries: ctx.entries,
  });
  return `Path not found: ${JSON.stringify(requested)} (resolved to ${missing}).${hint} Check the path, or omit "path" to search the whole workspace.`;
}

/** Where a missing path would really be: the real path of its nearest existing ancestor, and the rest. */
async function realOfMissing(missing: string, ctx: GuardContext): Promise<string> {
  const { flavour, real } = pathRoles(ctx);
  let existing = flavour.dirname(missing);
  while ((await ctx.kind(existing)) === undefined && flavour.dirname(existing) !== existing) existing = flavour.dirname(existing);
  return flavour.join(await real(existing), flavour.relative(existing, missing));
}

/**
 * Steps 2-4 of `decide` for a path that exists (`kind`) or would be outside or denied if it did
 * (`kind` undefined: judged the same way, and marked `missing` so a confirmed call reports it then).
 */
async function judgeTarget(
  requested: string,
  base: SearchBase,
  bases: SearchBase[],
  real: string,
  kind: 'file' | 'directory' | undefined,
  ctx: GuardContext,
): Promise<Decision> {
  const { deniedPaths, allowedPaths } = ctx.config;
  const roles = pathRoles(ctx);
  const { flavour } = roles;
  // 2. Where it really is: a symlink on the way may lead out of the workspace, or to a secret.
  const realFolders = await Promise.all(ctx.folders.map((folder) => roles.real(folder.path)));
  const holder = innermost(real, realFolders, flavour);
  const realRoot = holder === -1 ? flavour.parse(real).root : realFolders[holder];
  const realRule = deniedPathRule(real, realRoot, deniedPaths, flavour) ?? deniedFromTop(real, deniedPaths, flavour);
  if (realRule !== undefined) {
    return { kind: 'denied', requested, resolved: real, rule: realRule, message: deniedMessage(requested, real, realRule, real !== base.base) };
  }
  // 3. A non-empty allow-list: the base must be, or may hold, an allowed file (judged where it really is).
  const allowed = allowList(allowedPaths);
  if (allowed) {
    const relative = relativePosix(realRoot, real, flavour);
    if (!(kind === 'file' ? allowed.file(relative) : allowed.directory(relative) || (kind === undefined && allowed.file(relative)))) {
      return { kind: 'denied', requested, resolved: real, rule: 'grepTools.allowedPaths', message: notAllowedMessage(requested, real, allowedPaths) };
    }
  }
  // 4. Inside a workspace folder where it really is: granted. Otherwise a person must confirm.
  if (base.folderIndex !== -1 && holder !== -1) return { kind: 'granted', bases };
  if (base.folderIndex === -1 && holder !== -1) {
    // An outside path that leads into a folder (a link to the workspace) is searched there.
    return {
      kind: 'granted',
      bases: [
        { root: ctx.folders[holder].path, base: flavour.join(ctx.folders[holder].path, flavour.relative(realFolders[holder], real)), folderIndex: holder },
      ],
    };
  }
  return {
    kind: 'pending',
    bases,
    requested,
    resolved: real,
    message: outsideMessage(requested, real, ctx.folders),
    ...(kind === undefined ? { missing: true } : {}),
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
  const { real } = pathRoles(ctx);
  const granted = await Promise.all(ctx.folders.map((folder) => real(folder.path)));
  if (decision.kind === 'pending') granted.push(decision.resolved);
  return { kind: 'files', bases: decision.bases, granted };
}
