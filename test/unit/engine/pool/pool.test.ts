import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { answerGlob } from '../../../../src/engine/answer/globAnswer';
import { parseGlobInput } from '../../../../src/engine/input/schema';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { SearchAbortedError, SearchPool } from '../../../../src/engine/pool/pool';
import { BACKGROUND_NICE } from '../../../../src/engine/pool/background';
import { listDirectorySync } from '../../../../src/engine/source/directory';
import { entryKind } from '../../../../src/engine/api/types';
import type { DirEntry } from '../../../../src/engine/source/entryPolicy';
import { statStamp } from '../../../../src/engine/source/fileStamp';
import { printGlob, printGrep } from '../../../../src/engine/answer/printer';
import { waitUntil } from '../../../support/waitUntil';
import { threadNiceness } from '../../../support/threadNiceness';
import { Fixture, makeEnv } from '../../fixture';

describe('the worker pool', function () {
  this.timeout(20_000);
  const fx = new Fixture();
  let pool: SearchPool;
  before(() => {
    for (let i = 0; i < 300; i++)
      fx.write(`src/m${String(i).padStart(3, '0')}.ts`, `// module ${i}\nexport const v${i} = ${i};\n${i % 3 === 0 ? 'TODO: check\n' : ''}`);
    fx.write('redos/evil.txt', `${'a'.repeat(40)}b\n`);
    fx.write(`names/${'a'.repeat(40)}b`, '');
    fx.write('names/plain.txt', '');
    pool = new SearchPool(2);
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  const env = (options: { timeoutSeconds?: number; isCancelled?: () => boolean } = {}): SearchEnvironment => ({
    ...makeEnv(fx.root, { config: { timeoutSeconds: options.timeoutSeconds ?? 30 }, isCancelled: options.isCancelled }),
    pool,
  });

  it('gives the same answer as searching on the calling thread, in every output mode', async () => {
    for (const output_mode of ['content', 'files_with_matches', 'count'] as const) {
      const input = { pattern: 'TODO|export const v1\\d\\b', output_mode, max_results: 40, context_lines: 1 };
      const inline = printGrep(await answerGrep(input, makeEnv(fx.root)));
      const pooled = printGrep(await answerGrep(input, env()));
      assert.strictEqual(pooled, inline, output_mode);
    }
  });

  it("a file's definitions go to one worker: asked for by eight batches at once, it is parsed once", async () => {
    const own = new Fixture();
    try {
      const file = own.write('once.ts', 'export class Once {\n  run() {\n    return 1;\n  }\n}\n');
      const job = pool.outline({ outline: { pattern: 'return', matcher: {}, maxFileSize: 1 << 20 } });
      const worker = pool.workerOf(file);
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => job.batch([{ path: file, lines: [3] }], 0, worker)));
      assert.deepStrictEqual(
        outcomes.map(([outcome]) => outcome?.marks),
        Array.from({ length: 8 }, () => [{ in: 'Once > run()' }]),
      );
      assert.strictEqual(outcomes.filter(([outcome]) => outcome?.cost.parsed).length, 1);
    } finally {
      own.remove();
    }
  });

  it("a spare batch waits for any call's batch queued after it, and runs once the worker is idle", async () => {
    const own = new Fixture();
    const single = new SearchPool(1).warm();
    try {
      const file = (name: string) => own.write(`${name}.ts`, `export class ${name} {\n  run() {\n    return 1;\n  }\n}\n`);
      const [first, second, third] = [file('First'), file('Second'), file('Third')];
      const job = single.outline({ outline: { pattern: 'return', matcher: {}, maxFileSize: 1 << 20 } });
      // Queued in the same turn: the call's batch goes first, so it is the one that parses the file.
      job.spare([{ path: first, lines: [1] }]);
      const [asked] = await job.batch([{ path: first, lines: [3] }]);
      assert.strictEqual(asked?.cost.parsed, true);
      // A spare batch alone is sent as soon as the worker is free: the call asking for its file next finds it parsed.
      job.spare([{ path: third, lines: [1] }]);
      await job.batch([{ path: second, lines: [3] }]);
      const [ahead] = await job.batch([{ path: third, lines: [3] }]);
      assert.deepStrictEqual(ahead?.marks, [{ in: 'Third > run()' }]);
      assert.strictEqual(ahead?.cost.parsed, false);
      // Behind a call's batch, at most 64 spare ones wait: the oldest go.
      const waited = job.batch([{ path: second, lines: [3] }]);
      for (let i = 0; i < 100; i++) job.spare([{ path: first, lines: [1] }]);
      assert.strictEqual(single.queuedBatches, 1 + 64);
      await waited;
    } finally {
      single.dispose();
      own.remove();
    }
  });

  it('lists directories in the workers as the calling thread lists them, in order; one it cannot list (a link not followed, gone) gives none', async () => {
    const own = new Fixture();
    try {
      own.files({ 'dir/a.ts': 'a\n', 'dir/sub/b.ts': 'b\n' });
      own.symlink(own.path('dir'), 'link');
      own.symlink(own.path('dir/a.ts'), 'dir/a-link.ts');
      const shown = (listed: { real: string; entries: readonly DirEntry[] } | undefined) =>
        listed && { real: listed.real, entries: listed.entries.map((entry) => `${entry.name} ${entryKind(entry)}`).sort() };
      const asked = [
        { path: own.path('dir'), follow: false },
        { path: own.path('link'), follow: true },
        { path: own.path('link'), follow: false },
        { path: own.path('gone'), follow: false },
      ];
      const listed = await pool.listDirectories(asked);
      assert.deepStrictEqual(listed.map(shown), [
        shown(listDirectorySync(own.path('dir'), false)),
        shown(listDirectorySync(own.path('link'), true)),
        undefined,
        undefined,
      ]);
      assert.deepStrictEqual(shown(listed[0])?.entries, ['a-link.ts link', 'a.ts file', 'sub directory']);
      assert.strictEqual(listed[1]?.real, fs.realpathSync(own.path('dir')));
    } finally {
      own.remove();
    }
  });

  it('stops a catastrophic regex at the time limit with timed_out, and keeps serving other searches', async () => {
    const started = Date.now();
    const [evil, normal] = await Promise.all([
      answerGrep({ pattern: '(a+)+$', path: 'redos' }, env({ timeoutSeconds: 1 })),
      answerGrep({ pattern: 'TODO', output_mode: 'count' }, env()),
    ]);
    const elapsed = Date.now() - started;
    assert.strictEqual(evil.timedOut, true);
    assert.ok(elapsed < 2000, `returned within the limit + 1 s (${elapsed} ms)`);
    assert.strictEqual(normal.timedOut, false);
    assert.strictEqual(normal.totalMatches, 100);
    assert.ok(pool.workerCount <= 2, 'never more workers than its size');
    const again = await answerGrep({ pattern: 'module 299' }, env());
    assert.strictEqual(again.totalResults, 1, 'the pool recovered');
  });

  it("a call's batches never wait in a worker behind another search's catastrophic regex: they run on the worker that frees up first", async () => {
    let stop = false;
    const started = Date.now();
    // The first worker held by a regex that runs until it is stopped, then the second by one the time limit stops after 1 s.
    const held = answerGrep({ pattern: '(a+)+$', path: 'redos' }, env({ isCancelled: () => stop })).catch(() => undefined);
    await waitUntil(
      () => pool.busyWorkers === 1,
      () => 'the first worker busy',
      5000,
      5,
    );
    const limited = answerGrep({ pattern: '(a+)+$', path: 'redos' }, env({ timeoutSeconds: 1 }));
    await waitUntil(
      () => pool.busyWorkers === 2,
      () => 'both workers busy',
      5000,
      5,
    );
    try {
      const normal = await answerGrep({ pattern: 'TODO', output_mode: 'count' }, env());
      const took = Date.now() - started;
      assert.strictEqual(normal.totalMatches, 100);
      assert.ok(took < 4000, `answered once the limited worker was free, not after the held one (${took} ms)`);
      assert.strictEqual((await limited).timedOut, true);
    } finally {
      stop = true;
      await held;
    }
  });

  it('directories to list and a glob\'s names never wait for workers held by other calls: with every worker on a catastrophic regex, the ones no worker took within 0.2 s are done on the calling thread; a regex of glob\'s mode "regex" waits, and times out saying so, not blaming the regex', async () => {
    let stop = false;
    const held = [1, 2].map(() => answerGrep({ pattern: '(a+)+$', path: 'redos' }, env({ isCancelled: () => stop })).catch(() => undefined));
    try {
      await waitUntil(
        () => pool.busyWorkers === 2,
        () => 'both workers busy',
        5000,
        5,
      );
      const asked = ['src', 'redos', 'names', 'gone'].map((name) => ({ path: fx.path(name), follow: false }));
      const started = Date.now();
      const listed = await pool.listDirectories(asked);
      const took = Date.now() - started;
      const shown = (one: { entries: readonly DirEntry[] } | undefined) => one?.entries.map((entry) => entry.name).sort();
      assert.deepStrictEqual(listed.map(shown), [...asked.slice(0, 3).map((one) => shown(listDirectorySync(one.path, false))), undefined]);
      assert.strictEqual(listed[0]?.entries.length, 300);
      assert.ok(took < 2000, `listed within 2 s while both workers stayed held (${took} ms)`);
      assert.strictEqual(pool.busyWorkers, 2, 'the workers were still held');
      // A glob's names go to the workers too, and come back to this thread when no worker takes them.
      const globStarted = Date.now();
      const glob = await answerGlob({ pattern: 'src/*.ts' }, env({ timeoutSeconds: 10 }));
      const globTook = Date.now() - globStarted;
      assert.strictEqual(printGlob(glob), printGlob(await answerGlob({ pattern: 'src/*.ts' }, makeEnv(fx.root))));
      assert.deepStrictEqual([glob.timedOut, glob.total], [false, 300]);
      assert.ok(globTook < 3000, `answered within 3 s while both workers stayed held (${globTook} ms)`);
      // A regex only a worker may run (the time limit must be able to stop it): it waits, and the answer
      // says why nothing was tested, without blaming the regex.
      const regex = await answerGlob(parseGlobInput({ pattern: '\\.ts$', mode: 'regex', path: 'src' }), env({ timeoutSeconds: 1 }));
      assert.deepStrictEqual([regex.timedOut, regex.files.length], [true, 0]);
      assert.deepStrictEqual(JSON.parse(printGlob(regex)).notes, [
        'The call timed out after 1 s before a search thread was free to test the pattern (other calls held every one): no path was tested, so files and total are empty. Ask again once those calls have finished.',
      ]);
      assert.strictEqual(pool.busyWorkers, 2, 'the workers were still held');
    } finally {
      stop = true;
      await Promise.all(held);
    }
  });

  it('glob mode "regex" tests names in the workers: the same answer as on the calling thread', async () => {
    for (const pattern of ['m0\\d[05]\\.ts$', '^names/', '^$']) {
      const input = { pattern, mode: 'regex', max_results: 7 };
      const inline = printGlob(await answerGlob(parseGlobInput(input), makeEnv(fx.root)));
      const pooled = printGlob(await answerGlob(parseGlobInput(input), env()));
      assert.strictEqual(pooled, inline, pattern);
    }
  });

  it('glob mode "regex" stops a catastrophic regex at the time limit with timed_out, and the pool serves the next call', async () => {
    const started = Date.now();
    const [evil, normal] = await Promise.all([
      answerGlob({ pattern: '(a+)+$', mode: 'regex', path: 'names' }, env({ timeoutSeconds: 1 })),
      answerGlob({ pattern: '\\.ts$', mode: 'regex' }, env()),
    ]);
    const elapsed = Date.now() - started;
    assert.strictEqual(evil.timedOut, true);
    assert.ok(elapsed < 2000, `returned within the limit + 1 s (${elapsed} ms)`);
    assert.match(JSON.parse(printGlob(evil)).notes[0], /^The regex timed out after 1 s; .*nested quantifiers/);
    assert.strictEqual(normal.timedOut, false);
    assert.strictEqual(normal.total, 300);
    assert.ok(pool.workerCount <= 2, 'never more workers than its size');
    const again = await answerGlob({ pattern: 'plain', mode: 'regex', path: 'names' }, env());
    assert.deepStrictEqual(again.files, [nodePath.join(fx.root, 'names/plain.txt')], 'the pool recovered');
  });

  it("grep searches an open editor's text (an override) in the workers: the time limit stops a catastrophic regex there too", async () => {
    const file = nodePath.join(fx.root, 'src/m000.ts');
    const overrides = new Map([[file, `${'a'.repeat(40)}b\n`]]);
    const started = Date.now();
    const report = await answerGrep({ pattern: '(a+)+$', path: 'src/m000.ts' }, { ...env({ timeoutSeconds: 1 }), overrides });
    assert.strictEqual(report.timedOut, true);
    assert.ok(Date.now() - started < 2000, `returned within the limit + 1 s (${Date.now() - started} ms)`);
    const found = await answerGrep({ pattern: 'a+b$', path: 'src/m000.ts' }, { ...env(), overrides });
    assert.deepStrictEqual(found.files, [{ file, matches: [{ line: 1, text: `${'a'.repeat(40)}b` }] }], 'the text given, not the file on disk');
  });

  it('a cancellation without an event (a flag, polled) stops a search running in the workers at the first look that sees it', async () => {
    let cancelled = false;
    /** Looks at the flag once it was set that found a worker still busy with the search: the first must stop it. */
    let whileBusy = 0;
    const isCancelled = () => {
      if (cancelled && pool.busyWorkers > 0) whileBusy++;
      return cancelled;
    };
    const run = answerGrep({ pattern: '(a+)+$', path: 'redos' }, env({ isCancelled }));
    await waitUntil(
      () => pool.busyWorkers > 0,
      () => `a worker busy with the regex (${pool.busyWorkers})`,
      10_000,
      5,
    );
    cancelled = true;
    await assert.rejects(run, /cancelled/);
    // Counted, not timed: a loaded machine delays the poll, not the number of looks it takes to stop.
    assert.strictEqual(whileBusy, 1, 'looks at the set flag that found the search still running');
    assert.strictEqual(pool.busyWorkers, 0);
  });

  it('runs its threads in the background when asked: they stand back for the other threads (Linux: nice 10)', async () => {
    /** This process's threads at the background niceness. */
    const backgroundThreads = () => threadNiceness().filter((nice) => nice === BACKGROUND_NICE).length;
    const before = backgroundThreads();
    assert.strictEqual(before, 0, "a pool not asked to (this suite's, warm) runs at the usual priority");
    const background = new SearchPool(2, { background: true }).warm();
    try {
      // The threads lower their priority once started: waited for, however long a loaded machine takes to start them.
      await waitUntil(
        () => backgroundThreads() >= before + 2,
        () => `both search threads in the background (${backgroundThreads() - before} of 2)`,
        15_000,
        20,
      );
      assert.strictEqual(backgroundThreads(), before + 2, 'both search threads run in the background');
      const report = await answerGrep({ pattern: 'module 299' }, { ...makeEnv(fx.root), pool: background });
      assert.strictEqual(report.totalResults, 1, 'and search as usual');
    } finally {
      background.dispose();
    }
  });

  it('serves 20 concurrent searches, each with its own exact answer', async () => {
    const reports = await Promise.all(Array.from({ length: 20 }, (_, i) => answerGrep({ pattern: `export const v${i}\\b`, output_mode: 'count' }, env())));
    reports.forEach((report, i) => {
      assert.strictEqual(report.totalMatches, 1, `search ${i}`);
      assert.deepStrictEqual(report.files, [{ file: fx.path(`src/m${String(i).padStart(3, '0')}.ts`), count: 1 }]);
    });
  });

  it("takes files' stamps in the workers, in order, as the calling thread takes them (none for a directory or a missing file)", async () => {
    const files = fs.readdirSync(fx.path('src')).map((name) => fx.path(`src/${name}`));
    // More than one batch's worth, with the ones that have no stamp among them.
    const paths = [...files, fx.path('src'), fx.path('no such file'), ...files, ...files, ...files];
    assert.ok(paths.length > 1024);
    const taken = await pool.stamps(paths);
    assert.deepStrictEqual(taken, paths.map(statStamp));
    assert.strictEqual(taken[files.length], undefined);
    assert.strictEqual(taken[files.length + 1], undefined);
    assert.strictEqual(taken[0]!.size, fs.statSync(files[0]).size);
  });

  it('stops taking stamps at the time limit (the workers busy with them stopped) and takes them again after', async () => {
    const files = fs.readdirSync(fx.path('src')).map((name) => fx.path(`src/${name}`));
    const many = Array.from({ length: 80 }, () => files).flat();
    await assert.rejects(pool.stamps(many, Date.now()), SearchAbortedError);
    assert.deepStrictEqual(await pool.stamps(files.slice(0, 3)), files.slice(0, 3).map(statStamp), 'the pool took stamps again');
  });
});
