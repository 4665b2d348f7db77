/**
 * Reads a file's bytes from disk, refusing files over the size cap before reading them, and, with a
 * scope, a file whose real path (read from the open descriptor, so a symlink swapped in after listing
 * cannot slip through) leaves the granted roots or is denied.
 */
import { closeSync, constants, fstatSync, openSync, promises as fs, readSync, realpathSync } from 'fs';
import { openRetrying, openRetryingSync } from './descriptors';
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
  const real = openedRealPath(fd, () => realpathSync.native(path));
  if (real === path) return undefined; // no link on the way: the listing's checks hold
  const verdict = judgeOpened(real, scope);
  return verdict === undefined ? undefined : { kind: verdict };
}

/**
 * What the first read of a file asks for: most source files fit, and need no fstat (a read that comes
 * back short is followed by one that returns 0, the end of the file).
 */
const FIRST_READ = 64 * 1024;

/** An I/O step on an open file, written once as a generator and performed by the sync or the async driver below. */
export type FileStep = { op: 'read'; into: Buffer; offset: number; length: number } | { op: 'stat' };
/** What a step gives back: the bytes read, or the file's type and size. */
export type FileReply = number | { isFile: boolean; size: number };

/** Performs the steps on an open descriptor, synchronously; returns what the generator returns. */
export function performSync<T>(fd: number, steps: Generator<FileStep, T, FileReply>): T {
  let reply: FileReply = 0;
  for (let step = steps.next(); ; step = steps.next(reply)) {
    if (step.done) return step.value;
    const s = step.value;
    if (s.op === 'stat') {
      const stat = fstatSync(fd);
      reply = { isFile: stat.isFile(), size: stat.size };
    } else {
      reply = readSync(fd, s.into, s.offset, s.length, s.offset);
    }
  }
}

/** The same on an open file handle, without holding the caller's thread. */
export async function perform<T>(handle: fs.FileHandle, steps: Generator<FileStep, T, FileReply>): Promise<T> {
  let reply: FileReply = 0;
  for (let step = steps.next(); ; step = steps.next(reply)) {
    if (step.done) return step.value;
    const s = step.value;
    if (s.op === 'stat') {
      const stat = await handle.stat();
      reply = { isFile: stat.isFile(), size: stat.size };
    } else {
      reply = (await handle.read(s.into, s.offset, s.length, s.offset)).bytesRead;
    }
  }
}

/**
 * The one capped read, as steps: a first read of FIRST_READ bytes (at most the cap + 1), a second one
 * that confirms the end of a short file; only a file that fills the first read (its size decides), or
 * reads as empty (a FIFO also does), is fstat'ed. `buffer(size)` may lend a reusable buffer of at
 * least `size` bytes.
 */
function* cappedRead(maxSize: number, buffer: (size: number) => Buffer): Generator<FileStep, ReadOutcome, FileReply> {
  const first = Math.min(FIRST_READ, maxSize + 1);
  let bytes = buffer(first);
  const readAt = (filled: number, length: number): FileStep => ({ op: 'read', into: bytes, offset: filled, length });
  let filled = (yield readAt(0, first)) as number;
  if (filled > 0 && filled < first) {
    // Short: the end of the file, which the next read confirms (or, rarely, more bytes came).
    const more = (yield readAt(filled, first - filled)) as number;
    if (more === 0) return { kind: 'bytes', bytes: bytes.subarray(0, filled) };
    filled += more;
  }
  const stat = (yield { op: 'stat' }) as { isFile: boolean; size: number };
  if (!stat.isFile) return { kind: 'unreadable', reason: 'not a regular file' };
  if (stat.size > maxSize) return { kind: 'too_large', size: stat.size };
  if (stat.size > bytes.length) {
    const whole = buffer(stat.size);
    if (whole !== bytes) bytes.copy(whole, 0, 0, filled);
    bytes = whole;
  }
  while (filled < stat.size) {
    const read = (yield readAt(filled, stat.size - filled)) as number;
    if (read === 0) break;
    filled += read;
  }
  return { kind: 'bytes', bytes: bytes.subarray(0, filled) };
}

function unreadable(error: unknown): ReadOutcome {
  return { kind: 'unreadable', reason: (error as NodeJS.ErrnoException).code ?? String(error) };
}

/** Reads a file without holding the caller's thread (the extension host, the CLI's calling thread). */
export async function readFileCapped(path: string, maxSize: number, scope?: ReadScope): Promise<ReadOutcome> {
  let handle: fs.FileHandle | undefined;
  try {
    // O_NONBLOCK: a FIFO or device never blocks the open.
    handle = await openRetrying(() => fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK));
    const refused = refuseOpened(handle.fd, path, scope);
    if (refused) return refused;
    return await perform(handle, cappedRead(maxSize, Buffer.allocUnsafe));
  } catch (error) {
    return unreadable(error);
  } finally {
    await handle?.close();
  }
}

/**
 * One read buffer lent for every file read synchronously (readFileCappedSync's `buffer`), grown to the
 * largest asked for: its bytes are used before the next read, so memory stays flat whatever the tree.
 */
export function scratchBuffer(initialBytes = 64 * 1024): (size: number) => Buffer {
  let scratch = Buffer.allocUnsafe(initialBytes);
  return (size) => {
    if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
    return scratch;
  };
}

/**
 * The same, synchronously: what a search worker uses (it has nothing else to do while it reads).
 * `buffer(size)` may lend a reusable buffer of at least `size` bytes; the bytes returned are then only
 * valid until the next read.
 */
export function readFileCappedSync(path: string, maxSize: number, buffer: (size: number) => Buffer = Buffer.allocUnsafe, scope?: ReadScope): ReadOutcome {
  let fd: number | undefined;
  try {
    fd = openRetryingSync(() => openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
    const refused = refuseOpened(fd, path, scope);
    if (refused) return refused;
    return performSync(fd, cappedRead(maxSize, buffer));
  } catch (error) {
    return unreadable(error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
