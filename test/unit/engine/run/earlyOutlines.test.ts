import * as assert from 'assert';
import type { OutlineItem, OutlineOutcome, SearchPool } from '../../../../src/engine/pool/pool';
import { EarlyOutlines } from '../../../../src/engine/run/earlyOutlines';

/** A pool that records the outline batches sent to each worker (files ending in "1" go to worker 1) and answers each file, or fails. */
function recordingPool(fail = false) {
  const sent: Array<{ worker: number; paths: string[] }> = [];
  const pool = {
    workerOf: (path: string) => (path.endsWith('1') ? 1 : 0),
    outline: () => ({
      batch: (items: OutlineItem[], _pageRoom: number, worker: number): Promise<OutlineOutcome[]> => {
        sent.push({ worker, paths: items.map((item) => item.path) });
        if (fail) return Promise.reject(new Error('stopped'));
        return Promise.resolve(items.map((item) => ({ marks: item.lines.map(() => ({ in: `in ${item.path}` })), cost: { parsed: true, ms: 1 } })));
      },
    }),
  };
  return { pool: pool as unknown as SearchPool, sent };
}

describe('engine/run/earlyOutlines: a page parsed as the search finds it', () => {
  const spec = { outline: { pattern: 'x', matcher: { source: 'x', flags: '' }, maxFileSize: 1000, scope: { granted: [], denied: [] } } } as never;

  it('sends a few files a message to the worker that keeps them, the rest once the search is over', async () => {
    const { pool, sent } = recordingPool();
    const early = new EarlyOutlines(spec, pool);
    for (const path of ['/a0', '/b0', '/c1', '/d0', '/e0', '/f0']) early.add(path, [1]);
    assert.deepStrictEqual(sent, [{ worker: 0, paths: ['/a0', '/b0', '/d0', '/e0'] }]);
    early.flush();
    assert.deepStrictEqual(
      sent.slice(1).sort((a, b) => a.worker - b.worker),
      [
        { worker: 0, paths: ['/f0'] },
        { worker: 1, paths: ['/c1'] },
      ],
    );
  });

  it("gives the page a file's outcome for the same lines without asking again, and none for other lines", async () => {
    const { pool, sent } = recordingPool();
    const early = new EarlyOutlines(spec, pool);
    early.add('/a0', [3, 7]);
    early.flush();
    assert.deepStrictEqual((await early.outcomeOf('/a0', [3, 7]))?.marks, [{ in: 'in /a0' }, { in: 'in /a0' }]);
    assert.strictEqual(early.outcomeOf('/a0', [3]), undefined);
    assert.strictEqual(early.outcomeOf('/b0', [3, 7]), undefined);
    assert.strictEqual(sent.length, 1);
  });

  it('answers undefined for the files of a message that failed (the page asks for them again)', async () => {
    const { pool } = recordingPool(true);
    const early = new EarlyOutlines(spec, pool);
    early.add('/a0', [1]);
    early.flush();
    assert.strictEqual(await early.outcomeOf('/a0', [1]), undefined);
  });
});
