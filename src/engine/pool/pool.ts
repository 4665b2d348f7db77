/**
 * A pool of search workers (worker_threads, one per core). A search queues its files in batches (one
 * promise, one message each way per batch); each worker reads, prefilters and searches them (or
 * searches the content it was sent: an open editor's text, a virtual file's bytes). glob's regex mode
 * tests names the same way, so no pattern a model writes ever runs on the caller's thread. A search
 * that must stop (time limit, cancellation) terminates the workers busy with it; once their threads
 * have exited the pool starts fresh ones and hands their other batches to them, so concurrent searches
 * are not disturbed and the pool never runs more threads than its size.
 */
import { availableParallelism } from 'os';
import * as nodePath from 'path';
import { Worker } from 'worker_threads';
import type { ReadScope } from '../guard/scope';
import type { MatcherOptions } from '../matcher/matcher';
import type { OutlineCost } from '../searcher/outline';
import type { FileMatches, SearchOptions } from '../searcher/searcher';
import { listHere, type ListDirectories } from '../source/audit';
import type { EntryKind } from '../api/types';
import { dirEntry } from '../source/entryPolicy';
import { unpackStamps, type FileStamp } from '../source/fileStamp';

export interface SearchSpec {
  pattern: string;
  matcher: MatcherOptions;
  search: SearchOptions;
  maxFileSize: number;
  /** Checked on every open file (see reader.ts). */
  scope?: ReadScope;
  /**
   * The readings an empty answer's notes ask about (ignoring case, the pattern as literal text), each
   * counted, with `search`'s options, in the files of a batch sent with `fallbacks` that hold no match
   * (FileMatches.fallbacks): a search that ends empty then knows them without reading its files again.
   */
  fallbacks?: { readings: Array<{ pattern: string; matcher: MatcherOptions }>; search: SearchOptions };
}

/**
 * Tests names (base-relative paths) against glob's pattern: a JavaScript regex with the `u` flag (mode
 * "regex"), or a glob (mode "glob", globs.ts' relativeGlobTest).
 */
export type NameTestSpec = { nameRegex: string } | { nameGlob: string };

/** Takes the stamps of files (fileStamp.ts): their outcomes come back packed (packStamps). */
export interface StampSpec {
  stamps: true;
}

/** Gives a page's lines their definitions (searcher/outline.ts): the matcher says which lines define the name. */
export interface OutlineSpec {
  outline: { pattern: string; matcher: MatcherOptions; maxFileSize: number; scope?: ReadScope };
}

/** A file on the page: its reported lines (1-based), and its content when it is not read from disk (an editor's text). */
export interface OutlineItem {
  path: string;
  lines: number[];
  content?: string;
  /** Ask instead whether the file defines a name the pattern matches anywhere (OutlineOutcome.defines; `lines` unused). */
  find?: true;
}

/** The definitions of an OutlineItem's lines, in order, and what they cost; undefined when the file was not outlined. */
export type OutlineOutcome = { marks: Array<{ in?: string; defines?: boolean }>; cost: OutlineCost; defines?: boolean } | undefined;

/** Lists directories (directory.ts), for the audit of a listing made elsewhere (audit.ts): items are DirectoryItem, outcomes ListedDirectory. */
export interface DirectorySpec {
  directories: true;
}

/** A directory to list: its path, and whether to follow a link there. */
export interface DirectoryItem {
  path: string;
  follow: boolean;
}

/** A directory as a worker listed it: its real path and its entries by name and kind; undefined when it could not be listed. */
export type ListedDirectory = { real: string; entries: Array<[string, EntryKind]> } | undefined;

export type JobSpec = SearchSpec | NameTestSpec | StampSpec | OutlineSpec | DirectorySpec;

/** A file to search: its path (the worker reads it), or the content to search in its place (already within maxFileSize). */
export type FileItem = string | { path: string; content: string | Uint8Array };

/**
 * What searching a file gave: its matches, 0 when it holds none (most files: a number is the cheapest
 * thing to send back), or why it was skipped.
 */
export type FileOutcome = FileMatches | 0 | 'binary' | 'too_large' | 'unreadable' | 'outside_workspace' | 'denied';

export interface PoolOptions {
  /**
   * The search threads yield the CPU to the process's other threads (in VS Code: the extension host's
   * main thread, and the messages it relays) when both want it: Linux only, see worker.ts.
   */
  background?: boolean;
  /** The worker script (default: worker.js beside this module). */
  workerFile?: string;
  /** Grammars each worker loads and runs once as it starts, before any search asks (searcher/outline.ts, warmGrammars). */
  grammars?: readonly string[];
}

/** What a worker is told when it starts (its workerData). */
export interface WorkerOptions {
  background: boolean;
  /** PoolOptions.grammars. */
  grammars: string[];
}

export interface BatchRequest {
  batchId: number;
  specKey: string;
  /** Sent with a search's first batch to a worker; the worker keeps the last SPECS_KEPT specs it was sent. */
  spec?: JobSpec;
  /** FileItem for a SearchSpec, a name (string) for a NameTestSpec, a path for a StampSpec. */
  items: unknown[];
  /**
   * A SearchSpec's batch (content mode): how many reported lines its files may still add to the page.
   * Each file gives the text of at most this many (all are counted); 0: counts only.
   */
  pageRoom: number;
  /** A SearchSpec's batch: count its fallbacks in the files that hold no match (SearchSpec.fallbacks). */
  fallbacks?: true;
}

/** Specs a worker keeps (first in, first out); the pool mirrors the worker's list, so it knows what to send. */
export const SPECS_KEPT = 16;

export interface BatchResult {
  batchId: number;
  /** FileOutcome for a SearchSpec, boolean (the name matches) for a NameTestSpec, in the items' order; their stamps packed for a StampSpec. */
  outcomes: unknown[] | Float64Array;
}

/** A batch of one search's items, queued or in a worker: one message each way. */
interface Batch {
  search: PoolSearch<unknown, unknown>;
  items: unknown[];
  pageRoom: number;
  fallbacks: boolean;
  /** The worker it goes to (modulo the workers running), when what a worker keeps decides (a file's definitions): see PoolSearch.batch. */
  affinity?: number;
  /** Work ahead of any call (PoolSearch.spare): taken only by an idle worker, when no other batch waits for it. */
  spare?: true;
  resolve(outcomes: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  inFlight: Map<number, Batch>;
  /** The spec keys this worker holds, oldest first (see SPECS_KEPT). */
  specKeys: string[];
}

/** Files a batch of StampSpec takes (a few batches per worker for a large listing). */
const STAMPS_PER_BATCH = 1024;
/** Spare batches waiting at most (PoolSearch.spare): two pages' worth of files. */
const SPARE_QUEUED = 64;
/** Directories a batch of DirectorySpec takes at most. */
const DIRECTORIES_PER_BATCH = 256;
/** Batches a worker holds at once, so it never waits for the next message. */
const BATCHES_PER_WORKER = 2;
export const WORKER_YOUNG_GENERATION_MB = 4;
/**
 * How long a terminated worker may take to exit before a fresh one takes its place anyway (a thread
 * stops within milliseconds, even inside a regex; one stuck in a system call must not shrink the pool).
 */
const EXIT_WAIT_MS = 1000;
/**
 * How long a search's batches wait in the queue while no worker takes one of them before the rest are done
 * on the calling thread (SearchPool.inWorkersOrHere): every worker may be held by other calls' long batches
 * (a catastrophic regex holds one until that call's time limit). In normal use a worker takes a batch
 * within milliseconds.
 */
const HELD_WAIT_MS = 200;

/** A queued batch taken back from the pool (SearchPool.withdraw): its items are done elsewhere. */
class WithdrawnError extends Error {}

export class SearchAbortedError extends Error {
  constructor() {
    super('The search was stopped.');
    this.name = 'SearchAbortedError';
  }
}

let searchCount = 0;

/** One search's work in the pool: FileItem → FileOutcome (grep), name → matches (glob's regex mode), or path → stamp. */
export class PoolSearch<Item = FileItem, Outcomes = FileOutcome[]> {
  /** Names this search in messages to the workers. */
  readonly key = `s${++searchCount}`;
  /** Batches of it a worker has taken so far. */
  taken = 0;

  constructor(
    private readonly pool: SearchPool,
    readonly spec: JobSpec,
  ) {}

  /**
   * Runs a batch of items in one worker, their outcomes in the same order. Batches of a few dozen
   * files amortise the messages and keep every worker busy to the end. `pageRoom`: see BatchRequest.
   * `affinity` (workerOf): always the same worker while the pool's workers stay. `fallbacks`: see BatchRequest.
   */
  batch(items: Item[], pageRoom = 0, affinity?: number, fallbacks = false): Promise<Outcomes> {
    return new Promise((resolve, reject) =>
      this.pool.enqueue({
        search: this as PoolSearch<unknown, unknown>,
        items,
        pageRoom,
        fallbacks,
        affinity,
        resolve: resolve as (outcomes: unknown) => void,
        reject,
      }),
    );
  }

  /**
   * Runs a batch when a worker would otherwise be idle (the definitions of the next page, ahead of the call
   * that asks for it): a batch of any call queued later goes first, so the most it holds one up is the one
   * spare batch a worker is running. Its outcome (kept by the worker) is not waited for; a failure is no one's.
   */
  spare(items: Item[], affinity?: number): void {
    this.pool.enqueue({
      search: this as PoolSearch<unknown, unknown>,
      items,
      pageRoom: 0,
      fallbacks: false,
      affinity,
      spare: true,
      resolve: () => {},
      reject: () => {},
    });
  }

  /** Stops this search at once: its queued files are dropped, workers busy with it are terminated. */
  abort(): void {
    this.pool.abort(this);
  }
}

export class SearchPool {
  private readonly slots: Slot[] = [];
  /** Terminated workers whose threads have not exited yet: they still count against `size`. */
  private exiting = 0;
  private queue: Batch[] = [];
  private nextBatchId = 1;
  private disposed = false;

  constructor(
    readonly size = Math.max(1, availableParallelism()),
    private readonly options: PoolOptions = {},
  ) {}

  /** Starts the workers now (they take a few tens of milliseconds to boot). */
  warm(): this {
    while (!this.disposed && this.slots.length + this.exiting < this.size) this.slots.push(this.spawn());
    return this;
  }

  /**
   * The worker for `key` (a batch's `affinity`): the same one for the same key while the workers stay.
   * A file's definitions go to the worker that keeps them (searcher/outline.ts), so it is parsed once.
   */
  workerOf(key: string): number {
    let hash = 0;
    for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) >>> 0;
    return hash % this.size;
  }

  search(spec: SearchSpec): PoolSearch<FileItem, FileOutcome[]> {
    if (this.disposed) throw new Error('The search pool was disposed.');
    return new PoolSearch(this, spec);
  }

  /** Gives the lines of a page's files their definitions, a file an item. */
  outline(spec: OutlineSpec): PoolSearch<OutlineItem, OutlineOutcome[]> {
    if (this.disposed) throw new Error('The search pool was disposed.');
    return new PoolSearch(this, spec);
  }

  /** Tests names against glob's pattern (a regex or a glob): the outcome of each is whether it matches. */
  nameTest(spec: NameTestSpec): PoolSearch<string, boolean[]> {
    if (this.disposed) throw new Error('The search pool was disposed.');
    return new PoolSearch(this, spec);
  }

  /**
   * The stamps of these files, in order (undefined: not a regular file, or gone), taken by the workers
   * side by side, in batches, off the caller's thread. Rejects with SearchAbortedError when `deadline`
   * (a Date.now() time) passes first: the workers busy with it are stopped (a file system that hangs).
   */
  async stamps(paths: readonly string[], deadline = Infinity): Promise<Array<FileStamp | undefined>> {
    if (this.disposed) throw new Error('The search pool was disposed.');
    const job = new PoolSearch<string, Float64Array>(this, { stamps: true });
    const batches: Array<Promise<Float64Array>> = [];
    for (let at = 0; at < paths.length; at += STAMPS_PER_BATCH) batches.push(job.batch(paths.slice(at, at + STAMPS_PER_BATCH)));
    const overdue = Number.isFinite(deadline) ? setTimeout(() => job.abort(), Math.max(0, deadline - Date.now())) : undefined;
    try {
      return (await Promise.all(batches)).flatMap(unpackStamps);
    } finally {
      clearTimeout(overdue);
    }
  }

  /**
   * Lists directories in the workers, side by side, in batches, in order (the audit of a findFiles
   * listing: the reads leave the caller's thread, and each is a plain system call there).
   */
  listDirectories: ListDirectories = async (directories) => {
    if (this.disposed) throw new Error('The search pool was disposed.');
    const job = new PoolSearch<DirectoryItem, ListedDirectory[]>(this, { directories: true });
    // A few batches per worker: each worker stays busy to the end.
    const size = Math.min(DIRECTORIES_PER_BATCH, Math.max(1, Math.ceil(directories.length / (2 * this.size))));
    const slices: DirectoryItem[][] = [];
    for (let at = 0; at < directories.length; at += size) slices.push(directories.slice(at, at + size));
    const inWorker = async (slice: DirectoryItem[]) =>
      (await job.batch(slice)).map((one) => one && { real: one.real, entries: one.entries.map(([name, kind]) => dirEntry(name, kind)) });
    return (await Promise.all(this.inWorkersOrHere(job, slices, inWorker, listHere))).flat();
  };

  /**
   * A search's batches (`inWorker`, each a call to job.batch), their outcomes in order. When no worker has
   * taken one of the job's batches for HELD_WAIT_MS, the batches still queued are taken back and done by
   * `here` on the calling thread: for work that is safe there (a listing, a bounded glob), never a
   * model's regex, which only a worker's termination can stop.
   */
  inWorkersOrHere<Item, Outcome>(
    job: PoolSearch<Item, unknown>,
    slices: readonly Item[][],
    inWorker: (items: Item[]) => Promise<Outcome>,
    here: (items: Item[]) => Promise<Outcome>,
  ): Array<Promise<Outcome>> {
    const outcomes = slices.map((slice) => inWorker(slice).catch((error: unknown) => (error instanceof WithdrawnError ? here(slice) : Promise.reject(error))));
    let seen = 0;
    const watch = setInterval(() => {
      if (job.taken === seen) this.withdraw(job as PoolSearch<unknown, unknown>);
      seen = job.taken;
    }, HELD_WAIT_MS);
    void Promise.allSettled(outcomes).then(() => clearInterval(watch));
    return outcomes;
  }

  /** Takes a search's queued batches back: each rejects with WithdrawnError; those in a worker go on. */
  private withdraw(search: PoolSearch<unknown, unknown>): void {
    this.dropQueued(search, () => new WithdrawnError());
  }

  /** Removes a search's queued batches from the queue, each rejected with its own `error()`. */
  private dropQueued(search: PoolSearch<unknown, unknown>, error: () => Error): void {
    const dropped = this.queue.filter((batch) => batch.search === search);
    this.queue = this.queue.filter((batch) => batch.search !== search);
    for (const batch of dropped) batch.reject(error());
  }

  /** Worker threads running a batch now. */
  get busyWorkers(): number {
    return this.slots.filter((slot) => slot.inFlight.size > 0).length;
  }

  /** Batches waiting for a worker (spare ones included). */
  get queuedBatches(): number {
    return this.queue.length;
  }

  /** Number of worker threads, terminated ones not yet exited included (never more than `size`). */
  get workerCount(): number {
    return this.slots.length + this.exiting;
  }

  dispose(): void {
    this.disposed = true;
    for (const slot of this.slots.splice(0)) {
      void slot.worker.terminate();
      for (const batch of slot.inFlight.values()) batch.reject(new SearchAbortedError());
    }
    for (const batch of this.queue.splice(0)) batch.reject(new SearchAbortedError());
  }

  enqueue(batch: Batch): void {
    // Spare work waits only for idle workers: past SPARE_QUEUED of it (a model paging fast while others search), the oldest goes.
    if (batch.spare && this.queue.filter((queued) => queued.spare).length >= SPARE_QUEUED)
      this.queue.splice(
        this.queue.findIndex((queued) => queued.spare),
        1,
      );
    this.queue.push(batch);
    if (this.queue.length === 1) queueMicrotask(() => this.schedule());
  }

  abort(search: PoolSearch<unknown, unknown>): void {
    this.dropQueued(search, () => new SearchAbortedError());
    for (const slot of [...this.slots]) {
      if (![...slot.inFlight.values()].some((batch) => batch.search === search)) continue;
      this.retire(slot, (batch) => batch.search !== search);
    }
    this.schedule();
  }

  /**
   * Terminates a slot's worker; its batches that `keep` accepts go back to the front of the queue, the
   * others fail. A fresh worker takes its place once the thread has exited, not here: this runs when a
   * search is cancelled, and starting a worker would hold up the caller's thread.
   */
  private retire(slot: Slot, keep: (batch: Batch) => boolean): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const requeue: Batch[] = [];
    for (const batch of slot.inFlight.values()) {
      if (keep(batch)) requeue.push(batch);
      else batch.reject(new SearchAbortedError());
    }
    slot.inFlight.clear();
    this.queue.unshift(...requeue);
    this.exiting++;
    let counted = true;
    const exited = () => {
      if (!counted) return;
      counted = false;
      clearTimeout(overdue);
      this.exiting--;
      this.warm();
      this.schedule();
    };
    const overdue = setTimeout(exited, EXIT_WAIT_MS).unref();
    slot.worker.terminate().then(exited, exited);
  }

  private spawn(): Slot {
    const workerData: WorkerOptions = { background: this.options.background === true, grammars: [...(this.options.grammars ?? [])] };
    // A small young generation: the workers' garbage is short-lived, and memory stays flat on big trees.
    const worker = new Worker(this.options.workerFile ?? nodePath.join(__dirname, 'worker.js'), {
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, inFlight: new Map(), specKeys: [] };
    worker.on('message', (result: BatchResult) => {
      const batch = slot.inFlight.get(result.batchId);
      if (!batch) return;
      slot.inFlight.delete(result.batchId);
      batch.resolve(result.outcomes);
      this.schedule();
    });
    worker.on('error', (error) => {
      // A crashed worker fails the files it held; the others go on in a fresh worker.
      for (const batch of slot.inFlight.values()) batch.reject(new Error(`A search worker failed: ${error.message}`));
      slot.inFlight.clear();
      this.retire(slot, () => false);
      this.schedule();
    });
    return slot;
  }

  private schedule(): void {
    if (this.disposed || this.queue.length === 0) return;
    this.warm();
    // Idle workers first, then a second batch each: of a search the worker is running, or one only this
    // worker may take. Any other batch never waits in a worker behind another search's (a catastrophic
    // regex, say), where it would stay while the other worker frees up.
    for (let depth = 1; depth <= BATCHES_PER_WORKER; depth++) {
      for (const [index, slot] of this.slots.entries()) {
        if (slot.inFlight.size >= depth || this.queue.length === 0) continue;
        // The first batch this worker may take: one for any worker, or one for this worker; a spare one only when idle and nothing else waits.
        const mine = (queued: Batch) => queued.affinity === undefined || queued.affinity % this.slots.length === index;
        const running = depth === 1 ? undefined : new Set([...slot.inFlight.values()].map((held) => held.search));
        const behind = (queued: Batch) => running === undefined || queued.affinity !== undefined || running.has(queued.search);
        let at = this.queue.findIndex((queued) => !queued.spare && mine(queued) && behind(queued));
        if (at === -1 && depth === 1 && !this.queue.some((queued) => !queued.spare)) at = this.queue.findIndex(mine);
        if (at === -1) continue;
        const [batch] = this.queue.splice(at, 1);
        batch.search.taken++;
        const id = this.nextBatchId++;
        slot.inFlight.set(id, batch);
        const request: BatchRequest = { batchId: id, specKey: batch.search.key, items: batch.items, pageRoom: batch.pageRoom };
        if (batch.fallbacks) request.fallbacks = true;
        if (!slot.specKeys.includes(batch.search.key)) {
          request.spec = batch.search.spec;
          if (slot.specKeys.push(batch.search.key) > SPECS_KEPT) slot.specKeys.shift();
        }
        slot.worker.postMessage(request);
      }
    }
  }
}
