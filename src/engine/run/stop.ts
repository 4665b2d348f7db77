/** When a search stops: its time limit, or the caller's cancellation, watched while it runs. */
import { CancelledError } from '../api/errors';
import type { SearchEnvironment } from './environment';

/** How often cancellation is checked when the environment cannot signal it (no onCancelled). */
const CANCEL_POLL_MS = 25;

/**
 * Watches the time limit and cancellation while a search runs: `onStop` is called once, at once, when
 * either comes (the pool then terminates the workers busy with this search).
 */
export function stopWatch(deadline: number, env: SearchEnvironment, onStop: () => void) {
  let reason: 'timeout' | 'cancelled' | undefined;
  const fire = (why: 'timeout' | 'cancelled') => {
    if (reason) return;
    reason = why;
    onStop();
  };
  const timer = setTimeout(() => fire('timeout'), Math.max(0, deadline - Date.now()));
  const cancellation = env.onCancelled
    ? env.onCancelled(() => fire('cancelled'))
    : setInterval(() => env.isCancelled() && fire('cancelled'), CANCEL_POLL_MS);
  return {
    reason: () => reason,
    dispose: () => {
      clearTimeout(timer);
      if ('dispose' in cancellation) cancellation.dispose();
      else clearInterval(cancellation);
    },
  };
}

/**
 * Settles as `work` does, or rejects with CancelledError as soon as the environment signals the
 * cancellation: the caller gets control back at once while `work` winds down in the background.
 */
export function unlessCancelled<T>(work: Promise<T>, env: SearchEnvironment): Promise<T> {
  if (!env.onCancelled) return work;
  return new Promise<T>((resolve, reject) => {
    const subscription = env.onCancelled!(() => reject(new CancelledError()));
    if (env.isCancelled()) reject(new CancelledError());
    work.then(resolve, reject).finally(() => subscription.dispose());
  });
}
