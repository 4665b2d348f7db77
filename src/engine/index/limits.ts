/**
 * How large a content index may grow. Above a size the user sets (bytes of the files it would read, or
 * their number) the index keeps no content: the workspace's file list only, and searches read every
 * file. The postings it holds are at most a quarter of the bytes it indexed (on real code they are
 * about a seventh); a tree where they would be more is not indexed either.
 */
import { checkedFileSize } from '../api/config';
import { statStamp, type FileStamp } from '../source/fileStamp';

export interface IndexLimits {
  /** Bytes of the files the index would read (those not larger than checkedFileSize(maxFileSize)). */
  maxIndexedBytes: number;
  maxFiles: number;
}

/**
 * The largest index measured (bench:scale, 45 copies of the bench corpus): 446,805 files and 4.55 GB of
 * text, built in 132 s on 2 cores into 478 MB, the build process's peak 634 MB, the extension host's growth
 * 292 MB. The default bytes cover that with some room (5 GiB); beyond it nothing was measured.
 */
export const DEFAULT_INDEX_LIMITS: IndexLimits = { maxIndexedBytes: 5 * 1024 * 1024 * 1024, maxFiles: 500_000 };

/**
 * The files searches leave out (files.exclude, search.exclude, .gitignore) are indexed too while the
 * workspace with them has at most this many times as many files as without: an empty answer's check
 * searches them (include_ignored) and then reads only what the index cannot settle.
 */
const IGNORED_INDEXED_AT_MOST = 2;

/**
 * The whole workspace is listed again with the files searches leave out (an empty answer's check, the
 * index's list with them) only while a search of it lists at most this many files. Above that, VS Code's
 * findFiles would hold the extension host for seconds once more (each reply of a part takes 300–900 ms of
 * its thread at 500,000 files), and the list, more files than listings kept between calls may hold, would
 * not stay for the searches that follow: an include_ignored search then reads the files it adds.
 */
export const IGNORED_LISTED_AT_MOST_SEARCHED = 200_000;

/** The most files a listing with the ignored ones may hold for an index to hold them, given the searched ones. */
export function ignoredListingAtMost(searched: number): number {
  return IGNORED_INDEXED_AT_MOST * searched;
}

/**
 * The files an index holds: the ones searches read, with the ones they leave out (`all`: the same
 * search with include_ignored) while those are at most as many again, the searched ones at most
 * IGNORED_LISTED_AT_MOST_SEARCHED, and the whole within the limits; else the searched ones alone, or
 * none (`listOnly`, the reason) when even they are over the limits. The searched ones are weighed first:
 * over the limits, the list with the ignored ones (as many files or more, as many bytes or more) is too,
 * and `all`, when a function, is not called (in VS Code it lists the whole workspace again). Stats (as
 * limitExceeded) only what it weighs.
 */
export function indexedFilesOf(
  searched: readonly string[],
  all: readonly string[] | (() => readonly string[] | undefined) | undefined,
  maxFileSize: number,
  limits: IndexLimits,
  stamps: Map<string, FileStamp | undefined> = new Map(),
): { paths: readonly string[]; withIgnored: boolean; listOnly?: string } {
  const listOnly = limitExceeded(searched, maxFileSize, limits, stamps);
  if (listOnly !== undefined) return { paths: searched, withIgnored: false, listOnly };
  if (searched.length > IGNORED_LISTED_AT_MOST_SEARCHED) return { paths: searched, withIgnored: false };
  const withIgnored = typeof all === 'function' ? all() : all;
  if (withIgnored && withIgnored.length <= ignoredListingAtMost(searched.length) && limitExceeded(withIgnored, maxFileSize, limits, stamps) === undefined)
    return { paths: withIgnored, withIgnored: true };
  return { paths: searched, withIgnored: false };
}

/** The postings may take at most this share of the bytes indexed... */
export const POSTINGS_SHARE = 0.25;
/** ...or this many bytes, whichever is more (a tree of a few tiny files has more trigrams than bytes). */
export const POSTINGS_FLOOR = 1024 * 1024;

/**
 * Why an index of these listed files would keep the file list only, or undefined when their content is
 * indexed: too many files, or more bytes than the limit in the files it would read (regular files not
 * larger than checkedFileSize(maxFileSize)). Stats each file (none when there are too many; not one
 * already in `stamps`) and keeps the stamps in `stamps`, so the build that follows does not stat them again.
 */
export function limitExceeded(
  paths: readonly string[],
  maxFileSize: number,
  limits: IndexLimits,
  stamps?: Map<string, FileStamp | undefined>,
): string | undefined {
  if (paths.length > limits.maxFiles) return overLimits(paths.length, 0, limits);
  const largest = checkedFileSize(maxFileSize);
  let bytes = 0;
  for (const path of paths) {
    // (a file weighed already, in the searched list, is not statted again)
    const stamp = stamps?.has(path) ? stamps.get(path) : statStamp(path);
    stamps?.set(path, stamp);
    if (stamp && stamp.size <= largest) bytes += stamp.size;
  }
  return overLimits(paths.length, bytes, limits);
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Why a workspace of this size keeps the file list only, or undefined when its content is indexed. */
export function overLimits(files: number, bytes: number, limits: IndexLimits): string | undefined {
  if (files > limits.maxFiles) return `${files} files, more than grepTools.index.maxFiles (${limits.maxFiles})`;
  if (bytes > limits.maxIndexedBytes) return `${mb(bytes)} of files, more than grepTools.index.maxIndexedBytes (${mb(limits.maxIndexedBytes)})`;
  return undefined;
}

/** Why postings of this size are too large for the bytes indexed, or undefined when they are within the bound. */
export function postingsOverBudget(postingBytes: number, indexedBytes: number): string | undefined {
  const budget = Math.max(POSTINGS_FLOOR, Math.floor(indexedBytes * POSTINGS_SHARE));
  if (postingBytes <= budget) return undefined;
  return `its postings would take ${mb(postingBytes)}, more than a quarter of the ${mb(indexedBytes)} indexed`;
}

/** The build thread's heap: this much... */
const BUILD_HEAP_BASE_MB = 160;
/** ...and this much per file listed (about twice what its entry, stamp and path take while it builds). */
const BUILD_HEAP_PER_FILE_KB = 2;

/**
 * The old-generation heap a build of this many files is given (its worker's resourceLimits): a heap with
 * a bound collects the text it read as it goes, where an unbounded one lets it pile up (measured on 100,000
 * files: 690 MB resident unbounded, 362 MB within 256 MB). A build that would need more fails and says so.
 */
export function buildHeapLimitMb(files: number): number {
  return Math.ceil(BUILD_HEAP_BASE_MB + (files * BUILD_HEAP_PER_FILE_KB) / 1024);
}
