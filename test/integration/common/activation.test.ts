/**
 * Runs first in every window (the common suite sorts first): a workspace with no index stored, as in a
 * fresh profile. The extension activates by itself once the window has started, and its index stays
 * idle (nothing listed, watched or read for it) until the first search.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import { waitUntil } from '../helpers';

describe('activation in a workspace with no stored index', () => {
  it('the extension activates by itself after startup; the index stays idle until the first search wakes it', async function () {
    this.timeout(60_000);
    const extension = vscode.extensions.getExtension<GrepToolsApi>('grep-tools.vscode-grep-tools');
    assert.ok(extension);
    await waitUntil(
      () => extension.isActive,
      () => 'the extension activated by itself (onStartupFinished)',
      50_000,
    );
    const index = extension.exports.index;
    assert.strictEqual(index.loaded, undefined, 'a fresh profile has no stored index');
    assert.strictEqual(index.phase, 'idle', 'no build is scheduled before a search');
    await vscode.lm.invokeTool('glob', { input: { pattern: '*' }, toolInvocationToken: undefined });
    assert.notStrictEqual(index.phase, 'idle', 'the first search woke the index');
  });
});
