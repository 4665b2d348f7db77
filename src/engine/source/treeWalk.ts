/**
 * The depth-first walk of one search base, written once over a small directory-reading interface and
 * driven either synchronously (the Node walker of the CLI: its only work while the workers start) or
 * asynchronously (VS Code's virtual folders, through workspace.fs). Which entries it visits, in which
 * order, and what it prunes is the entry policy's (entryPolicy.ts); the walk only lists directories,
 * resolves links and reads .gitignore files when the policy asks, so every file system is walked alike.
 */
import * as nodePath from 'path';
import { below, relativePosix } from '../guard/paths';
import type { LinkTarget } from '../guard/links';
import type { ReadScope } from '../guard/scope';
import type { Candidate } from '../api/types';
import type { SearchBase } from '../guard/roots';
import { byName, EntryPolicy, LinkLoops, type DirectoryAt, type DirEntry, type EntryRules } from './entryPolicy';
import type { PrunedEntry } from './fileSource';
import { gitignoreIgnoresCase, GitignoreRules, ignoreFileText } from './gitignore';
import type { IgnoreFileRead } from './ignoreFile';

export interface DirectoryListing {
  entries: DirEntry[];
  /** The real path of the directory listed; undefined where the file system cannot tell (it is where its name says). */
  real: string | undefined;
}

/** What a walk needs from a file system, asynchronously. */
export interface DirectoryReader {
  /** Where a path (a link, or any other) leads and what is there (stats only), or undefined when nothing is. */
  resolve(path: string): Promise<LinkTarget | undefined>;
  /** A directory's entries; `follow`: it was reached through a link the policy followed. Rejects when it cannot be read. */
  list(path: string, follow: boolean): Promise<DirectoryListing>;
  /** `<dir>/.gitignore`, read as ignoreFile.ts reads one (only a regular file of bounded size, in `scope`). */
  ignoreFile(dir: string, scope: ReadScope): Promise<IgnoreFileRead>;
}

/** The same, synchronously. */
export interface SyncDirectoryReader {
  resolve(path: string): LinkTarget | undefined;
  list(path: string, follow: boolean): DirectoryListing;
  ignoreFile(dir: string, scope: ReadScope): IgnoreFileRead;
}

export interface TreeWalk {
  /** The workspace folder holding the base (the rules are matched from it) and the base walked. */
  root: string;
  base: string;
  /** The root's real path (a directory whose real path is this plus its root-relative path is where its name says); undefined where none can be told. */
  realRoot: string | undefined;
  baseIndex: number;
  /** The entry policy's rules, without .gitignore: `respectGitignore` adds them. */
  rules: Omit<EntryRules, 'gitignore'>;
  respectGitignore: boolean;
  /** Whether .gitignore rules match names ignoring case (gitignore.ts `gitignoreIgnoresCase`: the platform's). */
  gitignoreIgnoresCase: boolean;
  pruned: PrunedEntry[];
  isCancelled(): boolean;
  /** Receives a line for the log: an ignore file that was skipped, and why. */
  warn?(message: string): void;
  /** Called with each directory listed. */
  onDirectory?(absolute: string): void;
}

/** A request of the walk to its driver, or a file it found (no `op`). */
type Step =
  | { op: 'list'; path: string; follow: boolean }
  | { op: 'link'; path: string }
  | { op: 'ignore'; dir: string; scope: ReadScope }
  | (Candidate & { op?: undefined });
type Reply = DirectoryListing | LinkTarget | IgnoreFileRead | undefined;

interface Walk extends TreeWalk {
  policy: EntryPolicy;
  /** Where .gitignore files may be read: within the policy (ignoreFile.ts), whatever the allow-list says. */
  ignoreScope: ReadScope;
  gitignore: GitignoreRules | undefined;
  loops: LinkLoops;
}

type Place = Omit<DirectoryAt, 'real'>;

function childOf(at: Place, name: string): Place {
  return {
    path: below(at.path, name),
    relative: at.relative ? `${at.relative}/${name}` : name,
    fromRoot: at.fromRoot ? `${at.fromRoot}/${name}` : name,
  };
}

/** The walk below the base (a directory), as steps a driver performs. */
function* walkBase(setup: TreeWalk): Generator<Step, void, Reply> {
  const gitignore = setup.respectGitignore ? new GitignoreRules(setup.root, { hasFile: () => false, ignoreCase: setup.gitignoreIgnoresCase }) : undefined;
  const ignoreScope = { granted: setup.rules.scope.granted, denied: setup.rules.scope.denied };
  const w: Walk = { ...setup, policy: new EntryPolicy({ ...setup.rules, gitignore }), ignoreScope, gitignore, loops: new LinkLoops() };
  const baseFromRoot = relativePosix(setup.root, setup.base);
  // The directories from the root down to the base are not walked: their rules apply first.
  const above = baseFromRoot ? baseFromRoot.split('/') : [];
  for (let depth = 0; depth < above.length; depth++) {
    const fromRoot = above.slice(0, depth).join('/');
    yield* loadIgnoreFile(w, fromRoot ? below(setup.root, fromRoot) : setup.root, fromRoot);
  }
  yield* walkDirectory(w, { path: setup.base, relative: '', fromRoot: baseFromRoot }, true);
}

function* loadIgnoreFile(w: Walk, dir: string, fromRoot: string): Generator<Step, void, Reply> {
  if (!w.gitignore) return;
  const read = (yield { op: 'ignore', dir, scope: w.ignoreScope }) as IgnoreFileRead;
  const text = ignoreFileText(read, w);
  if (text !== undefined) w.gitignore.add(fromRoot, text);
}

/**
 * The files below `at`. `follow`: it was reached through a followed link (or is the base); any other
 * directory is opened without following a link, so one swapped for a link meanwhile is not entered.
 */
function* walkDirectory(w: Walk, at: Place, follow: boolean): Generator<Step, void, Reply> {
  if (w.isCancelled()) return;
  const listing = (yield { op: 'list', path: at.path, follow }) as DirectoryListing | undefined;
  if (listing === undefined) {
    w.pruned.push({ base: w.baseIndex, relative: at.relative, reason: 'unreadable', directory: true });
    return;
  }
  const { dir, refused } = w.policy.listed(at, listing.real, w.realRoot);
  if (refused) {
    w.pruned.push({ base: w.baseIndex, relative: at.relative, reason: refused, directory: true });
    return;
  }
  w.onDirectory?.(at.path);
  const entries = listing.entries.sort(byName);
  if (entries.some((entry) => entry.name === '.gitignore')) yield* loadIgnoreFile(w, at.path, at.fromRoot);
  for (const entry of entries) {
    const verdict = yield* w.policy.verdict(dir, entry);
    if (verdict.kind === 'prune') {
      w.pruned.push({
        base: w.baseIndex,
        relative: at.relative ? `${at.relative}/${entry.name}` : entry.name,
        reason: verdict.reason,
        directory: verdict.directory,
      });
    } else if (verdict.kind === 'file') {
      yield { path: below(at.path, entry.name), relative: at.relative ? `${at.relative}/${entry.name}` : entry.name };
    } else if (verdict.kind === 'directory') {
      if (!verdict.link) {
        yield* walkDirectory(w, childOf(at, entry.name), false);
      } else if (w.loops.enter(at.path, verdict.link.real)) {
        yield* walkDirectory(w, childOf(at, entry.name), true);
        w.loops.leave(verdict.link.real);
      }
    }
  }
}

function baseFile(base: string): Candidate {
  return { path: base, relative: nodePath.basename(base) };
}

/** The files below a base (or the base itself when it is a file), in path order, as they are found. */
export function* walkTreeSync(reader: SyncDirectoryReader, walk: TreeWalk): Generator<Candidate> {
  if (reader.resolve(walk.base)?.file) {
    yield baseFile(walk.base);
    return;
  }
  const steps = walkBase(walk);
  let reply: Reply;
  for (let step = steps.next(); !step.done; step = steps.next(reply)) {
    const s = step.value;
    reply = undefined;
    if (s.op === undefined) yield s;
    else if (s.op === 'link') reply = reader.resolve(s.path);
    else if (s.op === 'ignore') reply = reader.ignoreFile(s.dir, s.scope);
    else {
      try {
        reply = reader.list(s.path, s.follow);
      } catch {
        reply = undefined;
      }
    }
  }
}

/** The same, asynchronously: the files below a base (or the base itself when it is a file), in path order. */
export async function walkTree(reader: DirectoryReader, walk: TreeWalk): Promise<Candidate[]> {
  if ((await reader.resolve(walk.base))?.file) return [baseFile(walk.base)];
  const files: Candidate[] = [];
  const steps = walkBase(walk);
  let reply: Reply;
  for (let step = steps.next(); !step.done; step = steps.next(reply)) {
    const s = step.value;
    reply = undefined;
    if (s.op === undefined) files.push(s);
    else if (s.op === 'link') reply = await reader.resolve(s.path);
    else if (s.op === 'ignore') reply = await reader.ignoreFile(s.dir, s.scope);
    else reply = await reader.list(s.path, s.follow).catch(() => undefined);
  }
  return files;
}

/** A base walked on a file system read through a DirectoryReader (VS Code's virtual folders). */
export interface ReaderListing {
  denied: readonly string[];
  allowed?: readonly string[];
  /** files.exclude / search.exclude by root-relative path (unless include_ignored). */
  excluded(fromRoot: string): boolean;
  followSymlinks: boolean;
  /** Apply .gitignore files (search.useIgnoreFiles, grepTools.respectGitignore, not include_ignored). */
  gitignore: boolean;
  /** Whether their rules match names ignoring case; default: this platform's rule (gitignore.ts `gitignoreIgnoresCase`). */
  gitignoreIgnoresCase?: boolean;
  pruned: PrunedEntry[];
  isCancelled(): boolean;
  warn?(message: string): void;
}

/** The files below a base read through `reader` (or the base itself when it is a file), in path order. */
export async function listWithReader(reader: DirectoryReader, base: SearchBase, baseIndex: number, options: ReaderListing): Promise<Candidate[]> {
  // Where the file system tells real paths, links are judged where they lead; else by their names.
  const realRoot = (await reader.resolve(base.root))?.real;
  return walkTree(reader, {
    root: base.root,
    base: base.base,
    realRoot,
    baseIndex,
    rules: {
      scope: { granted: [realRoot ?? base.root], denied: options.denied, allowed: options.allowed },
      excluded: (fromRoot) => options.excluded(fromRoot),
      followSymlinks: options.followSymlinks,
    },
    respectGitignore: options.gitignore,
    gitignoreIgnoresCase: options.gitignoreIgnoresCase ?? gitignoreIgnoresCase(),
    pruned: options.pruned,
    isCancelled: () => options.isCancelled(),
    warn: options.warn,
  });
}
