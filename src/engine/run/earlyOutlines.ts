/**
 * A page's files sent to be parsed for their definitions as soon as the search finds them, while the page
 * is the path order's (grep.ts): the parse overlaps the rest of the search. Each file goes to the worker
 * that keeps its definitions (SearchPool.workerOf), a few files a message; once the page is known, a file
 * asked for with the same lines takes the outcome already asked for instead of a second round trip.
 */
import type { OutlineItem, OutlineOutcome, OutlineSpec, PoolSearch, SearchPool } from '../pool/pool';

/** Files sent to a worker in one message. */
const EARLY_BATCH = 4;

interface Waiting {
  item: OutlineItem;
  resolve(outcome: OutlineOutcome): void;
}

export class EarlyOutlines {
  private job?: PoolSearch<OutlineItem, OutlineOutcome[]>;
  /** Files found but not yet sent, by worker. */
  private readonly waiting = new Map<number, Waiting[]>();
  private readonly asked = new Map<string, { lines: readonly number[]; outcome: Promise<OutlineOutcome> }>();

  constructor(
    private readonly spec: OutlineSpec,
    private readonly pool: SearchPool,
  ) {}

  /** A file of the page found with matches on these lines, read from disk. */
  add(path: string, lines: readonly number[]): void {
    const worker = this.pool.workerOf(path);
    let queue = this.waiting.get(worker);
    if (!queue) this.waiting.set(worker, (queue = []));
    const waiting = queue;
    const outcome = new Promise<OutlineOutcome>((resolve) => waiting.push({ item: { path, lines: [...lines] }, resolve }));
    this.asked.set(path, { lines, outcome });
    if (waiting.length === EARLY_BATCH) this.send(worker);
  }

  /** Sends what is waiting (the search is over). */
  flush(): void {
    for (const worker of [...this.waiting.keys()]) this.send(worker);
  }

  /** The outcome asked for `path` with these very lines, if any (undefined also when its outline failed). */
  outcomeOf(path: string, lines: readonly number[]): Promise<OutlineOutcome> | undefined {
    const asked = this.asked.get(path);
    if (!asked || asked.lines.length !== lines.length || asked.lines.some((line, i) => line !== lines[i])) return undefined;
    return asked.outcome;
  }

  /** Every outline asked for, with the lines it was asked for, once all are in (one that failed left out): a cut page keeps those of the files it left out. */
  async all(): Promise<Array<{ path: string; lines: readonly number[]; outcome: NonNullable<OutlineOutcome> }>> {
    const asked = [...this.asked];
    const outcomes = await Promise.all(asked.map(([, { outcome }]) => outcome));
    return asked.flatMap(([path, { lines }], i) => {
      const outcome = outcomes[i];
      return outcome ? [{ path, lines, outcome }] : [];
    });
  }

  private send(worker: number): void {
    const queue = this.waiting.get(worker);
    this.waiting.delete(worker);
    if (!queue || queue.length === 0) return;
    this.job ??= this.pool.outline(this.spec);
    this.job
      .batch(
        queue.map((waiting) => waiting.item),
        0,
        worker,
      )
      .then(
        (found) => queue.forEach((waiting, k) => waiting.resolve(found[k])),
        () => queue.forEach((waiting) => waiting.resolve(undefined)),
      );
  }
}
