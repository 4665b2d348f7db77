/**
 * Long loops on the extension host's thread (the files of a 100,000-file listing) give its event loop a
 * turn every few milliseconds, so a cancellation, the other calls and VS Code itself are not held up.
 */

/** Milliseconds of work between two turns of the event loop. */
const SLICE_MS = 10;
/** Items between two looks at the clock. */
const ITEMS_PER_CHECK = 256;

/**
 * Resolves after a whole turn of the event loop: its due timers run and its descriptors are polled (pending
 * I/O, messages, file events) before the second of two immediates. One immediate would not do after an I/O
 * callback (a reply just read): it runs in the same turn's check phase, before any of them.
 */
export async function aTurn(): Promise<void> {
  for (let hop = 0; hop < 2; hop++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export class TimeSlices {
  private started = performance.now();
  private untilCheck = ITEMS_PER_CHECK;

  /**
   * `giveWay`: awaited at each pause, for work that waits for others between its slices (the index's
   * preparations wait while a search runs: WorkspaceIndexer).
   */
  constructor(private readonly giveWay?: () => Promise<void>) {}

  /** Counts `items` done (one by default); true when the slice is used up and the loop should `await pause()`. */
  due(items = 1): boolean {
    this.untilCheck -= items;
    return this.untilCheck <= 0 && this.dueNow();
  }

  /** The same for an item that may itself be slow (a glob's test of one name): the clock is read at each. */
  dueNow(): boolean {
    this.untilCheck = ITEMS_PER_CHECK;
    return performance.now() - this.started >= SLICE_MS;
  }

  /** Lets the event loop run (due timers, pending I/O and messages first: aTurn), then starts a new slice. */
  async pause(): Promise<void> {
    await aTurn();
    await this.giveWay?.();
    this.started = performance.now();
  }
}

/** `items.filter(keep)`, a slice at a time. */
export async function filterInSlices<T>(items: readonly T[], keep: (item: T) => boolean, slices = new TimeSlices()): Promise<T[]> {
  const kept: T[] = [];
  for (const item of items) {
    if (keep(item)) kept.push(item);
    if (slices.due()) await slices.pause();
  }
  return kept;
}

/** Items sorted in one call to Array.prototype.sort: a few milliseconds' work. */
const SORT_RUN = 2048;

/**
 * The first index from `from` on where `stop` holds, for items where it holds from some index to the
 * end (or nowhere: then their length): probed at growing steps, then searched between the last two
 * probes, so a long stretch costs a few calls and a stretch of one costs one.
 */
function firstWhere<T>(items: readonly T[], from: number, stop: (item: T) => boolean): number {
  let known = from; // stop is false before `known`
  let probe = from;
  for (let step = 1; probe < items.length && !stop(items[probe]); step *= 2) {
    known = probe + 1;
    probe = known + step;
  }
  let hi = Math.min(probe, items.length);
  let lo = known;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stop(items[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Two sorted runs merged (stable: ties from `a` first) a stretch at a time: each stretch of one run
 * that comes before the other's next item is found by firstWhere, so runs that hardly interleave (a
 * listing's directories) cost a few comparisons a stretch, not one an item.
 */
async function mergeRuns<T>(a: readonly T[], b: readonly T[], compare: (a: T, b: T) => number, slices: TimeSlices): Promise<T[]> {
  const out: T[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  // Which run the next stretch comes from; known after each stretch from the comparison that ended it.
  let fromB = compare(b[0], a[0]) < 0;
  while (i < a.length && j < b.length) {
    const from = k;
    if (fromB) {
      const next = a[i];
      const end = firstWhere(b, j + 1, (item) => !(compare(item, next) < 0));
      while (j < end) out[k++] = b[j++];
    } else {
      const next = b[j];
      const end = firstWhere(a, i + 1, (item) => compare(next, item) < 0);
      while (i < end) out[k++] = a[i++];
    }
    fromB = !fromB;
    if (slices.due(k - from)) await slices.pause();
  }
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/**
 * `items.sort(compare)` (stable), a slice at a time: runs of SORT_RUN items are sorted in one call each,
 * then merged pairwise (mergeRuns), pausing between slices, so 100,000 paths never hold the thread for long.
 */
export async function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number, slices = new TimeSlices()): Promise<T[]> {
  if (items.length <= SORT_RUN) return items.sort(compare);
  let runs: T[][] = [];
  for (let i = 0; i < items.length; i += SORT_RUN) {
    runs.push(items.slice(i, i + SORT_RUN).sort(compare));
    if (slices.due(SORT_RUN)) await slices.pause();
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let r = 0; r < runs.length; r += 2) merged.push(r + 1 < runs.length ? await mergeRuns(runs[r], runs[r + 1], compare, slices) : runs[r]);
    runs = merged;
  }
  return runs[0];
}

/**
 * Work written once for both drivers: a generator that yields, after each run of items, how many it did.
 * `finishSteps` runs it to its end at once; `finishStepsInSlices` a slice at a time.
 */
export type Steps<T> = Generator<number, T, void>;

export function finishSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export async function finishStepsInSlices<T>(steps: Steps<T>, slices = new TimeSlices()): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (slices.due(step.value)) await slices.pause();
  }
}
