/** A cancellation as VS Code's CancellationTokenSource gives it, for the engine's tests: a flag and an event. */
import type { SearchEnvironment } from '../../src/engine/run/environment';

export class Cancellation {
  private readonly listeners = new Set<() => void>();
  cancelled = false;

  cancel(): void {
    this.cancelled = true;
    for (const listener of [...this.listeners]) listener();
  }

  /** The two members of SearchEnvironment it answers. */
  readonly env: Pick<SearchEnvironment, 'isCancelled' | 'onCancelled'> = {
    isCancelled: () => this.cancelled,
    onCancelled: (listener) => {
      this.listeners.add(listener);
      return { dispose: () => this.listeners.delete(listener) };
    },
  };

  /** Listeners still registered (a finished search leaves none). */
  get listening(): number {
    return this.listeners.size;
  }
}

/**
 * Turns of the event loop between `cancel()` and the promise's rejection, and the rejection. "At once"
 * is 0: rejected in the turn that signalled the cancellation, before any timer, I/O callback or poll
 * could run. Counted in turns rather than milliseconds, so a loaded machine, which only stretches each
 * turn, cannot fail it, while a rejection that waits for a poll or for the work to end takes many.
 */
export async function cancelAndCountTurns(promise: Promise<unknown>, cancel: () => void): Promise<{ turns: number; error: unknown }> {
  let turns = 0;
  let settled = false;
  const turn = () => {
    if (settled) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  cancel();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  settled = true;
  return { turns, error };
}
