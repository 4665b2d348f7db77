/**
 * The Node file source used by the CLI and the bench: walks each base (synchronously: it is the CLI's
 * only work while the workers start) with the exclusions VS Code applies by default (files.exclude,
 * search.exclude) and .gitignore rules, never enters a denied directory, and follows a symlink only
 * when its real path stays inside the root.
 */
import { promises as fs, realpathSync, statSync, type Stats } from 'fs';
import * as nodePath from 'path';
import { DEFAULT_EXCLUDES } from '../api/config';
import { listDirectorySync, type Listing } from './directory';
import type { FileQuery, FileSource, PrunedEntry } from './fileSource';
import { GitignoreStack } from './gitignore';
import { deniedDirectoryGlobs, globTest } from '../globset/globs';
import { judgeLink } from '../guard/links';
import { isInside } from '../guard/paths';
import { judgeReal, type ReadScope } from '../guard/scope';
import type { SearchBase } from '../guard/roots';
import type { Candidate } from '../api/types';

function toPosix(path: string): string {
  return nodePath.sep === '/' ? path : path.split(nodePath.sep).join('/');
}

export class NodeFileSource implements FileSource {
  constructor(private readonly excludes: readonly string[] = DEFAULT_EXCLUDES) {}

  async kind(absolute: string): Promise<'file' | 'directory' | undefined> {
    try {
      const stat = await fs.stat(absolute);
      return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  }

  async mtime(absolute: string): Promise<number> {
    return (await fs.stat(absolute).catch(() => undefined))?.mtimeMs ?? 0;
  }

  async list(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Promise<Candidate[][]> {
    return query.bases.map((_base, index) => [...this.streamBase(query, index, denied, pruned, isCancelled)]);
  }

  *stream(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Generator<[number, Candidate]> {
    for (let index = 0; index < query.bases.length; index++) {
      for (const candidate of this.streamBase(query, index, denied, pruned, isCancelled)) yield [index, candidate];
    }
  }

  /** The files below one base, in path order (entries are visited sorted by name, the order of comparePaths). */
  private *streamBase(query: FileQuery, baseIndex: number, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Generator<Candidate> {
    const base: SearchBase = query.bases[baseIndex];
    if (statOrUndefined(base.base)?.isFile()) {
      yield { path: base.base, relative: nodePath.basename(base.base) };
      return;
    }
    const deniedDirs = deniedDirectoryGlobs(denied).map((glob) => entryTest(glob, true));
    const prune = query.includeIgnored ? [] : this.excludes.map((glob) => entryTest(glob, false));
    const realRoot = realpathOrUndefined(base.root) ?? base.root;
    const baseFromRoot = toPosix(nodePath.relative(base.root, base.base));
    const scope: ReadScope = { granted: [realRoot, ...(query.granted ?? [])], denied, allowed: query.allowed };
    let gitignore: GitignoreStack | undefined;
    if (query.respectGitignore) {
      // The directories from the root down to the base are not walked: their rules apply first.
      gitignore = new GitignoreStack({ scope: { granted: scope.granted, denied }, warn: query.warn });
      const segments = baseFromRoot ? baseFromRoot.split('/') : [];
      for (let depth = 0; depth < segments.length; depth++) gitignore.push(base.root, segments.slice(0, depth).join('/'));
    }
    const walk: Walk = { root: base.root, realRoot, baseIndex, scope, deniedDirs, prune, pruned, isCancelled, visiting: new Set(), gitignore, onDirectory: query.onDirectory };
    yield* this.walk(walk, base.base, '', baseFromRoot, true);
  }

  /**
   * The files below `dir`. `follow`: `dir` is a symlink the guard let through (or the base); any other
   * directory is opened without following a link, so one swapped for a link meanwhile is not entered.
   */
  private *walk(w: Walk, dir: string, relative: string, fromRootDir: string, follow: boolean): Generator<Candidate> {
    if (w.isCancelled()) return;
    let listing: Listing;
    try {
      listing = listDirectorySync(dir, follow);
    } catch {
      w.pruned.push({ base: w.baseIndex, relative, reason: 'unreadable', directory: true });
      return;
    }
    // Judged where it really is when that is not where its name says (reached through a link, or swapped for one).
    const realDir = listing.real === (fromRootDir ? `${w.realRoot}/${fromRootDir}` : w.realRoot) ? undefined : listing.real;
    const refused = realDir === undefined ? undefined : judgeReal(realDir, w.scope, true);
    if (refused) {
      w.pruned.push({ base: w.baseIndex, relative, reason: refused, directory: true });
      return;
    }
    const entries = listing.entries;
    w.onDirectory?.(dir);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const ownRules = w.gitignore !== undefined && entries.some((entry) => entry.name === '.gitignore') && w.gitignore.push(w.root, fromRootDir);
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      const fromRoot = fromRootDir ? `${fromRootDir}/${entry.name}` : entry.name;
      // A denied directory is neither entered nor listed, only noted (a denied file is left to filterCandidates).
      if (w.deniedDirs.some((test) => test(fromRoot, entry.name))) {
        w.pruned.push({ base: w.baseIndex, relative: rel, reason: 'denied', directory: entry.isDirectory() || entry.isSymbolicLink() });
        continue;
      }
      if (w.prune.some((test) => test(fromRoot, entry.name))) continue;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let real: string | undefined;
      if (entry.isSymbolicLink()) {
        // Followed only into a granted root, and never to what its target's own path denies (notes.txt -> .env).
        const link = judgeLink(path, w.scope);
        if (link.kind === 'dangling') continue;
        if (link.kind !== 'follow') {
          w.pruned.push({ base: w.baseIndex, relative: rel, reason: link.kind === 'outside' ? 'outside_workspace' : 'denied', directory: link.directory });
          continue;
        }
        real = link.real;
        isDir = link.directory;
        isFile = link.file;
      } else if (realDir !== undefined) {
        // Below a link: the entry's real path decides (awsdir -> .aws: awsdir/credentials is .aws/credentials).
        const verdict = judgeReal(`${realDir}/${entry.name}`, w.scope, isDir);
        if (verdict) {
          w.pruned.push({ base: w.baseIndex, relative: rel, reason: verdict, directory: isDir });
          continue;
        }
      }
      if (w.gitignore?.ignores(fromRoot, isDir)) continue;
      if (isDir) {
        if (real !== undefined) {
          if (w.visiting.has(real) || isInside(dir, real)) continue; // a symlink loop
          w.visiting.add(real);
          yield* this.walk(w, path, rel, fromRoot, true);
          w.visiting.delete(real);
        } else {
          yield* this.walk(w, path, rel, fromRoot, false);
        }
      } else if (isFile) {
        yield { path, relative: rel };
      }
    }
    if (ownRules) w.gitignore!.pop();
  }
}

/** Tests a walked entry by its root-relative path and its name. */
type EntryTest = (fromRoot: string, name: string) => boolean;

/** `**\/name` globs (most exclude rules) compare names; other globs go through minimatch. */
function entryTest(glob: string, nocase: boolean): EntryTest {
  const byName = /^\*\*\/([^*?[\]{}/\\!]+)$/.exec(glob);
  if (byName) {
    const name = nocase ? byName[1].toLowerCase() : byName[1];
    return nocase ? (_path, entry) => entry.toLowerCase() === name : (_path, entry) => entry === name;
  }
  const test = globTest(glob, nocase);
  return (fromRoot) => test(fromRoot);
}

interface Walk {
  root: string;
  /** The root's real path: a directory whose real path is this plus its root-relative path is where its name says. */
  realRoot: string;
  baseIndex: number;
  /** Where a symlink (or a directory swapped for one) may lead: the root's own real path and `FileQuery.granted`; the policy. */
  scope: ReadScope;
  deniedDirs: EntryTest[];
  /** files.exclude / search.exclude: neither entered nor counted. */
  prune: EntryTest[];
  pruned: PrunedEntry[];
  isCancelled: () => boolean;
  /** Real paths of the symlinked directories being walked, to stop loops. */
  visiting: Set<string>;
  gitignore: GitignoreStack | undefined;
  onDirectory?: (absolute: string) => void;
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
