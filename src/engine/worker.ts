/**
 * A search worker (worker_threads): reads files, prefilters their bytes and searches them, so the
 * extension host's main thread stays free. One message in, one message out per batch of files.
 */
import { readlinkSync } from 'fs';
import { setPriority } from 'os';
import { parentPort, workerData } from 'worker_threads';
import { compileMatcher, type Matcher } from './matcher';
import { readFileCappedSync } from './reader';
import { compilePrefilter, searchBytes } from './searcher';
import type { BatchRequest, BatchResult, FileOutcome, SearchSpec, WorkerOptions } from './pool';

let cached: { key: string; matcher: Matcher; prefilter: ((bytes: Uint8Array) => boolean) | undefined } | undefined;

function prepare(spec: SearchSpec, key: string) {
  if (cached?.key !== key) {
    const matcher = compileMatcher(spec.pattern, spec.matcher);
    cached = { key, matcher, prefilter: compilePrefilter(matcher) };
  }
  return cached;
}

/** One read buffer for all files (they are at most maxFileSize): memory stays flat whatever the tree. */
let scratch = Buffer.allocUnsafe(64 * 1024);
function lend(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  return scratch;
}

export function searchFile(path: string, spec: SearchSpec, key: string, collect: boolean): FileOutcome {
  const read = readFileCappedSync(path, spec.maxFileSize, lend, spec.scope);
  if (read.kind !== 'bytes') return read.kind;
  const { matcher, prefilter } = prepare(spec, key);
  return searchBytes(read.bytes, matcher, prefilter, { ...spec.search, collect: collect && spec.search.collect });
}

/** The niceness of a background search thread: the process's other threads go first. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers this thread's scheduling priority, so a search that keeps every core busy (a catastrophic
 * regex, a large tree) does not hold up the extension host's main thread, nor the cancellation and
 * the other calls it relays. Linux only (a thread id given to setpriority affects that thread alone);
 * best effort.
 */
function runInBackground(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop()); // "<pid>/task/<tid>"
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, BACKGROUND_NICE);
  } catch {
    // Not permitted or no /proc: the thread keeps its priority.
  }
}

if ((workerData as WorkerOptions | undefined)?.background) runInBackground();

parentPort?.on('message', (request: BatchRequest) => {
  const outcomes = request.files.map((file) => searchFile(file.path, request.spec, request.specKey, file.collect));
  const result: BatchResult = { batchId: request.batchId, outcomes };
  parentPort!.postMessage(result);
});
