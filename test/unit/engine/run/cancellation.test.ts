import * as assert from 'assert';
import type { FileSource } from '../../../../src/engine/source/fileSource';
import { answerGlob } from '../../../../src/engine/answer/globAnswer';
import { CancelledError } from '../../../../src/engine/api/errors';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { cancelAndCountTurns, Cancellation } from '../../../support/cancellation';
import { waitUntil } from '../../../support/waitUntil';
import { Fixture, makeEnv } from '../../fixture';

/** A source whose listing is under way until `finish()`: `started` resolves when it is asked. */
function slowSource(inner: FileSource) {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let started!: () => void;
  const listing = new Promise<void>((resolve) => (started = resolve));
  const source: FileSource = {
    kind: (path) => inner.kind(path),
    mtime: (path) => inner.mtime(path),
    list: async (...args) => {
      started();
      await finished;
      return inner.list(...args);
    },
  };
  return { source, listing, finish };
}

describe('cancellation signalled by an event (a VS Code CancellationToken)', function () {
  this.timeout(20_000);
  const fx = new Fixture();
  let pool: SearchPool;
  before(() => {
    for (let i = 0; i < 50; i++) fx.write(`src/m${i}.ts`, `export const v${i} = ${i};\n`);
    for (let i = 0; i < 8; i++) fx.write(`redos/evil${i}.txt`, `${'a'.repeat(40)}b\n`);
    pool = new SearchPool(2);
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  for (const tool of ['grep', 'glob'] as const) {
    it(`${tool}: rejects at once while the files are still being listed, and lets go of the event`, async () => {
      const cancellation = new Cancellation();
      const slow = slowSource(makeEnv(fx.root).source);
      const env: SearchEnvironment = { ...makeEnv(fx.root), ...cancellation.env, source: slow.source, pool };
      const run = tool === 'grep' ? answerGrep({ pattern: 'export' }, env) : answerGlob({ pattern: '**/*.ts' }, env);
      await slow.listing;
      const { turns, error } = await cancelAndCountTurns(run, () => cancellation.cancel());
      assert.ok(error instanceof CancelledError, String(error));
      assert.strictEqual(turns, 0, `rejected ${turns} turns of the event loop after the cancellation`);
      slow.finish(); // the listing ends in the background; nothing is reported any more
      await waitUntil(
        () => cancellation.listening === 0,
        () => `no listener is left on the event (${cancellation.listening} left)`,
        5000,
        5,
      );
    });
  }

  it('grep: stops catastrophic regexes in the workers at once; the pool stays within its size and serves the next search', async () => {
    const runs = Array.from({ length: 3 }, () => {
      const cancellation = new Cancellation();
      const env: SearchEnvironment = { ...makeEnv(fx.root, { config: { timeoutSeconds: 20 } }), ...cancellation.env, pool };
      return { cancellation, run: answerGrep({ pattern: '(a+)+$', path: 'redos' }, env) };
    });
    // Both workers are in the regex.
    await waitUntil(
      () => pool.busyWorkers === pool.size,
      () => `both workers busy (${pool.busyWorkers} of ${pool.size})`,
      10_000,
      5,
    );
    const stops = await Promise.all(runs.map(({ run, cancellation }) => cancelAndCountTurns(run, () => cancellation.cancel())));
    for (const { turns, error } of stops) {
      assert.ok(error instanceof CancelledError, String(error));
      assert.strictEqual(turns, 0, `rejected ${turns} turns of the event loop after the cancellation`);
    }
    assert.ok(pool.workerCount <= pool.size, `${pool.workerCount} workers, size ${pool.size}`);
    const next = await answerGrep({ pattern: 'export const v4\\d', output_mode: 'count' }, { ...makeEnv(fx.root), pool });
    assert.strictEqual(next.totalMatches, 10, 'the pool recovered');
    assert.ok(pool.workerCount <= pool.size, `${pool.workerCount} workers, size ${pool.size}`);
  });
});
