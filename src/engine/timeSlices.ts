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
  private items = 0;

  /** Counts one item; true when the slice is used up and the loop should `await pause()`. */
  due(): boolean {
    return ++this.items % ITEMS_PER_CHECK === 0 && performance.now() - this.started >= SLICE_MS;
  }

  /** Lets the event loop run (pending I/O and messages first), then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
