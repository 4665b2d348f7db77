/**
 * Resolves a tool's `path` against the workspace folders: which folder (root) it lies in and the
 * absolute base to search. A path outside every folder is reported as such; the caller decides.
 */
import { homedir } from 'os';
import { InputError } from '../api/errors';
import { HOST_FLAVOUR, innermost, type PathFlavour } from './paths';

export interface WorkspaceFolder {
  name: string;
  /** Absolute file system path. */
  path: string;
}

export interface SearchBase {
  /** The workspace folder holding the base; for an outside path, the base itself. */
  root: string;
  /** Absolute path to search (a directory or a file). */
  base: string;
  /** Index of the workspace folder, or -1 outside every folder. */
  folderIndex: number;
}

function normalise(path: string, flavour: PathFlavour): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return flavour.resolve(trimmed);
}

function containing(absolute: string, folders: readonly WorkspaceFolder[], flavour: PathFlavour): SearchBase {
  const best = innermost(
    absolute,
    folders.map((folder) => folder.path),
    flavour,
  );
  return best === -1 ? { root: absolute, base: absolute, folderIndex: -1 } : { root: folders[best].path, base: absolute, folderIndex: best };
}

/**
 * On this POSIX machine a backslash is not a separator: a Windows path ("C:\\src", "src\\lib") is refused
 * with the POSIX spelling to use. On Windows, '\\' separators are turned into '/', and a drive-relative
 * path ("C:src") is refused with the absolute spelling to use.
 */
function windowsSeparators(path: string, flavour: PathFlavour): string {
  if (flavour.sep === '\\') {
    // "C:src" is relative to drive C:'s current directory, which a search must not depend on.
    if (/^[a-zA-Z]:(?![\\/])/.test(path)) {
      throw new InputError(
        `Invalid "path" ${JSON.stringify(path)}: a drive-relative path depends on the drive's current directory. Pass an absolute path such as ${JSON.stringify(`${path.slice(0, 2)}\\${path.slice(2)}`)}, or a path relative to a workspace folder.`,
      );
    }
    return path.replace(/\\/g, '/');
  }
  if (/^[a-zA-Z]:([\\/]|$)/.test(path)) {
    throw new InputError(
      `Invalid "path" ${JSON.stringify(path)}: this is a Windows drive path, and the workspace is on a POSIX file system. Pass an absolute path such as "/home/...", or a path relative to a workspace folder with '/' separators.`,
    );
  }
  if (path.includes('\\')) {
    throw new InputError(`Invalid "path" ${JSON.stringify(path)}: use '/' as the separator, e.g. ${JSON.stringify(path.replace(/\\/g, '/'))}.`);
  }
  return path;
}

/**
 * Whether a folder is the home directory or a file system's root: a folder opened by chance rather than a
 * project, often of millions of files (nothing is listed in it before a search asks). `home` as in resolveBases.
 */
export function isHomeOrRoot(folder: string, flavour: PathFlavour = HOST_FLAVOUR, home: () => string = homedir): boolean {
  const path = flavour.resolve(folder);
  return path === flavour.parse(path).root || path === flavour.resolve(home());
}

/**
 * The bases to search for `path`: every workspace folder when it is absent; otherwise one base.
 * `exists` says whether an absolute path exists (to pick the folder of a relative path). `flavour`: the
 * path rules to resolve by (this platform's; tests pass path.posix or path.win32). `home`: what `~` names,
 * the home directory as the platform reports it (os.homedir(): HOME is usually unset on Windows, where
 * it is USERPROFILE); tests pass one spelled by the flavour.
 */
export async function resolveBases(
  path: string | undefined,
  folders: readonly WorkspaceFolder[],
  exists: (absolute: string) => Promise<boolean>,
  flavour: PathFlavour = HOST_FLAVOUR,
  home: () => string = homedir,
): Promise<SearchBase[]> {
  if (path === undefined || path === '' || path === '.') {
    if (folders.length === 0) {
      throw new InputError('No workspace folder is open: open a folder, or pass an absolute "path" to search.');
    }
    return folders.map((folder, index) => ({ root: folder.path, base: folder.path, folderIndex: index }));
  }
  if (path.includes('\0')) throw new InputError('Invalid "path": it contains a NUL character.');
  let candidate = windowsSeparators(path, flavour);
  if (candidate === '~' || candidate.startsWith('~/')) {
    candidate = flavour.join(home(), candidate.slice(1));
  } else if (/^~[^/]/.test(candidate)) {
    throw new InputError(
      `Invalid "path" ${JSON.stringify(path)}: only "~" and "~/..." (your home directory) are expanded, not "~user". Pass an absolute path.`,
    );
  }
  // On Windows "\src\a.ts" is on the current drive, the process's (VS Code's own, not the workspace's):
  // it is read on the first workspace folder's drive (or share), whatever drive the process started on.
  if (flavour.sep === '\\' && /^\/(?!\/)/.test(candidate) && folders.length > 0) {
    candidate = `${flavour.parse(folders[0].path).root.replace(/[\\/]+$/, '')}${candidate}`;
  }
  if (flavour.isAbsolute(candidate)) return [containing(normalise(candidate, flavour), folders, flavour)];
  if (folders.length === 0) {
    throw new InputError(`Relative "path" ${JSON.stringify(path)} needs an open workspace folder: open a folder, or pass an absolute path.`);
  }
  const [first, ...rest] = candidate.split('/');
  const named = folders.length > 1 ? folders.findIndex((folder) => folder.name === first) : -1;
  if (named !== -1) return [containing(normalise(flavour.join(folders[named].path, ...rest), flavour), folders, flavour)];
  for (const folder of folders) {
    const absolute = normalise(flavour.join(folder.path, candidate), flavour);
    if (await exists(absolute)) return [containing(absolute, folders, flavour)];
  }
  // In a single-folder workspace, "<folder name>/src" names the folder too (models often write it so).
  const own = folders.length === 1 && folders[0].name === first ? normalise(flavour.join(folders[0].path, ...rest), flavour) : undefined;
  if (own !== undefined && (await exists(own))) return [containing(own, folders, flavour)];
  // Not found anywhere: resolve against the first folder so the caller reports "not found" there.
  return [containing(normalise(flavour.join(folders[0].path, candidate), flavour), folders, flavour)];
}
