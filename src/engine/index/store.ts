/**
 * The index on disk, in its own directory: a table file (index.bin) and one file per segment of posting
 * lists (postings-*.bin). The table names the segments it uses; it is written to a temporary name and
 * renamed into place (a reader never sees half of it), after the segments it names are written. A build
 * stores each segment as soon as it is encoded and the table now and then, so a build stopped half way
 * keeps what it finished; a refresh that changes a few files adds a small segment and rewrites the
 * table, not the postings; a save compacts the segments into one when there are too many
 * (contentIndex.ts needsCompaction), a list at a time.
 *
 * index.bin: "GTIX", format version, header length (u32 LE each), the header as JSON (what was indexed,
 * the segments' names, the file table's kinds as a string, the byte length of each list that follows),
 * the lists of paths (UTF-8, each path ended by a NUL: the file table's, then each recorded listing's
 * relative paths and watched paths), then the stamps (f64: size, mtime, ctime, inode; NaN for none)
 * of each listing's watched paths and of the file table. The lists are read a chunk at a time (LIST_CHUNK) and
 * the JSON stays small, so a thread others share opens the table of 500,000 files in slices.
 * postings-*.bin: the posting bytes, the keys (u32), the offsets (u32), then the number of keys (u32)
 * and "GTSG": written in one pass, the lists first.
 */
import { randomBytes } from 'crypto';
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeSync } from 'fs';
import * as nodePath from 'path';
import { packStamps, PACKED_STAMP, unpackStamps } from '../source/fileStamp';
import { finishSteps, finishStepsInSlices, TimeSlices, type Steps } from '../source/timeSlices';
import { ContentIndex, FileTable, STEP_FILES, type FileKind, type PostingBytes, type PostingsSink, type SealedPostings } from './contentIndex';
import { sameList, type RecordedListing } from './listing';

const MAGIC = 'GTIX';
const SEGMENT_MAGIC = 'GTSG';
/**
 * 4: files over maxFileSize, up to checkedFileSize, are indexed (format 3 kept them as 'large', unread).
 * 5: recorded listings, with ignored files left out and (when kept) with them (format 4 kept the first only).
 * 6: the postings in segment files of their own, the table naming them (format 5 held one segment in index.bin).
 * 7: the paths and stamps after the header, not in its JSON (parsing them held a thread 0.7 s at 447,000 files).
 */
export const FORMAT_VERSION = 7;
export const INDEX_FILE = 'index.bin';
const SEGMENT_FILE = /^postings-[0-9a-z-]+\.bin$/;

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

/**
 * A recorded listing in the header: its relative paths and watched paths are lists after it, the
 * watched paths' stamps after those; its files' bases are runs of [base, how many].
 */
type StoredListing = Omit<RecordedListing, 'relatives' | 'bases' | 'watched'> & { bases: Array<[number, number]>; watched: number };

/** The bases of a listing's files as runs of the same base (a listing's are in order: a run a base). */
function baseRuns(bases: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const base of bases) {
    const last = runs[runs.length - 1];
    if (last?.[0] === base) last[1]++;
    else runs.push([base, 1]);
  }
  return runs;
}

/** The bases of a listing's files from their runs (pushed: a `new Array(n)` of 447,000 is a slow sparse array). */
function basesOf(runs: ReadonlyArray<[number, number]>): number[] {
  const bases: number[] = [];
  for (const [base, count] of runs) for (let i = 0; i < count; i++) bases.push(base);
  return bases;
}

/** Each path of a list on disk is ended by a NUL (which no path holds, nor any byte of a UTF-8 character but itself). */
const END = 0;

interface Header {
  meta: Omit<IndexMeta, 'listings'> & { listings?: StoredListing[] };
  /** The segment files, in id order. */
  segments: string[];
  kinds: string;
  files: number;
  /** The byte length of each list after the header: the file table's paths, then each listing's relative paths and watched paths. */
  lists: number[];
}

/** The kind of an id whose file was replaced or removed (its ids stay in the segments until a compaction). */
const DEAD = 'x';
const KIND_CODES: Record<FileKind, string> = { text: 't', binary: 'b', large: 'l', unread: 'u', linked: 'k' };
const KINDS_BY_CODE: Record<string, FileKind> = { t: 'text', b: 'binary', l: 'large', u: 'unread', k: 'linked' };

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}

const view = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/** Fills `into` with the bytes at `position` of an open file; returns how many there were (fewer at the end). */
function readInto(fd: number, into: Uint8Array, position: number): number {
  let filled = 0;
  while (filled < into.length) {
    const read = readSync(fd, into, filled, into.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

/** Reads `length` bytes at `position` of an open file (fewer at the end). */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  return buffer.subarray(0, readInto(fd, buffer, position));
}

/** Writes all of `bytes` at the end of what was written to an open file. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** Bytes gathered before a write while a segment file is written. */
const WRITE_CHUNK = 1 << 20;

/** A segment file being written: the lists as they come (a chunk at a time), then the keys and offsets. */
class SegmentFile implements PostingsSink {
  readonly name = `postings-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.bin`;
  private readonly fd: number;
  private chunk = Buffer.allocUnsafe(WRITE_CHUNK);
  private used = 0;
  private written = 0;

  constructor(private readonly dir: string) {
    this.fd = openSync(nodePath.join(dir, this.name), 'w', 0o600);
  }

  get length(): number {
    return this.written + this.used;
  }

  push(byte: number): void {
    if (this.used === this.chunk.length) this.drain();
    this.chunk[this.used++] = byte;
  }

  append(bytes: Uint8Array): void {
    if (this.used + bytes.length <= this.chunk.length) {
      this.chunk.set(bytes, this.used);
      this.used += bytes.length;
      return;
    }
    this.drain();
    writeAll(this.fd, bytes);
    this.written += bytes.length;
  }

  private drain(): void {
    writeAll(this.fd, this.chunk.subarray(0, this.used));
    this.written += this.used;
    this.used = 0;
  }

  finish(keys: Uint32Array, offsets: Uint32Array): SealedPostings {
    try {
      this.drain();
      for (const part of [view(keys), view(offsets), u32(keys.length), Buffer.from(SEGMENT_MAGIC, 'latin1')]) writeAll(this.fd, part);
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
    }
    this.chunk = Buffer.alloc(0);
    return openSegment(this.dir, this.name);
  }
}

/** A stored segment: its keys and offsets read at once, its lists a range at a time while it is open. */
function openSegment(dir: string, name: string): SealedPostings {
  if (!SEGMENT_FILE.test(name)) throw new Error(`not a segment file name: ${name}`);
  const fd = openSync(nodePath.join(dir, name), 'r');
  try {
    const size = fstatSync(fd).size;
    const trailer = size < 8 ? Buffer.alloc(0) : readAt(fd, size - 8, 8);
    if (trailer.length < 8 || trailer.toString('latin1', 4, 8) !== SEGMENT_MAGIC) throw new Error('a truncated segment file');
    const count = trailer.readUInt32LE(0);
    const tableAt = size - 8 - 4 * (2 * count + 1);
    if (tableAt < 0) throw new Error('a truncated segment file');
    // Read into a fresh (aligned) array.
    const words = new Uint32Array(2 * count + 1);
    if (readInto(fd, new Uint8Array(words.buffer), tableAt) !== words.byteLength) throw new Error('a truncated segment file');
    const keys = words.subarray(0, count);
    const offsets = words.subarray(count);
    if (offsets[count] !== tableAt) throw new Error('a damaged segment file');
    let open = true;
    const data: PostingBytes = {
      byteLength: tableAt,
      range: (start, end) => readAt(fd, start, end - start),
      close: () => {
        if (open) closeSync(fd);
        open = false;
      },
    };
    return { keys, offsets, data, name };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Writes a segment held in memory to a file of its own in `dir`; returns it as read from there. */
function storeSegment(dir: string, segment: SealedPostings): SealedPostings {
  const file = new SegmentFile(dir);
  file.append(segment.data.range(0, segment.data.byteLength));
  return file.finish(segment.keys, segment.offsets);
}

/** Writes the table (index.bin) naming the index's segments, all stored. Returns its bytes. */
function writeTable(dir: string, meta: IndexMeta, index: ContentIndex): number {
  const { files, segments } = index.held();
  const ended = (paths: readonly string[]) => Buffer.from(paths.length === 0 ? '' : `${paths.join('\0')}\0`, 'utf8');
  const listings = meta.listings ?? [];
  const lists = [
    ended(Array.from({ length: files.length }, (_, id) => files.path(id) ?? '')),
    ...listings.flatMap((listing) => [ended(listing.relatives), ended(listing.watched.map((watched) => watched.path))]),
  ];
  const stamps = [...listings.map((listing) => view(packStamps(listing.watched.map((watched) => watched.stamp)))), view(files.packedStamps())];
  const header: Header = {
    meta: {
      ...meta,
      listings: meta.listings?.map(({ relatives: _relatives, bases, watched, ...listing }) => ({
        ...listing,
        bases: baseRuns(bases),
        watched: watched.length,
      })),
    },
    segments: segments.map((segment) => segment.name!),
    kinds: Array.from({ length: files.length }, (_, id) => {
      const kind = files.kind(id);
      return kind ? KIND_CODES[kind] : DEAD;
    }).join(''),
    files: files.length,
    lists: lists.map((list) => list.length),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const parts = [Buffer.from(MAGIC, 'latin1'), u32(FORMAT_VERSION), u32(json.length), json, ...lists, ...stamps];
  const target = nodePath.join(dir, INDEX_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  let written = 0;
  try {
    for (const part of parts) {
      writeAll(fd, part);
      written += part.length;
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, target);
  return written;
}

/** Removes the segment files of `dir` the table does not name (a file still open elsewhere stays readable there; one that cannot be removed now is removed by a later save). */
function removeUnnamed(dir: string, named: ReadonlySet<string>): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!SEGMENT_FILE.test(entry) || named.has(entry)) continue;
    try {
      rmSync(nodePath.join(dir, entry), { force: true });
    } catch {
      // removed by a later save
    }
  }
}

export interface SaveOptions {
  /** Compact when the index has too many segments (default); false for a save half way through a build. */
  compact?: boolean;
}

/**
 * Writes the index into `dir` (created when missing): the segments held in memory to files of their
 * own, compacted first when there are too many (written a list at a time), then the table naming them;
 * segment files no longer named are removed. Returns the bytes the index takes on disk.
 */
export function saveIndex(dir: string, meta: IndexMeta, index: ContentIndex, options: SaveOptions = {}): number {
  mkdirSync(dir, { recursive: true });
  storeSegments(dir, index);
  if (options.compact !== false && index.needsCompaction()) index.compact(new SegmentFile(dir));
  const tableBytes = writeTable(dir, meta, index);
  const { segments } = index.held();
  removeUnnamed(dir, new Set(segments.map((segment) => segment.name!)));
  return segments.reduce((sum, { keys, offsets, data }) => sum + data.byteLength + keys.byteLength + offsets.byteLength + 8, tableBytes);
}

/**
 * Stores the lists added so far (a build calls it after each flush, builder.ts), so they leave memory,
 * and merges the newest segments while they are of a size (contentIndex.ts mergeNewest).
 */
export function storeSegments(dir: string, index: ContentIndex): void {
  mkdirSync(dir, { recursive: true });
  index.flush();
  index.storeSegments((segment) => storeSegment(dir, segment));
  index.mergeNewest(() => new SegmentFile(dir));
}

/** A build stores the table of what it finished at most this often (ms): a build stopped then (a window reloaded) keeps it. */
const CHECKPOINT_EVERY_MS = 10_000;

/**
 * A build's onFlush (builder.ts) that stores as it goes: each segment as soon as it is encoded (its lists
 * leave memory), and the table naming them at most every `everyMs`, so a build stopped half way keeps
 * what it finished and the next one reads only the rest.
 */
export function storingAsItGoes(dir: string, meta: () => IndexMeta, index: ContentIndex, everyMs = CHECKPOINT_EVERY_MS): () => void {
  let stored = Date.now();
  return () => {
    storeSegments(dir, index);
    if (Date.now() - stored < everyMs) return;
    saveIndex(dir, meta(), index, { compact: false });
    stored = Date.now();
  };
}

/** Removes the index stored in `dir` (a workspace that keeps its file list only stores no content). */
export function removeIndex(dir: string): void {
  rmSync(nodePath.join(dir, INDEX_FILE), { force: true });
  removeUnnamed(dir, new Set());
}

/** Bytes of a list read and decoded in one step: about 2,500 paths (a mebibyte held the extension host 65 ms). */
const LIST_CHUNK = 1 << 18;

/** How far past the last path matched KnownPaths looks for the next (the known paths a table does not hold in a row). */
const KNOWN_LOOKAHEAD = 256;

/**
 * Paths the opener holds already (the files a build was given, in the order it was given them; the table
 * of the index a content refresh replaces), in about the order of a table's: a path read from the table is
 * held as the known string of the same text, found a few places past the last one matched, so a path both
 * listed and indexed is one string, and the table's own strings die young. One the known paths do not
 * hold there (a file added since) keeps its own string.
 */
class KnownPaths {
  private at = 0;
  /** The paths taken as known strings so far. */
  held = 0;

  constructor(private readonly known: ReadonlyArray<string | undefined>) {}

  take(path: string): string {
    const { known } = this;
    // (the holes of a table's ids, where no file is, do not count)
    for (let i = this.at, looked = 0; i < known.length && looked < KNOWN_LOOKAHEAD; i++) {
      const candidate = known[i];
      if (candidate === undefined) continue;
      if (candidate === path) {
        this.at = i + 1;
        this.held++;
        return candidate;
      }
      looked++;
    }
    return path;
  }
}

/**
 * The NUL-ended paths of the `length` bytes at `position`, read and decoded a chunk at a time (steps of
 * how many) into one buffer: a buffer a chunk would be memory outside the heap that sets off the
 * reader's garbage collections (about 50 MB of them at 500,000 files, on the extension host's thread); each
 * the string `known` holds for it, when it holds one.
 */
function* readList(fd: number, position: number, length: number, known?: KnownPaths): Steps<string[]> {
  const paths: string[] = [];
  const chunk = Buffer.allocUnsafe(Math.min(LIST_CHUNK, length));
  for (const end = position + length; position < end;) {
    const into = chunk.subarray(0, Math.min(LIST_CHUNK, end - position));
    const bytes = into.subarray(0, readInto(fd, into, position));
    // The chunk up to its last NUL: whole paths (the rest is read again with the next chunk).
    const cut = bytes.lastIndexOf(END);
    if (cut === -1) throw new Error('a damaged index file');
    const run = bytes.toString('utf8', 0, cut).split('\0');
    for (const path of run) paths.push(known ? known.take(path) : path);
    position += cut + 1;
    yield run.length;
  }
  return paths;
}

/**
 * A table read from `dir`: its header, its file table's paths and stamps, and each listing's paths and
 * the stamps of its watched paths (none when they were not asked for).
 */
interface Table {
  header: Header;
  paths: string[];
  stamps: Float64Array;
  listed: Array<{ relatives: string[]; watched: string[] }>;
  listedStamps: Float64Array;
  /** How many of `paths` are the known strings the reader was given. */
  pathsKnown?: number;
}

/** The header of an open table file, and where its lists begin; throws when it is not one this version can use. */
function readHeader(fd: number): { header: Header; listsAt: number } {
  const start = readAt(fd, 0, 12);
  if (start.length < 12 || start.toString('latin1', 0, 4) !== MAGIC) throw new Error('not an index file');
  if (start.readUInt32LE(4) !== FORMAT_VERSION) throw new Error('an index of another format version');
  const jsonLength = start.readUInt32LE(8);
  return { header: JSON.parse(readAt(fd, 12, jsonLength).toString('utf8')) as Header, listsAt: 12 + jsonLength };
}

/**
 * Whether `dir` holds an index this version can open, built for these folders in this order, by its
 * header alone (milliseconds, where opening it takes hundreds at 500,000 files): what to do as a
 * window opens is decided before the index is open.
 */
export function storedFor(dir: string, folders: readonly string[]): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(nodePath.join(dir, INDEX_FILE), 'r');
    return sameList(readHeader(fd).header.meta.folders, folders);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads the table of `dir` (timeSlices.ts Steps), with the recorded listings when `listingsToo`;
 * throws with the reason when it is not one this version can use.
 */
function* readTable(dir: string, listingsToo: boolean, known?: ReadonlyArray<string | undefined>): Steps<Table> {
  const fd = openSync(nodePath.join(dir, INDEX_FILE), 'r');
  try {
    const size = fstatSync(fd).size;
    const { header, listsAt } = readHeader(fd);
    const stampsAt = header.lists.reduce((at, length) => at + length, listsAt);
    const listings = header.meta.listings ?? [];
    const stamped = listings.reduce((count, listing) => count + listing.watched, header.files);
    if (stampsAt + Float64Array.BYTES_PER_ELEMENT * PACKED_STAMP * stamped !== size) throw new Error('a truncated index file');
    if (header.lists.length !== 1 + 2 * listings.length) throw new Error('a damaged index file');
    const lists: string[][] = [];
    const read = listingsToo ? header.lists.length : 1;
    const knownPaths = known && new KnownPaths(known);
    for (let i = 0, at = listsAt; i < read; at += header.lists[i++]) lists.push(yield* readList(fd, at, header.lists[i], i === 0 ? knownPaths : undefined));
    const [paths, ...ofListings] = lists;
    const listed = listingsToo ? listings.map((_, i) => ({ relatives: ofListings[2 * i], watched: ofListings[2 * i + 1] })) : [];
    const counted = (runs: ReadonlyArray<[number, number]>) => runs.reduce((n, [, count]) => n + count, 0);
    if (
      paths.length !== header.files ||
      listed.some(({ relatives, watched }, i) => watched.length !== listings[i].watched || relatives.length !== counted(listings[i].bases))
    )
      throw new Error('a damaged index file');
    // Each listing's watched paths' stamps come first, then the file table's.
    const listedStamps = new Float64Array(listingsToo ? PACKED_STAMP * (stamped - header.files) : 0);
    const stamps = new Float64Array(PACKED_STAMP * header.files);
    const filesAt = stampsAt + Float64Array.BYTES_PER_ELEMENT * PACKED_STAMP * (stamped - header.files);
    // (LIST_CHUNK bytes a step: the stamps of 447,000 files are 14 MB)
    for (const [into, at] of [
      [new Uint8Array(listedStamps.buffer), stampsAt],
      [new Uint8Array(stamps.buffer), filesAt],
    ] as const) {
      for (let done = 0; done < into.length; done += LIST_CHUNK) {
        const part = into.subarray(done, done + LIST_CHUNK);
        if (readInto(fd, part, at + done) !== part.length) throw new Error('a truncated index file');
        yield part.length / (Float64Array.BYTES_PER_ELEMENT * PACKED_STAMP);
      }
    }
    return { header, paths, stamps, listed, listedStamps, pathsKnown: knownPaths?.held };
  } finally {
    closeSync(fd);
  }
}

/**
 * An index opened for searching: its posting lists are read from its segment files until `close()`.
 * `pathsKnown`: how many of its paths are strings the opener gave (openIndexInSlices).
 */
export type OpenIndex = { index: ContentIndex; close(): void; pathsKnown?: number };
type StoredIndex = OpenIndex & { meta: IndexMeta };

/**
 * The index stored in `dir`, or undefined when there is none or it cannot be used (another format,
 * damaged, a segment missing). Its posting lists are read from the open segment files as queries need
 * them, until `close()` (a later save renames a new table into place and leaves open files intact).
 */
export function loadIndex(dir: string): StoredIndex | undefined {
  return finishSteps(loading(dir, true));
}

/**
 * The index stored in `dir` without its recorded listings, a slice at a time, for a thread others share
 * (the extension host, which lists the workspace through VS Code: reading the listings there made
 * hundreds of thousands of strings only to drop them). `known`: paths the caller holds, in about the
 * table's order (KnownPaths), held as the index's own (at 447,000 files the table's strings were about 60 MB).
 */
export async function openIndexInSlices(dir: string, slices = new TimeSlices(), known?: ReadonlyArray<string | undefined>): Promise<OpenIndex | undefined> {
  return await finishStepsInSlices(loading(dir, false, known), slices);
}

/**
 * loadIndex's work (timeSlices.ts Steps): the table's lists read and its entries taken a run at a time;
 * the recorded listings only when `listingsToo`; paths held as `known`'s strings (openIndexInSlices).
 */
function* loading(dir: string, listingsToo: boolean, known?: ReadonlyArray<string | undefined>): Steps<StoredIndex | undefined> {
  let table: Table;
  try {
    table = yield* readTable(dir, listingsToo, known);
  } catch {
    return undefined;
  }
  const { header, paths, listed } = table;
  const listings: RecordedListing[] = [];
  let at = 0;
  for (const [i, { bases, watched, ...listing }] of (listingsToo ? (header.meta.listings ?? []) : []).entries()) {
    const files = basesOf(bases);
    yield files.length;
    const stamps = unpackStamps(table.listedStamps.subarray(PACKED_STAMP * at, PACKED_STAMP * (at += watched)));
    listings.push({
      ...listing,
      bases: files,
      relatives: listed[i].relatives,
      watched: listed[i].watched.map((path, k) => (stamps[k] ? { path, stamp: stamps[k] } : { path })),
    });
    yield watched;
  }
  const segments: SealedPostings[] = [];
  try {
    // (a step each: a segment's table of keys and offsets is megabytes)
    for (const name of header.segments) {
      segments.push(openSegment(dir, name));
      yield segments[segments.length - 1].keys.length;
    }
  } catch {
    for (const segment of segments) segment.data.close?.();
    return undefined;
  }
  const kinds = new Uint8Array(paths.length);
  const held = new Array<string | undefined>(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const code = header.kinds[i];
    kinds[i] = code === DEAD ? 0 : FileTable.kindCode(KINDS_BY_CODE[code] ?? 'unread');
    held[i] = code === DEAD ? undefined : paths[i];
    if (i % STEP_FILES === STEP_FILES - 1) yield STEP_FILES;
  }
  const index = yield* ContentIndex.made(FileTable.columns(held, kinds, table.stamps), segments);
  const meta = { ...header.meta, listings: listingsToo ? header.meta.listings && listings : undefined };
  return { meta, index, close: () => index.close(), pathsKnown: table.pathsKnown };
}

/** `openIndexInSlices`, when the index stored in `dir` was built for these folders, in this order (loadIndexFor). */
export async function openIndexFor(dir: string, folders: readonly string[], slices = new TimeSlices()): Promise<OpenIndex | undefined> {
  return builtFor(await finishStepsInSlices(loading(dir, false), slices), folders);
}

/** The stored index when it was built for these folders; otherwise undefined, closed. */
function builtFor(stored: StoredIndex | undefined, folders: readonly string[]): StoredIndex | undefined {
  if (stored && !sameList(stored.meta.folders, folders)) {
    stored.close();
    return undefined;
  }
  return stored;
}

/** The index stored in `dir` when it was built for these folders, in this order; undefined otherwise (none, or another set of folders). */
export function loadIndexFor(dir: string, folders: readonly string[]): ReturnType<typeof loadIndex> {
  return builtFor(loadIndex(dir), folders);
}
