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

/**
 * Values per stamp in a packed array (packStamps): its size, mtimeMs, ctimeMs and ino, in that order; a
 * missing stamp's are NaN. The content index's file table holds its stamps so, and stores them as they are.
 */
export const PACKED_STAMP = 4;

/** Writes `stamp` (undefined: none) as the `i`th stamp of a packed array. */
export function packStampAt(packed: Float64Array, i: number, stamp: FileStamp | undefined): void {
  const at = PACKED_STAMP * i;
  packed[at] = stamp ? stamp.size : Number.NaN;
  packed[at + 1] = stamp ? stamp.mtimeMs : Number.NaN;
  packed[at + 2] = stamp ? stamp.ctimeMs : Number.NaN;
  packed[at + 3] = stamp ? stamp.ino : Number.NaN;
}

/** The `i`th stamp of a packed array, or undefined for none. */
export function unpackStampAt(packed: Float64Array, i: number): FileStamp | undefined {
  const at = PACKED_STAMP * i;
  return Number.isNaN(packed[at]) ? undefined : { size: packed[at], mtimeMs: packed[at + 1], ctimeMs: packed[at + 2], ino: packed[at + 3] };
}

/** The size of the `i`th stamp of a packed array (NaN for none). */
export function packedSizeAt(packed: Float64Array, i: number): number {
  return packed[PACKED_STAMP * i];
}

/** Whether the `i`th stamp of a packed array is `stamp` (sameStamp). */
export function packedStampIs(packed: Float64Array, i: number, stamp: FileStamp): boolean {
  const at = PACKED_STAMP * i;
  return packed[at] === stamp.size && packed[at + 1] === stamp.mtimeMs && packed[at + 2] === stamp.ctimeMs && packed[at + 3] === stamp.ino;
}

/** Stamps packed into one array (one transfer between threads). */
export function packStamps(stamps: ReadonlyArray<FileStamp | undefined>): Float64Array<ArrayBuffer> {
  const packed = new Float64Array(PACKED_STAMP * stamps.length);
  stamps.forEach((stamp, i) => packStampAt(packed, i, stamp));
  return packed;
}

export function unpackStamps(packed: Float64Array): Array<FileStamp | undefined> {
  return Array.from({ length: packed.length / PACKED_STAMP }, (_, i) => unpackStampAt(packed, i));
}
