/**
 * The Node file source used by the CLI and the bench: walks each base (synchronously: it is the CLI's
 * only work while the workers start) with the exclusions VS Code applies by default (files.exclude,
 * search.exclude) and .gitignore rules, never enters a denied directory, and follows a symlink only
 * when its real path stays inside the root.
 */
import { promises as fs } from 'fs';
import { DEFAULT_EXCLUDES } from '../api/config';
import { listDirectorySync } from './directory';
import type { FileQuery, FileSource, PrunedEntry } from './fileSource';
import { gitignoreIgnoresCase } from './gitignore';
import { readIgnoreFileSync } from './ignoreFile';
import { entryTest } from './entryPolicy';
import { walkTreeSync, type SyncDirectoryReader } from './treeWalk';
import { resolveLinkSync } from '../guard/links';
import { realPathOfSync } from '../guard/paths';
import type { SearchBase } from '../guard/roots';
import type { Candidate } from '../api/types';

/** What is at a path on disk, links followed: a file, a directory, or nothing (missing, unreadable, or neither). */
export async function kindOnDisk(absolute: string): Promise<'file' | 'directory' | undefined> {
  try {
    const stat = await fs.stat(absolute);
    return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

export class NodeFileSource implements FileSource {
  readonly gitignoreIgnoresCase: boolean;

  /**
   * `platform`: whose rule .gitignore names are matched by (gitignore.ts `gitignoreIgnoresCase`: ignoring
   * case on Windows and macOS, not on Linux); this one's by default, another in tests.
   */
  constructor(
    private readonly excludes: readonly string[] = DEFAULT_EXCLUDES,
    platform: NodeJS.Platform = process.platform,
  ) {
    this.gitignoreIgnoresCase = gitignoreIgnoresCase(platform);
  }

  kind(absolute: string): Promise<'file' | 'directory' | undefined> {
    return kindOnDisk(absolute);
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

  /** The files below one base, in path order (the walk of treeWalk.ts over the disk, synchronously). */
  private streamBase(query: FileQuery, baseIndex: number, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Generator<Candidate> {
    const base: SearchBase = query.bases[baseIndex];
    const excluded = query.includeIgnored ? () => false : entryTest(this.excludes, false);
    const realRoot = realPathOfSync(base.root, base.root);
    return walkTreeSync(nodeReader, {
      root: base.root,
      base: base.base,
      realRoot,
      baseIndex,
      rules: {
        scope: { granted: [realRoot, ...(query.granted ?? [])], denied, allowed: query.allowed },
        excluded,
        followSymlinks: true,
      },
      respectGitignore: query.respectGitignore,
      gitignoreIgnoresCase: this.gitignoreIgnoresCase,
      pruned,
      isCancelled,
      warn: query.warn,
      onDirectory: query.onDirectory,
    });
  }
}

/** The disk, read synchronously: directories opened as directory.ts opens them, links resolved by stats only. */
const nodeReader: SyncDirectoryReader = {
  list: listDirectorySync,
  resolve: resolveLinkSync,
  ignoreFile: readIgnoreFileSync,
};
