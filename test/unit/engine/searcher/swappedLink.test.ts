import * as assert from 'assert';
import * as fs from 'fs';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { SearchPool } from '../../../../src/engine/pool/pool';
import type { FileSource } from '../../../../src/engine/source/fileSource';
import { Fixture, makeEnv } from '../../fixture';

/**
 * A file replaced by a symlink after it was listed and before it is read (an attacker racing the
 * search) must not lead the reader outside the workspace or to a denied file: the reader checks the
 * real path of the file it actually opened.
 */
describe('a file swapped for a symlink between listing and reading', () => {
  const fx = new Fixture();
  const outside = new Fixture('grep-tools-outside-');
  let pool: SearchPool;
  before(() => {
    pool = new SearchPool(2);
    outside.write('secret.txt', 'swap-token outside\n');
    fx.files({ 'a.txt': 'swap-token a\n', '.env': 'swap-token env\n' });
  });
  after(() => {
    pool.dispose();
    fx.remove();
    outside.remove();
  });

  /** A source that lists the files, then swaps b.txt and c.txt for links (outside, and to .env) before they are read. */
  function swapping(env: SearchEnvironment): SearchEnvironment {
    const inner = env.source;
    const source: FileSource = {
      kind: (p) => inner.kind(p),
      mtime: (p) => inner.mtime(p),
      list: async (...args) => {
        const listed = await inner.list(...args);
        for (const [name, target] of [
          ['b.txt', outside.path('secret.txt')],
          ['c.txt', fx.path('.env')],
        ]) {
          fs.rmSync(fx.path(name));
          fs.symlinkSync(target, fx.path(name));
        }
        return listed;
      },
    };
    return { ...env, source };
  }

  for (const withPool of [false, true]) {
    it(`is not read through the link, and is counted (${withPool ? 'worker pool' : 'calling thread'})`, async () => {
      for (const name of ['b.txt', 'c.txt']) fs.rmSync(fx.path(name), { force: true });
      fx.files({ 'b.txt': 'swap-token b\n', 'c.txt': 'swap-token c\n' });
      const env = swapping({ ...makeEnv(fx.root), ...(withPool ? { pool } : {}) });
      const report = await answerGrep({ pattern: 'swap-token', output_mode: 'files_with_matches' }, env);
      assert.deepStrictEqual(report.files, [fx.path('a.txt')]);
      assert.strictEqual(report.skipped.outside_workspace, 1, 'b.txt led outside');
      assert.strictEqual(report.skipped.denied, 2, '.env itself, and c.txt that led to it');
    });
  }
});
