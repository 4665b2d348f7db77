// The extension's settings as a person finds them in the Settings editor: titled groups, Markdown descriptions.
import assert from 'node:assert/strict';
import { resetWorkbench, runCommand, screenshot, ui } from './harness.mjs';

const GROUPS = ['Results', 'Files Searched', 'Security'];

/**
 * Types into the open Settings editor's search box, an editor whose input element has no size (and whose
 * accessible name is "Search settings" only while it is empty): focused through the element found first.
 */
let searchBox;
async function searchSettings(text) {
  if (!searchBox) {
    const search = ui.page.locator('.settings-editor .settings-header [aria-label="Search settings"]').first();
    await search.waitFor({ state: 'attached' });
    searchBox = await search.elementHandle();
  }
  await searchBox.focus();
  await ui.page.keyboard.press('Control+a');
  await ui.page.keyboard.insertText(text);
}

const tocEntry = (title) => ui.page.locator('.settings-editor .settings-toc-container .monaco-list-row', { hasText: title }).first();

/** Opens the extension's entry in the Settings editor's table of contents (it may start collapsed). */
async function openToc() {
  for (const title of ['Extensions', 'Grep & Glob Tools']) {
    const entry = tocEntry(title);
    await entry.waitFor();
    // A click while the table of contents is still being rendered can be lost: click again until it is expanded.
    const expanded = ui.page.locator(`.settings-editor .settings-toc-container .monaco-list-row[aria-expanded="true"]`, { hasText: title }).first();
    const deadline = Date.now() + 20_000;
    while (!(await expanded.isVisible())) {
      assert.ok(Date.now() < deadline, `the table of contents entry "${title}" expands`);
      if ((await entry.getAttribute('aria-expanded')) === 'false') await entry.locator('.monaco-tl-twistie').click();
      await expanded.waitFor({ timeout: 2000 }).catch(() => {});
    }
  }
}

describe('Settings editor', () => {
  beforeEach(resetWorkbench);

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(`FAILED ${this.currentTest.title.slice(0, 60)}`);
  });

  it('shows the settings in titled groups, and "denied" finds the Security group', async () => {
    await runCommand('Preferences: Open User Settings');
    searchBox = undefined;
    await searchSettings('@ext:grep-tools.vscode-grep-tools');
    // Markdown descriptions: code spans and bold text.
    await ui.page
      .locator('.settings-editor .setting-item-contents', { hasText: 'Upper bound on max_results' })
      .locator('code', { hasText: 'max_results' })
      .first()
      .waitFor();
    // The table of contents lists the extension with its groups, in their order.
    await openToc();
    for (const title of GROUPS) await tocEntry(title).waitFor();
    const toc = await ui.page.locator('.settings-editor .settings-toc-container .monaco-list-row').allInnerTexts();
    const at = (title) => toc.findIndex((entry) => entry.startsWith(title));
    assert.ok(at('Grep & Glob Tools') < at('Results') && at('Results') < at('Files Searched') && at('Files Searched') < at('Security'), toc.join(' | '));
    await screenshot('settings-1-groups');

    await searchSettings('grepTools denied');
    await openToc();
    await tocEntry('Security').waitFor();
    await tocEntry('Results').waitFor({ state: 'detached' });
    const denied = ui.page.locator('.settings-editor .setting-item-contents', { hasText: 'never read or listed' }).first();
    await denied.waitFor();
    // The Markdown description links to the threat model.
    await denied.locator('a', { hasText: 'Threat model and deny list' }).waitFor();
    await screenshot('settings-2-denied-in-its-group');
  });
});
