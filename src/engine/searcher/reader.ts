/**
 * Reads a file's bytes from disk, refusing files over the size cap before reading them, and, with a
 * scope, a file whose real path (read from the open descriptor, so a symlink swapped in after listing
 * cannot slip through) leaves the granted roots or is denied.
 */
import { closeSync, constants, fstatSync, openSync, promises as fs, readSync, realpathSync } from 'fs';
import { openedRealPath } from './openedPath';
import { judgeOpened, type ReadScope } from '../guard/scope';

export type ReadOutcome =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'too_large'; size: number }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'outside_workspace' }
  | { kind: 'denied' };


/** The scope check on an open file; undefined when it may be read. */
function refuseOpened(fd: number, path: string, scope: ReadScope | undefined): ReadOutcome | undefined {
  if (!scope) return undefined;
  const real = openedRealPath(fd, () => realpathSync(path));
  if (real === path) return undefined; // no link on the way: the listing's checks hold
  const verdict = judgeOpened(real, scope);
  return verdict === undefined ? undefined : { kind: verdict };
}

export async function readFileCapped(path: string, maxSize: number, scope?: ReadScope): Promise<ReadOutcome> {
  let handle: fs.FileHandle | undefined;
  try {
    // O_NONBLOCK: a FIFO or device never blocks the open.
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const refused = refuseOpened(handle.fd, path, scope);
    if (refused) return refused;
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
    if (stat.size > maxSize) return { kind: 'too_large', size: stat.size };
    const bytes = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < stat.size) {
      const { bytesRead } = await handle.read(bytes, filled, stat.size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { kind: 'bytes', bytes: bytes.subarray(0, filled) };
  } catch (error) {
    return { kind: 'unreadable', reason: (error as NodeJS.ErrnoException).code ?? String(error) };
  } finally {
    await handle?.close();
  }
}

/**
 * What the first read of a file asks for: most source files fit, and need no fstat (a read that comes
 * back short is followed by one that returns 0, the end of the file).
 */
const FIRST_READ = 64 * 1024;

/**
 * The same, synchronously: what a search worker uses (it has nothing else to do while it reads).
 * `buffer(size)` may lend a reusable buffer of at least `size` bytes; the bytes returned are then only
 * valid until the next read. A file that fits the first read is not fstat'ed: only one that fills it
 * (its size decides), or reads as empty (a FIFO also does), is.
 */
export function readFileCappedSync(path: string, maxSize: number, buffer: (size: number) => Buffer = Buffer.allocUnsafe, scope?: ReadScope): ReadOutcome {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const refused = refuseOpened(fd, path, scope);
    if (refused) return refused;
    const first = Math.min(FIRST_READ, maxSize + 1);
    let bytes = buffer(first);
    let filled = readSync(fd, bytes, 0, first, 0);
    if (filled > 0 && filled < first) {
      // Short: the end of the file, which the next read confirms (or, rarely, more bytes came).
      const more = readSync(fd, bytes, filled, first - filled, filled);
      if (more === 0) return { kind: 'bytes', bytes: bytes.subarray(0, filled) };
      filled += more;
    }
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
    if (stat.size > maxSize) return { kind: 'too_large', size: stat.size };
    if (stat.size > bytes.length) {
      const whole = buffer(stat.size);
      if (whole !== bytes) bytes.copy(whole, 0, 0, filled);
      bytes = whole;
    }
    while (filled < stat.size) {
      const read = readSync(fd, bytes, filled, stat.size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return { kind: 'bytes', bytes: bytes.subarray(0, filled) };
  } catch (error) {
    return { kind: 'unreadable', reason: (error as NodeJS.ErrnoException).code ?? String(error) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
