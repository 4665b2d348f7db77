/**
 * The index build in a process of its own (the bundled dist/indexProcess.js, as the extension host starts
 * it): it posts its progress and outcome with its peak memory, asks for the list with the ignored files
 * and indexes it, holds while the host says a search is under way, and ends when the host goes.
 */
import * as assert from 'assert';
import { fork, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as nodePath from 'path';
import * as os from 'os';
import { sendBuild, sendWithIgnored, type FromBuildProcess, type ProcessBuildRequest, type ToBuildProcess } from '../../../../src/engine/index/buildProcess';
import { DEFAULT_INDEX_LIMITS } from '../../../../src/engine/index/limits';
import { loadIndex } from '../../../../src/engine/index/store';
import { BACKGROUND_NICE } from '../../../../src/engine/pool/background';
import { waitUntil } from '../../../support/waitUntil';
import { threadNiceness } from '../../../support/threadNiceness';
import { age } from './age';
import { buildFolder } from './buildFolder';

const PROCESS = nodePath.join(__dirname, '..', '..', '..', '..', '..', 'dist', 'indexProcess.js');
const LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 };

describe('index: the build process', function () {
  // A process started per test: on a loaded machine it may take seconds to start.
  this.timeout(20_000);
  let root: string;
  let folder: string;
  let dir: string;
  let paths: string[];
  const started: ChildProcess[] = [];
  const request = (extra: Partial<ProcessBuildRequest> = {}): ProcessBuildRequest & { paths: string[] } => ({
    dir,
    folders: [folder],
    paths,
    asksIgnored: false,
    maxFileSize: 1 << 20,
    pauseRatio: 0.25,
    limits: DEFAULT_INDEX_LIMITS,
    ...extra,
  });
  const start = (): ChildProcess => {
    const child = fork(PROCESS, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    started.push(child);
    return child;
  };
  const send = (child: ChildProcess, message: ToBuildProcess) => new Promise<void>((resolve) => child.send(message, () => resolve()));
  const build = (child: ChildProcess, asked: Partial<ProcessBuildRequest> & { paths?: string[] } = {}) =>
    sendBuild((message) => send(child, message), request(asked), LIMITS);
  /** The messages of a build until its outcome, each with what `onMessage` answered; and the process's end. */
  const run = (child: ChildProcess, onMessage: (message: FromBuildProcess) => void = () => undefined) =>
    new Promise<{ messages: FromBuildProcess[]; code: number | null }>((resolve, reject) => {
      const messages: FromBuildProcess[] = [];
      child.on('message', (message: FromBuildProcess) => {
        messages.push(message);
        onMessage(message);
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ messages, code }));
    });

  beforeEach(() => {
    ({ root, folder, dir, paths } = buildFolder('grep-tools-build-process-', 300));
  });
  afterEach(() => {
    for (const child of started.splice(0)) child.kill();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('builds the index, posts its progress and its outcome with its peak memory, then ends', async () => {
    const child = start();
    const ran = run(child);
    await build(child);
    const { messages, code } = await ran;
    assert.strictEqual(code, 0);
    const outcome = messages[messages.length - 1];
    assert.ok(outcome.kind === 'done', JSON.stringify(outcome));
    assert.strictEqual(outcome.summary.files, 300);
    assert.ok(outcome.peakRssBytes !== undefined && outcome.peakRssBytes > 1 << 20, `peak ${outcome.peakRssBytes}`);
    assert.deepStrictEqual(messages.filter((message) => message.kind === 'progress').pop(), { kind: 'progress', done: 300, total: 300 });
    const stored = loadIndex(dir);
    assert.ok(stored, 'the index is stored');
    assert.strictEqual(stored.index.size, 300);
    stored.close();
  });

  it('takes a list of more files than a message carries, every run of it', async () => {
    // Paths that are not there (dropped) first, the workspace's files last: in the last run.
    const gone = Array.from({ length: 25_000 }, (_, i) => nodePath.join(folder, 'gone', `g${i}.ts`));
    const child = start();
    const ran = run(child);
    await build(child, { paths: [...gone, ...paths] });
    const { messages } = await ran;
    const outcome = messages[messages.length - 1];
    assert.ok(outcome.kind === 'done', JSON.stringify(outcome));
    assert.strictEqual(outcome.summary.files, 300);
  });

  it("sends a list's next run only once the channel has taken the one before", async () => {
    const gone = Array.from({ length: 25_000 }, (_, i) => nodePath.join(folder, 'gone', `g${i}.ts`));
    const sent: ToBuildProcess[] = [];
    let take: (() => void) | undefined;
    const sending = sendBuild(
      (message) => {
        sent.push(message);
        return new Promise<void>((resolve) => (take = resolve));
      },
      { ...request(), paths: [...gone, ...paths] },
      LIMITS,
    );
    // Three runs, then the start: each waits until the message before it is taken.
    for (let sends = 1; sends <= 4; sends++) {
      await waitUntil(
        () => sent.length === sends,
        () => `message ${sends} sent (${sent.length})`,
      );
      // (not taken yet: nothing more goes while the sender lets turns of the event loop pass)
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.strictEqual(sent.length, sends, `message ${sends + 1} waits until message ${sends} is taken`);
      take?.();
    }
    await sending;
    assert.deepStrictEqual(
      sent.map((message) => (message.kind === 'files' ? message.paths.length : message.kind)),
      [10_000, 10_000, 5_300, 'start'],
    );
  });

  it('asks the host for the list with the ignored files and indexes it', async () => {
    const ignored = nodePath.join(folder, 'ignored.js');
    fs.writeFileSync(ignored, 'ignored\n');
    age(folder);
    const child = start();
    let asked = 0;
    const ran = run(child, (message) => {
      if (message.kind !== 'listIgnored') return;
      asked++;
      // (answered later, as VS Code lists the workspace: the build waits)
      setTimeout(() => void sendWithIgnored((sent) => send(child, sent), [...paths, ignored]), 50);
    });
    await build(child, { asksIgnored: true });
    const { messages } = await ran;
    const outcome = messages[messages.length - 1];
    assert.ok(outcome.kind === 'done', JSON.stringify(outcome));
    assert.deepStrictEqual({ files: outcome.summary.files, asked }, { files: 301, asked: 1 });
  });

  it('posts nothing while the host counts a search under way, and goes on once it is over', async () => {
    const child = start();
    let searching = 1;
    const postedDuring: string[] = [];
    const ran = run(child, (message) => {
      if (searching > 0) postedDuring.push(message.kind);
    });
    void send(child, { kind: 'searching', count: 1 });
    await build(child);
    // The search ends a little later; the build holds at most a second at a time for one that runs on.
    setTimeout(() => {
      searching = 0;
      void send(child, { kind: 'searching', count: 0 });
    }, 300);
    const { messages } = await ran;
    assert.strictEqual(messages[messages.length - 1].kind, 'done');
    assert.deepStrictEqual(postedDuring, [], 'posted while a search was under way');
  });

  it("runs below the host's priority, every thread of it: on Linux each thread's own, V8's threads and the build thread too", async () => {
    /** The niceness of each of the process's threads (Linux), or the process's priority (elsewhere). */
    const priorities = (pid: number): number[] => (process.platform === 'linux' ? threadNiceness(pid) : [os.getPriority(pid)]);
    const child = start();
    const pid = child.pid!;
    const atBackground = () => priorities(pid).every((nice) => nice === BACKGROUND_NICE);
    await waitUntil(atBackground, () => `every thread at ${BACKGROUND_NICE}: ${priorities(pid).join(', ')}`, 15_000, 20);
    const threads = priorities(pid).length;
    assert.ok(process.platform !== 'linux' || threads > 1, `V8's threads as well as the main one (${threads})`);
    // The build thread, started later (held by a search, it stays): it starts at the priority of the thread that starts it.
    void send(child, { kind: 'searching', count: 1 });
    await build(child);
    await waitUntil(
      () => process.platform !== 'linux' || priorities(pid).length > threads,
      () => `the build thread started (${priorities(pid).length} threads)`,
      15_000,
      20,
    );
    assert.deepStrictEqual(
      priorities(pid).filter((nice) => nice !== BACKGROUND_NICE),
      [],
      'threads above the background priority',
    );
    child.disconnect();
  });

  it('ends when the host goes, in the middle of a build, without an outcome', async () => {
    const child = start();
    const messages: FromBuildProcess[] = [];
    child.on('message', (message: FromBuildProcess) => messages.push(message));
    // (the channel closed from this side, the process's end is its 'exit')
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // The build is under way, held by a search (a second at a time), when the host goes.
    void send(child, { kind: 'searching', count: 1 });
    await build(child);
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.disconnect();
    assert.deepStrictEqual({ messages, code: await exited }, { messages: [], code: 0 });
  });
});
