/**
 * Run last in the single-folder suite, only where the runner reopens the folder next (code-server):
 * leaves reopen-tmp/kept.txt indexed in the extension's storage for the reopened window
 * (test/integration/reopen/), which changes it and removes the folder, and the folder's listing stored
 * after its last change, which the reopened window replays.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import { RECENT_WRITE_MS } from '../../../src/engine/index/builder';
import { loadIndex } from '../../../src/engine/index/store';
import { folderPath, invokeJson, waitUntil, type GrepAnswer } from '../helpers';

describe('before the single folder is reopened', () => {
  it("the index in the extension's storage holds reopen-tmp/kept.txt as text", async function () {
    this.timeout(90_000);
    const extension = vscode.extensions.getExtension<GrepToolsApi>('grep-tools.vscode-grep-tools');
    assert.ok(extension);
    const api = await extension.activate();
    const kept = path.join(folderPath(0), 'reopen-tmp', 'kept.txt');
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.writeFileSync(kept, 'warm-8b1f before the reopen\n');
    const past = Date.now() / 1000 - 60;
    fs.utimesSync(kept, past, past);
    const indexedAsText = () => {
      const stored = api.index.dir === undefined ? undefined : loadIndex(api.index.dir);
      try {
        return stored?.index.entry(kept)?.file.kind === 'text';
      } finally {
        stored?.close();
      }
    };
    await waitUntil(indexedAsText, () => `a build stored kept.txt as text (phase ${api.index.phase})`, 60_000, 200);
  });
});

describe('before the single folder is reopened, its listing', () => {
  /** The latest change time of any directory in the folder (ctime: a file created, removed or renamed in it). */
  function newestDirectoryChange(dir: string): number {
    let newest = fs.statSync(dir).ctimeMs;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) newest = Math.max(newest, newestDirectoryChange(path.join(dir, entry.name)));
    }
    return newest;
  }

  it("is stored in the extension's storage once made after the folder's last change, for the reopened window to replay", async function () {
    this.timeout(90_000);
    const extension = vscode.extensions.getExtension<GrepToolsApi>('grep-tools.vscode-grep-tools');
    assert.ok(extension);
    const api = await extension.activate();
    // A listing begun within RECENT_WRITE_MS of a directory's change does not rely on its times: the next window would list afresh.
    const quietSince = newestDirectoryChange(folderPath(0)) + RECENT_WRITE_MS;
    await waitUntil(
      () => Date.now() > quietSince,
      () => 'the folder has not changed for a while',
      10_000,
      50,
    );
    api.listings.invalidate();
    const { listed, stored } = api.listings.counts;
    await invokeJson<GrepAnswer>('grep', { pattern: 'warm-8b1f', fixed_strings: true, output_mode: 'files_with_matches' });
    assert.ok(api.listings.counts.listed > listed, 'the grep listed the folder');
    await waitUntil(
      () => api.listings.counts.stored > stored,
      () => `the listing was stored (${JSON.stringify(api.listings.counts)})`,
      60_000,
      100,
    );
  });
});
