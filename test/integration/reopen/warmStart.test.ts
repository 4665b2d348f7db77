/**
 * Run in a new window of the same session after the single-folder suite (scripts/test.mjs), as after a
 * window reload: the index the first window stored in the extension's storage is used at once, a file
 * changed while no window was open is read afresh, and the first refresh counts the stored files that
 * were still fresh.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import { folderPath, invokeJson, type GrepAnswer } from '../helpers';

describe('the single folder reopened in a new window', () => {
  const kept = () => path.join(folderPath(0), 'reopen-tmp', 'kept.txt');
  const files = async (pattern: string) => (await invokeJson<GrepAnswer>('grep', { pattern, fixed_strings: true, output_mode: 'files_with_matches' })).files;
  after(() => fs.rmSync(path.dirname(kept()), { recursive: true, force: true }));

  it('starts with the stored index, reads a file changed while no window was open, and counts the fresh files', async function () {
    this.timeout(90_000);
    assert.ok(fs.existsSync(kept()), 'the first window left reopen-tmp/kept.txt');
    fs.writeFileSync(kept(), 'warm-8b1f after the reopen\n');
    const extension = vscode.extensions.getExtension<GrepToolsApi>('grep-tools.vscode-grep-tools');
    assert.ok(extension);
    const api = await extension.activate();
    const loaded = api.index.loaded;
    assert.ok(loaded && loaded.files > 0, `the stored index was loaded (${JSON.stringify(loaded)})`);

    assert.deepStrictEqual(await files('warm-8b1f after'), [kept()], 'the changed file is read afresh');
    assert.ok(api.index.lastUse && api.index.lastUse.settled > 0, `the stored index settled files before any build (${JSON.stringify(api.index.lastUse)})`);
    assert.deepStrictEqual(await files('warm-8b1f before'), [], 'its old text is not found');

    const deadline = Date.now() + 60_000;
    while (loaded.fresh === undefined) {
      assert.ok(Date.now() < deadline, `the first refresh ended within 60 s (phase ${api.index.phase})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(loaded.fresh > 0 && loaded.fresh < loaded.files, `${loaded.fresh} of ${loaded.files} stored files were fresh`);
    assert.ok((api.index.last?.read ?? 0) >= 1, 'the changed file was read again by the refresh');
    assert.deepStrictEqual(await files('warm-8b1f after'), [kept()]);
  });
});
