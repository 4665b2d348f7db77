/**
 * The index build thread (dist/indexWorker.js): refreshes the index stored in a directory from the list
 * of files a search of the workspace reads, and writes it back, at a low priority and pausing between
 * runs of files, so the extension host and its searches go first; while a search runs it waits, so the
 * search has the cores. Progress and the outcome are posted to the thread that started it.
 */
import { MessageChannel, parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'worker_threads';
import { runInBackground } from '../pool/background';
import { indexedFilesOf, postingsOverBudget, type IndexLimits } from './limits';
import { refreshIndex, reindexFiles, type RefreshResult } from './builder';
import { sameList } from './listing';
import type { FileStamp } from '../source/fileStamp';
import { ContentIndex } from './contentIndex';
import { loadIndex, removeIndex, saveIndex, storingAsItGoes, type IndexMeta } from './store';

export interface BuildRequest {
  /** Where the index is kept (never in the workspace). */
  dir: string;
  folders: string[];
  /** The files to index, as a search of the whole workspace lists them... */
  paths: string[];
  /** ...and as it lists them with include_ignored: indexed instead within the limits (limits.ts indexedFilesOf). */
  withIgnored?: string[];
  /**
   * Instead of `withIgnored`: the thread that started the build lists them when asked (ignoredOnRequest),
   * which it is only when the searched files are within the limits (above them, so is that list).
   */
  ignoredOnRequest?: IgnoredOnRequest;
  maxFileSize: number;
  /** Time paused for each unit of time spent indexing (0.25: a quarter of the work time). */
  pauseRatio: number;
  /** Above these the index keeps the file list only (limits.ts). */
  limits: IndexLimits;
  /**
   * Refresh only these files of the stored index (read again, or dropped when gone), without listing or
   * statting the others: files a watcher saw change in content while the tree kept its shape. `paths`
   * and the limits are then not used.
   */
  only?: string[];
  /** The searches under way in the process that started the build (an Int32 it counts, then notifies): the build waits while there are any. */
  searching?: SharedArrayBuffer;
  /** The time the files' stamps are judged at (RefreshOptions.now); default: when the build reads them. */
  now?: number;
}

/**
 * How a build thread asks for the list with the ignored files: it posts `listIgnored` and waits until
 * `answered` is set; the answer ({ withIgnored }) is then on `port` (transferred to it with the request).
 */
export interface IgnoredOnRequest {
  port: MessagePort;
  answered: SharedArrayBuffer;
}

/** The starting thread's side of IgnoredOnRequest: what the request carries (its port is transferred), and the answer, given once asked. */
export function ignoredOnRequest(): { onRequest: IgnoredOnRequest; answer: (withIgnored: string[] | undefined) => void } {
  const { port1, port2 } = new MessageChannel();
  const answered = new SharedArrayBuffer(4);
  return {
    onRequest: { port: port2, answered },
    answer: (withIgnored) => {
      port1.postMessage({ withIgnored });
      const flag = new Int32Array(answered);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    },
  };
}

/** The build thread's side: asks, waits for the answer, and takes it. */
function askForIgnored(on: IgnoredOnRequest, post: (message: BuildMessage) => void): string[] | undefined {
  post({ kind: 'listIgnored' });
  Atomics.wait(new Int32Array(on.answered), 0, 0);
  const answer = receiveMessageOnPort(on.port)?.message as { withIgnored?: string[] } | undefined;
  on.port.close();
  return answer?.withIgnored;
}

export interface BuildSummary extends RefreshResult {
  files: number;
  /** Bytes of the index on disk, and of its postings. */
  indexBytes: number;
  postingBytes: number;
  elapsedMs: number;
}

export type BuildMessage =
  | { kind: 'progress'; done: number; total: number }
  /** The build needs the list with the ignored files (BuildRequest.ignoredOnRequest). */
  | { kind: 'listIgnored' }
  /** `recent`: files held unread as written just before the build read them (builder.ts isRecentWrite), to read again once they have stayed unwritten that long. */
  | { kind: 'done'; summary: BuildSummary; recent?: string[] }
  /** The workspace is larger than the limits: no content is indexed (nor stored), for this reason. */
  | { kind: 'listOnly'; files: number; reason: string; elapsedMs: number }
  | { kind: 'failed'; message: string };

/** Progress is posted at most this often (ms). */
const PROGRESS_EVERY_MS = 200;

/** The build pauses after this much work (ms), for its share of it (pauseRatio). */
const WORK_BETWEEN_PAUSES_MS = 250;
/** A search under way holds the build this long at most at a time: one that runs on and on slows the build, never stops it. */
const SEARCH_HOLDS_AT_MOST_MS = 1000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Waits while the count of searches under way is above zero (woken when it changes), at most SEARCH_HOLDS_AT_MOST_MS; whether it waited. */
function waitForSearches(searching: Int32Array): boolean {
  const until = Date.now() + SEARCH_HOLDS_AT_MOST_MS;
  let waited = false;
  for (let under = Atomics.load(searching, 0); under > 0 && Date.now() < until; under = Atomics.load(searching, 0)) {
    Atomics.wait(searching, 0, under, until - Date.now());
    waited = true;
  }
  return waited;
}

/** Reads again the files of `request.only` into the stored index: a small segment and the table are written, not the postings. */
function refreshOnly(request: BuildRequest & { only: string[] }, post: (message: BuildMessage) => void): void {
  const started = Date.now();
  const stored = loadIndex(request.dir);
  try {
    if (!stored || stored.meta.maxFileSize !== request.maxFileSize || !sameList(stored.meta.folders, request.folders)) {
      post({ kind: 'failed', message: 'there is no stored index of these folders to refresh' });
      return;
    }
    const { index } = stored;
    const before = index.size;
    const { bytes, recent } = reindexFiles(index, request.only, request.maxFileSize, request.folders);
    const indexBytes = saveIndex(request.dir, { folders: request.folders, maxFileSize: request.maxFileSize, builtAt: Date.now() }, index);
    const read = request.only.length;
    const dropped = before - index.size;
    const summary: BuildSummary = {
      read,
      kept: index.size - (read - dropped),
      dropped,
      bytes,
      files: index.size,
      indexBytes,
      postingBytes: index.postingBytes(),
      elapsedMs: Date.now() - started,
    };
    post({ kind: 'done', summary, recent });
  } finally {
    stored?.close();
  }
}

/** Whether a stored index was built for the same folders and size limit: the build then refreshes it rather than starting anew. */
function sameBuild(stored: IndexMeta, request: BuildRequest): boolean {
  return (
    stored.maxFileSize === request.maxFileSize &&
    stored.folders.length === request.folders.length &&
    stored.folders.every((folder, i) => folder === request.folders[i])
  );
}

/**
 * The build's progress callback: posts the progress at most every PROGRESS_EVERY_MS (and at the end),
 * waits while searches run (request.searching), and after each stretch of work pauses for a share of it
 * (request.pauseRatio), so the searches have the cores.
 */
function paced(request: BuildRequest, post: (message: BuildMessage) => void): (done: number, total: number) => void {
  const searching = request.searching && new Int32Array(request.searching);
  let posted = 0;
  let worked = Date.now();
  return (done, total) => {
    if (searching && waitForSearches(searching)) worked = Date.now(); // (waiting is not work)
    const now = Date.now();
    if (now - posted >= PROGRESS_EVERY_MS || done === total) {
      post({ kind: 'progress', done, total });
      posted = now;
    }
    if (now - worked < WORK_BETWEEN_PAUSES_MS) return;
    Atomics.wait(sleeper, 0, 0, Math.round((now - worked) * request.pauseRatio));
    worked = Date.now();
  };
}

/** Reads the chosen files into `building` (refreshIndex), its segments stored as it goes, its progress posted now and then. */
function refreshStoring(
  request: BuildRequest,
  building: ContentIndex,
  paths: readonly string[],
  {
    stamps,
    meta,
    recent,
    post,
  }: { stamps: Map<string, FileStamp | undefined>; meta: () => IndexMeta; recent: string[]; post: (message: BuildMessage) => void },
) {
  return refreshIndex(building, paths, {
    maxFileSize: request.maxFileSize,
    stamps,
    folders: request.folders,
    onFlush: storingAsItGoes(request.dir, meta, building),
    onProgress: paced(request, post),
    recent,
    now: request.now,
  });
}

/** Builds or refreshes the index `request` asks for, posting its progress and outcome; empties the request's list it does not index. */
export function buildIndex(request: BuildRequest, post: (message: BuildMessage) => void): void {
  if (request.only) return refreshOnly({ ...request, only: request.only }, post);
  const started = Date.now();
  const stamps = new Map<string, FileStamp | undefined>();
  const { ignoredOnRequest } = request;
  const all = request.withIgnored ?? (ignoredOnRequest && (() => askForIgnored(ignoredOnRequest, post)));
  const chosen = indexedFilesOf(request.paths, all, request.maxFileSize, request.limits, stamps);
  const files = chosen.paths.length;
  const listOnly = (reason: string) => {
    removeIndex(request.dir);
    post({ kind: 'listOnly', files, reason, elapsedMs: Date.now() - started });
  };
  if (chosen.listOnly !== undefined) return listOnly(chosen.listOnly);
  // The list not chosen is let go: the request is the worker's workerData, held as long as the thread runs,
  // and its two lists (when both were sent) are two copies of about every path.
  if (chosen.withIgnored) request.paths = [];
  else request.withIgnored = undefined;
  const stored = loadIndex(request.dir);
  // Its segment files are open: closed when the build ends (a worker's descriptors outlive it), before the index is removed.
  let index: ContentIndex | undefined;
  const close = () => {
    index?.close();
    stored?.close();
  };
  try {
    const kept = stored && sameBuild(stored.meta, request) ? stored.index : undefined;
    const building = (index = kept ?? new ContentIndex());
    // The stamps tell a kept file from a changed one: a new index keeps none, and they are let go.
    if (!kept) stamps.clear();
    const recent: string[] = [];
    const meta = (): IndexMeta => ({ folders: request.folders, maxFileSize: request.maxFileSize, builtAt: Date.now() });
    const result = refreshStoring(request, building, chosen.paths, { stamps, meta, recent, post });
    building.flush();
    const tooLarge = postingsOverBudget(building.postingBytes(), building.textBytes());
    if (tooLarge !== undefined) {
      close();
      return listOnly(tooLarge);
    }
    const indexBytes = saveIndex(request.dir, meta(), building);
    post({
      kind: 'done',
      summary: { ...result, files: building.size, indexBytes, postingBytes: building.postingBytes(), elapsedMs: Date.now() - started },
      recent,
    });
  } finally {
    close();
  }
}

if (parentPort && (workerData as BuildRequest | undefined)?.dir) {
  runInBackground();
  const port = parentPort;
  try {
    buildIndex(workerData as BuildRequest, (message) => port.postMessage(message));
  } catch (error) {
    port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies BuildMessage);
  }
}
