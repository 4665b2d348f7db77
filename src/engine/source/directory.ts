/**
 * Lists a directory the way the reader reads a file. Where the system shows open descriptors
 * (`/proc/<pid>/fd`, Linux) it opens the directory (without following a symlink in its last segment
 * unless asked to), takes the real path of what it actually opened from there, and lists that open
 * directory, so a directory swapped for a symlink between the check and the listing is judged by where
 * it really is, not by its name. Elsewhere (macOS, Windows, Linux without /proc) it lists by name: a
 * symlink not to be followed is refused before the listing (lstat), and after it the real path
 * (realpath) must name the same directory the lstat saw, or the listing is refused.
 */
import { closeSync, constants, lstatSync, openSync, promises as fs, readdirSync, readlinkSync, realpathSync, statSync, type Dirent, type Stats } from 'fs';
import { openRetrying, openRetryingSync } from '../searcher/descriptors';
import { descriptorPath, HAS_PROC } from '../searcher/openedPath';

export interface OpenedDirectory {
  entries: Dirent[];
  /** The real path of the directory listed. */
  real: string;
}

/** Lists directories, with and without holding the caller's thread. */
export interface DirectoryLister {
  /**
   * The directory at `path`: its entries and real path; throws as readdir does, and for a symlink when
   * `follow` is false (ENOTDIR on Linux, where O_DIRECTORY | O_NOFOLLOW meets the link; ELOOP where
   * it is listed by name). Tried again while the process is short of descriptors (descriptors.ts).
   */
  listDirectorySync(path: string, follow: boolean): OpenedDirectory;
  /** The same without holding the caller's thread (the extension host). */
  listDirectory(path: string, follow: boolean): Promise<OpenedDirectory>;
}

function flags(follow: boolean): number {
  return constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW);
}

/** Lists the open directory through /proc/<pid>/fd (Linux). */
const throughProc: DirectoryLister = {
  listDirectorySync: (path, follow) =>
    openRetryingSync(() => {
      const fd = openSync(path, flags(follow));
      try {
        const opened = descriptorPath(fd);
        return { real: readlinkSync(opened), entries: readdirSync(opened, { withFileTypes: true }) };
      } finally {
        closeSync(fd);
      }
    }),
  listDirectory: (path, follow) =>
    openRetrying(async () => {
      const handle = await fs.open(path, flags(follow));
      try {
        const opened = descriptorPath(handle.fd);
        return { real: await fs.readlink(opened), entries: await fs.readdir(opened, { withFileTypes: true }) };
      } finally {
        await handle.close();
      }
    }),
};

function refused(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** What lstat saw at `path`, when it is not a symlink (one not to be followed is refused). */
function notALink(seen: Stats, path: string): Stats {
  if (seen.isSymbolicLink()) throw refused('ELOOP', `${path} is a symbolic link, not to be followed`);
  return seen;
}

/** Refuses a listing whose real path names another directory than the one lstat saw before it (a swap in between). */
function sameDirectory(before: Stats, after: Stats, path: string, real: string): void {
  if (before.dev !== after.dev || before.ino !== after.ino) throw refused('ESTALE', `${path} was replaced while it was listed (it now leads to ${real})`);
}

/** Lists by name, the real path from realpath (no /proc). */
const byName: DirectoryLister = {
  listDirectorySync: (path, follow) =>
    openRetryingSync(() => {
      const before = follow ? undefined : notALink(lstatSync(path), path);
      const entries = readdirSync(path, { withFileTypes: true });
      const real = realpathSync.native(path);
      if (before) sameDirectory(before, statSync(real), path, real);
      return { entries, real };
    }),
  listDirectory: (path, follow) =>
    openRetrying(async () => {
      const before = follow ? undefined : notALink(await fs.lstat(path), path);
      const entries = await fs.readdir(path, { withFileTypes: true });
      const real = await fs.realpath(path);
      if (before) sameDirectory(before, await fs.stat(real), path, real);
      return { entries, real };
    }),
};

/** The lister for a system that shows open descriptors under /proc (`proc`), or one that does not. */
export function directoryLister(proc: boolean): DirectoryLister {
  return proc ? throughProc : byName;
}

/** This system's lister. */
export const { listDirectorySync, listDirectory } = directoryLister(HAS_PROC);
