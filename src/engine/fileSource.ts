/**
 * What to search: the contract between the tools and a file source (VS Code's findFiles, or the
 * Node walker of the CLI), and the filter both apply so they agree on every path.
 */
import * as nodePath from 'path';
import { Minimatch } from 'minimatch';
import { allowList, policyRoot } from './guard';
import { comparePaths, compileGlob, deniedRule, isNameGlob } from './globs';
import type { SearchBase } from './roots';
import type { Candidate, SkipCounts } from './types';

export interface FileQuery {
  bases: SearchBase[];
  /** Glob relative to each base; a glob without '/' matches the file name at any depth. Default: all files. */
  include?: string;
  /** Skip files.exclude / search.exclude (not denied paths). */
  includeIgnored: boolean;
  /** Leave out what .gitignore files ignore. */
  respectGitignore: boolean;
  /**
   * Real paths a symlink met on the way may lead to (`Access.granted`: the workspace folders, a confirmed
   * outside base); the real path of each base's root is always granted.
   */
  granted?: readonly string[];
}

/**
 * An entry a source did not enter or list: a denied directory (or a link to a denied place), a symlink
 * whose real path leaves the granted roots, a directory it could not read. Counted by `filterCandidates`.
 */
export interface PrunedEntry {
  /** Index of the base in `FileQuery.bases`. */
  base: number;
  /** '/'-separated path relative to the base ('' for the base itself). */
  relative: string;
  reason: 'denied' | 'outside_workspace' | 'unreadable';
  /** A directory, or a link to one: counted when the search could have found files inside it. */
  directory: boolean;
}

export interface FileSource {
  /** 'file', 'directory', or undefined when nothing is there. */
  kind(absolute: string): Promise<'file' | 'directory' | undefined>;
  /** Last modification time in ms (0 when unknown). */
  mtime(absolute: string): Promise<number>;
  /**
   * Files below each base (or the base itself when it is a file), matching `query.include` when the
   * source can apply it cheaply, excluding what VS Code excludes unless `includeIgnored`; never a file
   * in a directory that `denied` prunes, nor one whose real path leaves `query.granted` (the guard's
   * `judgeLink`). What it prunes for those reasons goes to `pruned`. Order does not matter.
   */
  list(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Promise<Candidate[][]>;
}

/** The glob handed to a source for `include` ('*.ts' → '**\/*.ts'). */
export function includeToGlob(include: string | undefined): string {
  if (!include) return '**';
  const glob = include.replace(/^\.\//, '');
  return isNameGlob(glob) ? `**/${glob}` : glob;
}

export interface CandidateFilter {
  include?: string;
  exclude?: string;
  denied: readonly string[];
  /** `grepTools.allowedPaths`: when not empty, only files they match are kept (the others count as denied). */
  allowed?: readonly string[];
  /** What the sources pruned: counted in `skipped` when the search would have looked there (see below). */
  pruned?: readonly PrunedEntry[];
  /** Whether the search asks for a file, or may find files in a directory, at this base-relative path. Default: include. */
  selects?: (relative: string, directory: boolean) => boolean;
}

/**
 * Whether a directory at a base-relative path may hold files a glob matches; a glob without '/' matches
 * names at any depth (include) unless `nameAtAnyDepth` is false (the glob tool's '*.ts').
 */
export function globMayMatchBelow(glob: string, nameAtAnyDepth = true): (relativeDir: string) => boolean {
  const pattern = glob.replace(/^\.\//, '');
  if (nameAtAnyDepth && isNameGlob(pattern)) return () => true;
  const matcher = new Minimatch(pattern, { dot: true, nocomment: true, nonegate: true });
  return (relativeDir) => matcher.match(relativeDir, true);
}

function parentOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash === -1 ? '' : relative.slice(0, slash);
}

/**
 * Counts pruned entries the way every source can see them, so the CLI's walker and VS Code's findFiles
 * report the same numbers: an entry counts when it sits directly in the base or in a directory that
 * holds a file the search selected, and the search could have found something there (a file it asks
 * for, a directory where it may find one). Its contents are never listed, so a pruned directory is 1.
 */
function countPruned(pruned: readonly PrunedEntry[], index: number, selectedFiles: readonly string[], selects: (relative: string, directory: boolean) => boolean, skipped: SkipCounts): void {
  const entries = pruned.filter((entry) => entry.base === index);
  if (entries.length === 0) return;
  const listed = new Set<string>(['']);
  for (const relative of selectedFiles) {
    for (let dir = parentOf(relative); dir !== '' && !listed.has(dir); dir = parentOf(dir)) listed.add(dir);
  }
  const counted = new Set<string>();
  for (const entry of entries) {
    if (counted.has(entry.relative)) continue;
    if (entry.relative !== '' && (!listed.has(parentOf(entry.relative)) || !selects(entry.relative, entry.directory))) continue;
    counted.add(entry.relative);
    skipped[entry.reason]++;
  }
}

/**
 * Applies include, exclude, denied paths and the allow-list to each base's candidates, counts denied
 * files and what the sources pruned, and sorts each base's files by path. Returns one flat list in base order.
 */
export function filterCandidates(
  bases: SearchBase[],
  perBase: Candidate[][],
  filter: CandidateFilter,
  skipped: SkipCounts,
): Candidate[] {
  const include = filter.include ? compileGlob(filter.include, 'include') : undefined;
  const exclude = filter.exclude ? compileGlob(filter.exclude, 'exclude') : undefined;
  const allowed = allowList(filter.allowed ?? []);
  const includeBelow = filter.include ? globMayMatchBelow(filter.include) : () => true;
  const selects = filter.selects ?? ((relative: string, directory: boolean) => (directory ? includeBelow(relative) : !include || include(relative)));
  const seen = new Set<string>();
  const result: Candidate[] = [];
  bases.forEach((base, index) => {
    const kept: Candidate[] = [];
    const selected: string[] = [];
    // Denied rules are matched from the workspace folder (from '/' for a confirmed outside base).
    const root = policyRoot(base);
    const rootPrefix = root.endsWith('/') ? root : `${root}/`;
    for (const candidate of perBase[index] ?? []) {
      if (seen.has(candidate.path)) continue;
      seen.add(candidate.path);
      if (include && !include(candidate.relative)) continue;
      selected.push(candidate.relative);
      if (exclude && exclude(candidate.relative)) continue;
      // Counted only among the files the search asked for, so every source reports the same number.
      const fromRoot = candidate.path.startsWith(rootPrefix)
        ? candidate.path.slice(rootPrefix.length)
        : nodePath.relative(root, candidate.path).split(nodePath.sep).join('/') || nodePath.basename(candidate.path);
      if (deniedRule(fromRoot, filter.denied) || (allowed && !allowed.file(fromRoot))) {
        skipped.denied++;
        continue;
      }
      kept.push(candidate);
    }
    countPruned(filter.pruned ?? [], index, selected, selects, skipped);
    kept.sort((a, b) => comparePaths(a.relative, b.relative));
    result.push(...kept);
  });
  return result;
}
