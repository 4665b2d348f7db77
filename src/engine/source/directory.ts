/**
 * Lists a directory the way the reader reads a file: it opens the directory (without following a
 * symlink in its last segment unless asked to), takes the real path of what it actually opened from
 * `/proc/<pid>/fd`, and lists that open directory, so a directory swapped for a symlink between the
 * check and the listing is judged by where it really is, not by its name.
 */
import { closeSync, constants, openSync, promises as fs, readdirSync, readlinkSync, realpathSync, type Dirent } from 'fs';
import { openRetrying, openRetryingSync } from '../searcher/descriptors';
import { descriptorPath, HAS_PROC } from '../searcher/openedPath';

export interface OpenedDirectory {
  entries: Dirent[];
  /** The real path of the directory listed. */
  real: string;
}

function flags(follow: boolean): number {
  return constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW);
}

/**
 * The directory at `path`: its entries and real path; throws as readdir does, and for a symlink when
 * `follow` is false (ENOTDIR on Linux, where O_DIRECTORY | O_NOFOLLOW meets the link). Tried again while
 * the process is short of descriptors (descriptors.ts).
 */
export function listDirectorySync(path: string, follow: boolean): OpenedDirectory {
  return openRetryingSync(() => {
    if (!HAS_PROC) return { entries: readdirSync(path, { withFileTypes: true }), real: realpathSync.native(path) };
    const fd = openSync(path, flags(follow));
    try {
      const opened = descriptorPath(fd);
      return { real: readlinkSync(opened), entries: readdirSync(opened, { withFileTypes: true }) };
    } finally {
      closeSync(fd);
    }
  });
}

/** The same without holding the caller's thread (the extension host). */
export function listDirectory(path: string, follow: boolean): Promise<OpenedDirectory> {
  return openRetrying(async () => {
    if (!HAS_PROC) return { entries: await fs.readdir(path, { withFileTypes: true }), real: await fs.realpath(path) };
    const handle = await fs.open(path, flags(follow));
    try {
      const opened = descriptorPath(handle.fd);
      return { real: await fs.readlink(opened), entries: await fs.readdir(opened, { withFileTypes: true }) };
    } finally {
      await handle.close();
    }
  });
}
