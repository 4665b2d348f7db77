// The README as VS Code renders it: its first screen in a Markdown preview, with the pictures loaded.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workbenchUrl } from '../../scripts/lib/host.mjs';
import { runCommand, ui } from './harness.mjs';

describe('README', () => {
  it('renders its first screen with the pictures the tests took', async () => {
    // A copy of the README and its pictures opened as a folder of its own, in a second window.
    const folder = mkdtempSync(join(tmpdir(), 'grep-tools-ui-readme-'));
    cpSync(join(ui.repo, 'README.md'), join(folder, 'README.md'));
    cpSync(join(ui.repo, 'docs', 'images'), join(folder, 'docs', 'images'), { recursive: true });
    const page = await ui.page.context().newPage();
    try {
      await page.goto(workbenchUrl(ui.server, { workspace: folder }));
      await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Control+p');
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await input.fill('README.md');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'README.md' }).first().waitFor();
      await input.press('Enter');
      await page.locator('.monaco-workbench .editor-group-container .tab.active[data-resource-name="README.md"]').waitFor();
      // The built-in Markdown extension's commands are listed once this window's extension host has
      // registered them: until then the palette is closed and opened again (as the harness's runCommand does).
      await runCommand('Markdown: Open Preview', { page, within: 90_000 });

      const preview = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await preview.locator('h1', { hasText: 'Grep & Glob Tools' }).waitFor({ timeout: 30_000 });
      const images = preview.locator('img');
      assert.equal(await images.count(), 2);
      for (let i = 0; i < 2; i++) {
        const image = images.nth(i);
        await image.waitFor();
        // Loaded: the picture has its pixels (a broken link has none).
        await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await image.elementHandle());
      }
      assert.deepEqual(await images.evaluateAll((els) => els.map((el) => el.getAttribute('src').split('/').pop())), [
        'search-results.png',
        'chat-outside-confirmation.png',
      ]);
      await preview.locator('h2', { hasText: 'Features' }).waitFor();
      await page.screenshot({ path: join(ui.artifacts, 'readme-1-markdown-preview.png') });
    } finally {
      await page.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
