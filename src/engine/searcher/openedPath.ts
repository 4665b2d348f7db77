/**
 * What an open descriptor really is. Linux shows each open descriptor under /proc/<pid>/fd: reading that
 * link gives the real path of what was opened (a name swapped for a symlink after a check cannot
 * change it), and an open directory can be listed through it. The reader, the directory lister and the
 * ignore-file reader all judge what they opened this way.
 */
import { readlinkSync } from 'fs';

/** By pid, which saves resolving /proc/self on every file. */
const FD_LINKS = `/proc/${process.pid}/fd/`;

/** Whether /proc shows open descriptors (elsewhere the callers fall back to realpath). */
export const HAS_PROC = process.platform === 'linux';

/** The /proc path naming the open descriptor `fd`. */
export function descriptorPath(fd: number): string {
  return `${FD_LINKS}${fd}`;
}

/** The real path of what is open on `fd`, or `fallback()` when /proc cannot tell. */
export function openedRealPath(fd: number, fallback: () => string): string {
  try {
    return readlinkSync(descriptorPath(fd));
  } catch {
    return fallback();
  }
}
