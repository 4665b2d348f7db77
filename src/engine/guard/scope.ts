/**
 * What may be read where it really is (docs/security.md, promises 1-3): the denied rules and the
 * allow-list applied to a path below a root, and the verdict on a real path, whatever name led to it
 * (a symlink, a directory swapped for one, an open file). The part of the guard the reader and the
 * search workers need: no path resolution, no workspace, no I/O.
 */
import { Minimatch } from 'minimatch';
import { deniedDirectoryGlobs, deniedRule, GLOB_OPTIONS } from '../globset/globs';
import { HOST_FLAVOUR, flavourNamed, innermost, relativePosix, type FlavourName, type PathFlavour } from './paths';
import type { SearchBase } from './roots';

/** The directory denied paths are matched from: the workspace folder, or for an outside base the file system root. */
export function policyRoot(base: SearchBase, flavour: PathFlavour = HOST_FLAVOUR): string {
  return base.folderIndex === -1 ? flavour.parse(base.base).root : base.root;
}

/** Per rule list: the directories its `/**` rules hide (`**\/.ssh`), compiled once like the list. */
const hiddenDirectories = new WeakMap<readonly string[], readonly string[]>();

/** The denied-path rule a root-relative path matches, as a file or as a directory a rule hides. */
export function deniedRelativeRule(relative: string, rules: readonly string[]): string | undefined {
  const asFile = deniedRule(relative, rules);
  if (asFile !== undefined) return asFile;
  let directories = hiddenDirectories.get(rules);
  if (directories === undefined) hiddenDirectories.set(rules, (directories = deniedDirectoryGlobs(rules)));
  const directory = deniedRule(relative, directories);
  return directory === undefined ? undefined : `${directory}/**`;
}

/** The denied-path rule a path matches, as a file or as a directory a rule hides; the root itself never matches. */
export function deniedPathRule(absolute: string, root: string, rules: readonly string[], flavour: PathFlavour = HOST_FLAVOUR): string | undefined {
  const relative = relativePosix(root, absolute, flavour);
  return relative === '' ? undefined : deniedRelativeRule(relative, rules);
}

/** The denied rule a path matches from the file system's root. */
export function deniedFromTop(path: string, rules: readonly string[], flavour: PathFlavour = HOST_FLAVOUR): string | undefined {
  return deniedPathRule(path, flavour.parse(path).root, rules, flavour);
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

/** What may be read once a file or directory is open: the granted roots' real paths and the policy. */
export interface ReadScope {
  granted: readonly string[];
  denied: readonly string[];
  /** `grepTools.allowedPaths` (judged from the granted root holding the real path); empty or absent: everything not denied. */
  allowed?: readonly string[];
  /**
   * The path rules the real paths are judged by: 'win32', 'darwin' or 'posix' (data, as the scope crosses to the
   * workers); absent, this platform's.
   */
  flavour?: FlavourName;
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
export function judgeReal(
  real: string,
  scope: ReadScope,
  directory: boolean,
  flavour: PathFlavour = flavourNamed(scope.flavour),
): 'outside_workspace' | 'denied' | undefined {
  const holder = innermost(real, scope.granted, flavour);
  if (holder === -1) return 'outside_workspace';
  const root = scope.granted[holder];
  if (deniedPathRule(real, root, scope.denied, flavour) !== undefined || deniedPathRule(real, flavour.parse(real).root, scope.denied, flavour) !== undefined)
    return 'denied';
  const allowed = cachedAllowList(scope.allowed);
  if (allowed) {
    const relative = relativePosix(root, real, flavour);
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
