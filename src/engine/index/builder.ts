/**
 * Builds or refreshes a content index from a list of files (the files a search of the workspace lists,
 * so nothing denied or ignored is read): a file whose stamp is unchanged keeps its entry, any other is
 * read again, a file no longer listed is dropped.
 */
import * as nodePath from 'path';
import { checkedFileSize } from '../api/config';
import { realPathOfSync, type PathFlavour } from '../guard/paths';
import { readFileCappedSync, scratchBuffer } from '../searcher/reader';
import { isAscii } from 'buffer';
import { decodeText, isBinary } from '../searcher/searcher';
import { sameStamp, statStamp, type FileStamp } from '../source/fileStamp';
import type { ContentIndex, FileEntry } from './contentIndex';

/**
 * A file modified this recently (ms) is not relied on: file times are coarse (a write in the same tick
 * as the index's read could leave size and times unchanged), so it is read by every search until the
 * next refresh. (Any later write, chmod or rename changes the ctime, which is compared too.)
 */
export const RECENT_WRITE_MS = 2000;

/** A build encodes what it added every this many postings, so its memory stays bounded whatever the tree. */
const FLUSH_EVERY = 2_000_000;

export interface RefreshResult {
  /** Files read (new or changed), kept as they were, dropped. */
  read: number;
  kept: number;
  dropped: number;
  /** Bytes of text indexed by this refresh. */
  bytes: number;
}

export interface RefreshOptions {
  /** Files larger than this are not indexed (`large`). */
  maxFileSize: number;
  /** The workspace folders: a file whose real path is not its path below its folder's real path is never relied on. */
  folders: readonly string[];
  isCancelled?: () => boolean;
  /** Called before each file (the caller may pause there) and once at the end. */
  onProgress?: (done: number, total: number) => void;
  /** Given, collects the files read but held unread as written in the last RECENT_WRITE_MS (isRecentWrite): to read again once they have stayed unwritten that long. */
  recent?: string[];
  /** Called after the lists added so far were encoded into a segment (index.flush): the caller may store it (store.ts storingAsItGoes). */
  onFlush?: () => void;
  /** Postings added before a flush (default FLUSH_EVERY). */
  flushEvery?: number;
  /** Stamps already taken of the listed files (limits.ts), used to tell a kept file instead of a stat of its own. */
  stamps?: ReadonlyMap<string, FileStamp | undefined>;
  /** The time the files' stamps are judged at (RECENT_WRITE_MS); default: when the refresh starts. */
  now?: number;
}

/**
 * The real path a file below one of the folders has when no symlink lies between it and its folder
 * (the folder itself may be reached through one).
 */
export function directRealPath(
  folders: readonly string[],
  flavour: PathFlavour = nodePath,
  realPath: (path: string) => string | undefined = realPathOfSync,
): (path: string) => string | undefined {
  const roots = folders.map((folder) => ({ prefix: folder.endsWith(flavour.sep) ? folder : folder + flavour.sep, real: realPath(folder) }));
  return (path) => {
    const root = roots.find((candidate) => path.startsWith(candidate.prefix));
    return root?.real === undefined ? undefined : flavour.join(root.real, path.slice(root.prefix.length));
  };
}

/** Reads one file into the index; returns the text bytes indexed. */
export function indexFile(index: ContentIndex, path: string, maxFileSize: number, direct: (path: string) => string | undefined, now = Date.now()): number {
  const stamp = statStamp(path);
  if (!stamp) {
    index.remove(path);
    return 0;
  }
  // (fields named one by one: a spread gives each entry a second store for its fields)
  const entry = (kind: FileEntry['kind'], at: FileStamp = stamp): FileEntry => ({
    path,
    kind,
    size: at.size,
    mtimeMs: at.mtimeMs,
    ctimeMs: at.ctimeMs,
    ino: at.ino,
  });
  const real = realPathOfSync(path);
  if (real === undefined || real !== direct(path)) {
    index.set(entry(real === undefined ? 'unread' : 'linked'));
    return 0;
  }
  // Files over maxFileSize are indexed too, up to the size of the large-file check they may get.
  const largest = checkedFileSize(maxFileSize);
  if (stamp.size > largest) {
    index.set(entry('large'));
    return 0;
  }
  const read = readFileCappedSync(path, largest, lend);
  const after = statStamp(path);
  if (read.kind !== 'bytes' || !after || !sameStamp(after, stamp) || now - stamp.mtimeMs < RECENT_WRITE_MS) {
    index.set(entry('unread', after ?? stamp));
    return 0;
  }
  if (isBinary(read.bytes)) {
    index.set(entry('binary'));
    return 0;
  }
  // Most source is ASCII: its bytes are its text, indexed without decoding.
  index.set(entry('text'), isAscii(read.bytes) ? read.bytes : decodeText(read.bytes));
  return read.bytes.length;
}

/**
 * Whether the index holds a file it just read as unread because it was written in the last RECENT_WRITE_MS
 * (not for a time ahead of `now`: a file dated in the future stays unread, however long one waits).
 */
export function isRecentWrite(index: ContentIndex, path: string, now: number): boolean {
  const entry = index.entry(path)?.file;
  return entry?.kind === 'unread' && now - entry.mtimeMs >= 0 && now - entry.mtimeMs < RECENT_WRITE_MS;
}

/** One read buffer for every file (its bytes are decoded before the next read). */
const lend = scratchBuffer();

export function refreshIndex(index: ContentIndex, paths: readonly string[], options: RefreshOptions): RefreshResult {
  const result: RefreshResult = { read: 0, kept: 0, dropped: 0, bytes: 0 };
  const listed = new Set(paths);
  for (const path of [...index.paths()]) {
    if (!listed.has(path)) {
      index.remove(path);
      result.dropped++;
    }
  }
  const now = options.now ?? Date.now();
  const direct = directRealPath(options.folders);
  paths.forEach((path, done) => {
    if (options.isCancelled?.()) return;
    const known = index.entry(path)?.file;
    const stamp =
      known && known.kind !== 'unread' && known.kind !== 'linked' ? (options.stamps?.has(path) ? options.stamps.get(path) : statStamp(path)) : undefined;
    if (known && stamp && sameStamp(stamp, known)) {
      result.kept++;
    } else {
      result.bytes += indexFile(index, path, options.maxFileSize, direct, now);
      result.read++;
      if (options.recent && isRecentWrite(index, path, now)) options.recent.push(path);
      if (index.pendingPostings() > (options.flushEvery ?? FLUSH_EVERY)) {
        index.flush();
        options.onFlush?.();
      }
    }
    options.onProgress?.(done, paths.length);
  });
  options.onProgress?.(paths.length, paths.length);
  return result;
}

/**
 * A change of at most this many files' contents (the tree kept its shape) is refreshed by reading them
 * alone (reindexFiles): no listing, no stamp of the others. VS Code's indexer and the resident workspace
 * of `serve` and `mcp` both hold to it.
 */
export const CONTENT_REFRESH_AT_MOST = 2000;

/**
 * Reads these files of the index again (a content refresh; a file gone is dropped). Returns the text
 * bytes indexed and the files written in the last RECENT_WRITE_MS, which the index holds as unread until
 * a later refresh reads them once they have stayed unwritten that long.
 */
export function reindexFiles(
  index: ContentIndex,
  paths: readonly string[],
  maxFileSize: number,
  folders: readonly string[],
  now = Date.now(),
): { bytes: number; recent: string[] } {
  const direct = directRealPath(folders);
  let bytes = 0;
  const recent: string[] = [];
  for (const path of paths) {
    bytes += indexFile(index, path, maxFileSize, direct, now);
    if (isRecentWrite(index, path, now)) recent.push(path);
  }
  return { bytes, recent };
}
