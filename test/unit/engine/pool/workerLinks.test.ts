/**
 * A search worker given a read scope (through the pool, as grep gives it): a file that is a symbolic
 * link is judged where it leads, and one that leads out of the granted folders, or to a denied file, is
 * refused unread; a link that stays within the scope is searched.
 */
import * as assert from 'assert';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { Fixture } from '../../fixture';

describe('engine/pool/worker: files that are links, judged by the read scope', function () {
  this.timeout(20_000);
  const fx = new Fixture('grep-tools-worker-links-');
  let pool: SearchPool;
  before(() => {
    fx.files({ 'ws/src/a.ts': 'find\n', 'ws/secrets/key.ts': 'find\n', 'outside/b.ts': 'find\n' });
    fx.symlink(fx.path('outside/b.ts'), 'ws/src/out.ts');
    fx.symlink(fx.path('ws/secrets/key.ts'), 'ws/src/key.ts');
    fx.symlink(fx.path('ws/src/a.ts'), 'ws/src/same.ts');
    pool = new SearchPool(1);
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  it('refuses a link leading outside the granted folders or to a denied file; searches one that stays within', async () => {
    const search = pool.search({
      pattern: 'find',
      matcher: {},
      search: { invert: false, before: 0, after: 0, maxPerFile: 10, maxLineLength: 500, collect: false },
      maxFileSize: 1024,
      scope: { granted: [fx.path('ws')], denied: ['**/secrets/**'] },
    });
    const outcomes = await search.batch([fx.path('ws/src/out.ts'), fx.path('ws/src/key.ts'), fx.path('ws/src/same.ts')]);
    assert.deepStrictEqual(
      outcomes.map((outcome) => (typeof outcome === 'object' ? outcome.count : outcome)),
      ['outside_workspace', 'denied', 1],
    );
  });
});
