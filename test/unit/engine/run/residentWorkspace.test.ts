/**
 * The resident workspace of `serve` when the inotify table is full (ENOSPC): the ignored files'
 * directories cannot be watched too, so it watches the workspace's own listing alone and says so;
 * answers stay those of a full scan, include_ignored sees an ignored file edited to the same size, and
 * a directory first watched after a refresh read it is read again before anything is vouched for.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { byteBudget } from '../../../../src/engine/answer/budget';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { renderGrep } from '../../../../src/engine/answer/printer';
import type { GrepInput } from '../../../../src/engine/api/types';
import { DEFAULT_INDEX_LIMITS } from '../../../../src/engine/index/limits';
import { ListingSource } from '../../../../src/engine/index/listing';
import type { WatchDirectory } from '../../../../src/engine/index/treeWatcher';
import { SearchPool } from '../../../../src/engine/pool/pool';
import type { SearchEnvironment } from '../../../../src/engine/run/environment';
import { ResidentWorkspace } from '../../../../src/engine/run/residentWorkspace';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, makeEnv } from '../../fixture';
import { age } from '../index/age';

describe('engine/run/residentWorkspace: a full inotify table', function () {
  this.timeout(20_000);
  let fx: Fixture;
  let pool: SearchPool;
  let resident: ResidentWorkspace | undefined;
  beforeEach(() => {
    fx = new Fixture('grep-tools-resident-');
    pool = new SearchPool(1);
  });
  afterEach(() => {
    resident?.close();
    pool.dispose();
    fx.remove();
  });

  it('watches the searched files alone, says so, and answers as a full scan does', async () => {
    const ws = fx.mkdir('ws');
    fx.files({ 'ws/src/app.ts': 'TODO first\n', 'ws/.gitignore': 'build/\n', 'ws/build/out.js': 'TODO built\n', 'ws/build/sub/deep.js': 'TODO deep\n' });
    age(ws);
    const placed: string[] = [];
    // The table is full once the workspace's own directories are watched; and src/app.ts changes after
    // the first refresh read it, before its directory is watched (no event can tell of that change).
    const watchDirectory: WatchDirectory = (dir, listener) => {
      if (dir.startsWith(`${ws}/build`))
        throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${dir}'`), { code: 'ENOSPC' });
      if (dir === `${ws}/src` && !placed.includes(dir)) fx.write('ws/src/app.ts', 'TODO again\n');
      placed.push(dir);
      return fs.watch(dir, { persistent: false }, listener);
    };
    const log: string[] = [];
    const env = { ...makeEnv(ws), source: new NodeFileSource(), pool };
    resident = new ResidentWorkspace(
      env,
      fx.path('index'),
      DEFAULT_INDEX_LIMITS,
      {
        refreshed: (_summary, watched) => log.push(`refreshed, watching ${watched}`),
        contentRefreshed: (files) => log.push(`content refreshed, ${files} files`),
        unwatched: (reason) => log.push(`unwatched ${reason}`),
        ignoredUnwatched: (reason) => log.push(`ignored unwatched ${reason}`),
        failed: (reason) => log.push(`failed ${reason}`),
      },
      watchDirectory,
    );
    await resident.start();

    const answer = async (input: GrepInput, on: SearchEnvironment) => renderGrep(await answerGrep(input, on), byteBudget(on.config.maxOutputBytes));
    const same = async (input: GrepInput): Promise<ListingSource> => {
      await new Promise((resolve) => setImmediate(resolve)); // events already queued are taken in, as serve does
      const served = resident!.environment();
      assert.ok(served.index && served.source instanceof ListingSource, 'the index is in use');
      const text = await answer(input, { ...env, ...served });
      assert.strictEqual(text, await answer(input, env), JSON.stringify(input));
      return served.source;
    };
    assert.match(
      await answer({ pattern: 'again' }, { ...env, ...resident.environment() }),
      /TODO again/,
      'the change made before the watch was placed is read',
    );
    assert.deepStrictEqual(log, ['ignored unwatched ENOSPC', 'refreshed, watching 2', 'refreshed, watching 2'], 'the late-watched directories are read again');
    assert.strictEqual((await same({ pattern: 'TODO' })).replayed, 1, 'the workspace listing is still replayed: its directories are watched');
    assert.strictEqual((await same({ pattern: 'TODO', include_ignored: true })).replayed, 0, 'include_ignored lists the tree');
    fx.write('ws/build/out.js', 'TODO other\n'); // the same size, in a directory no watch covers
    await same({ pattern: 'TODO', include_ignored: true });
    assert.match(await answer({ pattern: 'other', include_ignored: true }, { ...env, ...resident.environment() }), /build\/out\.js/);
    assert.ok(!log.some((line) => line.startsWith('unwatched') || line.startsWith('failed')), log.join('\n'));
  });
});
