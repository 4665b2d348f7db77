/**
 * Long loops on the extension host's thread (the files of a 100,000-file listing) give its event loop a
 * turn every few milliseconds, so a cancellation, the other calls and VS Code itself are not held up.
 */

/** Milliseconds of work between two turns of the event loop. */
const SLICE_MS = 10;
/** Items between two looks at the clock. */
const ITEMS_PER_CHECK = 256;

export class TimeSlices {
  private started = performance.now();
  private untilCheck = ITEMS_PER_CHECK;

  /** Counts `items` done (one by default); true when the slice is used up and the loop should `await pause()`. */
  due(items = 1): boolean {
    this.untilCheck -= items;
    if (this.untilCheck > 0) return false;
    this.untilCheck = ITEMS_PER_CHECK;
    return performance.now() - this.started >= SLICE_MS;
  }

  /** Lets the event loop run (pending I/O and messages first), then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
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
 * `items.sort(compare)` (stable), a slice at a time: runs of SORT_RUN items are sorted in one call each,
 * then merged pairwise, pausing between slices, so 100,000 paths never hold the thread for long.
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
    for (let r = 0; r < runs.length; r += 2) {
      const a = runs[r];
      const b = runs[r + 1];
      if (!b) {
        merged.push(a);
        continue;
      }
      const out: T[] = new Array(a.length + b.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < a.length && j < b.length) {
        // Ties take from the earlier run: stable, as Array.prototype.sort.
        out[k++] = compare(b[j], a[i]) < 0 ? b[j++] : a[i++];
        if (slices.due()) await slices.pause();
      }
      while (i < a.length) out[k++] = a[i++];
      while (j < b.length) out[k++] = b[j++];
      merged.push(out);
    }
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
