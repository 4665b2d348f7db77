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
