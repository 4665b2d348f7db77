import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { readFileCapped } from '../../../src/engine/reader';
import { Fixture } from '../fixture';

describe('engine/reader (readFileCapped)', () => {
  let fx: Fixture;

  before(() => {
    fx = new Fixture();
    fx.write('ten.txt', '0123456789');
    fx.write('empty.txt', '');
    fx.mkdir('dir');
  });

  after(() => fx.remove());

  it('returns the bytes of a file within the cap (the cap itself included)', async () => {
    const outcome = await readFileCapped(fx.path('ten.txt'), 10);
    assert.strictEqual(outcome.kind, 'bytes');
    assert.strictEqual(outcome.kind === 'bytes' && Buffer.from(outcome.bytes).toString('utf8'), '0123456789');
  });

  it('refuses a file over the cap without reading it, with its size', async () => {
    assert.deepStrictEqual(await readFileCapped(fx.path('ten.txt'), 9), { kind: 'too_large', size: 10 });
  });

  it('reads an empty file as zero bytes', async () => {
    const outcome = await readFileCapped(fx.path('empty.txt'), 10);
    assert.strictEqual(outcome.kind === 'bytes' && outcome.bytes.length, 0);
  });

  it('reports a missing file as unreadable with the error code', async () => {
    assert.deepStrictEqual(await readFileCapped(fx.path('missing.txt'), 10), { kind: 'unreadable', reason: 'ENOENT' });
  });

  it('reports a directory as unreadable', async () => {
    const outcome = await readFileCapped(fx.path('dir'), 10);
    assert.strictEqual(outcome.kind, 'unreadable');
  });

  it('does not block on a FIFO', async function () {
    try {
      execFileSync('mkfifo', [fx.path('pipe')]);
    } catch {
      this.skip();
    }
    assert.deepStrictEqual(await readFileCapped(fx.path('pipe'), 10), { kind: 'unreadable', reason: 'not a regular file' });
  });
});
