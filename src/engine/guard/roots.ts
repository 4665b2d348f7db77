/**
 * Resolves a tool's `path` against the workspace folders: which folder (root) it lies in and the
 * absolute base to search. A path outside every folder is reported as such; the caller decides.
 */
import * as nodePath from 'path';
import { InputError } from '../api/errors';
import { innermost } from './paths';

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

function normalise(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return nodePath.resolve(trimmed);
}

function containing(absolute: string, folders: readonly WorkspaceFolder[]): SearchBase {
  const best = innermost(absolute, folders.map((folder) => folder.path));
  return best === -1
    ? { root: absolute, base: absolute, folderIndex: -1 }
    : { root: folders[best].path, base: absolute, folderIndex: best };
}

/**
 * On this POSIX machine a backslash is not a separator: a Windows path ("C:\\src", "src\\lib") is refused
 * with the POSIX spelling to use. On Windows, '\\' separators are turned into '/'.
 */
function windowsSeparators(path: string): string {
  if (nodePath.sep === '\\') return path.replace(/\\/g, '/');
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
 * The bases to search for `path`: every workspace folder when it is absent; otherwise one base.
 * `exists` says whether an absolute path exists (to pick the folder of a relative path).
 */
export async function resolveBases(
  path: string | undefined,
  folders: readonly WorkspaceFolder[],
  exists: (absolute: string) => Promise<boolean>,
): Promise<SearchBase[]> {
  if (path === undefined || path === '' || path === '.') {
    if (folders.length === 0) {
      throw new InputError('No workspace folder is open: open a folder, or pass an absolute "path" to search.');
    }
    return folders.map((folder, index) => ({ root: folder.path, base: folder.path, folderIndex: index }));
  }
  if (path.includes('\0')) throw new InputError('Invalid "path": it contains a NUL character.');
  let candidate = windowsSeparators(path);
  if (candidate === '~' || candidate.startsWith('~/')) {
    candidate = nodePath.join(process.env.HOME ?? '/', candidate.slice(1));
  } else if (/^~[^/]/.test(candidate)) {
    throw new InputError(`Invalid "path" ${JSON.stringify(path)}: only "~" and "~/..." (your home directory) are expanded, not "~user". Pass an absolute path.`);
  }
  if (nodePath.isAbsolute(candidate)) return [containing(normalise(candidate), folders)];
  if (folders.length === 0) {
    throw new InputError(`Relative "path" ${JSON.stringify(path)} needs an open workspace folder: open a folder, or pass an absolute path.`);
  }
  const [first, ...rest] = candidate.split('/');
  const named = folders.length > 1 ? folders.findIndex((folder) => folder.name === first) : -1;
  if (named !== -1) return [containing(normalise(nodePath.join(folders[named].path, ...rest)), folders)];
  for (const folder of folders) {
    const absolute = normalise(nodePath.join(folder.path, candidate));
    if (await exists(absolute)) return [containing(absolute, folders)];
  }
  // In a single-folder workspace, "<folder name>/src" names the folder too (models often write it so).
  const own = folders.length === 1 && folders[0].name === first ? normalise(nodePath.join(folders[0].path, ...rest)) : undefined;
  if (own !== undefined && (await exists(own))) return [containing(own, folders)];
  // Not found anywhere: resolve against the first folder so the caller reports "not found" there.
  return [containing(normalise(nodePath.join(folders[0].path, candidate)), folders)];
}
