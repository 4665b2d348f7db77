/**
 * What the person was asked before a chat call ran: `prepareInvocation` records the guard's decision
 * for the call's input, and `invoke` runs an outside search only where that decision pointed. A path
 * that was inside the workspace when prepared (no confirmation shown) and leads outside by the time
 * it is invoked (a symlink flipped in between) is refused, and so is one that now resolves elsewhere.
 */

export interface Confirmed {
  /** The person was shown a confirmation for an outside path and VS Code called invoke: they allowed it. */
  allowOutside: boolean;
  /** The real path that confirmation named. */
  target?: string;
}

/** Entries kept at most, and for how long: a prepared call is normally invoked within seconds. */
const MAX_ENTRIES = 256;
const MAX_AGE_MS = 30 * 60 * 1000;

export class Confirmations {
  private readonly shown = new Map<string, { target: string | undefined; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  private static key(tool: string, input: unknown): string {
    return `${tool}\u0000${JSON.stringify(input)}`;
  }

  /** After prepareInvocation: the guard's decision shown (a confirmation only for 'pending', naming `resolved`). */
  record(tool: string, input: unknown, prepared: { decision: string; resolved?: string }): void {
    const key = Confirmations.key(tool, input);
    this.shown.delete(key);
    this.shown.set(key, { target: prepared.decision === 'pending' ? prepared.resolved : undefined, at: this.now() });
    for (const [old, entry] of this.shown) {
      if (this.shown.size <= MAX_ENTRIES && this.now() - entry.at <= MAX_AGE_MS) break;
      this.shown.delete(old);
    }
  }

  /**
   * In invoke, inside a chat request: what the person confirmed for this input (taken once). Nothing
   * recorded, or no confirmation shown: no outside path may be searched.
   */
  take(tool: string, input: unknown): Confirmed {
    const key = Confirmations.key(tool, input);
    const entry = this.shown.get(key);
    this.shown.delete(key);
    if (!entry || entry.target === undefined || this.now() - entry.at > MAX_AGE_MS) return { allowOutside: false };
    return { allowOutside: true, target: entry.target };
  }
}
