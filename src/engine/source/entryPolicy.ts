/**
 * The one rule deciding which directory entries a walk visits, in which order, and what it prunes
 * (docs/security.md, promises 1-3). Every walker applies it: the Node walker (walker.ts, the CLI), the
 * walk over a directory reader (treeWalk.ts, VS Code's virtual folders) and the audit of a listing
 * made by someone else (audit.ts, VS Code's findFiles). Per entry, in this order:
 *
 * 1. a denied directory rule (`**\/.ssh/**`) matching its name, whatever it is: pruned as denied, never
 *    listed nor resolved;
 * 2. files.exclude / search.exclude: skipped, not counted;
 * 3. a symbolic link: skipped when links are not followed (`search.followSymlinks: false`); else
 *    resolved, and followed only when where it leads passes the read scope (pruned as outside_workspace
 *    or denied otherwise; a dangling one is skipped);
 *    an entry of a directory reached through a link: judged by its real path (awsdir -> .aws:
 *    awsdir/credentials is .aws/credentials);
 * 4. .gitignore rules: skipped;
 * 5. a directory is entered, unless it is a link back into the walk (a loop); a file is listed.
 *
 * Entries are visited by name (code unit order), so a depth-first walk lists files in path order.
 * No I/O here: the walkers list directories and resolve links, this module decides.
 */
import * as nodePath from 'path';
import { deniedDirectoryGlobs, globTest } from '../globset/globs';
import { linkVerdict, type LinkTarget } from '../guard/links';
import { below, isInside } from '../guard/paths';
import { judgeReal, type ReadScope } from '../guard/scope';
import type { PrunedEntry } from './fileSource';
import type { EntryKind } from '../api/types';

/** A directory entry as a file system lists it (a link is reported as a link, not as what it leads to): a Node Dirent, or `dirEntry`. */
export interface DirEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** A DirEntry of a file system that lists entries with their kind (workspace.fs). */
export function dirEntry(name: string, kind: EntryKind): DirEntry {
  return { name, isFile: () => kind === 'file', isDirectory: () => kind === 'directory', isSymbolicLink: () => kind === 'link' };
}

/** The directory whose entries are judged. */
export interface DirectoryAt {
  /** Its absolute path, as the walk names it. */
  path: string;
  /** Its path from the search base ('' for the base). */
  relative: string;
  /** Its path from the workspace folder (the root the rules are matched from). */
  fromRoot: string;
  /** Its real path when that is not where its name says (reached through a link, or swapped for one). */
  real: string | undefined;
}

export interface EntryRules {
  /** Where links may lead and what a real path may be: the granted roots' real paths and the policy. */
  scope: ReadScope;
  /** files.exclude / search.exclude (the walker's own rule), by root-relative path and name, in the directory `dir`. */
  excluded(fromRoot: string, name: string, dir: DirectoryAt): boolean;
  /** false: nothing is reached through a symbolic link (VS Code's `search.followSymlinks`). */
  followSymlinks: boolean;
  /** The .gitignore rules in force (undefined: none applied). */
  gitignore?: { ignoresEntry(fromRoot: string, isDirectory: boolean, parentFromRoot: string): boolean };
}

export type EntryVerdict =
  | { kind: 'prune'; reason: PrunedEntry['reason']; directory: boolean }
  | { kind: 'skip' }
  /** A link to resolve (stats only) before `afterLink` decides. */
  | { kind: 'resolve' }
  /** Enter it; `link`: reached through a followed link, to open following it, with its real path when known. */
  | { kind: 'directory'; link?: { real: string | undefined } }
  | { kind: 'file' };

const SKIP: EntryVerdict = { kind: 'skip' };
const RESOLVE: EntryVerdict = { kind: 'resolve' };
const FILE: EntryVerdict = { kind: 'file' };
const DIRECTORY: EntryVerdict = { kind: 'directory' };

/** Tests a walked entry by its root-relative path and its name. */
export type EntryTest = (fromRoot: string, name: string) => boolean;

/**
 * Globs as one test of walked entries (true when any matches): `**\/name` globs (most exclude and denied
 * directory rules) look the name up in a set, `**\/*.suffix` compare the name's end; other globs go
 * through minimatch. `nocase`: as the denied rules, regardless of case (the name lower-cased once).
 */
export function entryTest(globs: readonly string[], nocase: boolean): EntryTest {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const others: Array<(fromRoot: string) => boolean> = [];
  for (const glob of globs) {
    const byName = /^\*\*\/([^*?[\]{}/\\!]+)$/.exec(glob);
    // '*' matches any characters but '/', a leading dot too (GLOB_OPTIONS.dot).
    const bySuffix = /^\*\*\/\*([^*?[\]{}/\\!]+)$/.exec(glob);
    if (byName) names.add(nocase ? byName[1].toLowerCase() : byName[1]);
    else if (bySuffix) suffixes.push(nocase ? bySuffix[1].toLowerCase() : bySuffix[1]);
    else others.push(globTest(glob, nocase));
  }
  return (fromRoot, entry) => {
    const name = nocase ? entry.toLowerCase() : entry;
    if (names.has(name)) return true;
    for (const suffix of suffixes) if (name.endsWith(suffix)) return true;
    for (const test of others) if (test(fromRoot)) return true;
    return false;
  };
}

/** Code unit order of names: a depth-first walk in this order lists files in comparePaths order. */
export function byName(a: DirEntry, b: DirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export class EntryPolicy {
  private readonly deniedDir: EntryTest;

  constructor(private readonly rules: EntryRules) {
    this.deniedDir = entryTest(deniedDirectoryGlobs(rules.scope.denied), true);
  }

  /** The real path of a listed directory when it is not where its name says (`expected`), else undefined. */
  static realIfMoved(listed: string | undefined, expected: string): string | undefined {
    return listed === undefined || listed === expected ? undefined : listed;
  }

  /** Why a directory listed where it really is (`real`, see realIfMoved) may not be read, or undefined. */
  refusesDirectory(real: string | undefined): PrunedEntry['reason'] | undefined {
    return real === undefined ? undefined : judgeReal(real, this.rules.scope, true);
  }

  /**
   * A directory once listed, as the walk and the audit both take it: where it really is (`real`, when
   * the real path listed is not the root's real path plus its path from the root) and, if so, why it
   * may not be read.
   */
  listed(at: Omit<DirectoryAt, 'real'>, listedReal: string | undefined, realRoot: string | undefined): { dir: DirectoryAt; refused?: PrunedEntry['reason'] } {
    const real = realRoot === undefined ? undefined : EntryPolicy.realIfMoved(listedReal, at.fromRoot ? nodePath.join(realRoot, at.fromRoot) : realRoot);
    return { dir: { ...at, real }, refused: this.refusesDirectory(real) };
  }

  /**
   * An entry's verdict (judge, then afterLink for a link), the one step that may wait being where a
   * link leads: yielded as `{ op: 'link', path }` to the walk's driver, which sends back the target.
   */
  *verdict(dir: DirectoryAt, entry: DirEntry): Generator<{ op: 'link'; path: string }, EntryVerdict, unknown> {
    const verdict = this.judge(dir, entry);
    if (verdict.kind !== 'resolve') return verdict;
    return this.afterLink(dir, entry, (yield { op: 'link', path: below(dir.path, entry.name) }) as LinkTarget | undefined);
  }

  /** The same verdict at once, `resolve` telling where a link leads. */
  verdictSync(dir: DirectoryAt, entry: DirEntry, resolve: (path: string) => LinkTarget | undefined): EntryVerdict {
    const steps = this.verdict(dir, entry);
    let step = steps.next();
    while (!step.done) step = steps.next(resolve(step.value.path));
    return step.value;
  }

  /** Steps 1-3 (a link stops at 'resolve'), then 4-5. */
  judge(dir: DirectoryAt, entry: DirEntry): EntryVerdict {
    const fromRoot = dir.fromRoot ? `${dir.fromRoot}/${entry.name}` : entry.name;
    if (this.deniedDir(fromRoot, entry.name)) return { kind: 'prune', reason: 'denied', directory: entry.isDirectory() || entry.isSymbolicLink() };
    if (this.rules.excluded(fromRoot, entry.name, dir)) return SKIP;
    if (entry.isSymbolicLink()) return this.rules.followSymlinks ? RESOLVE : SKIP;
    const directory = entry.isDirectory();
    if (dir.real !== undefined) {
      const verdict = judgeReal(below(dir.real, entry.name), this.rules.scope, directory);
      if (verdict) return { kind: 'prune', reason: verdict, directory };
    }
    return this.place(dir, fromRoot, directory, entry.isFile(), undefined);
  }

  /** Steps 3-5 for a link `judge` asked to resolve: `target` is where it leads (undefined: nowhere). */
  afterLink(dir: DirectoryAt, entry: DirEntry, target: LinkTarget | undefined): EntryVerdict {
    const path = below(dir.path, entry.name);
    const link = linkVerdict(target, this.rules.scope, path);
    if (link.kind === 'dangling') return SKIP;
    if (link.kind !== 'follow') return { kind: 'prune', reason: link.kind === 'outside' ? 'outside_workspace' : 'denied', directory: link.directory };
    const fromRoot = dir.fromRoot ? `${dir.fromRoot}/${entry.name}` : entry.name;
    return this.place(dir, fromRoot, link.directory, link.file, { real: target?.real });
  }

  private place(dir: DirectoryAt, fromRoot: string, directory: boolean, file: boolean, link: { real: string | undefined } | undefined): EntryVerdict {
    if (this.rules.gitignore?.ignoresEntry(fromRoot, directory, dir.fromRoot)) return SKIP;
    if (directory) return link ? { kind: 'directory', link } : DIRECTORY;
    return file ? FILE : SKIP;
  }
}

/**
 * The links being walked through, to stop loops: a link is not entered when it leads to a directory
 * the walk is in (or above it). Where the file system cannot tell a link's real path (a virtual one),
 * a link is not entered from inside another such link, which bounds the walk.
 */
export class LinkLoops {
  private readonly visiting = new Set<string>();
  private blind = 0;

  /** Whether the walk may enter the directory at `dir` through a link whose real path is `real`; if so, it is entered. */
  enter(dir: string, real: string | undefined): boolean {
    if (real === undefined) {
      if (this.blind > 0) return false;
      this.blind++;
      return true;
    }
    if (this.visiting.has(real) || isInside(dir, real)) return false;
    this.visiting.add(real);
    return true;
  }

  /** The walk left the directory `enter` let it into. */
  leave(real: string | undefined): void {
    if (real === undefined) this.blind--;
    else this.visiting.delete(real);
  }
}
