/**
 * `serve`: answers the grep and glob calls of the command line for its folders and index directory,
 * exactly as the command line alone answers them, and reflects every change of the tree in the very
 * next call (its watcher's events are taken in before a question is answered: no waiting here).
 */
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as nodePath from 'path';
import { engineIdentity, main } from '../../../src/cli';
import { parseArguments, type CliOutcome, type CliRequest } from '../../../src/cli/arguments';
import { serve } from '../../../src/cli/server';
import { parseAnswer } from '../../support/answers';
import { age } from '../../unit/engine/index/age';
import { Fixture } from '../../unit/fixture';

const distCli = nodePath.resolve(__dirname, '../../../..', 'dist', 'cli.js');

describe('cli: serve', function () {
  // A call through the server and one alone per step, 1,000 files written twice: about 2 s on a busy machine.
  this.timeout(20_000);
  let fx: Fixture;
  let ws: string;
  let indexDir: string;
  let log: string[];
  let stop: () => void;
  let served: Promise<CliOutcome>;

  const answered = () => log.filter((line) => /^(grep|glob): answered in \d+ ms( \(index: [^)]*\))?$/.test(line)).length;
  /** The served answer and the command line's own (--no-index: nothing of the index or the server). */
  async function both(tool: 'grep' | 'glob', input: object): Promise<[CliOutcome, CliOutcome]> {
    const json = JSON.stringify(input);
    return [await main([tool, json, '--workspace', ws, '--index-dir', indexDir]), await main([tool, json, '--workspace', ws, '--no-index'])];
  }
  async function same(tool: 'grep' | 'glob', input: object): Promise<unknown> {
    const before = answered();
    const [on, off] = await both(tool, input);
    assert.deepStrictEqual(on, off, JSON.stringify(input));
    assert.strictEqual(answered(), before + 1, 'the server answered');
    return parseAnswer(on.stdout ?? '');
  }

  before(async () => {
    fx = new Fixture('grep-tools-serve-');
    ws = fx.mkdir('ws');
    indexDir = fx.path('index');
    fx.files({
      'ws/src/app.ts': 'const a = 1; // TODO tidy\n',
      'ws/README.md': 'TODO docs\n',
      'ws/.env': 'TODO secret\n',
      'ws/lib/util.ts': 'export const b = 2;\n',
      'ws/.gitignore': 'build/\n',
      'ws/build/out.js': 'TODO built\n',
    });
    age(ws);
    log = [];
    const ready: string[] = [];
    const request = parseArguments(['serve', '--workspace', ws, '--index-dir', indexDir], fx.root) as CliRequest;
    served = serve(request, engineIdentity(), {
      print: (line) => ready.push(line),
      log: (line) => log.push(line),
      stopped: () => new Promise((resolve) => (stop = resolve)),
    });
    // serve prints its ready line once it listens (or returns at once with an error).
    while (ready.length === 0) {
      const early = await Promise.race([served, new Promise((resolve) => setImmediate(() => resolve(undefined)))]);
      assert.strictEqual(early, undefined, JSON.stringify(early));
    }
    assert.deepStrictEqual(JSON.parse(ready[0]).serving, nodePath.join(indexDir, 'serve.sock'));
  });

  after(async () => {
    stop?.();
    assert.deepStrictEqual(await served, { code: 0 });
    assert.ok(!fs.existsSync(nodePath.join(indexDir, 'serve.sock')), 'the socket is removed when the server stops');
    fx.remove();
  });

  it('answers grep and glob exactly as the command line alone, and logs each call', async () => {
    for (const input of [
      { pattern: 'TODO' },
      { pattern: 'const', output_mode: 'count' },
      { pattern: 'nothing like this' },
      { pattern: 'todo', case_insensitive: true, output_mode: 'files_with_matches' },
    ]) {
      await same('grep', input);
    }
    await same('glob', { pattern: '**/*.ts' });
    const errors = await both('grep', { pattern: '(' });
    assert.deepStrictEqual(errors[0], errors[1]);
    assert.strictEqual(errors[0].code, 1);
  });

  it('reflects an edit, a new, a deleted and a renamed file, a .gitignore change and 1,000 files changed at once in the next call', async () => {
    const files = async (pattern: string, include_ignored = false) =>
      ((await same('grep', { pattern, output_mode: 'files_with_matches', include_ignored })) as { files: string[] }).files;
    // An ignored file (held by the index too, for include_ignored and an empty answer's check), edited to the same size.
    assert.deepStrictEqual(await files('built', true), [`${ws}/build/out.js`]);
    fx.write('ws/build/out.js', 'TODO other\n');
    assert.deepStrictEqual(await files('built', true), []);
    assert.match(JSON.stringify(await same('grep', { pattern: 'other' })), /build\/out\.js:1/);
    const full = () => log.filter((line) => /^index: \d+ files \(/.test(line)).length;
    const fullBefore = full();
    const contentBefore = log.filter((line) => /^index: \d+ changed files read again/.test(line)).length;
    fx.write('ws/lib/util.ts', 'export const b = 2; // TODO later\n');
    assert.deepStrictEqual(await files('TODO'), [`${ws}/README.md`, `${ws}/lib/util.ts`, `${ws}/src/app.ts`]);
    // A change of contents alone is read into the index without listing the tree again.
    for (const deadline = Date.now() + 10_000; log.filter((line) => /^index: \d+ changed files read again in \d+ ms/.test(line)).length <= contentBefore;) {
      assert.ok(Date.now() < deadline, `a content refresh within 10 s (log: ${log.slice(-5).join(' | ')})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.strictEqual(full(), fullBefore, 'and no full refresh');
    assert.deepStrictEqual(await files('TODO'), [`${ws}/README.md`, `${ws}/lib/util.ts`, `${ws}/src/app.ts`], 'the same answer from the refreshed index');
    fx.write('ws/lib/util.ts', 'export const b = 3; // DONE later\n'); // the same size
    fx.write('ws/src/new.ts', 'TODO new\n');
    fs.rmSync(fx.path('ws/README.md'));
    assert.deepStrictEqual(await files('TODO'), [`${ws}/src/app.ts`, `${ws}/src/new.ts`]);
    fs.renameSync(fx.path('ws/src/new.ts'), fx.path('ws/lib/renamed.ts'));
    assert.deepStrictEqual(await files('TODO'), [`${ws}/lib/renamed.ts`, `${ws}/src/app.ts`]);
    fx.write('ws/.gitignore', 'lib/\n');
    assert.deepStrictEqual(await files('TODO'), [`${ws}/build/out.js`, `${ws}/src/app.ts`]);
    fx.write('ws/.gitignore', 'build/\n');
    for (let i = 0; i < 1000; i++) fx.write(`ws/many/${i % 10}/f${i}.ts`, `value ${i}\n`);
    assert.strictEqual(((await same('grep', { pattern: 'value', output_mode: 'count' })) as { total_matches: number }).total_matches, 1000);
    for (let i = 0; i < 1000; i++) fx.write(`ws/many/${i % 10}/f${i}.ts`, i % 2 ? `value ${i}\n` : `other ${i}\n`);
    assert.strictEqual(((await same('grep', { pattern: 'value', output_mode: 'count' })) as { total_matches: number }).total_matches, 500);
    fs.rmSync(fx.path('ws/many'), { recursive: true });
    assert.deepStrictEqual(await files('value|other'), []);
  });

  it('leaves the calls of another workspace, or without the index, to the command line', async () => {
    const other = fx.mkdir('other');
    fx.write('other/x.ts', 'TODO other\n');
    const before = answered();
    const elsewhere = await main(['grep', '{"pattern":"TODO"}', '--workspace', other, '--index-dir', indexDir]);
    assert.deepStrictEqual(parseAnswer(elsewhere.stdout ?? '').files, { [`${other}/x.ts`]: ['1: TODO other'] });
    await main(['grep', '{"pattern":"TODO"}', '--workspace', ws, '--index-dir', indexDir, '--no-index']);
    assert.strictEqual(answered(), before);
    assert.ok(log.includes('declined: another workspace or index'));
  });

  it('refuses a second server on the same index directory, naming the fix', async () => {
    const second = await main(['serve', '--workspace', ws, '--index-dir', indexDir]);
    assert.deepStrictEqual(second, {
      code: 1,
      stderr: `A server already answers for ${indexDir} (socket ${nodePath.join(indexDir, 'serve.sock')}). Stop it first, or pass another --index-dir.`,
    });
  });

  it('node dist/cli.js serve: replaces a socket left behind, answers node dist/cli.js grep, and stops on SIGTERM', async () => {
    const dir = fx.path('index-dist');
    fs.mkdirSync(dir);
    fs.writeFileSync(nodePath.join(dir, 'serve.sock'), ''); // left behind by a server that did not stop cleanly
    const server = spawn(process.execPath, [distCli, 'serve', '--workspace', ws, '--index-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    server.stderr.on('data', (chunk) => (stderr += chunk));
    await new Promise<void>((resolve, reject) => {
      server.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve();
      });
      server.on('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
    });
    assert.strictEqual(JSON.parse(stdout).serving, nodePath.join(dir, 'serve.sock'));
    assert.strictEqual(fs.statSync(nodePath.join(dir, 'serve.sock')).mode & 0o777, 0o600, 'only this user may ask');
    const grep = (...extra: string[]) =>
      spawnSync(process.execPath, [distCli, 'grep', '{"pattern":"TODO","output_mode":"count"}', '--workspace', ws, ...extra], { encoding: 'utf8' });
    const on = grep('--index-dir', dir);
    assert.strictEqual(on.status, 0, on.stderr);
    assert.strictEqual(on.stdout, grep('--no-index').stdout);
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    server.kill('SIGTERM');
    assert.strictEqual(await exited, 0);
    assert.match(
      stderr,
      /^grep: answered in \d+ ms \(index: \d+ files settled, \d+ read(, definitions: \d+ files parsed, \d+ known, \d+ ms)?(, cut page ordered: \d+ files parsed and \d+ known for definitions, \d+ defining, \d+ ms)?\)$/m,
      'the log tells what the index did',
    );
    assert.ok(!fs.existsSync(nodePath.join(dir, 'serve.sock')));
  });
});
