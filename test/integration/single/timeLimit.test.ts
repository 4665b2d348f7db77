import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { folderPath, invokeJson, type GrepAnswer } from '../helpers';

describe('the time limit in the extension host', () => {
  const dir = () => path.join(folderPath(0), 'redos-tmp');
  before(async () => {
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(path.join(dir(), 'evil.txt'), `${'a'.repeat(40)}b\n`);
    await vscode.workspace.getConfiguration('grepTools').update('timeoutSeconds', 2, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    fs.rmSync(dir(), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('grepTools').update('timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a catastrophic regex returns timed_out within the limit + 1 s while another call completes normally', async () => {
    const started = Date.now();
    let normalDoneAt = 0;
    const [evil, normal] = await Promise.all([
      invokeJson<GrepAnswer & { timed_out?: boolean }>('grep', { pattern: '(a+)+$', path: 'redos-tmp' }),
      invokeJson<GrepAnswer>('grep', { pattern: 'TODO', output_mode: 'count' }).then((answer) => {
        normalDoneAt = Date.now();
        return answer;
      }),
    ]);
    const elapsed = Date.now() - started;
    assert.strictEqual(evil.timed_out, true);
    assert.match(evil.notes.join(' '), /timed out/);
    assert.ok(elapsed < 3000, `returned within 2 s + 1 s (${elapsed} ms)`);
    assert.strictEqual(normal.total_matches, 3, JSON.stringify(normal));
    assert.ok(normalDoneAt - started < 1500, `the other call was not held up (${normalDoneAt - started} ms)`);
  });
});
