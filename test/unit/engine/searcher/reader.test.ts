import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { readFileCapped, readFileCappedSync, type ReadOutcome } from '../../../../src/engine/searcher/reader';
import { Fixture } from '../../fixture';

/** The two readers (async for the calling thread, sync for the workers) keep one contract. */
const readers: Array<[string, (path: string, maxSize: number) => Promise<ReadOutcome>]> = [
  ['readFileCapped', (path, maxSize) => readFileCapped(path, maxSize)],
  ['readFileCappedSync', async (path, maxSize) => readFileCappedSync(path, maxSize)],
  // A worker lends one buffer for every file: larger than the file, or smaller and grown.
  ['readFileCappedSync, lent buffer', async (path, maxSize) => readFileCappedSync(path, maxSize, (size) => Buffer.alloc(Math.max(size, 100_000), 0x78))],
];

for (const [name, read] of readers) {
  describe(`engine/reader (${name})`, () => {
    let fx: Fixture;
    const big = Buffer.alloc(200_000, 'abcdefghij');

    before(() => {
      fx = new Fixture();
      fx.write('ten.txt', '0123456789');
      fx.write('empty.txt', '');
      fx.write('big.txt', big);
      fx.mkdir('dir');
      execFileSync('mkfifo', [fx.path('pipe')]);
    });

    after(() => fx.remove());

    const text = (outcome: ReadOutcome) => (outcome.kind === 'bytes' ? Buffer.from(outcome.bytes).toString('utf8') : outcome);

    it('returns the bytes of a file within the cap (the cap itself included)', async () => {
      assert.strictEqual(text(await read(fx.path('ten.txt'), 10)), '0123456789');
      assert.strictEqual(text(await read(fx.path('big.txt'), 200_000)), big.toString('utf8'), 'a file larger than one read');
    });

    it('refuses a file over the cap, with its size', async () => {
      assert.deepStrictEqual(await read(fx.path('ten.txt'), 9), { kind: 'too_large', size: 10 });
      assert.deepStrictEqual(await read(fx.path('big.txt'), 199_999), { kind: 'too_large', size: 200_000 });
      assert.deepStrictEqual(await read(fx.path('big.txt'), 10), { kind: 'too_large', size: 200_000 });
    });

    it('reads an empty file as zero bytes', async () => {
      assert.strictEqual(text(await read(fx.path('empty.txt'), 10)), '');
      assert.strictEqual(text(await read(fx.path('empty.txt'), 0)), '');
    });

    it('reports a missing file as unreadable with the error code', async () => {
      assert.deepStrictEqual(await read(fx.path('missing.txt'), 10), { kind: 'unreadable', reason: 'ENOENT' });
    });

    it('reports a directory as unreadable', async () => {
      assert.strictEqual((await read(fx.path('dir'), 10)).kind, 'unreadable');
    });

    it('does not block on a FIFO, and does not take it for an empty file', async () => {
      assert.strictEqual((await read(fx.path('pipe'), 10)).kind, 'unreadable');
    });
  });
}
