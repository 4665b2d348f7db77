/**
 * Opening files and directories when the process is short of file descriptors. A large workspace read
 * in a busy process (VS Code's extension host also holds its watchers', its other extensions' and its
 * workers' descriptors) can meet EMFILE or ENFILE: that says nothing about the file, so an open that
 * fails so is tried again after a short wait, and reported only when it keeps failing. The engine also
 * keeps few descriptors open at once (a bounded number of directory listings and ignore-file reads at a
 * time), so these waits are the exception.
 */

/** Whether an error says the process or the system has no descriptor left (not that the path is unreadable). */
export function outOfDescriptors(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}

/** Waits between tries, in milliseconds: about 2.5 s in all before the error is reported. */
const WAITS_MS = [5, 10, 20, 40, 80, 160, 320, 640, 1280];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `open()`, tried again after a wait while it fails for want of descriptors; `wait` sleeps (a test passes its own clock). */
export async function openRetrying<T>(open: () => Promise<T>, wait: (ms: number) => Promise<void> = sleep): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open();
    } catch (error) {
      if (!outOfDescriptors(error) || attempt === WAITS_MS.length) throw error;
      await wait(WAITS_MS[attempt]);
    }
  }
}

/** A shared word to wait on: Atomics.wait sleeps the calling thread without spinning. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * The same for a synchronous open (the search workers, the command line's walker): the thread sleeps
 * between tries, as it would block in the open anyway.
 */
export function openRetryingSync<T>(open: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return open();
    } catch (error) {
      if (!outOfDescriptors(error) || attempt === WAITS_MS.length) throw error;
      Atomics.wait(sleeper, 0, 0, WAITS_MS[attempt]);
    }
  }
}

/** Directories listed or ignore files read at once by one listing: enough to keep the disk busy, few against any descriptor limit. */
export const OPENS_AT_ONCE = 32;

/**
 * `Promise.all(items.map(open))` with at most `limit` calls under way at once, results in the items'
 * order: each call holds a descriptor until it ends, and a level of a large tree can hold tens of
 * thousands of directories.
 */
export async function mapAtMost<T, R>(items: readonly T[], limit: number, open: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await open(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return results;
}
