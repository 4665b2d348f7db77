/**
 * Run last in the single-folder suite, only where the runner reopens the folder next (code-server):
 * leaves reopen-tmp/kept.txt indexed in the extension's storage for the reopened window
 * (test/integration/reopen/), which changes it and removes the folder.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import { loadIndex } from '../../../src/engine/index/store';
import { folderPath, waitUntil } from '../helpers';

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
