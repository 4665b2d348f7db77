/**
 * When an index is refreshed: one refresh at a time. A refresh asked for while one runs (its listing, its
 * watches, its build, the index opened: minutes at 500,000 files) follows that one, after the shortest
 * delay asked for meanwhile; two at once would both list, watch and build into the same directory. VS
 * Code's indexer and the resident workspace of `serve` and the MCP server both refresh through one.
 */
/**
 * How long asks can keep putting off a refresh waiting for its delay (a burst of changes is refreshed for
 * once, after it): a tree written to without a pause (a log, a dev server's output) is still refreshed.
 */
export const LONGEST_PUT_OFF_MS = 10_000;

export class RefreshSchedule {
  private timer?: NodeJS.Timeout;
  /** While a refresh waits for its delay: the latest it may start, however often it is asked for again. */
  private latest?: number;
  private running?: Promise<void>;
  /** The shortest delay a refresh was asked for while one ran. */
  private nextIn?: number;
  private closed = false;

  /**
   * `refresh`: runs one refresh. `failed`: told of a scheduled refresh that rejected (the next still
   * follows); one run by `now()` rejects to its caller instead.
   */
  constructor(
    private readonly refresh: () => Promise<void>,
    private readonly failed: (error: unknown) => void,
    private readonly longestPutOffMs = LONGEST_PUT_OFF_MS,
  ) {}

  /** Whether a refresh runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Whether a refresh is due: waiting for its delay, or to follow the one running. */
  get due(): boolean {
    return this.timer !== undefined || this.nextIn !== undefined;
  }

  /**
   * A refresh in `delayMs`, replacing the one waiting for its delay, though never later than the first of
   * those asks allowed (its delay, or `longestPutOffMs` when longer); while one runs, after it.
   */
  in(delayMs: number): void {
    if (this.closed) return;
    if (this.running) {
      this.nextIn = Math.min(this.nextIn ?? delayMs, delayMs);
      return;
    }
    const now = Date.now();
    this.latest ??= now + Math.max(delayMs, this.longestPutOffMs);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.now().catch(this.failed), Math.min(delayMs, this.latest - now));
  }

  /** Runs a refresh now, or joins the one running; settles as it does. */
  now(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.latest = undefined;
    if (this.closed) return Promise.resolve();
    this.running ??= this.refresh().finally(() => {
      this.running = undefined;
      const next = this.nextIn;
      this.nextIn = undefined;
      if (next !== undefined) this.in(next);
    });
    return this.running;
  }

  /** Resolves once no refresh runs (whether the one running succeeded or not). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /** No refresh from now on: the one waiting is dropped (the one running, if any, runs to its end). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.latest = undefined;
    this.nextIn = undefined;
  }
}
