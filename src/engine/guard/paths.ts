/**
 * Path arithmetic every part of the guard and the walkers shares: whether a path lies inside another,
 * a path relative to a directory with '/' separators, the innermost root holding a path, and a real
 * path with a fallback when nothing is there. No decision is made here.
 */
import { promises as fs, realpathSync } from 'fs';
import * as nodePath from 'path';

/**
 * The path semantics a decision is made under: this platform's (`path`), or, in tests, `path.posix` or
 * `path.win32` whatever the platform. Absolute paths are spelled with its separator; relative paths
 * (matched against rules and globs) always with '/'.
 */
export type PathFlavour = Pick<typeof nodePath, 'sep' | 'relative' | 'isAbsolute' | 'resolve' | 'join' | 'parse' | 'dirname' | 'basename'>;

/**
 * A flavour by name, for what crosses to a worker thread as data (`ReadScope.flavour`): 'win32' or
 * 'posix'; absent, this platform's.
 */
export type FlavourName = 'posix' | 'win32';

export function flavourNamed(name: FlavourName | undefined): PathFlavour {
  return name === 'win32' ? nodePath.win32 : name === 'posix' ? nodePath.posix : nodePath;
}

/** The name of a flavour (`path.win32` or a flavour with its separator '\\' is 'win32'). */
export function flavourName(flavour: PathFlavour): FlavourName {
  return flavour.sep === '\\' ? 'win32' : 'posix';
}

/** Whether two absolute paths name the same place under `flavour` (on Windows, whatever the case of their letters). */
export function samePath(a: string, b: string, flavour: PathFlavour = nodePath): boolean {
  return a === b || flavour.relative(a, b) === '';
}

/**
 * `absolute` relative to the directory `dir`, with '/' separators ('' for `dir` itself): a prefix cut
 * when it lies below `dir` (fast enough for every file of a long listing), else path.relative.
 */
export function relativePosix(dir: string, absolute: string, flavour: PathFlavour = nodePath): string {
  const prefix = dir.endsWith(flavour.sep) ? dir : `${dir}${flavour.sep}`;
  const relative = absolute.startsWith(prefix) ? absolute.slice(prefix.length) : flavour.relative(dir, absolute);
  return flavour.sep === '/' ? relative : relative.split(flavour.sep).join('/');
}

/**
 * The absolute path of `relative` ('/'-separated, non-empty) below the directory `dir`, spelled with the
 * flavour's separator, so every absolute path an answer names is spelled one way (on Windows,
 * `C:\ws\src\a.ts`, never `C:\ws/src/a.ts`). On POSIX it is the plain concatenation. A directory
 * spelled with '/' from its start (a virtual file system's path, `/mem/ws`) keeps '/' on every platform.
 */
export function below(dir: string, relative: string, flavour: PathFlavour = nodePath): string {
  const sep = dir.startsWith('/') ? '/' : flavour.sep;
  const tail = sep === '/' ? relative : relative.replace(/\//g, sep);
  return dir.endsWith(sep) ? `${dir}${tail}` : `${dir}${sep}${tail}`;
}

export function isInside(child: string, parent: string, flavour: PathFlavour = nodePath): boolean {
  const relative = flavour.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${flavour.sep}`) && !flavour.isAbsolute(relative));
}

/** Index of the innermost (longest) root holding `absolute`, lexically, or -1. */
export function innermost(absolute: string, roots: readonly string[], flavour: PathFlavour = nodePath): number {
  let best = -1;
  for (let index = 0; index < roots.length; index++) {
    if (isInside(absolute, roots[index], flavour) && (best === -1 || roots[index].length > roots[best].length)) best = index;
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

/**
 * The same, synchronously: the operating system's own answer (`realpath.native`), as the async one gives.
 * On Windows it resolves what only the file system knows: 8.3 short names (`SSH~1` is `.ssh`), the case
 * of each name, junctions, and links that the per-segment lstat of Node's JavaScript realpath does not
 * see as links (such as a Unix symlink under wine).
 */
export function realPathOfSync(path: string): string | undefined;
export function realPathOfSync(path: string, fallback: string): string;
export function realPathOfSync(path: string, fallback?: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return fallback;
  }
}
