/**
 * Run in a new window of the same session after the single-folder suite (scripts/test.mjs), as after a
 * window reload; reopen-tmp/kept.txt, which the first window indexed, was changed while no window was
 * open. With an index stored, the extension starts by itself once the window has started: it opens the
 * index and refreshes it before any search; the refresh's listing is the one the first window stored
 * (no directory of the folder changed: kept.txt was changed in place), and it stays resident, so the
 * first search replays it; the changed file is read afresh.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import { folderPath, invokeJson, waitUntil, type GrepAnswer } from '../helpers';

describe('the single folder reopened in a new window', () => {
  const kept = () => path.join(folderPath(0), 'reopen-tmp', 'kept.txt');
  const files = async (pattern: string) => (await invokeJson<GrepAnswer>('grep', { pattern, fixed_strings: true, output_mode: 'files_with_matches' })).files;
  after(() => fs.rmSync(path.dirname(kept()), { recursive: true, force: true }));

  it("refreshes the stored index before any search with the folder's stored listing; the first search replays that listing and reads the changed file afresh", async function () {
    this.timeout(90_000);
    assert.strictEqual(fs.readFileSync(kept(), 'utf8'), 'warm-8b1f after the reopen\n', 'kept.txt was changed between the windows');
    const extension = vscode.extensions.getExtension<GrepToolsApi>('grep-tools.vscode-grep-tools');
    assert.ok(extension);
    await waitUntil(
      () => extension.isActive,
      () => 'the extension activated by itself (onStartupFinished)',
    );
    const api = extension.exports;
    // (opened a slice at a time after activation)
    await waitUntil(
      () => api.index.loaded !== undefined,
      () => `the stored index was loaded (phase ${api.index.phase})`,
    );
    const loaded = api.index.loaded!;
    assert.ok(loaded.files > 0, `the stored index was loaded (${JSON.stringify(loaded)})`);

    // No search has been made in this window: the refresh runs by itself.
    await waitUntil(
      () => loaded.fresh !== undefined,
      () => `the first refresh ended by itself (phase ${api.index.phase})`,
    );
    assert.ok(loaded.fresh! > 0 && loaded.fresh! < loaded.files, `${loaded.fresh} of ${loaded.files} stored files were fresh`);
    assert.ok((api.index.last?.read ?? 0) >= 1, 'the changed file was read again by the refresh');
    const { listed, replayed, restored } = api.listings.counts;
    assert.ok(restored >= 1, `the refresh took the listing the first window stored (${JSON.stringify(api.listings.counts)})`);

    assert.deepStrictEqual(await files('warm-8b1f after'), [kept()], 'the changed file is found with its new text');
    assert.strictEqual(api.listings.counts.listed, listed, 'the first search listed nothing');
    assert.ok(api.listings.counts.replayed > replayed, 'the first search replayed the resident listing');
    assert.ok(api.index.lastUse && api.index.lastUse.settled > 0, `the index settled files for the first search (${JSON.stringify(api.index.lastUse)})`);
    assert.deepStrictEqual(await files('warm-8b1f before'), [], 'its old text is not found');
  });
});
