/**
 * The content index: a table of files (what was indexed, and the size, times and inode it had then) and
 * trigram posting lists mapping each folded trigram (fold.ts) to the files holding it. Sealed lists are
 * delta-varints in one byte array (searched by key); files added since are appended to a tail of postings; a
 * file replaced or removed leaves its old id behind, unreachable by path, until the next seal.
 */
import { keepNewest } from '../api/kept';
import { packedSizeAt, packedStampIs, packStampAt, PACKED_STAMP, unpackStampAt, type FileStamp } from '../source/fileStamp';
import { ASCII_FOLD, ASCII_KEYS, forEachTrigram } from './fold';
import { appendContinued, ByteWriter, decodeIds, encodeIds, intersect, keepListed, union, type ByteSink } from './postings';
import type { Query } from './query';
import { finishSteps, TimeSlices, type Steps } from '../source/timeSlices';

/**
 * Per ASCII trigram key, the last text (by a counter shared by every index of the process) it was met in:
 * a trigram repeated in a text is skipped before its list is looked up.
 */
let seen: Uint8Array | undefined;
let texts = 0;

/** A mark for the next text in `seen` (every ASCII key unmarked for it). Marks are bytes, so the table (2 MB) stays in the cache; it is cleared every 255 texts. */
function nextText(): { marks: Uint8Array; current: number } {
  seen ??= new Uint8Array(ASCII_KEYS);
  if (++texts === 0x100) {
    seen.fill(0);
    texts = 1;
  }
  return { marks: seen, current: texts };
}

/** Where `key` is in sorted `keys` (a binary search), or -1. */
function indexOfKey(keys: Uint32Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else if (keys[mid] > key) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Postings the tail makes room for on its first add (it doubles as it fills). */
const TAIL_FIRST = 1 << 16;

/** Bits of the key a radix pass sorts by (2^11 counters: they stay in the cache). */
const RADIX_BITS = 11;

/**
 * The postings added since the last seal, a key and an id each, appended as they are added (ids in the
 * order added, so ascending) into two typed arrays: the build's innermost step writes two numbers, with
 * no list to find, and holds 8 bytes a posting. They are grouped by key (a stable radix sort, so each
 * key's ids stay ascending; an id repeated under a key, which only a hashed key can be, is kept once)
 * when a flush takes them or a query asks for a key's list.
 */
class TailPostings {
  private keys = new Uint32Array(0);
  private ids = new Uint32Array(0);
  /** Postings appended (repeats of a hashed key in a file included). */
  postings = 0;
  /** Whether a key above the ASCII range was added (the sort then takes one more pass). */
  private hashed = false;
  /** The postings grouped by key, until the next add. */
  private grouped: GroupedPostings | undefined;

  add(key: number, id: number): void {
    if (this.postings === this.keys.length) this.grow();
    this.keys[this.postings] = key;
    this.ids[this.postings++] = id;
    if (key >= ASCII_KEYS) this.hashed = true;
    this.grouped = undefined;
  }

  private grow(): void {
    const keys = new Uint32Array(Math.max(TAIL_FIRST, this.keys.length * 2));
    const ids = new Uint32Array(keys.length);
    keys.set(this.keys);
    ids.set(this.ids);
    this.keys = keys;
    this.ids = ids;
  }

  /** The ids added under `key` (ascending, distinct), or undefined when none was. */
  get(key: number): number[] | undefined {
    if (this.postings === 0) return undefined;
    const { keys, starts, ids } = this.grouping();
    const at = indexOfKey(keys, key);
    return at === -1 ? undefined : Array.from(ids.subarray(starts[at], starts[at + 1]));
  }

  /** The postings grouped by key (kept until the next add). */
  private grouping(): GroupedPostings {
    return (this.grouped ??= groupByKey(this.keys.subarray(0, this.postings), this.ids.subarray(0, this.postings), this.hashed));
  }

  /** Every key with its ids, keys ascending; the tail is emptied (and lets go of its room). */
  take(): GroupedPostings {
    const grouped = this.grouping();
    this.keys = new Uint32Array(0);
    this.ids = new Uint32Array(0);
    this.postings = 0;
    this.hashed = false;
    this.grouped = undefined;
    return grouped;
  }
}

/** Postings grouped by key: the distinct keys ascending, and key i's ids at ids[starts[i]] up to ids[starts[i + 1]]. */
interface GroupedPostings {
  keys: Uint32Array;
  starts: Uint32Array;
  ids: Uint32Array;
}

/** One stable pass of the radix sort: the postings of `keys`/`ids` into `toKeys`/`toIds` by the RADIX_BITS of the key from `shift`. */
function radixPass(keys: Uint32Array, ids: Uint32Array, toKeys: Uint32Array, toIds: Uint32Array, shift: number, counts: Uint32Array): void {
  const n = keys.length;
  const mask = counts.length - 1;
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(keys[i] >>> shift) & mask]++;
  for (let digit = 0, sum = 0; digit <= mask; digit++) {
    const count = counts[digit];
    counts[digit] = sum;
    sum += count;
  }
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    const at = counts[(key >>> shift) & mask]++;
    toKeys[at] = key;
    toIds[at] = ids[i];
  }
}

/** Groups postings (ids ascending in the order given) by key: a stable LSD radix sort of copies, then each key's repeated ids dropped. */
export function groupByKey(keys: Uint32Array, ids: Uint32Array, hashed: boolean): GroupedPostings {
  const n = keys.length;
  type Postings = { keys: Uint32Array; ids: Uint32Array };
  const given: Postings = { keys, ids };
  const copy = (): Postings => ({ keys: new Uint32Array(n), ids: new Uint32Array(n) });
  // Each pass reads `from` and writes `to`; the postings given are read by the first pass only, never written.
  let from = given;
  let to = copy();
  const counts = new Uint32Array(1 << RADIX_BITS);
  for (let shift = 0; shift < (hashed ? 30 : 21); shift += RADIX_BITS) {
    radixPass(from.keys, from.ids, to.keys, to.ids, shift, counts);
    [from, to] = [to, from === given ? copy() : from];
  }
  const { keys: sortedKeys, ids: sortedIds } = from;
  let distinct = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sortedKeys[i] !== sortedKeys[i - 1]) distinct++;
  const grouped: GroupedPostings = { keys: new Uint32Array(distinct), starts: new Uint32Array(distinct + 1), ids: sortedIds };
  let kept = 0;
  let group = -1;
  for (let i = 0; i < n; i++) {
    const key = sortedKeys[i];
    if (i === 0 || key !== sortedKeys[i - 1]) {
      grouped.keys[++group] = key;
      grouped.starts[group] = kept;
    } else if (sortedIds[i] === sortedIds[kept - 1]) continue;
    sortedIds[kept++] = sortedIds[i];
  }
  grouped.starts[distinct] = kept;
  return grouped;
}

/**
 * What the index knows of a file's content: text (its trigrams are indexed), binary (a NUL byte in its
 * first 8 KB), larger than the index takes (`large`), or nothing to rely on, so a search always reads
 * it: `unread` (it could not be read, or changed while it was indexed) or `linked` (reached through a
 * symlink: a change of its target is no event in its directory, so no watcher vouches for it either).
 */
export type FileKind = 'text' | 'binary' | 'large' | 'unread' | 'linked';

export interface FileEntry extends FileStamp {
  path: string;
  kind: FileKind;
}

/** Files taken between two yields of the work that loads an index (ContentIndex.made, store.ts loading). */
export const STEP_FILES = 1024;

/** The kinds by their code in FileTable (0: no file, the id of one replaced or removed). */
const KINDS: readonly (FileKind | undefined)[] = [undefined, 'text', 'binary', 'large', 'unread', 'linked'];
const KIND_CODE: Readonly<Record<FileKind, number>> = { text: 1, binary: 2, large: 3, unread: 4, linked: 5 };

/**
 * The files by id, in columns: a path, a kind's code and the stamp's four numbers (packed as packStamps
 * packs them, NaN for no file). As one object per file, with its numbers each an object of its own, the
 * table of 450,000 files was 2.2 million of the extension host's 5.7 million heap objects, which every
 * full garbage collection walks.
 */
export class FileTable {
  private constructor(
    private readonly paths: Array<string | undefined>,
    private kinds: Uint8Array,
    private stamps: Float64Array,
  ) {}

  static of(files: ReadonlyArray<FileEntry | undefined>): FileTable {
    const table = new FileTable([], new Uint8Array(files.length), new Float64Array(PACKED_STAMP * files.length));
    for (const file of files) table.push(file);
    return table;
  }

  /** The table of `paths` (undefined for no file), kinds by code (FileTable.kindCode) and packed stamps, as they are: not copied. */
  static columns(paths: Array<string | undefined>, kinds: Uint8Array, stamps: Float64Array): FileTable {
    return new FileTable(paths, kinds, stamps);
  }

  static kindCode(kind: FileKind): number {
    return KIND_CODE[kind];
  }

  get length(): number {
    return this.paths.length;
  }

  /** Adds a file (or no file) at the next id; returns it. */
  push(file: FileEntry | undefined): number {
    const id = this.paths.length;
    if (this.kinds.length <= id) {
      const room = Math.max(1024, 2 * id);
      const kinds = new Uint8Array(room);
      kinds.set(this.kinds.subarray(0, id));
      const stamps = new Float64Array(PACKED_STAMP * room);
      stamps.set(this.stamps.subarray(0, PACKED_STAMP * id));
      this.kinds = kinds;
      this.stamps = stamps;
    }
    this.paths.push(file?.path);
    this.kinds[id] = file ? KIND_CODE[file.kind] : 0;
    packStampAt(this.stamps, id, file);
    return id;
  }

  /** Leaves the id without a file. */
  drop(id: number): void {
    this.paths[id] = undefined;
    this.kinds[id] = 0;
    packStampAt(this.stamps, id, undefined);
  }

  path(id: number): string | undefined {
    return this.paths[id];
  }

  /** The paths by id (undefined for no file): the table's own array, not a copy. */
  pathsById(): ReadonlyArray<string | undefined> {
    return this.paths;
  }

  kind(id: number): FileKind | undefined {
    return KINDS[this.kinds[id]];
  }

  size(id: number): number {
    return packedSizeAt(this.stamps, id);
  }

  /** Whether the file of `id` has this stamp. */
  stamped(id: number, stamp: FileStamp): boolean {
    return packedStampIs(this.stamps, id, stamp);
  }

  /** The file of `id` as an entry (made now: for the few a caller asks for), or undefined for no file. */
  get(id: number): FileEntry | undefined {
    const path = this.paths[id];
    const kind = KINDS[this.kinds[id]];
    const stamp = unpackStampAt(this.stamps, id);
    return path === undefined || kind === undefined || stamp === undefined ? undefined : { path, kind, ...stamp };
  }

  /** The stamps as stored (store.ts, packStamps), PACKED_STAMP numbers per id: the table's own, not a copy. */
  packedStamps(): Float64Array {
    return this.stamps.subarray(0, PACKED_STAMP * this.length);
  }

  /** The table of the ids `renumber` keeps (at their new ids, in order). */
  renumbered(renumber: Int32Array, kept: number): FileTable {
    const table = new FileTable(new Array<string | undefined>(kept), new Uint8Array(kept), new Float64Array(PACKED_STAMP * kept));
    for (let id = 0; id < renumber.length; id++) {
      const to = renumber[id];
      if (to < 0) continue;
      table.paths[to] = this.paths[id];
      table.kinds[to] = this.kinds[id];
      table.stamps.set(this.stamps.subarray(PACKED_STAMP * id, PACKED_STAMP * (id + 1)), PACKED_STAMP * to);
    }
    return table;
  }
}

/** A segment: the encoded lists of the files added between two flushes (or of every file, once compacted). */
export interface SealedPostings {
  /** Sorted trigram keys. */
  keys: Uint32Array;
  /** keys.length + 1 offsets into data. */
  offsets: Uint32Array;
  data: PostingBytes;
  /** The file it is stored in (store.ts); undefined while it is held in memory only. */
  name?: string;
}

/** The posting lists' bytes: in memory, or read from a segment file a range at a time (store.ts). */
export interface PostingBytes {
  byteLength: number;
  range(start: number, end: number): Uint8Array;
  /** Lets go of the file it reads (a stored segment). */
  close?(): void;
}

/** Where a compaction writes the merged lists (bytes), and what makes them a segment once every list is written. */
export interface PostingsSink extends ByteSink {
  finish(keys: Uint32Array, offsets: Uint32Array): SealedPostings;
}

/** A PostingsSink in memory. */
export class MemoryPostings extends ByteWriter implements PostingsSink {
  finish(keys: Uint32Array, offsets: Uint32Array): SealedPostings {
    return { keys, offsets, data: inMemory(this.result()) };
  }
}

/** More segments than this, or more than a quarter of the ids dead, and a save compacts the index into one segment. */
export const MAX_SEGMENTS = 8;

/** Bytes read at a time when a compaction walks a segment's lists in order. */
const READ_WINDOW = 1 << 20;

/** Reads ranges of `data` that come in increasing order through a window of READ_WINDOW bytes (one read per window, not per list). */
function readInOrder(data: PostingBytes): (start: number, end: number) => Uint8Array {
  let base = 0;
  let window: Uint8Array = new Uint8Array(0);
  return (start, end) => {
    if (start < base || end > base + window.length) {
      base = start;
      const read = data.range(start, Math.min(data.byteLength, Math.max(end, start + READ_WINDOW)));
      // A plain view of it: a Buffer's subarray (one a list) costs several times a Uint8Array's.
      window = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    }
    return window.subarray(start - base, end - base);
  };
}

export function inMemory(bytes: Uint8Array): PostingBytes {
  return { byteLength: bytes.byteLength, range: (start, end) => bytes.subarray(start, end) };
}

/**
 * A trigram's posting list as held: where it is encoded in each segment holding it (read only when the
 * list is decoded or walked), then the ids added since the seal; each part's ids are larger than the
 * ones before. `bytes` sizes it (about one byte per id in a long list).
 */
interface TrigramList {
  ranges: Array<{ data: PostingBytes; start: number; end: number }>;
  tail?: readonly number[];
  bytes: number;
}

function decodeList({ ranges, tail }: TrigramList): number[] {
  const ids: number[] = [];
  for (const { data, start, end } of ranges) {
    const bytes = data.range(start, end);
    decodeIds(bytes, 0, bytes.length, ids);
  }
  if (tail) for (const id of tail) ids.push(id);
  return ids;
}

/** The ids of `sorted` the list holds too. */
function keepListedIn(sorted: readonly number[], { ranges, tail }: TrigramList): number[] {
  const kept: number[] = [];
  let from = 0;
  for (const { data, start, end } of ranges) {
    if (from === sorted.length) return kept;
    const bytes = data.range(start, end);
    from = keepListed(sorted, from, bytes, 0, bytes.length, kept);
  }
  if (tail) for (const id of intersect(sorted.slice(from), tail)) kept.push(id);
  return kept;
}

/**
 * The lists of `segments` (in id order) merged key by key into `sink`, each segment read in order a window
 * at a time; with `renumber`, each id becomes renumber[id] (-1: dropped).
 */
function mergeSegments(segments: readonly SealedPostings[], sink: PostingsSink, renumber?: Int32Array): SealedPostings {
  const readers = segments.map((segment) => ({ ...segment, read: readInOrder(segment.data), at: 0 }));
  const kept: number[] = [];
  const offsets: number[] = [0];
  const decoded: number[] = [];
  const ids: number[] = [];
  const holding: typeof readers = [];
  for (;;) {
    let key = Infinity;
    for (const reader of readers) if (reader.at < reader.keys.length && reader.keys[reader.at] < key) key = reader.keys[reader.at];
    if (key === Infinity) break;
    holding.length = 0;
    for (const reader of readers) if (reader.at < reader.keys.length && reader.keys[reader.at] === key) holding.push(reader);
    const start = sink.length;
    if (renumber) {
      ids.length = 0;
      for (const reader of holding) {
        decoded.length = 0;
        const bytes = reader.read(reader.offsets[reader.at], reader.offsets[reader.at + 1]);
        for (const id of decodeIds(bytes, 0, bytes.length, decoded)) {
          const kept = renumber[id];
          if (kept !== -1) ids.push(kept);
        }
      }
      encodeIds(ids, sink);
    } else {
      // Ids unchanged: each segment's ids are larger than the ones before, so its list continues the merged one.
      let last = -1;
      holding.forEach((reader, i) => {
        const bytes = reader.read(reader.offsets[reader.at], reader.offsets[reader.at + 1]);
        last = appendContinued(bytes, last, sink, i < holding.length - 1) ?? last;
      });
    }
    for (const reader of holding) reader.at++;
    if (sink.length === start) continue;
    kept.push(key);
    offsets.push(sink.length);
  }
  return sink.finish(Uint32Array.from(kept), Uint32Array.from(offsets));
}

/** Lists in a row that left the candidates as they were, before the longer ones are left unread (restUnread). */
export const AGREED_AFTER = 3;

/**
 * Whether a conjunction's remaining trigram lists are left unread: the last AGREED_AFTER lists (rarest
 * first) removed no candidate, and the next list is longer (in bytes, about one a file id in a long
 * list) than the candidates left. The trigrams of one literal go together: once its rarest ones agree,
 * a frequent one (`ion`, `err`) rarely removes a file, and walking it costs more than reading the few
 * it might. Leaving lists unread only keeps more candidates (each is read and searched): never a file
 * less. Measured on the bench questions: bench/results/ngrams.md.
 */
export function restUnread(candidates: number, unchanged: number, nextBytes: number): boolean {
  return unchanged >= AGREED_AFTER && nextBytes > candidates;
}

/** Queries whose candidates an index keeps (ContentIndex.candidates). */
const QUERIES_KEPT = 8;

/** The maps PathIds spreads its paths over (a power of two). */
const PATH_SHARDS = 16;

/**
 * Each held path's id, in PATH_SHARDS maps chosen by a hash of the path's last characters. A Map grows by
 * making its table again in one step: one map of 447,000 paths held the extension host up to 51 ms at the
 * step where it doubled (opening a built index, in a profile), 17-21 ms in plain Node; sixteen of about
 * 28,000 grow in steps of at most 4-5 ms.
 */
class PathIds {
  private readonly shards = Array.from({ length: PATH_SHARDS }, () => new Map<string, number>());

  private shard(path: string): Map<string, number> {
    let hash = path.length;
    for (let at = path.length - 1, end = Math.max(0, path.length - 8); at >= end; at--) hash = (hash * 31 + path.charCodeAt(at)) | 0;
    return this.shards[hash & (PATH_SHARDS - 1)];
  }

  get(path: string): number | undefined {
    return this.shard(path).get(path);
  }

  set(path: string, id: number): void {
    this.shard(path).set(path, id);
  }

  delete(path: string): void {
    this.shard(path).delete(path);
  }

  get size(): number {
    return this.shards.reduce((size, shard) => size + shard.size, 0);
  }

  *keys(): IterableIterator<string> {
    for (const shard of this.shards) yield* shard.keys();
  }

  *values(): IterableIterator<number> {
    for (const shard of this.shards) yield* shard.values();
  }
}

/** Each held path of `files` with its id, and how many ids hold no file, a run of files at a time. */
function* lookupOf(files: FileTable): Steps<{ byPath: PathIds; dead: number }> {
  const byPath = new PathIds();
  let dead = 0;
  for (let id = 0; id < files.length; id++) {
    const path = files.path(id);
    if (path !== undefined) byPath.set(path, id);
    else dead++;
    if (id % STEP_FILES === STEP_FILES - 1) yield STEP_FILES;
  }
  return { byPath, dead };
}

export class ContentIndex {
  private files = FileTable.of([]);
  private byPath = new PathIds();
  /** Encoded lists, in id order: the stored ones, then those a build flushed since. */
  private segments: SealedPostings[];
  /** Postings added since the seal. */
  private readonly tail = new TailPostings();
  private dead = 0;
  /** Counts the changes of which id a path has (set, remove, seal): ids worked out before one are stale. */
  private version = 0;
  /** What `candidates` found, by query, at `evaluatedAt` (a version). */
  private readonly evaluated = new Map<string, number[] | undefined>();
  private evaluatedAt = 0;
  /** idsOf's answers, per list. */
  private readonly listedIds = new WeakMap<readonly { path: string }[], { version: number; ids: Int32Array }>();

  /** `files` by id: undefined for the id of a file replaced or removed since the segments were compacted. */
  constructor(files: ReadonlyArray<FileEntry | undefined> = [], segments: readonly SealedPostings[] = []) {
    this.segments = segments.slice();
    finishSteps(this.holding(FileTable.of(files)));
  }

  /** The index of this table (taken as it is) and segments, made a run of files at a time (timeSlices.ts Steps). */
  static *made(files: FileTable, segments: readonly SealedPostings[]): Steps<ContentIndex> {
    const index = new ContentIndex([], segments);
    yield* index.holding(files);
    return index;
  }

  /** Takes `files` as its files by id. */
  private *holding(files: FileTable): Steps<void> {
    this.files = files;
    const { byPath, dead } = yield* lookupOf(files);
    this.byPath = byPath;
    this.dead += dead;
  }

  get size(): number {
    return this.byPath.size;
  }

  entry(path: string): { id: number; file: FileEntry } | undefined {
    const id = this.byPath.get(path);
    return id === undefined ? undefined : { id, file: this.files.get(id)! };
  }

  /** The id of a file the index holds (entry without its object: a search asks for every file; fileOf and the like read by id). */
  idOf(path: string): number | undefined {
    return this.byPath.get(path);
  }

  /**
   * The id of each file of a list, in order (-1: not held). Worked out once per list while the index
   * keeps its ids: a list kept between calls (a resident listing, filtered once) costs one lookup per
   * file, not one per file and search.
   */
  idsOf(list: readonly { path: string }[]): Int32Array {
    const known = this.knownIds(list);
    if (known) return known;
    const ids = new Int32Array(list.length);
    for (let i = 0; i < list.length; i++) ids[i] = this.byPath.get(list[i].path) ?? -1;
    this.listedIds.set(list, { version: this.version, ids });
    return ids;
  }

  /** `idsOf`, a slice at a time (timeSlices.ts), for a thread others share: the ids as they are when it ends (worked out again at once when they changed meanwhile). */
  async idsOfInSlices(list: readonly { path: string }[], slices = new TimeSlices()): Promise<Int32Array> {
    const known = this.knownIds(list);
    if (known) return known;
    const version = this.version;
    const ids = new Int32Array(list.length);
    for (let i = 0; i < list.length; i++) {
      if (slices.due()) {
        await slices.pause();
        // (a change of ids meanwhile: worked out again, at once)
        if (this.version !== version) return this.idsOf(list);
      }
      ids[i] = this.byPath.get(list[i].path) ?? -1;
    }
    this.listedIds.set(list, { version, ids });
    return ids;
  }

  private knownIds(list: readonly { path: string }[]): Int32Array | undefined {
    const known = this.listedIds.get(list);
    return known?.version === this.version && known.ids.length === list.length ? known.ids : undefined;
  }

  /** One more than the largest id (ids of removed files included): the length of a table by id. */
  get idLimit(): number {
    return this.files.length;
  }

  /** Changes whenever a path's id changes: what was worked out by id under another value is stale. */
  get idVersion(): number {
    return this.version;
  }

  /** The entry of a held file's id (idOf), made now: a search's per-file checks read by id instead (pathOf, kindOf, sizeOf, stamped). */
  fileOf(id: number): FileEntry {
    return this.files.get(id)!;
  }

  /** Whether `id` is a held file's (not one replaced or removed). */
  holds(id: number): boolean {
    return this.files.path(id) !== undefined;
  }

  pathOf(id: number): string {
    return this.files.path(id)!;
  }

  kindOf(id: number): FileKind {
    return this.files.kind(id)!;
  }

  /**
   * The held files' paths by id, undefined where no file is (one replaced or removed): the order of the
   * table a save writes (store.ts), for the opener of the next index to hold as its own (openIndexInSlices).
   * The index's own array: not to be changed, nor kept past a change of the index.
   */
  pathsById(): ReadonlyArray<string | undefined> {
    return this.files.pathsById();
  }

  sizeOf(id: number): number {
    return this.files.size(id);
  }

  /** Whether the held file of `id` had this stamp when indexed. */
  stamped(id: number, stamp: FileStamp): boolean {
    return this.files.stamped(id, stamp);
  }

  paths(): IterableIterator<string> {
    return this.byPath.keys();
  }

  /**
   * Adds a file (replacing the entry of the same path): its text's trigrams when it is text. The text
   * may be given as its bytes when every one is ASCII (each byte is then its code unit): the build reads
   * most files so, without decoding them.
   */
  set(file: FileEntry, text?: string | Uint8Array): void {
    this.remove(file.path);
    this.version++;
    const id = this.files.push(file);
    this.byPath.set(file.path, id);
    if (file.kind !== 'text' || text === undefined || text.length < 3) return;
    // Each distinct trigram once (a non-ASCII one may come more than once: grouping keeps its id once).
    const { marks, current } = nextText();
    const tail = this.tail;
    if (typeof text !== 'string') {
      // An ASCII trigram's key is its three folded units, 7 bits each: it rolls along the bytes.
      let key = (ASCII_FOLD[text[0]] << 7) | ASCII_FOLD[text[1]];
      for (let i = 2; i < text.length; i++) {
        key = ((key << 7) | ASCII_FOLD[text[i]]) & (ASCII_KEYS - 1);
        if (marks[key] === current) continue;
        marks[key] = current;
        tail.add(key, id);
      }
      return;
    }
    forEachTrigram(text, (key) => {
      if (key < ASCII_KEYS) {
        if (marks[key] === current) return;
        marks[key] = current;
      }
      tail.add(key, id);
    });
  }

  remove(path: string): void {
    const id = this.byPath.get(path);
    if (id === undefined) return;
    this.byPath.delete(path);
    this.version++;
    this.files.drop(id);
    this.dead++;
  }

  /**
   * `evaluate`, remembered for the last few queries while no file was added, removed or renumbered (the
   * `version`): a question asked again, or asked by an answer's checks, walks no list. The ids are shared:
   * not to be changed.
   */
  candidates(query: Query): readonly number[] | undefined {
    if (this.evaluatedAt !== this.version) {
      this.evaluated.clear();
      this.evaluatedAt = this.version;
    }
    const key = JSON.stringify(query);
    if (this.evaluated.has(key)) return this.evaluated.get(key);
    return keepNewest(this.evaluated, key, this.evaluate(query), QUERIES_KEPT);
  }

  /** Ids of the files that may satisfy the query; undefined for every file (`all`). */
  evaluate(query: Query): number[] | undefined {
    switch (query.op) {
      case 'all':
        return undefined;
      case 'none':
        return [];
      case 'trigram':
        return decodeList(this.list(query.key));
      case 'and': {
        // The trigrams' lists shortest first (sized without reading them): the first decoded, each next one
        // walked to keep the ids it holds too, none read once nothing is left, and the rest left unread once
        // they stopped narrowing (settled).
        const lists = query.args.flatMap((arg) => (arg.op === 'trigram' ? [this.list(arg.key)] : [])).sort((a, b) => a.bytes - b.bytes);
        let out: number[] | undefined;
        let unchanged = 0;
        for (const list of lists) {
          if (out !== undefined && restUnread(out.length, unchanged, list.bytes)) break;
          const before = out?.length;
          out = out === undefined ? decodeList(list) : keepListedIn(out, list);
          if (out.length === 0) return out;
          unchanged = out.length === before ? unchanged + 1 : 0;
        }
        for (const arg of query.args) {
          if (arg.op === 'trigram') continue;
          const ids = this.evaluate(arg);
          if (ids === undefined) continue;
          out = out === undefined ? ids : intersect(out, ids);
          if (out.length === 0) break;
        }
        return out;
      }
      case 'or': {
        let out: number[] = [];
        for (const arg of query.args) {
          const ids = this.evaluate(arg);
          if (ids === undefined) return undefined;
          out = union(out, ids);
        }
        return out;
      }
    }
  }

  /** A trigram's posting list: where it is encoded in each segment holding it, then the ids added since the seal. */
  private list(key: number): TrigramList {
    const ranges: TrigramList['ranges'] = [];
    let bytes = 0;
    for (const { keys, offsets, data } of this.segments) {
      const at = indexOfKey(keys, key);
      if (at === -1) continue;
      ranges.push({ data, start: offsets[at], end: offsets[at + 1] });
      bytes += offsets[at + 1] - offsets[at];
    }
    const tail = this.tail.get(key);
    return { ranges, tail, bytes: bytes + (tail?.length ?? 0) };
  }

  /** Encodes the lists added since the last seal into a segment of their own (ids unchanged): cheap, bounds memory. */
  flush(): void {
    if (this.tail.postings === 0) return;
    const { keys, starts, ids } = this.tail.take();
    const bytes = new ByteWriter();
    const offsets = new Uint32Array(keys.length + 1);
    for (let i = 0; i < keys.length; i++) {
      encodeIds(ids.subarray(starts[i], starts[i + 1]), bytes);
      offsets[i + 1] = bytes.length;
    }
    this.segments.push({ keys, offsets, data: inMemory(bytes.result()) });
  }

  /** The files by id (undefined: a replaced or removed file's id) and the segments, as they are stored (store.ts). */
  held(): { files: FileTable; segments: readonly SealedPostings[] } {
    return { files: this.files, segments: this.segments };
  }

  /** Replaces each segment held in memory only with what `store` makes of it (the same lists, read from a file). */
  storeSegments(store: (segment: SealedPostings) => SealedPostings): void {
    this.segments = this.segments.map((segment) => (segment.name === undefined ? store(segment) : segment));
  }

  /** Whether a save should compact: too many segments, or too many ids of replaced and removed files left in them. */
  needsCompaction(): boolean {
    return this.segments.length > MAX_SEGMENTS || this.dead * 4 > this.files.length;
  }

  /**
   * Compacts into one segment, written to `sink` a list at a time (the segments are read in order, a
   * window at a time: memory holds the keys and offsets, never all the lists): drops the ids of replaced
   * and removed files, renumbers the rest in order and encodes every list once. The segments it replaces
   * let go of their files.
   */
  compact(sink: PostingsSink = new MemoryPostings()): void {
    this.flush();
    const renumber = new Int32Array(this.files.length).fill(-1);
    let kept = 0;
    for (let id = 0; id < this.files.length; id++) if (this.files.path(id) !== undefined) renumber[id] = kept++;
    const compacted = mergeSegments(this.segments, sink, renumber);
    for (const segment of this.segments) segment.data.close?.();
    this.files = this.files.renumbered(renumber, kept);
    this.version++;
    this.byPath = finishSteps(lookupOf(this.files)).byPath;
    this.segments = [compacted];
    this.dead = 0;
  }

  /**
   * Merges the newest segments into one while the last is at least half the size of the one before it
   * (ids unchanged, each into a new `sink`): a build that flushes again and again keeps about log2 of its
   * flushes as segments (the keys and offsets memory holds), and writes each list a few times, not once
   * per flush. The segments it replaces let go of their files.
   */
  mergeNewest(sink: () => PostingsSink): void {
    for (;;) {
      const [before, last] = this.segments.slice(-2);
      if (!last || last.data.byteLength * 2 < before.data.byteLength) return;
      const merged = mergeSegments([before, last], sink());
      before.data.close?.();
      last.data.close?.();
      this.segments.splice(-2, 2, merged);
    }
  }

  /** Compacts in memory when there is anything to compact. Returns the file table and the one segment. */
  seal(): { files: FileEntry[]; postings: SealedPostings } {
    if (this.dead > 0 || this.tail.postings > 0 || this.segments.length !== 1) this.compact();
    return { files: Array.from({ length: this.files.length }, (_, id) => this.files.get(id)!), postings: this.segments[0] };
  }

  /** Lets go of the files the stored segments are read from. */
  close(): void {
    for (const segment of this.segments) segment.data.close?.();
  }

  /** Postings added since the last seal. */
  pendingPostings(): number {
    return this.tail.postings;
  }

  /** Bytes of the text files indexed (their sizes when read). */
  textBytes(): number {
    let total = 0;
    for (const id of this.byPath.values()) if (this.files.kind(id) === 'text') total += this.files.size(id);
    return total;
  }

  /** Bytes of the sealed postings (keys, offsets, lists), in memory or stored. */
  postingBytes(): number {
    return this.segments.reduce((sum, { keys, offsets, data }) => sum + keys.byteLength + offsets.byteLength + data.byteLength, 0);
  }
}
