/** When a search stops: its time limit, or the caller's cancellation, watched while it runs. */
import { CancelledError } from '../api/errors';
import type { Cancellation } from './environment';

/** How often cancellation is checked when the environment cannot signal it (no onCancelled). */
const CANCEL_POLL_MS = 25;

/**
 * Watches the time limit and cancellation while a search runs: `onStop` is called once, at once, when
 * either comes (the pool then terminates the workers busy with this search).
 */
export function stopWatch(deadline: number, cancellation: Cancellation, onStop: () => void) {
  let reason: 'timeout' | 'cancelled' | undefined;
  const fire = (why: 'timeout' | 'cancelled') => {
    if (reason) return;
    reason = why;
    onStop();
  };
  const timer = setTimeout(() => fire('timeout'), Math.max(0, deadline - Date.now()));
  const watching = cancellation.onCancelled
    ? cancellation.onCancelled(() => fire('cancelled'))
    : setInterval(() => cancellation.isCancelled() && fire('cancelled'), CANCEL_POLL_MS);
  return {
    reason: () => reason,
    dispose: () => {
      clearTimeout(timer);
      if ('dispose' in watching) watching.dispose();
      else clearInterval(watching);
    },
  };
}

/**
 * Settles as `work` does, or rejects with CancelledError as soon as the environment signals the
 * cancellation: the caller gets control back at once while `work` winds down in the background.
 */
export function unlessCancelled<T>(work: Promise<T>, cancellation: Cancellation): Promise<T> {
  if (!cancellation.onCancelled) return work;
  return new Promise<T>((resolve, reject) => {
    const subscription = cancellation.onCancelled!(() => reject(new CancelledError()));
    if (cancellation.isCancelled()) reject(new CancelledError());
    work.then(resolve, reject).finally(() => subscription.dispose());
  });
}

/**
 * A listing, waited for until the deadline at most: undefined once it passed first. The listing goes on
 * without the call (a source that keeps listings keeps it for the next call: on a very large workspace
 * the first listing may take longer than one call's time limit).
 */
export async function untilDeadline<T>(listing: Promise<T>, deadline: { at: number } | undefined): Promise<T | undefined> {
  if (!deadline) return listing;
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline.at - Date.now()))));
  listing.catch(() => {}); // a listing that fails after the call stopped waiting fails no one
  try {
    return await Promise.race([listing, passed]);
  } finally {
    clearTimeout(timer);
  }
}
