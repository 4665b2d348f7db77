/**
 * The index on disk: one file, written to a temporary name and renamed into place (a reader never sees
 * half of it). Layout: "GTIX", format version, header length (u32 LE each), the header as JSON (what
 * was indexed, the file table's paths and kinds as strings), the file table's stamps (f64: size, mtime,
 * ctime, inode per file), then the keys (u32), the offsets (u32) and the posting bytes.
 */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'fs';
import * as nodePath from 'path';
import { packStamps } from '../source/fileStamp';
import { ContentIndex, type FileEntry, type FileKind, type SealedPostings } from './contentIndex';
import { sameList, type RecordedListing } from './listing';

const MAGIC = 'GTIX';
/**
 * 4: files over maxFileSize, up to checkedFileSize, are indexed (format 3 kept them as 'large', unread).
 * 5: recorded listings, with ignored files left out and (when kept) with them (format 4 kept the first only).
 */
export const FORMAT_VERSION = 5;
export const INDEX_FILE = 'index.bin';

/** What the index was built for: a different one is rebuilt rather than used. */
export interface IndexMeta {
  /** The workspace folders, in order. */
  folders: string[];
  /** Files larger than this were not indexed (`large`). */
  maxFileSize: number;
  builtAt: number;
  /**
   * The listings of the whole workspace (ignored files left out, then with them when the index holds
   * them too), each replayed while it is fresh (listing.ts); none when the tree was changing.
   */
  listings?: RecordedListing[];
}

type StoredListing = Omit<RecordedListing, 'relatives'> & { relatives: string };

/** Paths and relative paths are stored joined by NUL (which no path holds): one string parses fast. */
const SEPARATOR = '\0';

interface Header {
  meta: Omit<IndexMeta, 'listings'> & { listings?: StoredListing[] };
  paths: string;
  kinds: string;
  files: number;
  keys: number;
  offsets: number;
  data: number;
}

const KIND_CODES: Record<FileKind, string> = { text: 't', binary: 'b', large: 'l', unread: 'u' };
const KINDS_BY_CODE: Record<string, FileKind> = { t: 'text', b: 'binary', l: 'large', u: 'unread' };

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}

export function serialise(meta: IndexMeta, files: FileEntry[], postings: SealedPostings): Buffer[] {
  const header: Header = {
    meta: { ...meta, listings: meta.listings?.map((listing) => ({ ...listing, relatives: listing.relatives.join(SEPARATOR) })) },
    paths: files.map((file) => file.path).join(SEPARATOR),
    kinds: files.map((file) => KIND_CODES[file.kind]).join(''),
    files: files.length,
    keys: postings.keys.length,
    offsets: postings.offsets.length,
    data: postings.data.byteLength,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const view = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  const data = postings.data.range(0, postings.data.byteLength);
  const stamps = packStamps(files);
  return [Buffer.from(MAGIC, 'latin1'), u32(FORMAT_VERSION), u32(json.length), json, view(stamps), view(postings.keys), view(postings.offsets), view(data)];
}

/** Reads `length` bytes at `position` (fewer at the end). */
export type ReadAt = (position: number, length: number) => Buffer;

export function bufferReader(bytes: Buffer): ReadAt {
  return (position, length) => bytes.subarray(position, position + length);
}

/**
 * The index from its stored form: the header and the keys and offsets are read at once, the posting
 * bytes a list at a time when a query needs it (an index file is mostly postings).
 */
export function deserialise(readAt: ReadAt, totalLength: number): { meta: IndexMeta; index: ContentIndex } {
  const start = readAt(0, 12);
  if (start.length < 12 || start.toString('latin1', 0, 4) !== MAGIC) throw new Error('not an index file');
  if (start.readUInt32LE(4) !== FORMAT_VERSION) throw new Error('an index of another format version');
  const jsonLength = start.readUInt32LE(8);
  const header = JSON.parse(readAt(12, jsonLength).toString('utf8')) as Header;
  const stampsAt = 12 + jsonLength;
  const keysAt = stampsAt + 32 * header.files;
  const dataAt = keysAt + 4 * (header.keys + header.offsets);
  if (dataAt + header.data !== totalLength) throw new Error('a truncated index file');
  // Copied into fresh (aligned) arrays.
  const words = new Uint32Array(new Uint8Array(readAt(keysAt, dataAt - keysAt)).buffer);
  const keys = words.subarray(0, header.keys);
  const offsets = words.subarray(header.keys);
  const data = { byteLength: header.data, range: (from: number, to: number) => readAt(dataAt + from, to - from) };
  const stamps = new Float64Array(new Uint8Array(readAt(stampsAt, keysAt - stampsAt)).buffer);
  const paths = header.files === 0 ? [] : header.paths.split(SEPARATOR);
  const files: FileEntry[] = paths.map((path, i) => ({
    path,
    kind: KINDS_BY_CODE[header.kinds[i]] ?? 'unread',
    size: stamps[4 * i],
    mtimeMs: stamps[4 * i + 1],
    ctimeMs: stamps[4 * i + 2],
    ino: stamps[4 * i + 3],
  }));
  const listings = header.meta.listings?.map((listing) => ({ ...listing, relatives: listing.bases.length === 0 ? [] : listing.relatives.split(SEPARATOR) }));
  const meta: IndexMeta = { ...header.meta, listings };
  return { meta, index: new ContentIndex(files, { keys, offsets, data }) };
}

/** Writes the index into `dir` (created when missing). Returns the bytes written. */
export function saveIndex(dir: string, meta: IndexMeta, index: ContentIndex): number {
  const { files, postings } = index.seal();
  mkdirSync(dir, { recursive: true });
  const target = nodePath.join(dir, INDEX_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  let written = 0;
  try {
    for (const part of serialise(meta, files, postings)) written += writeSync(fd, part);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, target);
  return written;
}

/** Removes the index stored in `dir` (a workspace that keeps its file list only stores no content). */
export function removeIndex(dir: string): void {
  rmSync(nodePath.join(dir, INDEX_FILE), { force: true });
}

/**
 * The index stored in `dir`, or undefined when there is none or it cannot be used (another format,
 * damaged). Its posting lists are read from the open file as queries need them, until `close()` (a
 * rebuild renames a new file into place and leaves the open one intact).
 */
export function loadIndex(dir: string): { meta: IndexMeta; index: ContentIndex; close(): void } | undefined {
  let fd: number;
  try {
    fd = openSync(nodePath.join(dir, INDEX_FILE), 'r');
  } catch {
    return undefined;
  }
  const readAt: ReadAt = (position, length) => {
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const read = readSync(fd, buffer, filled, length - filled, position + filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  };
  try {
    return { ...deserialise(readAt, fstatSync(fd).size), close: () => closeSync(fd) };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** The index stored in `dir` when it was built for these folders, in this order; undefined otherwise (none, or another set of folders). */
export function loadIndexFor(dir: string, folders: readonly string[]): ReturnType<typeof loadIndex> {
  const stored = loadIndex(dir);
  if (stored && !sameList(stored.meta.folders, folders)) {
    stored.close();
    return undefined;
  }
  return stored;
}
