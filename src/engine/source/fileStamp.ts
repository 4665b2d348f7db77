/**
 * A file's stamp: its size, times and inode. The index relies on a file it read only while the file's
 * stamp is the one it had then (index/prejudge.ts); the search workers take stamps in bulk (pool.ts).
 */
import { promises, statSync, type Stats } from 'fs';

export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** The stamp of a stat, or undefined when it is not a regular file's (or there is none). */
function stampOf(stat: Stats | undefined): FileStamp | undefined {
  return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino } : undefined;
}

/** The file's stamp now, or undefined when it is not a regular file (or is gone). */
export function statStamp(path: string): FileStamp | undefined {
  return stampOf(statSync(path, { throwIfNoEntry: false }));
}

/** The same without holding the caller's thread (the background audit of a watched index). */
export async function statStampAsync(path: string): Promise<FileStamp | undefined> {
  return stampOf(await promises.stat(path).catch(() => undefined));
}

/** A stamp as a cache key's part. */
export function stampText(stamp: FileStamp): string {
  return `${stamp.size}:${stamp.mtimeMs}:${stamp.ctimeMs}:${stamp.ino}`;
}

/** The file's stamp now as a cache key (a file's definitions, searcher/outline.ts), or undefined when it has none. */
export function stampKey(path: string): string | undefined {
  const stamp = statStamp(path);
  return stamp && stampText(stamp);
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** Values per stamp in a packed array (packStamps). */
const PACKED = 4;

/** Stamps packed into one array (one transfer between threads); a missing stamp's size is NaN. */
export function packStamps(stamps: ReadonlyArray<FileStamp | undefined>): Float64Array<ArrayBuffer> {
  const packed = new Float64Array(PACKED * stamps.length).fill(Number.NaN);
  stamps.forEach((stamp, i) => stamp && packed.set([stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino], PACKED * i));
  return packed;
}

export function unpackStamps(packed: Float64Array): Array<FileStamp | undefined> {
  const stamps: Array<FileStamp | undefined> = [];
  for (let at = 0; at < packed.length; at += PACKED) {
    stamps.push(Number.isNaN(packed[at]) ? undefined : { size: packed[at], mtimeMs: packed[at + 1], ctimeMs: packed[at + 2], ino: packed[at + 3] });
  }
  return stamps;
}
