/**
 * The index build run by VS Code's background worker: it writes an index that settles the files it
 * read, reports its progress up to the total, keeps what it stored on the next run, and starts afresh
 * when the size limit changed. Also run as a real worker thread from the bundled dist/indexWorker.js.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { Worker } from 'worker_threads';
import { buildIndex, ignoredOnRequest, type BuildMessage, type BuildRequest } from '../../../../src/engine/index/buildWorker';
import { DEFAULT_INDEX_LIMITS } from '../../../../src/engine/index/limits';
import { loadIndex, storingAsItGoes } from '../../../../src/engine/index/store';
import { refreshIndex } from '../../../../src/engine/index/builder';
import { ContentIndex } from '../../../../src/engine/index/contentIndex';
import { currentIndexPrejudge } from '../../../../src/engine/index/prejudge';
import { compileMatcher } from '../../../../src/engine/matcher/matcher';
import { age } from './age';
import { buildFolder } from './buildFolder';

describe('index: the background build', () => {
  let root: string;
  let folder: string;
  let dir: string;
  let paths: string[];
  const request = (extra: Partial<BuildRequest> = {}): BuildRequest => ({
    dir,
    folders: [folder],
    paths,
    maxFileSize: 1 << 20,
    pauseRatio: 0.25,
    limits: DEFAULT_INDEX_LIMITS,
    ...extra,
  });

  beforeEach(() => {
    ({ root, folder, dir, paths } = buildFolder('grep-tools-build-', 600));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('writes an index of every listed file and reports progress up to the total', () => {
    const messages: BuildMessage[] = [];
    buildIndex(request(), (message) => messages.push(message));
    const progress = messages.filter((message) => message.kind === 'progress');
    assert.ok(progress.length >= 1);
    assert.deepStrictEqual(progress[progress.length - 1], { kind: 'progress', done: 600, total: 600 });
    const done = messages[messages.length - 1];
    assert.ok(done.kind === 'done');
    assert.strictEqual(done.summary.files, 600);
    assert.strictEqual(done.summary.read, 600);
    const stored = loadIndex(dir);
    assert.ok(stored);
    try {
      assert.strictEqual(stored.index.entry(paths[7])?.file.kind, 'text');
      // The table and the one segment file it names: what the index takes on disk.
      assert.deepStrictEqual(
        fs
          .readdirSync(dir)
          .filter((name) => name !== 'index.bin')
          .map((name) => name.startsWith('postings-')),
        [true],
      );
      const onDisk = fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(nodePath.join(dir, name)).size, 0);
      assert.strictEqual(onDisk, done.summary.indexBytes);
    } finally {
      stored.close();
    }
  });

  it('waits while a search runs in the process that started it: nothing is posted until the count of searches under way is back to zero', () => {
    const searching = new Int32Array(new SharedArrayBuffer(4));
    searching[0] = 1;
    // Another thread ends the search a little later (this one is held by the build, which runs synchronously here).
    const ender = new Worker(
      `const { workerData } = require('worker_threads'); const count = new Int32Array(workerData);
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); Atomics.sub(count, 0, 1); Atomics.notify(count, 0);`,
      { eval: true, workerData: searching.buffer },
    );
    const posted: Array<{ kind: string; searching: number }> = [];
    try {
      buildIndex(request({ searching: searching.buffer as SharedArrayBuffer }), (message) =>
        posted.push({ kind: message.kind, searching: Atomics.load(searching, 0) }),
      );
    } finally {
      void ender.terminate();
    }
    assert.strictEqual(posted[posted.length - 1]?.kind, 'done');
    assert.deepStrictEqual(
      posted.filter((message) => message.searching !== 0),
      [],
      'posted while a search was under way',
    );
  });

  it('a search that began before a rebuild consults the index open when it asks, not the closed one', () => {
    buildIndex(request(), () => undefined);
    let opened = loadIndex(dir)!;
    const search = currentIndexPrejudge(() => opened.index);
    // The call has begun (listing its files); a rebuild finishes meanwhile and the old index is closed.
    fs.writeFileSync(paths[5], 'export const rebuilt = 5;\n');
    age(folder);
    buildIndex(request(), () => undefined);
    const old = opened;
    opened = loadIndex(dir)!;
    old.close();
    try {
      const judge = search.prejudge({ matcher: compileMatcher('rebuilt', {}), invert: false, maxFileSize: 1 << 20 });
      assert.ok(judge, 'the pattern has trigrams the index can use');
      assert.strictEqual(judge(paths[5]), undefined, 'the file holding "rebuilt" is read');
      assert.strictEqual(judge(paths[6]), 0, 'a file without it is settled by the new index');
    } finally {
      opened.close();
    }
  });

  it('names the files it held unread as just written, to be read again once settled; not a file dated in the future, nor a settled one', () => {
    fs.writeFileSync(paths[1], 'export const fresh = 1;\n');
    const ahead = Date.now() / 1000 + 3600;
    fs.utimesSync(paths[2], ahead, ahead);
    const built: BuildMessage[] = [];
    // Built as if at once after the write (however slow the machine is to get there).
    buildIndex(request({ now: fs.statSync(paths[1]).mtimeMs + 100 }), (message) => built.push(message));
    const done = built[built.length - 1];
    assert.ok(done.kind === 'done');
    assert.deepStrictEqual(done.recent, [paths[1]], 'the file written just now');
    const stored = loadIndex(dir)!;
    try {
      assert.deepStrictEqual(
        [paths[1], paths[2], paths[3]].map((path) => stored.index.entry(path)?.file.kind),
        ['unread', 'unread', 'text'],
        'held unread: written just now, and dated ahead',
      );
    } finally {
      stored.close();
    }
    // Read again once settled (a content refresh of those files alone), it is relied on, and named no more.
    age(folder);
    const refreshed: BuildMessage[] = [];
    buildIndex(request({ only: [paths[1]] }), (message) => refreshed.push(message));
    const again = refreshed[refreshed.length - 1];
    assert.ok(again.kind === 'done');
    assert.deepStrictEqual(again.recent, []);
    const reread = loadIndex(dir)!;
    try {
      assert.strictEqual(reread.index.entry(paths[1])?.file.kind, 'text');
    } finally {
      reread.close();
    }
  });

  it('a second run keeps what it stored and reads only the changed file; another size limit starts afresh', () => {
    buildIndex(request(), () => undefined);
    fs.writeFileSync(paths[3], 'changed\n');
    const past = Date.now() / 1000 - 600;
    fs.utimesSync(paths[3], past, past);
    const again: BuildMessage[] = [];
    buildIndex(request(), (message) => again.push(message));
    const done = again[again.length - 1];
    assert.ok(done.kind === 'done');
    assert.deepStrictEqual([done.summary.read, done.summary.kept], [1, 599]);
    const other: BuildMessage[] = [];
    buildIndex(request({ maxFileSize: 1000 }), (message) => other.push(message));
    const rebuilt = other[other.length - 1];
    assert.ok(rebuilt.kind === 'done');
    assert.strictEqual(rebuilt.summary.read, 600);
  });

  it('a build stopped half way (a window reloaded) keeps the segments it stored: the next build reads only the rest', () => {
    const index = new ContentIndex();
    const meta = () => ({ folders: [folder], maxFileSize: 1 << 20, builtAt: Date.now() });
    let visited = 0;
    // Small segments, the table stored after each: the build stops (as a terminated worker does) after 300 files.
    refreshIndex(index, paths, {
      maxFileSize: 1 << 20,
      folders: [folder],
      flushEvery: 100,
      onFlush: storingAsItGoes(dir, meta, index, 0),
      isCancelled: () => visited++ >= 300,
    });
    index.close();
    const stored = loadIndex(dir);
    assert.ok(stored, 'a table was stored during the build');
    const kept = stored.index.size;
    stored.close();
    assert.ok(kept >= 250 && kept <= 300, `the stored table holds the files of the stored segments (${kept})`);
    assert.ok(fs.readdirSync(dir).filter((name) => name.startsWith('postings-')).length <= 12, 'the newest segments are merged as the build goes');
    const messages: BuildMessage[] = [];
    buildIndex(request(), (message) => messages.push(message));
    const done = messages[messages.length - 1];
    assert.ok(done.kind === 'done');
    assert.deepStrictEqual([done.summary.kept, done.summary.read, done.summary.files], [kept, 600 - kept, 600]);
    const rebuilt = loadIndex(dir)!;
    try {
      const search = currentIndexPrejudge(() => rebuilt.index);
      const judge = search.prejudge({ matcher: compileMatcher('value123 ', {}), invert: false, maxFileSize: 1 << 20 })!;
      assert.strictEqual(judge(paths[123]), undefined, 'the file holding it is read');
      assert.strictEqual(judge(paths[124]), 0, 'another is settled');
      assert.strictEqual(judge(paths[523]), 0, 'so is one the first build never reached');
    } finally {
      rebuilt.close();
    }
  });

  it('above grepTools.index.maxIndexedBytes keeps the file list only, says why, and removes the content it stored', () => {
    buildIndex(request(), () => undefined);
    assert.ok(fs.existsSync(nodePath.join(dir, 'index.bin')));
    const bytes = paths.reduce((sum, path) => sum + fs.statSync(path).size, 0);
    const messages: BuildMessage[] = [];
    buildIndex(request({ limits: { ...DEFAULT_INDEX_LIMITS, maxIndexedBytes: bytes - 1 } }), (message) => messages.push(message));
    const outcome = messages[messages.length - 1];
    assert.ok(outcome.kind === 'listOnly', JSON.stringify(outcome));
    assert.strictEqual(outcome.files, 600);
    assert.match(outcome.reason, /more than grepTools\.index\.maxIndexedBytes/);
    assert.ok(!fs.existsSync(nodePath.join(dir, 'index.bin')), 'no content index is left on disk');
    assert.strictEqual(loadIndex(dir), undefined);
    const within: BuildMessage[] = [];
    buildIndex(request({ limits: { ...DEFAULT_INDEX_LIMITS, maxIndexedBytes: bytes } }), (message) => within.push(message));
    assert.strictEqual(within[within.length - 1].kind, 'done', 'a tree of exactly the limit is indexed');
  });

  it('above grepTools.index.maxFiles keeps the file list only', () => {
    const messages: BuildMessage[] = [];
    buildIndex(request({ limits: { ...DEFAULT_INDEX_LIMITS, maxFiles: 599 } }), (message) => messages.push(message));
    const outcome = messages[messages.length - 1];
    assert.ok(outcome.kind === 'listOnly', JSON.stringify(outcome));
    assert.match(outcome.reason, /600 files, more than grepTools\.index\.maxFiles \(599\)/);
    assert.ok(!messages.some((message) => message.kind === 'progress'), 'no file was read');
  });

  it('as a worker thread, asks for the list with the ignored files only while the searched ones are within the limits, and indexes it', async () => {
    const ignored = nodePath.join(folder, 'ignored.js');
    fs.writeFileSync(ignored, 'ignored\n');
    age(folder);
    const run = async (extra: Partial<BuildRequest>) => {
      const { onRequest, answer } = ignoredOnRequest();
      let asked = 0;
      const worker = new Worker(nodePath.join(__dirname, '..', '..', '..', '..', '..', 'dist', 'indexWorker.js'), {
        workerData: request({ ignoredOnRequest: onRequest, ...extra }),
        transferList: [onRequest.port],
      });
      const outcome = await new Promise<BuildMessage>((resolve, reject) => {
        worker.on('message', (message: BuildMessage) => {
          if (message.kind === 'listIgnored') {
            asked++;
            // (answered later, as VS Code lists the workspace: the build waits)
            setImmediate(() => answer([...paths, ignored]));
          } else if (message.kind !== 'progress') resolve(message);
        });
        worker.on('error', reject);
      });
      await worker.terminate();
      return { kind: outcome.kind, files: outcome.kind === 'done' ? outcome.summary.files : outcome.kind === 'listOnly' ? outcome.files : -1, asked };
    };
    assert.deepStrictEqual(await run({}), { kind: 'done', files: 601, asked: 1 });
    assert.deepStrictEqual(await run({ limits: { ...DEFAULT_INDEX_LIMITS, maxFiles: 100 } }), { kind: 'listOnly', files: 600, asked: 0 });
  });

  it('runs as a worker thread from dist/indexWorker.js and posts its outcome', async () => {
    const worker = new Worker(nodePath.join(__dirname, '..', '..', '..', '..', '..', 'dist', 'indexWorker.js'), { workerData: request() });
    const outcome = await new Promise<BuildMessage>((resolve, reject) => {
      worker.on('message', (message: BuildMessage) => {
        if (message.kind !== 'progress') resolve(message);
      });
      worker.on('error', reject);
    });
    await worker.terminate();
    assert.ok(outcome.kind === 'done', JSON.stringify(outcome));
    assert.strictEqual(outcome.summary.files, 600);
  });
});
