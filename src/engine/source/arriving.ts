/**
 * Candidates that arrive while a search runs: a source that lists a folder in parts (VS Code's
 * findFiles, a top-level directory at a time) hands each part over in the final order as soon as the
 * parts before it are in, so the search reads the first files while the rest are still being listed.
 */
import type { Candidate } from '../api/types';

export class ArrivingCandidates {
  /** The candidates so far, in the final order; only ever appended to. */
  readonly items: Candidate[] = [];
  /** Whether every part has arrived (or the listing stopped). */
  done = false;
  /** Why the listing stopped short, when it failed: the search that takes them fails with it. */
  failure?: unknown;
  private waiting: Array<() => void> = [];

  /** Appends candidates in order. */
  add(candidates: Iterable<Candidate>): void {
    for (const candidate of candidates) this.items.push(candidate);
    this.wake();
  }

  /** No more will arrive (`failure`: the listing failed). */
  end(failure?: unknown): void {
    if (failure !== undefined) this.failure = failure;
    this.done = true;
    this.wake();
  }

  /**
   * Takes them in order: each call gives the next candidate, undefined while the next has not arrived
   * yet, and `done` once all were taken; it throws the listing's failure where the candidates stopped.
   */
  cursor(): () => IteratorResult<Candidate> | undefined {
    let taken = 0;
    return () => {
      if (taken < this.items.length) return { value: this.items[taken++], done: false };
      if (!this.done) return undefined;
      if (this.failure !== undefined) throw this.failure;
      return { value: undefined, done: true };
    };
  }

  /** Resolves once more candidates arrived, the listing ended, or `ms` passed. */
  arrival(ms: number): Promise<void> {
    if (this.done) return Promise.resolve();
    return new Promise<void>((resolve) => {
      // `this.waiting`, not the array it was when the wait began: once woken, the wait is no longer in it
      // (and wake() walks the old array, which must not shrink under it).
      const done = () => {
        clearTimeout(timer);
        const at = this.waiting.indexOf(done);
        if (at !== -1) this.waiting.splice(at, 1);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiting.push(done);
    });
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }
}
