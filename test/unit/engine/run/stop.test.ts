import * as assert from 'assert';
import { CancelledError } from '../../../../src/engine/api/errors';
import { stopWatch, unlessCancelled } from '../../../../src/engine/run/stop';
import { Cancellation } from '../../../support/cancellation';
import { waitUntil } from '../../../support/waitUntil';
import { Fixture, makeEnv } from '../../fixture';

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Settles once a timer due at `deadline` has fired: Node runs timers in the order they fall due. */
const pastDeadline = (deadline: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1));

describe('engine/run/stop: when a search stops', () => {
  const fx = new Fixture();
  after(() => fx.remove());
  const far = () => Date.now() + 60_000;

  it('a signalled cancellation stops the search at once, once: a later time limit changes nothing', async () => {
    const cancellation = new Cancellation();
    let stops = 0;
    const deadline = Date.now() + 5;
    const watch = stopWatch(deadline, { ...makeEnv(fx.root), ...cancellation.env }, () => stops++);
    assert.strictEqual(watch.reason(), undefined);
    cancellation.cancel();
    assert.strictEqual(watch.reason(), 'cancelled', 'no wait for a poll');
    assert.strictEqual(stops, 1);
    await pastDeadline(deadline);
    assert.strictEqual(watch.reason(), 'cancelled');
    assert.strictEqual(stops, 1);
    watch.dispose();
    assert.strictEqual(cancellation.listening, 0, 'no listener is left on the event');
  });

  it('a deadline already past stops the search as a timeout on the next turn', async () => {
    let stops = 0;
    const deadline = Date.now() - 1000;
    const watch = stopWatch(deadline, makeEnv(fx.root), () => stops++);
    await pastDeadline(deadline);
    assert.strictEqual(watch.reason(), 'timeout');
    assert.strictEqual(stops, 1);
    watch.dispose();
  });

  it('without a cancellation event, the flag is polled: the first poll that sees it set stops the search', async () => {
    let cancelled = false;
    let stops = 0;
    /** What each look at the set flag found: the search still running, or stopped already. */
    const looks: string[] = [];
    const watch = stopWatch(
      far(),
      makeEnv(fx.root, {
        isCancelled: () => {
          if (cancelled) looks.push(watch.reason() ?? 'running');
          return cancelled;
        },
      }),
      () => stops++,
    );
    cancelled = true;
    await waitUntil(
      () => looks.length >= 2,
      () => `two polls of the set flag (${looks.length})`,
      10_000,
      5,
    );
    watch.dispose();
    // Counted, not timed: a loaded machine delays the polls, not which of them stops the search.
    assert.deepStrictEqual(looks.slice(0, 2), ['running', 'cancelled']);
    assert.strictEqual(stops, 1);
  });

  it('once disposed, neither the time limit nor a cancellation reaches the search', async () => {
    const cancellation = new Cancellation();
    let stops = 0;
    const deadline = Date.now() + 1;
    const watch = stopWatch(deadline, { ...makeEnv(fx.root), ...cancellation.env }, () => stops++);
    watch.dispose();
    cancellation.cancel();
    await pastDeadline(deadline);
    assert.strictEqual(watch.reason(), undefined);
    assert.strictEqual(stops, 0);
  });

  describe('unlessCancelled', () => {
    it('settles as the work does, and lets go of the event', async () => {
      const cancellation = new Cancellation();
      const env = { ...makeEnv(fx.root), ...cancellation.env };
      assert.strictEqual(await unlessCancelled(Promise.resolve('answer'), env), 'answer');
      await assert.rejects(unlessCancelled(Promise.reject(new Error('bad input')), env), /bad input/);
      assert.strictEqual(cancellation.listening, 0);
    });

    it('rejects with CancelledError as soon as the cancellation is signalled, while the work goes on', async () => {
      const cancellation = new Cancellation();
      let finish!: (value: string) => void;
      const work = new Promise<string>((resolve) => (finish = resolve));
      const call = unlessCancelled(work, { ...makeEnv(fx.root), ...cancellation.env });
      const seen: { outcome?: unknown } = {};
      call.then(
        (value) => (seen.outcome = value),
        (error: unknown) => (seen.outcome = error),
      );
      const outcome = (): unknown => seen.outcome;
      await turn();
      assert.strictEqual(outcome(), undefined, 'still running');
      cancellation.cancel();
      await turn();
      assert.ok(outcome() instanceof CancelledError, String(outcome()));
      finish('too late');
      await work;
      await turn();
      assert.strictEqual(cancellation.listening, 0, 'the listener goes once the work ends');
    });

    it('rejects at once when the call was cancelled before it started', async () => {
      const cancellation = new Cancellation();
      cancellation.cancel();
      await assert.rejects(unlessCancelled(new Promise<never>(() => {}), { ...makeEnv(fx.root), ...cancellation.env }), CancelledError);
    });

    it('without a cancellation event, hands back the work itself', () => {
      const work = Promise.resolve(1);
      assert.strictEqual(unlessCancelled(work, makeEnv(fx.root)), work);
    });
  });
});
