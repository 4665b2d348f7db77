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
  /**
   * The files gathered for the next chunk, in order: those the index settled (their outcome known) and
   * those for the pool, sent `batchSize` at a time. Settled files ride along in the batch, so a tree
   * where settled and read files alternate still sends full batches.
   */
  private files: string[] = [];
  private known: Array<FileOutcome | undefined> = [];
  private unsettled = 0;
  /** How many reported lines the files queued now may still add to the page (BatchRequest.pageRoom): set before each fill. */
  pageRoom = 0;
  /** Whether the files queued now are searched for the spec's fallbacks too (BatchRequest.fallbacks): set before each fill. */
  fallbacks = false;

  constructor(
    private readonly limit: number,
    private readonly batchSize: number,
    /** Searches a batch in the pool; without a pool every file goes through `one`. */
    private readonly sendBatch?: (files: string[], pageRoom: number, fallbacks: boolean) => Promise<FileOutcome[]>,
  ) {}

  /** Room for more files ahead. */
  get hasRoom(): boolean {
    return this.ahead + this.files.length < this.limit;
  }

  /** A file whose outcome is already known (the index settled it). */
  settled(file: string, outcome: FileOutcome): void {
    this.files.push(file);
    this.known.push(outcome);
  }

  /** A file for the pool's next batch. */
  batched(file: string): void {
    this.files.push(file);
    this.known.push(undefined);
    if (++this.unsettled === this.batchSize) this.flush();
  }

  /** A file searched on its own. */
  one(file: string, outcome: Promise<FileOutcome>): void {
    this.flush();
    this.queue({ files: [file], outcomes: outcome.then((result) => [result]) });
  }

  /** Sends what is gathered: the batch's unsettled files to the pool, its settled ones as they are. */
  flush(): void {
    if (this.files.length === 0) return;
    const { files, known } = this;
    const outcomes =
      this.unsettled === 0
        ? Promise.resolve(known as FileOutcome[])
        : this.sendBatch!(
            files.filter((_, i) => known[i] === undefined),
            this.pageRoom,
            this.fallbacks,
          ).then((searched) => {
            let next = 0;
            return known.map((outcome) => outcome ?? searched[next++]);
          });
    this.queue({ files, outcomes });
    this.files = [];
    this.known = [];
    this.unsettled = 0;
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

  /** Waits for every chunk still ahead to finish (after the search stopped, so none is left running). */
  async drain(): Promise<void> {
    await Promise.allSettled(this.pending.slice(this.head).map((chunk) => chunk.outcomes));
  }

  private queue(chunk: Chunk): void {
    chunk.outcomes.catch(() => {}); // awaited in order by the search; a stopped search rejects the rest
    this.pending.push(chunk);
    this.ahead += chunk.files.length;
  }
}
