/**
 * Pathological trees, each searched through answerGrep / answerGlob with the worker pool (as the CLI and
 * VS Code search) and, where it matters, through the CLI: huge and deep trees, huge, sparse and
 * minified files, unreadable files, files changed between listing and reading, symlink loops, a FIFO
 * and a socket, and names no one should write. Expected: exact counts, the right `skipped`, no crash,
 * no hang, bounded memory.
 *
 * The many-files case makes 100,000 files (about 12 s here, creating them included); PATHOLOGICAL_FILES=N
 * changes the count (a multiple of 500).
 */
import { readAnswer } from '../../support/answers';
import * as assert from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as nodePath from 'path';
import { byteBudget } from '../../../src/engine/answer/budget';
import { answerGlob } from '../../../src/engine/answer/globAnswer';
import { parseGrepInput } from '../../../src/engine/input/schema';
import { type SearchEnvironment } from '../../../src/engine/run/environment';
import { answerGrep } from '../../../src/engine/answer/grepAnswer';
import { SearchPool } from '../../../src/engine/pool/pool';
import { renderGrep } from '../../../src/engine/answer/printer';
import type { FileSource } from '../../../src/engine/source/fileSource';
import { main as cli } from '../../../src/cli';
import { Fixture, makeEnv, type EnvOptions, type GrepAnswer, type GlobAnswer } from '../../unit/fixture';

const MANY = Number(process.env.PATHOLOGICAL_FILES ?? 100_000);

describe('pathological trees', function () {
  this.timeout(180_000);
  let pool: SearchPool;
  before(() => {
    pool = new SearchPool(2).warm();
  });
  after(() => pool.dispose());

  const env = (root: string, options: EnvOptions = {}): SearchEnvironment => ({ ...makeEnv(root, options), pool });
  const grep = async (input: object, e: SearchEnvironment) =>
    readAnswer<GrepAnswer>(await renderGrep(await answerGrep(parseGrepInput(input), e), byteBudget(51_200)));
  const noSkips = { binary: 0, too_large: 0, denied: 0, unreadable: 0, outside_workspace: 0 };

  describe(`${MANY} small files`, () => {
    let fx: Fixture;
    before(() => {
      fx = new Fixture('grep-tools-many-');
      for (let d = 0; d < MANY / 500; d++) {
        const dir = fx.mkdir(`d${String(d).padStart(3, '0')}`);
        for (let i = 0; i < 500; i++) fs.writeFileSync(nodePath.join(dir, `f${i}.txt`), i === 7 ? 'needle\n' : `line ${i}\n`);
      }
    });
    after(() => fx.remove());

    it('grep counts every file and every match exactly', async () => {
      const json = await grep({ pattern: 'needle', output_mode: 'count', max_results: 1000 }, env(fx.root));
      assert.strictEqual(json.files_searched, MANY);
      assert.strictEqual(json.files_matched, MANY / 500);
      assert.strictEqual(json.total_matches, MANY / 500);
      assert.deepStrictEqual(json.skipped, noSkips);
      assert.strictEqual(json.timed_out, undefined);
    });

    it('glob totals every file and pages the first 1000', async () => {
      const report = await answerGlob({ pattern: '**/*.txt' }, env(fx.root));
      assert.strictEqual(report.total, MANY);
      assert.strictEqual(report.files.length, 1000);
      assert.strictEqual(report.nextOffset, 1000);
    });
  });

  describe('a directory nested 200 levels deep', () => {
    let fx: Fixture;
    const deep = Array.from({ length: 200 }, (_, i) => `n${i}`).join('/');
    before(() => {
      fx = new Fixture('grep-tools-deep-');
      fx.write(`${deep}/bottom.txt`, 'the needle at the bottom\n');
      fx.write('top.txt', 'needle on top\n');
    });
    after(() => fx.remove());

    it('grep and glob reach the bottom', async () => {
      const json = await grep({ pattern: 'needle', output_mode: 'files_with_matches' }, env(fx.root));
      assert.deepStrictEqual(json.files, [fx.path(`${deep}/bottom.txt`), fx.path('top.txt')]);
      const glob = await answerGlob({ pattern: '**/bottom.txt' }, env(fx.root));
      assert.deepStrictEqual(glob.files, [fx.path(`${deep}/bottom.txt`)]);
      const shallow = await answerGlob({ pattern: '**/*.txt', max_depth: 100 }, env(fx.root));
      assert.deepStrictEqual(shallow.files, [fx.path('top.txt')]);
    });
  });

  describe('huge, sparse and minified files', () => {
    let fx: Fixture;
    const MB = 1024 * 1024;
    before(() => {
      fx = new Fixture('grep-tools-huge-');
      const fd = fs.openSync(fx.path('sparse.bin'), 'w');
      fs.ftruncateSync(fd, 1024 * MB); // 1 GB, no blocks written
      fs.closeSync(fd);
      fx.write('at-cap.txt', Buffer.alloc(MB, 'x').fill('needle\n', MB - 7));
      fx.write('over-cap.txt', Buffer.alloc(MB + 1, 'x').fill('needle\n', MB - 6));
      const minified = Buffer.alloc(20 * MB, 'a;');
      minified.write('needle', 10 * MB);
      fx.write('min.js', minified);
    });
    after(() => fx.remove());

    it('a 1 GB sparse file, a file just over the cap and a 20 MB file are skipped as too large; the file at the cap is searched', async () => {
      const json = await grep({ pattern: 'needle', output_mode: 'count' }, env(fx.root));
      assert.deepStrictEqual(json.files, [{ file: fx.path('at-cap.txt'), count: 1 }]);
      assert.strictEqual(json.files_searched, 1);
      assert.deepStrictEqual(json.skipped, { ...noSkips, too_large: 3 });
    });

    it('a 20 MB single-line file under a raised cap: one match, the line cut to a window, memory bounded', async () => {
      const before = process.memoryUsage().rss;
      const json = await grep({ pattern: 'needle', path: 'min.js' }, env(fx.root, { config: { maxFileSize: 32 * MB } }));
      const grown = process.memoryUsage().rss - before;
      const [file] = json.files as Array<{ matches: Array<{ line: number; text: string }> }>;
      assert.strictEqual(json.total_matches, 1);
      assert.strictEqual(file.matches[0].line, 1);
      assert.ok(file.matches[0].text.includes('needle') && file.matches[0].text.length <= 502, `a window of the line (${file.matches[0].text.length} chars)`);
      assert.ok(grown < 200 * MB, `this thread's memory grew by ${Math.round(grown / MB)} MB`);
    });
  });

  describe('files that cannot be read', () => {
    let fx: Fixture;
    before(() => {
      fx = new Fixture('grep-tools-noread-');
      fx.write('ok.txt', 'needle\n');
      fx.write('secret.txt', 'needle\n');
      fs.chmodSync(fx.path('secret.txt'), 0o000);
      // The tree must be readable by the user the CLI runs as below.
      fs.chmodSync(fx.root, 0o755);
    });
    after(() => fx.remove());

    it('a file without read permission is counted as unreadable (as an unprivileged user: root reads anything)', function () {
      const asRoot = process.getuid?.() === 0;
      // Root ignores file modes, so the CLI runs as "nobody" there (from a copy of the bundle that
      // nobody can read, wherever the checkout is); otherwise as this user.
      const dist = nodePath.join(__dirname, '..', '..', '..', '..', 'dist');
      if (asRoot) {
        fs.mkdirSync(fx.path('cli'), { mode: 0o755 });
        for (const file of ['cli.js', 'cliEngine.js', 'worker.js']) fs.copyFileSync(nodePath.join(dist, file), fx.path(`cli/${file}`));
      }
      const cliPath = asRoot ? fx.path('cli/cli.js') : nodePath.join(dist, 'cli.js');
      const run = spawnSync(process.execPath, [cliPath, 'grep', '{"pattern":"needle","output_mode":"count","include":"*.txt"}', '--workspace', fx.root], {
        encoding: 'utf8',
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      assert.strictEqual(run.status, 0, run.stderr);
      const json = readAnswer<GrepAnswer>(run.stdout);
      assert.deepStrictEqual(json.files, [{ file: fx.path('ok.txt'), count: 1 }]);
      assert.deepStrictEqual(json.skipped, { ...noSkips, unreadable: 1 });
    });
  });

  describe('files deleted, truncated or replaced between listing and reading', () => {
    let fx: Fixture;
    before(() => {
      fx = new Fixture('grep-tools-race-');
      for (const name of ['deleted', 'truncated', 'to-dir', 'to-fifo', 'kept']) fx.write(`${name}.txt`, 'needle one\nneedle two\n');
    });
    after(() => fx.remove());

    it('each changed file ends as what it became: gone or not a file → unreadable, truncated → its new content', async () => {
      const base = env(fx.root);
      const inner = base.source;
      // The walker lists, then the disk changes, then the pool reads: the race a search can meet.
      const racing: FileSource = {
        kind: (p) => inner.kind(p),
        mtime: (p) => inner.mtime(p),
        list: async (...args) => {
          const listed = await inner.list(...args);
          fs.rmSync(fx.path('deleted.txt'));
          fs.writeFileSync(fx.path('truncated.txt'), 'needle one\n');
          fs.rmSync(fx.path('to-dir.txt'));
          fs.mkdirSync(fx.path('to-dir.txt'));
          fs.rmSync(fx.path('to-fifo.txt'));
          execFileSync('mkfifo', [fx.path('to-fifo.txt')]);
          return listed;
        },
      };
      const started = Date.now();
      const json = await grep({ pattern: 'needle', output_mode: 'count' }, { ...base, source: racing });
      assert.ok(Date.now() - started < 5000, 'the FIFO did not block');
      assert.deepStrictEqual(json.files, [
        { file: fx.path('kept.txt'), count: 2 },
        { file: fx.path('truncated.txt'), count: 1 },
      ]);
      assert.strictEqual(json.files_searched, 2);
      assert.deepStrictEqual(json.skipped, { ...noSkips, unreadable: 3 }, 'deleted, now a directory, now a FIFO');
    });
  });

  describe('symlink loops, a FIFO, a socket', () => {
    let fx: Fixture;
    let server: net.Server;
    before(async () => {
      fx = new Fixture('grep-tools-special-');
      fx.write('src/a.txt', 'needle\n');
      fx.symlink('..', 'src/up'); // src/up/src/up/... loops
      fx.symlink('loop2', 'loop1');
      fx.symlink('loop1', 'loop2'); // a link cycle that resolves to nothing
      fx.mkdir('cycle/inner');
      fx.symlink('../../cycle', 'cycle/inner/back');
      execFileSync('mkfifo', [fx.path('pipe.txt')]);
      server = net.createServer();
      await new Promise<void>((resolve) => server.listen(fx.path('sock.txt'), resolve));
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fx.remove();
    });

    it('grep and glob end, find the one file once, and never block on the FIFO or the socket', async () => {
      const started = Date.now();
      const json = await grep({ pattern: 'needle', output_mode: 'count' }, env(fx.root));
      const glob = await answerGlob({ pattern: '**/*.txt' }, env(fx.root));
      assert.ok(Date.now() - started < 5000, `ended promptly (${Date.now() - started} ms)`);
      assert.deepStrictEqual(json.files, [{ file: fx.path('src/a.txt'), count: 1 }]);
      assert.strictEqual(json.files_searched, 1);
      assert.deepStrictEqual(glob.files, [fx.path('src/a.txt')]);
    });

    it('a FIFO or a socket named as the path is refused or skipped at once, not read', async () => {
      for (const name of ['pipe.txt', 'sock.txt']) {
        const started = Date.now();
        let outcome: string;
        try {
          const json = await grep({ pattern: 'needle', path: name }, env(fx.root));
          outcome = `searched ${json.files_searched}, unreadable ${json.skipped.unreadable}`;
          assert.strictEqual(json.files_searched, 0);
        } catch (error) {
          outcome = (error as Error).message;
          assert.match(outcome, /Path not found|not a regular file|not a file/);
        }
        assert.ok(Date.now() - started < 2000, `${name}: ${outcome} in ${Date.now() - started} ms`);
      }
    });
  });

  describe('names with newlines, invalid UTF-8 and leading dashes', () => {
    let fx: Fixture;
    before(() => {
      fx = new Fixture('grep-tools-names-');
      fx.write('line\nbreak.txt', 'needle\n');
      fx.write('-rf.txt', 'needle\n');
      fx.write('--include=x.txt', 'needle\n');
      fs.writeFileSync(Buffer.concat([Buffer.from(fx.root + '/bad-'), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]), 'needle\n');
    });
    after(() => fx.remove());

    it('grep and glob find the files with odd names; a name that is not UTF-8 is counted, not lost silently', async () => {
      const json = await grep({ pattern: 'needle', output_mode: 'files_with_matches' }, env(fx.root));
      const found = json.files as string[];
      for (const name of ['line\nbreak.txt', '-rf.txt', '--include=x.txt']) assert.ok(found.includes(fx.path(name)), `${JSON.stringify(name)} found`);
      // The invalid UTF-8 name cannot be spelled as a JSON string: it is either found under its
      // decoded name or counted as unreadable, never dropped without a trace.
      assert.strictEqual(json.files_searched + json.skipped.unreadable, 4, JSON.stringify({ found, skipped: json.skipped }));
      const glob = await answerGlob({ pattern: '*.txt' }, env(fx.root));
      assert.ok(glob.total >= 3);
    });

    it('the CLI prints JSON for them, a leading-dash name is not taken for an option', async () => {
      const { code, stdout } = await cli(['glob', '{"pattern":"-*"}', '--workspace', fx.root]);
      assert.strictEqual(code, 0);
      const json = readAnswer<GlobAnswer>(stdout!);
      assert.deepStrictEqual(json.files, [fx.path('--include=x.txt'), fx.path('-rf.txt')]);
    });
  });
});
