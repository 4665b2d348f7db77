// The windows section's list of test files not run under wine (scripts/lib/windows.mjs) is the list
// docs/platforms.md gives, and each names a built test file that exists.
import * as assert from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NOT_UNDER_WINE, windowsPath } from '../../../scripts/lib/windows.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('the windows section (scripts/lib/windows.mjs)', () => {
  it('names each test file it leaves out, with a reason, and docs/platforms.md names the same files', () => {
    const doc = readFileSync(join(repo, 'docs', 'platforms.md'), 'utf8');
    const section = doc.slice(doc.indexOf('Under wine some unit test files'), doc.indexOf('What wine cannot show'));
    const documented = [...section.matchAll(/`((?:engine|cli|vscode)\/[^`]+\.test\.js)`/g)].map((m) => `out/test/unit/${m[1]}`).sort();
    assert.deepStrictEqual(NOT_UNDER_WINE.map(({ file }) => file).sort(), documented);
    for (const { file, reason } of NOT_UNDER_WINE) {
      assert.ok(reason.length > 20, file);
      assert.ok(existsSync(join(repo, file)), `${file} is built`);
    }
  });

  it('names a Linux path as the Windows Node sees it (drive Z:)', () => {
    assert.strictEqual(windowsPath('/work/repo/out'), 'Z:\\work\\repo\\out');
  });
});
