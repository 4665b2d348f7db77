/**
 * One refresh of an index at a time: a refresh asked for while one runs (a change reported while the
 * workspace is listed, watched, built or opened) follows it, once, after the shortest delay asked for;
 * never two at once, whatever the order of the asks.
 */
import * as assert from 'assert';
import { RefreshSchedule } from '../../../../src/engine/index/refreshSchedule';
import { waitUntil } from '../../../support/waitUntil';

/** Waits until `done` holds (timers fire on the event loop), failing after 1.5 s with `what`. */
const until = (what: string, done: () => boolean): Promise<void> => waitUntil(done, () => what, 1_500, 1);

/** Refreshes the test ends by hand, counting how many ran and how many ran at once at most. */
class Refreshes {
  started = 0;
  running = 0;
  mostAtOnce = 0;
  private ends: Array<(error?: Error) => void> = [];

  readonly run = (): Promise<void> => {
    this.started++;
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.running);
    return new Promise<void>((resolve, reject) => this.ends.push((error) => (error ? reject(error) : resolve()))).finally(() => this.running--);
  };

  /** Ends the refresh running (with `error`: it fails). */
  end(error?: Error): void {
    this.ends.shift()!(error);
  }
}

describe('engine/index/refreshSchedule', () => {
  let schedule: RefreshSchedule | undefined;
  afterEach(() => schedule?.close());

  it('a refresh asked for while one runs follows it once, after the shortest delay asked; never two at once', async () => {
    const refreshes = new Refreshes();
    const failed: unknown[] = [];
    schedule = new RefreshSchedule(refreshes.run, (error) => failed.push(error));
    schedule.in(0);
    await until('the first refresh starts', () => refreshes.started === 1);
    assert.ok(schedule.busy && !schedule.due);
    // Asked for meanwhile: a minute, at once, ten seconds. None starts while the first runs.
    schedule.in(60_000);
    schedule.in(0);
    schedule.in(10_000);
    const joined = schedule.now();
    assert.ok(schedule.due);
    assert.strictEqual(refreshes.started, 1, 'none starts beside the one running');
    refreshes.end();
    await joined;
    // The shortest delay asked (at once): a minute's or ten seconds' would outlast the wait.
    await until('the refresh asked for meanwhile starts', () => refreshes.started === 2);
    assert.ok(!schedule.due, 'one follows, not one per ask');
    refreshes.end();
    await schedule.idle();
    assert.ok(!schedule.busy && !schedule.due, 'and nothing after it');
    assert.strictEqual(refreshes.mostAtOnce, 1);
    assert.deepStrictEqual(failed, []);
  });

  it('a refresh that fails is told of, and the one asked for meanwhile still follows; one run by now() rejects to its caller', async () => {
    const refreshes = new Refreshes();
    const failed: unknown[] = [];
    schedule = new RefreshSchedule(refreshes.run, (error) => failed.push(error));
    schedule.in(0);
    await until('the first refresh starts', () => refreshes.started === 1);
    schedule.in(0);
    refreshes.end(new Error('the build process died'));
    await until('the failure is told of', () => failed.length === 1);
    assert.strictEqual((failed[0] as Error).message, 'the build process died');
    await until('the next refresh starts', () => refreshes.started === 2);
    refreshes.end();
    await schedule.idle();
    const direct = schedule.now();
    refreshes.end(new Error('no room on the disk'));
    await assert.rejects(direct, /no room on the disk/);
    assert.strictEqual(failed.length, 1, 'the caller was told, not the failure handler');
  });

  it('closed, it starts no refresh: neither the one waiting for its delay nor the one to follow', async () => {
    const refreshes = new Refreshes();
    schedule = new RefreshSchedule(refreshes.run, () => undefined);
    schedule.in(0);
    await until('the first refresh starts', () => refreshes.started === 1);
    schedule.in(0);
    schedule.close();
    refreshes.end();
    await schedule.idle();
    assert.ok(!schedule.due);
    schedule.in(0);
    await schedule.now();
    assert.strictEqual(refreshes.started, 1);
    assert.ok(!schedule.busy && !schedule.due);
  });

  it('asks that keep coming put a refresh off, but not past the longest wait: a tree written to without a pause is still refreshed', async () => {
    const refreshes = new Refreshes();
    schedule = new RefreshSchedule(refreshes.run, () => undefined, 300);
    const started = Date.now();
    // A change every 20 ms, each asking for a refresh in 100 ms: without the longest wait, none would ever start.
    const asking = setInterval(() => schedule!.in(100), 20);
    try {
      schedule.in(100);
      await until('a refresh starts while the asks go on', () => refreshes.started === 1);
      const waited = Date.now() - started;
      assert.ok(waited >= 290 && waited < 1_000, `started ${waited} ms after the first ask (the longest wait 300 ms)`);
    } finally {
      clearInterval(asking);
    }
    // (the asks made while it ran, if any, and this one: one follows)
    schedule.in(0);
    refreshes.end();
    await until('the refresh asked for meanwhile runs', () => refreshes.started === 2);
    refreshes.end();
    // A single ask, alone: its own delay, not the longest wait.
    await schedule.idle();
    const single = Date.now();
    schedule.in(50);
    await until('a lone ask starts after its delay', () => refreshes.started === 3);
    assert.ok(Date.now() - single < 290, `a lone ask waited ${Date.now() - single} ms`);
    refreshes.end();
  });
});
