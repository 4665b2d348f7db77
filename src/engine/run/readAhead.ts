/**
 * The files of a search being read and searched ahead of the one its report waits for, in order, as
 * chunks: a batch sent to the pool, one file searched on its own (an override's content, or no pool), or
 * a run of files the index settled without reading. At most `limit` files are ahead at a time.
 */
import type { FileOutcome } from '../pool/pool';

export interface Chunk {
  files: string[];
  outcomes: Promise<FileOutcome[]>;
}

export class ReadAhead {
  private readonly pending: Chunk[] = [];
  private head = 0;
  private ahead = 0;
  /** Files for the pool, sent `batchSize` at a time; at most one of `batch` and `settled` holds files. */
  private batch: string[] = [];
  private settled: { files: string[]; outcomes: FileOutcome[] } = { files: [], outcomes: [] };
  /** Whether the files queued now need their lines (or only counts): set before each fill. */
  collect = true;

  constructor(
    private readonly limit: number,
    private readonly batchSize: number,
    /** Searches a batch in the pool; without a pool every file goes through `one`. */
    private readonly sendBatch?: (files: string[], collect: boolean) => Promise<FileOutcome[]>,
  ) {}

  /** Room for more files ahead. */
  get hasRoom(): boolean {
    return this.ahead + this.batch.length + this.settled.files.length < this.limit;
  }

  /** A file whose outcome is already known (the index settled it). */
  known(file: string, outcome: FileOutcome): void {
    if (this.batch.length > 0) this.flush();
    this.settled.files.push(file);
    this.settled.outcomes.push(outcome);
  }

  /** A file for the pool's next batch. */
  batched(file: string): void {
    this.flushSettled();
    this.batch.push(file);
    if (this.batch.length === this.batchSize) this.flush();
  }

  /** A file searched on its own. */
  one(file: string, outcome: Promise<FileOutcome>): void {
    this.flush();
    this.queue({ files: [file], outcomes: outcome.then((result) => [result]) });
  }

  /** Sends what is gathered (a partial batch, a run of settled files). */
  flush(): void {
    this.flushSettled();
    if (this.batch.length === 0) return;
    this.queue({ files: this.batch, outcomes: this.sendBatch!(this.batch, this.collect) });
    this.batch = [];
  }

  /** The next chunk in order, without taking it; undefined when nothing is ahead. */
  peek(): Chunk | undefined {
    return this.pending[this.head];
  }

  /** Takes the chunk `peek` gave, once its outcomes are in. */
  take(): void {
    this.ahead -= this.pending[this.head].files.length;
    if (++this.head > 256) {
      this.pending.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Waits for every chunk still ahead to settle (after the search stopped, so none is left running). */
  async drain(): Promise<void> {
    await Promise.allSettled(this.pending.slice(this.head).map((chunk) => chunk.outcomes));
  }

  private flushSettled(): void {
    if (this.settled.files.length === 0) return;
    this.queue({ files: this.settled.files, outcomes: Promise.resolve(this.settled.outcomes) });
    this.settled = { files: [], outcomes: [] };
  }

  private queue(chunk: Chunk): void {
    chunk.outcomes.catch(() => {}); // awaited in order by the search; a stopped search rejects the rest
    this.pending.push(chunk);
    this.ahead += chunk.files.length;
  }
}
