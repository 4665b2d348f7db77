/**
 * Hostile ignore files (a cloned repository may carry any `.gitignore`): a link to /dev/zero, a FIFO,
 * a link to rules outside the workspace or to the denied .env, an oversized file. Each is skipped with
 * a note, the search answers as if it were not there, and memory and time stay bounded. The CLI runs
 * in a child process whose memory is watched, so a regression fails the test instead of the machine.
 */
import * as assert from 'assert';
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as nodePath from 'path';
import { GitignoreRules, loadGitignoreTexts } from '../../../../src/engine/source/gitignore';
import { MAX_IGNORE_FILE_BYTES, readIgnoreFile, readIgnoreFileSync } from '../../../../src/engine/source/ignoreFile';
import { Fixture, globJson, grepJson, makeEnv, pathFiles, rel } from '../../fixture';
import { FsRecorder } from '../../recorder';
import { parseAnswer } from '../../../support/answers';

const distCli = nodePath.resolve(__dirname, '../../../../../dist/cli.js');

/** Runs the CLI, killing it past `maxRssMb` of memory or `timeoutMs`; reports its peak memory (VmHWM). */
export function runCliWatched(
  args: string[],
  limits = { maxRssMb: 600, timeoutMs: 15_000 },
): Promise<{ code: number | null; stdout: string; stderr: string; peakMb: number; killed?: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [distCli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakMb = 0;
    let killed: string | undefined;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const watch = setInterval(() => {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peakMb = Math.max(peakMb, kb / 1024);
      } catch {
        return;
      }
      if (peakMb > limits.maxRssMb) killed = `memory past ${limits.maxRssMb} MB`;
      else if (Date.now() - started > limits.timeoutMs) killed = `still running after ${limits.timeoutMs} ms`;
      if (killed) child.kill('SIGKILL');
    }, 10);
    child.on('close', (code) => {
      clearInterval(watch);
      resolve({ code, stdout, stderr, peakMb, killed, ms: Date.now() - started });
    });
  });
}

describe('hostile ignore files', function () {
  this.timeout(60_000);
  const fx = new Fixture('grep-tools-ignore-');
  const outside = new Fixture('grep-tools-ignore-outside-');
  const ws = (name: string) => fx.path(name);

  before(() => {
    outside.write('rules', 'a.txt\n');
    // Each workspace holds a.txt and src/b.txt; only the ignore file differs.
    for (const name of ['zero', 'nestedzero', 'fifo', 'outsiderules', 'envlink', 'huge', 'plain'])
      fx.files({ [`${name}/a.txt`]: 'hello a\n', [`${name}/src/b.txt`]: 'hello b\n' });
    fx.symlink('/dev/zero', 'zero/.gitignore');
    fx.symlink('/dev/zero', 'nestedzero/src/.gitignore');
    execFileSync('mkfifo', [fx.path('fifo/.gitignore')]);
    fx.symlink(outside.path('rules'), 'outsiderules/.gitignore');
    fx.write('envlink/.env', 'a.txt\n');
    fx.symlink('.env', 'envlink/.gitignore');
    fx.write('huge/.gitignore', `a.txt\n${'#'.repeat(MAX_IGNORE_FILE_BYTES)}\n`);
    fx.write('plain/.gitignore', 'a.txt\n');
  });
  after(() => {
    fx.remove();
    outside.remove();
  });

  for (const [name, tool] of [
    ['zero', 'grep'],
    ['zero', 'glob'],
    ['nestedzero', 'grep'],
    ['nestedzero', 'glob'],
    ['fifo', 'grep'],
    ['fifo', 'glob'],
  ] as const) {
    it(`${tool} with ${name === 'fifo' ? 'a FIFO' : name === 'zero' ? 'a link to /dev/zero' : 'a nested link to /dev/zero'} as .gitignore answers at once, in bounded memory`, async () => {
      const input = tool === 'grep' ? { pattern: 'hello', output_mode: 'files_with_matches' } : { pattern: '**' };
      const run = await runCliWatched([tool, JSON.stringify(input), '--workspace', ws(name)]);
      assert.strictEqual(run.killed, undefined, `the CLI was killed: ${run.killed}`);
      assert.strictEqual(run.code, 0, run.stderr);
      const files = (parseAnswer(run.stdout) as { files: string[] }).files.map((file) => rel(ws(name), file));
      assert.deepStrictEqual(files, ['a.txt', 'src/b.txt']);
      assert.match(run.stderr, /Ignore file .*\.gitignore skipped: it is (a symbolic link|not a regular file); its rules are not applied\./);
      assert.ok(run.peakMb < 200, `peak memory ${run.peakMb.toFixed(0)} MB`);
    });
  }

  it('a link to rules outside the workspace does not change the answer', async () => {
    const notes: string[] = [];
    const json = await grepJson({ pattern: 'hello', output_mode: 'files_with_matches' }, { ...makeEnv(ws('outsiderules')), warn: (note) => notes.push(note) });
    assert.deepStrictEqual(
      pathFiles(json).map((file) => rel(ws('outsiderules'), file)),
      ['a.txt', 'src/b.txt'],
    );
    assert.deepStrictEqual(notes, [`Ignore file ${ws('outsiderules')}/.gitignore skipped: it is a symbolic link; its rules are not applied.`]);
  });

  it('a link to the denied .env is never read as rules', async () => {
    const recorder = new FsRecorder();
    const json = await recorder.record(() => globJson({ pattern: '**' }, makeEnv(ws('envlink'))));
    assert.deepStrictEqual(
      json.files.map((file) => rel(ws('envlink'), file)),
      ['a.txt', 'src/b.txt'],
    );
    assert.ok(!recorder.opened().includes(ws('envlink/.env')));
  });

  it(`an ignore file over ${MAX_IGNORE_FILE_BYTES} bytes is skipped with a note; a plain one applies`, async () => {
    const notes: string[] = [];
    const huge = await globJson({ pattern: '**' }, { ...makeEnv(ws('huge')), warn: (note) => notes.push(note) });
    assert.deepStrictEqual(
      huge.files.map((file) => rel(ws('huge'), file)),
      ['.gitignore', 'a.txt', 'src/b.txt'],
    );
    assert.match(notes[0], /over the 262144-byte limit for ignore files/);
    const plain = await globJson({ pattern: '**' }, makeEnv(ws('plain')));
    assert.deepStrictEqual(
      plain.files.map((file) => rel(ws('plain'), file)),
      ['.gitignore', 'src/b.txt'],
    );
  });

  it('the reader opens without following links, and judges what it opened', async () => {
    const scope = { granted: [fx.root], denied: ['**/.env'] };
    for (const read of [readIgnoreFileSync(ws('zero'), scope), await readIgnoreFile(ws('zero'), scope)])
      assert.deepStrictEqual(read, { kind: 'skipped', path: ws('zero/.gitignore'), reason: 'it is a symbolic link' });
    for (const read of [readIgnoreFileSync(ws('fifo'), scope), await readIgnoreFile(ws('fifo'), scope)])
      assert.strictEqual(read.kind === 'skipped' && read.reason, 'it is not a regular file');
    for (const read of [readIgnoreFileSync(ws('plain'), scope), await readIgnoreFile(ws('plain'), scope)])
      assert.deepStrictEqual(read, { kind: 'text', text: 'a.txt\n' });
    for (const read of [readIgnoreFileSync(ws('a.txt'), scope), await readIgnoreFile(ws('nothing'), scope)]) assert.deepStrictEqual(read, { kind: 'none' });
    // The granted root is another directory: the plain file is outside it.
    const elsewhere = { granted: [outside.root], denied: [] };
    const refused = readIgnoreFileSync(ws('plain'), elsewhere);
    assert.strictEqual(refused.kind === 'skipped' && refused.reason, `it is really ${ws('plain/.gitignore')}, outside the granted folders`);
  });

  it("the extension host's loader reads every directory's file off its thread, with the same checks", async () => {
    const notes: string[] = [];
    const texts = await loadGitignoreTexts(fx.root, ['plain', 'zero', 'fifo', 'huge', 'nestedzero/src'], {
      scope: { granted: [fx.root], denied: [] },
      warn: (note) => notes.push(note),
    });
    assert.deepStrictEqual([...texts.entries()], [['plain', 'a.txt\n']]);
    assert.strictEqual(notes.length, 4);
    const rules = new GitignoreRules(fx.root, { hasFile: (dir) => texts.has(dir), read: (dir) => texts.get(dir) });
    assert.ok(rules.ignoresFile('plain/a.txt'));
    assert.ok(!rules.ignoresFile('zero/a.txt'));
  });
});
