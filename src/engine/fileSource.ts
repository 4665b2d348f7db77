/**
 * What to search: the contract between the tools and a file source (VS Code's findFiles, or the
 * Node walker of the CLI), and the filter both apply so they agree on every path.
 */
import * as nodePath from 'path';
import { comparePaths, compileGlob, deniedRule, isNameGlob } from './globs';
import type { SearchBase } from './roots';
import type { Candidate, SkipCounts } from './types';

export interface FileQuery {
  bases: SearchBase[];
  /** Glob relative to each base; a glob without '/' matches the file name at any depth. Default: all files. */
  include?: string;
  /** Skip files.exclude / search.exclude (not denied paths). */
  includeIgnored: boolean;
}

export interface FileSource {
  /** 'file', 'directory', or undefined when nothing is there. */
  kind(absolute: string): Promise<'file' | 'directory' | undefined>;
  /** Last modification time in ms (0 when unknown). */
  mtime(absolute: string): Promise<number>;
  /**
   * Files below each base (or the base itself when it is a file), matching `query.include` when the
   * source can apply it cheaply, excluding what VS Code excludes unless `includeIgnored`; never a file
   * in a directory that `denied` prunes. Order does not matter.
   */
  list(query: FileQuery, denied: readonly string[], skipped: SkipCounts, isCancelled: () => boolean): Promise<Candidate[][]>;
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
}

/**
 * Applies include, exclude and denied paths to each base's candidates, counts denied files, and sorts
 * each base's files by path. Returns one flat list in base order.
 */
export function filterCandidates(
  bases: SearchBase[],
  perBase: Candidate[][],
  filter: CandidateFilter,
  skipped: SkipCounts,
): Candidate[] {
  const include = filter.include ? compileGlob(filter.include, 'include') : undefined;
  const exclude = filter.exclude ? compileGlob(filter.exclude, 'exclude') : undefined;
  const seen = new Set<string>();
  const result: Candidate[] = [];
  bases.forEach((base, index) => {
    const kept: Candidate[] = [];
    for (const candidate of perBase[index] ?? []) {
      if (seen.has(candidate.path)) continue;
      seen.add(candidate.path);
      if (include && !include(candidate.relative)) continue;
      if (exclude && exclude(candidate.relative)) continue;
      // Counted only among the files the search asked for, so every source reports the same number.
      const fromRoot = nodePath.relative(base.root, candidate.path).split(nodePath.sep).join('/') || nodePath.basename(candidate.path);
      if (deniedRule(fromRoot, filter.denied)) {
        skipped.denied++;
        continue;
      }
      kept.push(candidate);
    }
    kept.sort((a, b) => comparePaths(a.relative, b.relative));
    result.push(...kept);
  });
  return result;
}
