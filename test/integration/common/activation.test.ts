/**
 * Runs first in every window (the common suite sorts first): a workspace with no index stored, as in a
 * fresh profile. The extension activates by itself once the window has started and lists the workspace
 * (grepTools.listWorkspaceOnOpen, on by default; the multi-root workspace turns it off, and a virtual
 * folder is not listed so), so the first search replays that listing; its index stays idle (nothing read
 * or watched for it) until the first search.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import { waitUntil } from '../helpers';

describe('activation in a workspace with no stored index', () => {
  it('the extension activates by itself after startup and lists the workspace (unless turned off); the first search replays that listing; the index stays idle until the first search wakes it', async function () {
    this.timeout(60_000);
    const extension = vscode.extensions.getExtension<GrepToolsApi>('grep-tools.vscode-grep-tools');
    assert.ok(extension);
    await waitUntil(
      () => extension.isActive,
      () => 'the extension activated by itself (onStartupFinished)',
      50_000,
    );
    const { index, listings } = extension.exports;
    assert.strictEqual(index.loaded, undefined, 'a fresh profile has no stored index');
    assert.strictEqual(index.phase, 'idle', 'no build is scheduled before a search');
    const folders = vscode.workspace.workspaceFolders ?? [];
    const listedOnOpen =
      vscode.workspace.getConfiguration('grepTools').get<unknown>('listWorkspaceOnOpen') !== false && folders.every((folder) => folder.uri.scheme === 'file');
    await waitUntil(
      () => index.openListing.phase !== 'listing',
      () => `the listing made as the window opened ended (${index.openListing.phase})`,
    );
    const before = { ...listings.counts };
    if (listedOnOpen) {
      assert.strictEqual(index.openListing.phase, 'listed', 'the workspace was listed as the window opened');
      assert.ok((index.openListing.files ?? 0) > 0, `the listing holds the workspace's files (${String(index.openListing.files)})`);
      assert.strictEqual(before.listed, folders.length, 'each folder listed once, as a search lists it');
    } else {
      assert.strictEqual(index.openListing.phase, 'off', 'nothing was listed as the window opened');
      assert.strictEqual(before.listed + before.replayed, 0, 'nothing listed before the first search');
    }
    // (a search with results: an empty one's checks list with include_ignored, a listing of their own)
    await vscode.lm.invokeTool('glob', { input: { pattern: '**' }, toolInvocationToken: undefined });
    assert.notStrictEqual(index.phase, 'idle', 'the first search woke the index');
    if (listedOnOpen) {
      assert.strictEqual(listings.counts.listed, before.listed, 'the first search listed nothing of its own');
      assert.ok(listings.counts.replayed > before.replayed, 'the first search replayed the listing made as the window opened');
    }
  });
});
