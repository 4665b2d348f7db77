// The content index's progress in the status bar, in a window of its own on a folder of 12,000 files:
// shown while the index builds ("Indexing n/total"), gone once it is built.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workbenchUrl } from '../../scripts/lib/host.mjs';
import { logText, runCommand, ui } from './harness.mjs';

const FILES = 12_000;

describe('content index status bar', () => {
  it("shows the build's progress while the index builds, and hides it once built", async function () {
    this.timeout(240_000);
    const folder = mkdtempSync(join(tmpdir(), 'grep-tools-ui-index-'));
    const text = 'export const value = 1;\n'.repeat(40);
    for (let i = 0; i < FILES; i++) {
      const dir = join(folder, `d${i % 60}`);
      if (i < 60) mkdirSync(dir);
      writeFileSync(join(dir, `f${i}.ts`), `${text}// file ${i}\n`);
    }
    const page = await ui.page.context().newPage();
    try {
      await page.goto(workbenchUrl(ui.server, { workspace: folder, extensionPath: ui.repo }));
      await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: 60_000 });
      // The index of a workspace with none stored builds from its first search: a glob from the Command Palette, then closed.
      await runCommand('Grep Tools: Find Files by Glob', { page, within: 90_000 });
      const quickInput = page.locator('.quick-input-widget .quick-input-box input');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Find Files by Glob' }).waitFor({ timeout: 30_000 });
      await quickInput.fill('d0/*.ts');
      await quickInput.press('Enter');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: /"d0\/\*\.ts": 200 files/ }).waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      const item = page.locator('.statusbar-item', { hasText: /Indexing [\d,]+\/[\d,]+/ });
      await item.waitFor({ timeout: 90_000 });
      const shown = (await item.innerText()).trim();
      await page.screenshot({ path: join(ui.artifacts, 'index-1-status-bar-building.png') });
      const [, done, total] = /Indexing ([\d,]+)\/([\d,]+)/.exec(shown);
      const count = (value) => Number(value.replaceAll(',', ''));
      assert.ok(count(total) >= FILES, `the total counts every file: ${shown}`);
      assert.ok(count(done) <= count(total), shown);
      await item.waitFor({ state: 'hidden', timeout: 120_000 });
    } catch (error) {
      await page.screenshot({ path: join(ui.artifacts, 'FAILED index status bar.png') });
      console.log(`The Grep Tools log (last lines):\n${logText().split('\n').slice(-30).join('\n')}`);
      throw error;
    } finally {
      await page.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
