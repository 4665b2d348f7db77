/**
 * Path arithmetic every part of the guard and the walkers shares: whether a path lies inside another,
 * a path relative to a directory with '/' separators, the innermost root holding a path, and a real
 * path with a fallback when nothing is there. No decision is made here.
 */
import { promises as fs, realpathSync } from 'fs';
import * as nodePath from 'path';

/**
 * `absolute` relative to the directory `dir`, with '/' separators ('' for `dir` itself): a prefix cut
 * when it lies below `dir` (fast enough for every file of a long listing), else path.relative.
 */
export function relativePosix(dir: string, absolute: string): string {
  const prefix = dir.endsWith(nodePath.sep) ? dir : `${dir}${nodePath.sep}`;
  const relative = absolute.startsWith(prefix) ? absolute.slice(prefix.length) : nodePath.relative(dir, absolute);
  return nodePath.sep === '/' ? relative : relative.split(nodePath.sep).join('/');
}

export function isInside(child: string, parent: string): boolean {
  const relative = nodePath.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${nodePath.sep}`) && !nodePath.isAbsolute(relative));
}

/** Index of the innermost (longest) root holding `absolute`, lexically, or -1. */
export function innermost(absolute: string, roots: readonly string[]): number {
  let best = -1;
  for (let index = 0; index < roots.length; index++) {
    if (isInside(absolute, roots[index]) && (best === -1 || roots[index].length > roots[best].length)) best = index;
  }
  return best;
}

/**
 * The real path of `path` (symlinks resolved), or `fallback` when it cannot be resolved (nothing
 * there, a loop, no permission).
 */
export async function realPathOf(path: string): Promise<string | undefined>;
export async function realPathOf(path: string, fallback: string): Promise<string>;
export async function realPathOf(path: string, fallback?: string): Promise<string | undefined> {
  return fs.realpath(path).catch(() => fallback);
}

/** The same, synchronously. */
export function realPathOfSync(path: string): string | undefined;
export function realPathOfSync(path: string, fallback: string): string;
export function realPathOfSync(path: string, fallback?: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return fallback;
  }
}
