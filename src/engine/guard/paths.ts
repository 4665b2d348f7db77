/**
 * Path arithmetic every part of the guard and the walkers shares: whether a path lies inside another,
 * a path relative to a directory with '/' separators, the innermost root holding a path, and a real
 * path with a fallback when nothing is there. No decision is made here.
 */
import { promises as fs, realpathSync } from 'fs';
import * as nodePath from 'path';

/**
 * The path semantics a decision is made under: this platform's (`HOST_FLAVOUR`), or, in tests,
 * `path.posix`, `path.win32` or `darwinPath` whatever the platform. Absolute paths are spelled with its
 * separator; relative paths (matched against rules and globs) always with '/'.
 */
export type PathFlavour = Pick<typeof nodePath, 'sep' | 'relative' | 'isAbsolute' | 'resolve' | 'join' | 'parse' | 'dirname' | 'basename'>;

/**
 * A flavour by name, for what crosses to a worker thread as data (`ReadScope.flavour`): 'win32',
 * 'darwin' or 'posix'; absent, this platform's.
 */
export type FlavourName = 'posix' | 'win32' | 'darwin';

/** One name as macOS's file system compares it: ignoring case and Unicode normalization (APFS; HFS+ stores NFD). */
function darwinKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * `path.posix.relative`, but two names that differ only in case or Unicode normalization name the same
 * entry, as on macOS's default file systems; the part below the common directory keeps `to`'s spelling
 * (as `path.win32.relative` does).
 */
function darwinRelative(from: string, to: string): string {
  const a = nodePath.posix.resolve(from).split('/').filter(Boolean);
  const b = nodePath.posix.resolve(to).split('/').filter(Boolean);
  let common = 0;
  while (common < a.length && common < b.length && (a[common] === b[common] || darwinKey(a[common]) === darwinKey(b[common]))) common++;
  return [...new Array<string>(a.length - common).fill('..'), ...b.slice(common)].join('/');
}

/**
 * macOS's path rules: POSIX spelling ('/' separators, no drives), names compared ignoring case and
 * Unicode normalization, so `/users/A/WS/src` lies in the workspace folder `/Users/a/ws`.
 */
export const darwinPath: PathFlavour = {
  sep: '/',
  relative: darwinRelative,
  isAbsolute: nodePath.posix.isAbsolute,
  resolve: nodePath.posix.resolve,
  join: nodePath.posix.join,
  parse: nodePath.posix.parse,
  dirname: nodePath.posix.dirname,
  basename: nodePath.posix.basename,
};

/** The flavour of a platform: `path.win32` on Windows, `darwinPath` on macOS, `path.posix` elsewhere. */
export function platformFlavour(platform: NodeJS.Platform): PathFlavour {
  return platform === 'win32' ? nodePath.win32 : platform === 'darwin' ? darwinPath : nodePath.posix;
}

/** This platform's path rules: the default of every decision. */
export const HOST_FLAVOUR: PathFlavour = platformFlavour(process.platform);

export function flavourNamed(name: FlavourName | undefined): PathFlavour {
  return name === 'win32' ? nodePath.win32 : name === 'darwin' ? darwinPath : name === 'posix' ? nodePath.posix : HOST_FLAVOUR;
}

/** The name of a flavour (`path.win32` or a flavour with its separator '\\' is 'win32'; `darwinPath` is 'darwin'). */
export function flavourName(flavour: PathFlavour): FlavourName {
  return flavour.sep === '\\' ? 'win32' : flavour.relative === darwinRelative ? 'darwin' : 'posix';
}

/** Whether two absolute paths name the same place under `flavour` (on Windows, whatever the case of their letters). */
export function samePath(a: string, b: string, flavour: PathFlavour = HOST_FLAVOUR): boolean {
  return a === b || flavour.relative(a, b) === '';
}

/**
 * `absolute` relative to the directory `dir`, with '/' separators ('' for `dir` itself): a prefix cut
 * when it lies below `dir` (fast enough for every file of a long listing), else path.relative.
 */
export function relativePosix(dir: string, absolute: string, flavour: PathFlavour = HOST_FLAVOUR): string {
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
export function below(dir: string, relative: string, flavour: PathFlavour = HOST_FLAVOUR): string {
  const sep = dir.startsWith('/') ? '/' : flavour.sep;
  const tail = sep === '/' ? relative : relative.replace(/\//g, sep);
  return dir.endsWith(sep) ? `${dir}${tail}` : `${dir}${sep}${tail}`;
}

export function isInside(child: string, parent: string, flavour: PathFlavour = HOST_FLAVOUR): boolean {
  const relative = flavour.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${flavour.sep}`) && !flavour.isAbsolute(relative));
}

/** Index of the innermost (longest) root holding `absolute`, lexically, or -1. */
export function innermost(absolute: string, roots: readonly string[], flavour: PathFlavour = HOST_FLAVOUR): number {
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
