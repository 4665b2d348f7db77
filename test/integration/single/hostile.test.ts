/**
 * A hostile repository in the extension host: `.gitignore` files that are a FIFO or a link to
 * /dev/zero, and globs that take minutes to expand or match. The host keeps answering a command
 * within 100 ms while they are searched, and each call answers (the ignore files skipped, the glob bomb
 * refused naming its limit, a slow glob stopped at the time limit).
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { folderPath, invokeError, invokeJson, whileProbing, type GlobAnswer, type GrepAnswer } from '../helpers';

const LIMIT_SECONDS = 2;

describe('a hostile repository in the extension host', function () {
  this.timeout(60_000);
  const dir = () => path.join(folderPath(0), 'hostile-tmp');
  const at = (relative: string) => path.join(dir(), ...relative.split('/'));
  before(async () => {
    fs.mkdirSync(at('zero/src'), { recursive: true });
    fs.mkdirSync(at('fifo'), { recursive: true });
    fs.mkdirSync(at('names'), { recursive: true });
    for (const file of ['zero/a.txt', 'zero/src/b.txt', 'fifo/c.txt']) fs.writeFileSync(at(file), 'hostile-token\n');
    fs.symlinkSync('/dev/zero', at('zero/.gitignore'));
    fs.symlinkSync('/dev/zero', at('zero/src/.gitignore'));
    execFileSync('mkfifo', [at('fifo/.gitignore')]);
    // Names that make `*a*a*a[b-c]` backtrack (seconds in all on one thread; a range is no literal end a name is first
    // checked for, globMayMatch).
    for (let i = 0; i < 1500; i++) fs.writeFileSync(at(`names/${'a'.repeat(250)}${i}`), '');
    await vscode.workspace.getConfiguration('grepTools').update('timeoutSeconds', LIMIT_SECONDS, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    fs.rmSync(dir(), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('grepTools').update('timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  it('.gitignore files that are a FIFO or a link to /dev/zero are skipped; the host answers commands in < 100 ms meanwhile', async () => {
    const { result, probes, worstMs } = await whileProbing(() =>
      Promise.all([
        invokeJson<GrepAnswer>('grep', { pattern: 'hostile-token', path: 'hostile-tmp', output_mode: 'files_with_matches' }),
        invokeJson<GlobAnswer>('glob', { pattern: '**/*.txt', path: 'hostile-tmp' }),
      ]),
    );
    const expected = ['fifo/c.txt', 'zero/a.txt', 'zero/src/b.txt'].map(at);
    assert.deepStrictEqual(result[0].files, expected);
    assert.deepStrictEqual(result[1].files, expected);
    assert.ok(probes >= 1, `the host was probed (${probes} probes)`);
    assert.ok(worstMs < 100, `a command round-trip took at most ${worstMs} ms`);
  });

  it('a glob bomb is refused naming its limit, and a slow glob within the limits answers within the time limit; the host answers commands in < 100 ms meanwhile', async () => {
    const started = Date.now();
    const { result, probes, worstMs } = await whileProbing(() =>
      Promise.all([
        invokeError('glob', { pattern: '{a,b}'.repeat(17) }).then((message) => ({ message, at: Date.now() - started })),
        invokeError('grep', { pattern: 'x', include: '['.repeat(4000) }).then((message) => ({ message, at: Date.now() - started })),
        invokeJson<GlobAnswer & { timed_out?: boolean }>('glob', { pattern: 'names/*a*a*a[b-c]', path: 'hostile-tmp' }).then((answer) => ({
          answer,
          at: Date.now() - started,
        })),
      ]),
    );
    const [bomb, brackets, slow] = result;
    assert.match(bomb.message, /its braces expand to more than 256 alternatives \(the limit\)/);
    assert.ok(bomb.at < 1000, `the glob bomb was refused after ${bomb.at} ms`);
    assert.match(brackets.message, /at most 32 character classes are accepted/);
    // findFiles (VS Code's ripgrep) already leaves out the names that do not match; the workers test the rest.
    assert.ok(slow.answer.timed_out === true || slow.answer.total === 0, JSON.stringify(slow.answer).slice(0, 300));
    assert.ok(slow.at < (LIMIT_SECONDS + 1) * 1000, `the slow glob returned after ${slow.at} ms`);
    assert.ok(probes >= 3, `the host was probed while the searches ran (${probes} probes)`);
    assert.ok(worstMs < 100, `a command round-trip took at most ${worstMs} ms`);
  });
});
