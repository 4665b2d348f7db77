/**
 * Reads a `.gitignore` of a repository the person did not write (a cloned one may carry any file
 * there): only a regular file, opened without following a symlink (git refuses a symlinked
 * `.gitignore` too), without blocking (a FIFO), at most MAX_IGNORE_FILE_BYTES, and only when the file
 * actually opened lies in a granted root and is not denied. Anything else is skipped with a reason,
 * which the caller writes to its log; the search goes on without those rules.
 */
import { closeSync, constants, openSync, promises as fs } from 'fs';
import * as nodePath from 'path';
import { realPathOfSync } from '../guard/paths';
import { judgeReal, type ReadScope } from '../guard/scope';
import { openRetrying, openRetryingSync } from '../searcher/descriptors';
import { perform, performSync, type FileReply, type FileStep } from '../searcher/reader';
import { openedRealPath } from '../searcher/openedPath';

/** The largest ignore file read (git's own templates are under 10 KB; the biggest real ones about 100 KB). */
export const MAX_IGNORE_FILE_BYTES = 256 * 1024;

export type IgnoreFileRead = { kind: 'text'; text: string } | { kind: 'none' } | { kind: 'skipped'; path: string; reason: string };

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** Why an opened ignore file is not read, or undefined when it may be. */
function refusal(fd: number, path: string, size: number, isFile: boolean, scope: ReadScope | undefined): string | undefined {
  if (!isFile) return 'it is not a regular file';
  if (size > MAX_IGNORE_FILE_BYTES) return `it is ${size} bytes, over the ${MAX_IGNORE_FILE_BYTES}-byte limit for ignore files`;
  if (!scope) return undefined;
  const real = openedRealPath(fd, () => realPathOfSync(path, path));
  const verdict = judgeReal(real, scope, false);
  if (verdict === 'outside_workspace') return `it is really ${real}, outside the granted folders`;
  if (verdict === 'denied') return `it is really ${real}, a denied path`;
  return undefined;
}

function openFailure(path: string, error: unknown): IgnoreFileRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'none' };
  if (code === 'ELOOP' || code === 'EMLINK') return { kind: 'skipped', path, reason: 'it is a symbolic link' };
  return { kind: 'skipped', path, reason: `it cannot be read (${code ?? String(error)})` };
}

/** The text read; a file that grew while it was read (more than its size when opened) is skipped. */
function decode(bytes: Buffer, length: number, path: string): IgnoreFileRead {
  if (length === bytes.length) return { kind: 'skipped', path, reason: `it grew past the ${MAX_IGNORE_FILE_BYTES}-byte limit for ignore files` };
  return { kind: 'text', text: bytes.subarray(0, length).toString('utf8') };
}

/**
 * The one read of an open ignore file, as steps (reader.ts's pattern): its stat, the refusals, then
 * reads until the end of the file or one byte past the size it had, which means it grew.
 */
function* readOpened(fd: number, path: string, scope: ReadScope | undefined): Generator<FileStep, IgnoreFileRead, FileReply> {
  const stat = (yield { op: 'stat' }) as { isFile: boolean; size: number };
  const refused = refusal(fd, path, stat.size, stat.isFile, scope);
  if (refused) return { kind: 'skipped', path, reason: refused };
  const bytes = Buffer.allocUnsafe(stat.size + 1);
  let filled = 0;
  for (let read = -1; read !== 0 && filled < bytes.length; filled += read)
    read = (yield { op: 'read', into: bytes, offset: filled, length: bytes.length - filled }) as number;
  return decode(bytes, filled, path);
}

/** `<dir>/.gitignore`, read synchronously (the CLI's walker). */
export function readIgnoreFileSync(dir: string, scope?: ReadScope): IgnoreFileRead {
  const path = nodePath.join(dir, '.gitignore');
  let fd: number;
  try {
    fd = openRetryingSync(() => openSync(path, FLAGS));
  } catch (error) {
    return openFailure(path, error);
  }
  try {
    return performSync(fd, readOpened(fd, path, scope));
  } catch (error) {
    return openFailure(path, error);
  } finally {
    closeSync(fd);
  }
}

/** `<dir>/.gitignore`, read without holding the caller's thread (the extension host). */
export async function readIgnoreFile(dir: string, scope?: ReadScope): Promise<IgnoreFileRead> {
  const path = nodePath.join(dir, '.gitignore');
  let handle: fs.FileHandle;
  try {
    handle = await openRetrying(() => fs.open(path, FLAGS));
  } catch (error) {
    return openFailure(path, error);
  }
  try {
    return await perform(handle, readOpened(handle.fd, path, scope));
  } catch (error) {
    return openFailure(path, error);
  } finally {
    await handle.close();
  }
}

/** An ignore file on a file system the engine does not open itself (a virtual one, through workspace.fs). */
export interface IgnoreFileAccess {
  /** Its name in the log (a URI). */
  name: string;
  /** Its engine path, judged by the read scope. */
  path: string;
  /** Its type and size (following no link where the file system tells links apart), or undefined when there is none. */
  stat(): Promise<{ isFile: boolean; size: number } | undefined>;
  /** Its bytes, or undefined when it is gone. */
  read(): Promise<Uint8Array | undefined>;
}

/**
 * An ignore file read through `access`, with the checks of the reads above: a regular file of at most
 * MAX_IGNORE_FILE_BYTES, in scope (judged by its path: such a file system has no real paths to tell).
 */
export async function readIgnoreFileVia(access: IgnoreFileAccess, scope: ReadScope): Promise<IgnoreFileRead> {
  const stat = await access.stat();
  if (stat === undefined) return { kind: 'none' };
  let reason: string | undefined;
  if (judgeReal(access.path, scope, false) !== undefined) reason = 'it is a denied path';
  else if (!stat.isFile) reason = 'it is not a regular file';
  else if (stat.size > MAX_IGNORE_FILE_BYTES) reason = `it is ${stat.size} bytes, over the ${MAX_IGNORE_FILE_BYTES}-byte limit for ignore files`;
  if (reason) return { kind: 'skipped', path: access.name, reason };
  const bytes = await access.read();
  if (bytes === undefined) return { kind: 'none' };
  if (bytes.byteLength > MAX_IGNORE_FILE_BYTES)
    return { kind: 'skipped', path: access.name, reason: `it grew past the ${MAX_IGNORE_FILE_BYTES}-byte limit for ignore files` };
  return { kind: 'text', text: new TextDecoder().decode(bytes) };
}

/** The log line for a skipped ignore file. */
export function skippedIgnoreNote(read: { path: string; reason: string }): string {
  return `Ignore file ${read.path} skipped: ${read.reason}; its rules are not applied.`;
}
