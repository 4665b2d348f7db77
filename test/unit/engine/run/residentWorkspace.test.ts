/**
 * The resident workspace of `serve` when the inotify table is full (ENOSPC): the ignored files'
 * directories cannot be watched too, so it watches the workspace's own listing alone and says so;
 * answers stay those of a full scan, include_ignored sees an ignored file edited to the same size, and
 * a directory first watched after a refresh read it is read again before anything is vouched for. And
 * while a refresh reads the tree again, calls rely on the index being replaced for the files no event named.
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
import { buildWorkspaceIndex } from '../../../../src/engine/run/workspaceIndex';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, makeEnv } from '../../fixture';
import { age } from '../index/age';

describe('engine/run/residentWorkspace', function () {
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

  it('with a full inotify table: watches the searched files alone, says so, and answers as a full scan does', async () => {
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

  it('while a refresh reads the tree again, a call relies on the index being replaced for every file no event named (no stamp taken), reads the file an event named, and answers as a full scan does', async () => {
    const ws = fx.mkdir('ws');
    fx.files({ 'ws/a.ts': 'TODO a\n', 'ws/b.ts': 'TODO b\n', 'ws/sub/c.ts': 'TODO c\n', 'ws/sub/d.ts': 'nothing\n' });
    age(ws);
    // The refreshes after the first build are held at their start while `hold` is set.
    let hold: { entered: () => void; released: Promise<void> } | undefined;
    const build: typeof buildWorkspaceIndex = async (...args) => {
      if (hold) {
        hold.entered();
        await hold.released;
      }
      return buildWorkspaceIndex(...args);
    };
    const log: string[] = [];
    const env = { ...makeEnv(ws), source: new NodeFileSource(), pool };
    const residentLog = {
      refreshed: () => undefined,
      contentRefreshed: () => undefined,
      unwatched: (reason: string) => log.push(reason),
      ignoredUnwatched: () => undefined,
      failed: (reason: string) => log.push(reason),
    };
    resident = new ResidentWorkspace(env, fx.path('index'), DEFAULT_INDEX_LIMITS, residentLog, undefined, build);
    await resident.start();

    // The files no event names, looked at by path (a stamp) during a call.
    const quiet = ['a.ts', 'sub/c.ts', 'sub/d.ts'].map((relative) => fx.path(`ws/${relative}`));
    // (the module object itself: an import's namespace is read-only)
    const nodeFs = module.require('fs') as typeof fs;
    const statSync = nodeFs.statSync;
    let stamped: string[] = [];
    const stampsDuring = async <T>(call: () => Promise<T>): Promise<T> => {
      stamped = [];
      (nodeFs as { statSync: unknown }).statSync = (path: fs.PathLike, ...rest: unknown[]) => {
        if (quiet.includes(String(path))) stamped.push(String(path));
        return (statSync as (...args: unknown[]) => unknown)(path, ...rest);
      };
      try {
        return await call();
      } finally {
        (nodeFs as { statSync: unknown }).statSync = statSync;
      }
    };
    const answer = async (on: SearchEnvironment) => renderGrep(await answerGrep({ pattern: 'TODO' }, on), byteBudget(on.config.maxOutputBytes));
    const full = () => answer(env);

    let release!: () => void;
    const entered = new Promise<void>((resolve) => {
      hold = { entered: resolve, released: new Promise<void>((done) => (release = done)) };
    });
    // A new file and an edit: the refresh reads the tree again, and is held at its start.
    fx.write('ws/sub/e.ts', 'TODO e\n');
    fx.write('ws/b.ts', 'TODO b, edited\n');
    await entered;
    await new Promise((resolve) => setImmediate(resolve)); // events already queued are taken in, as serve does
    const during = await stampsDuring(() => answer({ ...env, ...resident!.environment() }));
    assert.deepStrictEqual(stamped, [], 'no file stamped: the files no event named are vouched for by the index being replaced');
    assert.strictEqual(during, await full());
    assert.match(during, /b\.ts.*edited/s);
    assert.match(during, /e\.ts/);

    hold = undefined;
    release();
    await resident.whenIdle();
    // (the two files were written too recently for the refresh to record the listing: it is made again 2 s later)
    assert.strictEqual(await stampsDuring(() => answer({ ...env, ...resident!.environment() })), await full(), 'after the refresh');
    assert.deepStrictEqual(stamped, [], 'the new index is vouched for by the record begun as the refresh began');
    // The refresh that follows records the listing: calls replay it instead of walking the tree.
    for (const deadline = Date.now() + 10_000; ;) {
      await resident.whenIdle();
      const served: ReturnType<ResidentWorkspace['environment']> = resident.environment();
      assert.strictEqual(await answer({ ...env, ...served }), await full());
      if (served.source.replayed > 0) break;
      assert.ok(Date.now() < deadline, 'the listing was recorded and replayed within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepStrictEqual(log, []);
  });
});
