/**
 * A pool of search workers (worker_threads, one per core). Files are queued per search and sent in
 * batches; each worker reads, prefilters and searches them. A search that must stop (time limit,
 * cancellation) terminates the workers busy with it; once their threads have exited the pool starts
 * fresh ones and hands their other batches to them, so concurrent searches are not disturbed and the
 * pool never runs more threads than its size.
 */
import { availableParallelism } from 'os';
import * as nodePath from 'path';
import { Worker } from 'worker_threads';
import type { ReadScope } from './guard';
import type { MatcherOptions } from './matcher';
import type { FileMatches, SearchOptions } from './searcher';

export interface SearchSpec {
  pattern: string;
  matcher: MatcherOptions;
  search: SearchOptions;
  maxFileSize: number;
  /** Checked on every open file (see reader.ts). */
  scope?: ReadScope;
}

export type FileOutcome = FileMatches | 'binary' | 'too_large' | 'unreadable' | 'outside_workspace' | 'denied';

export interface PoolOptions {
  /**
   * The search threads yield the CPU to the process's other threads (in VS Code: the extension host's
   * main thread, and the messages it relays) when both want it: Linux only, see worker.ts.
   */
  background?: boolean;
  /** The worker script (default: worker.js beside this module). */
  workerFile?: string;
}

/** What a worker is told when it starts (its workerData). */
export interface WorkerOptions {
  background: boolean;
}

export interface BatchRequest {
  batchId: number;
  specKey: string;
  spec: SearchSpec;
  files: Array<{ path: string; collect: boolean }>;
}

export interface BatchResult {
  batchId: number;
  outcomes: FileOutcome[];
}

interface Pending {
  search: PoolSearch;
  path: string;
  collect: boolean;
  resolve(outcome: FileOutcome): void;
  reject(error: Error): void;
}

interface Batch {
  id: number;
  search: PoolSearch;
  items: Pending[];
}

interface Slot {
  worker: Worker;
  inFlight: Map<number, Batch>;
}

/** Files per message: enough to amortise messaging, few enough to keep both workers busy to the end. */
const BATCH_SIZE = 48;
/** Batches a worker holds at once, so it never waits for the next message. */
const BATCHES_PER_WORKER = 2;
/**
 * How long a terminated worker may take to exit before a fresh one takes its place anyway (a thread
 * stops within milliseconds, even inside a regex; one stuck in a system call must not shrink the pool).
 */
const EXIT_WAIT_MS = 1000;

export class SearchAbortedError extends Error {
  constructor() {
    super('The search was stopped.');
    this.name = 'SearchAbortedError';
  }
}

export class PoolSearch {
  readonly key: string;

  constructor(
    private readonly pool: SearchPool,
    readonly spec: SearchSpec,
  ) {
    this.key = JSON.stringify(spec);
  }

  /** Searches one file in a worker. */
  file(path: string, collect: boolean): Promise<FileOutcome> {
    return new Promise((resolve, reject) => this.pool.enqueue({ search: this, path, collect, resolve, reject }));
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
  private queue: Pending[] = [];
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

  search(spec: SearchSpec): PoolSearch {
    if (this.disposed) throw new Error('The search pool was disposed.');
    return new PoolSearch(this, spec);
  }

  /** Number of worker threads, terminated ones not yet exited included (never more than `size`). */
  get workerCount(): number {
    return this.slots.length + this.exiting;
  }

  dispose(): void {
    this.disposed = true;
    for (const slot of this.slots.splice(0)) {
      void slot.worker.terminate();
      for (const batch of slot.inFlight.values()) for (const item of batch.items) item.reject(new SearchAbortedError());
    }
    for (const item of this.queue.splice(0)) item.reject(new SearchAbortedError());
  }

  enqueue(item: Pending): void {
    this.queue.push(item);
    if (this.queue.length === 1) queueMicrotask(() => this.schedule());
  }

  abort(search: PoolSearch): void {
    const dropped = this.queue.filter((item) => item.search === search);
    this.queue = this.queue.filter((item) => item.search !== search);
    for (const item of dropped) item.reject(new SearchAbortedError());
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
    const requeue: Pending[] = [];
    for (const batch of slot.inFlight.values()) {
      if (keep(batch)) requeue.push(...batch.items);
      else for (const item of batch.items) item.reject(new SearchAbortedError());
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
    const workerData: WorkerOptions = { background: this.options.background === true };
    const worker = new Worker(this.options.workerFile ?? nodePath.join(__dirname, 'worker.js'), { workerData });
    const slot: Slot = { worker, inFlight: new Map() };
    worker.on('message', (result: BatchResult) => {
      const batch = slot.inFlight.get(result.batchId);
      if (!batch) return;
      slot.inFlight.delete(result.batchId);
      batch.items.forEach((item, i) => item.resolve(result.outcomes[i]));
      this.schedule();
    });
    worker.on('error', (error) => {
      // A crashed worker fails the files it held; the others go on in a fresh worker.
      for (const batch of slot.inFlight.values()) {
        for (const item of batch.items) item.reject(new Error(`A search worker failed: ${error.message}`));
      }
      slot.inFlight.clear();
      this.retire(slot, () => false);
      this.schedule();
    });
    return slot;
  }

  private schedule(): void {
    if (this.disposed || this.queue.length === 0) return;
    this.warm();
    for (const slot of this.slots) {
      while (slot.inFlight.size < BATCHES_PER_WORKER && this.queue.length > 0) {
        const search = this.queue[0].search;
        let count = 0;
        while (count < this.queue.length && count < BATCH_SIZE && this.queue[count].search === search) count++;
        const items = this.queue.splice(0, count);
        const batch: Batch = { id: this.nextBatchId++, search, items };
        slot.inFlight.set(batch.id, batch);
        const request: BatchRequest = {
          batchId: batch.id,
          specKey: search.key,
          spec: search.spec,
          files: items.map((item) => ({ path: item.path, collect: item.collect })),
        };
        slot.worker.postMessage(request);
      }
    }
  }
}
