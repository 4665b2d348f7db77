/** Background threads: a worker that lowers its own scheduling priority, below the process's main thread. */
import { readdirSync, readlinkSync } from 'fs';
import { setPriority } from 'os';

/** The niceness of a background thread: the process's other threads go first. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers this thread's scheduling priority, so work that keeps every core busy (a catastrophic regex,
 * a large tree, an index build) does not hold up the extension host's main thread, nor the
 * cancellation and the other calls it relays. Linux only (a thread id given to setpriority affects
 * that thread alone); best effort.
 */
export function runInBackground(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop()); // "<pid>/task/<tid>"
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, BACKGROUND_NICE);
  } catch {
    // Not permitted or no /proc: the thread keeps its priority.
  }
}

/**
 * Lowers the whole process's scheduling priority (the index build's own process): on Linux each of its
 * threads, as setpriority given the process id lowers only its main thread, and V8's own threads (garbage
 * collection, compilation; started with the process) would compete with the extension host at its
 * priority while the build allocates. Threads started later take the priority of the thread that starts
 * them. Elsewhere the process's priority (Windows: its priority class). Best effort.
 */
export function processInBackground(): void {
  try {
    if (process.platform !== 'linux') return setPriority(BACKGROUND_NICE);
    for (const tid of readdirSync('/proc/self/task')) setPriority(Number(tid), BACKGROUND_NICE);
  } catch {
    // Not permitted or no /proc: the process keeps its priority.
  }
}
