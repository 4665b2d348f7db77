// `Grep Tools: Search Text in Workspace…` in a real workbench, driven as a person would drive it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  activeEditor,
  clipboardText,
  labelHighlights,
  notification,
  openNotifications,
  press,
  resetWorkbench,
  row,
  rows,
  runCommand,
  screenshot,
  setInclude,
  setToggle,
  clickTitleButton,
  input,
  toggle,
  type,
  ui,
  waitForLog,
  waitForTitle,
  widgetScreenshot,
} from './harness.mjs';

const COMMAND = 'Grep Tools: Search Text in Workspace…';

/** Opens the command and sets its options; the pattern input is focused afterwards. */
async function openSearch({ matchCase = false, wholeWord = false, regex = false, include = '' } = {}) {
  await runCommand(COMMAND);
  await waitForTitle('Search Text in Workspace');
  await setToggle('Match Case', matchCase);
  await setToggle('Match Whole Word', wholeWord);
  await setToggle('Use Regular Expression', regex);
  await setInclude(include);
}

/** The descriptions of the result rows ("path:line"); note rows have none. */
async function descriptions() {
  return (await rows().locator('.label-description').allInnerTexts()).filter(Boolean);
}

/** The descriptions once the search has named the definitions its lines are in ("path:line · Class > m()"). */
async function describedDescriptions() {
  await rows().locator('.label-description').filter({ hasText: ' · ' }).first().waitFor();
  return descriptions();
}

describe('Search Text in Workspace', () => {
  beforeEach(resetWorkbench);

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(`FAILED ${this.currentTest.title.slice(0, 60)}`);
  });

  it('runs from the Command Palette, highlights every match, narrows with Match Case, and opens the picked match selected', async () => {
    await openSearch();
    await type('todo');
    await press('Enter');
    await waitForTitle('"todo": 4 results in 4 files');
    // A line in a definition is described with it (the search's outline of the page, once it ends).
    assert.deepEqual(await describedDescriptions(), ['docs/notes.md:4', 'src/app.ts:3', 'src/auth/client.py:16 · Client > logout()', 'src/util/strings.ts:5']);
    assert.deepEqual(await labelHighlights().allInnerTexts(), ['TODO', 'TODO', 'TODO', 'todo']);
    assert.equal(await rows().nth(2).locator('.label-name').innerText(), '# TODO: revoke the session token');
    await screenshot('search-1-results-ignoring-case');

    // The copy button gives exactly the JSON the grep tool would give a model for this search.
    await clickTitleButton('Copy Results as JSON');
    await ui.page.locator('[id="status.bar.message"], .statusbar-item', { hasText: 'Copied the JSON answer' }).first().waitFor();
    const copied = JSON.parse(await clipboardText());
    assert.equal(copied.pattern, 'todo');
    // A whole answer: its 4 matching lines are all there ("42: text"), with no count repeating them.
    // files maps each path to its lines, a line in a definition after a row naming it.
    assert.equal(
      Object.values(copied.files).reduce((n, lines) => n + lines.filter((line) => /^\d/.test(line)).length, 0),
      4,
    );
    assert.deepEqual(copied.files[join(ui.workspace, 'src/auth/client.py')], ['Client > logout()', '16:         # TODO: revoke the session token']);
    assert.equal(copied.total_matches, undefined);
    assert.deepEqual(
      Object.keys(copied.files),
      ['docs/notes.md', 'src/app.ts', 'src/auth/client.py', 'src/util/strings.ts'].map((p) => join(ui.workspace, p)),
    );

    // Back to the pattern, Match Case on: only the lower-case line is left.
    await clickTitleButton('Back');
    await waitForTitle('Search Text in Workspace');
    assert.equal(await ui.page.locator('.quick-input-widget .quick-input-box input').inputValue(), 'todo');
    await setToggle('Match Case', true);
    await press('Enter');
    await waitForTitle('"todo": 1 result in 1 file');
    assert.deepEqual(await descriptions(), ['src/util/strings.ts:5']);
    assert.deepEqual(await labelHighlights().allInnerTexts(), ['todo']);
    await screenshot('search-2-results-match-case');

    await press('Enter');
    const editor = await activeEditor();
    assert.equal(editor.file, 'strings.ts');
    await ui.page.locator('[id="status.editor.selection"]', { hasText: 'Ln 5, Col 8 (4 selected)' }).waitFor();
    await ui.page.locator('.monaco-editor .selected-text').first().waitFor();
    await screenshot('search-3-opened-with-match-selected');

    const started = await waitForLog(
      /command grep \{"pattern":"todo","max_results":1000\}|command grep \{"pattern":"todo","fixed_strings":true,"max_results":1000\}/,
    );
    assert.match(started, /"fixed_strings":true/);
    await waitForLog(
      /command grep done: base \[".*"\], 5 files searched, 1 matched, 1 matching lines \(1 shown\), skipped \{"binary":1,.*"denied":\d+.*\}, first result after \d+ ms, \d+ ms/,
    );
  });

  it('shows results while a long search runs, asks before searching outside the workspace, and Cancel stops the search', async function () {
    // A search that lasts: each of the 2,000 files has a line the regex matches at once and a line it takes
    // tens of milliseconds to reject (exponential backtracking), so the whole search needs far longer than
    // the test takes to cancel it. Had it ended (or hit the time limit), the title would not say "cancelled".
    const outside = mkdtempSync(join(tmpdir(), 'grep-tools-ui-long-'));
    try {
      for (let i = 0; i < 2000; i++) writeFileSync(join(outside, `f${String(i).padStart(4, '0')}.txt`), `aaaa\n${'a'.repeat(30)}!\n`);
      await openSearch({ matchCase: true, regex: true, include: outside });
      await type('^(a|aa)+$');

      // Declining the modal runs nothing.
      await press('Enter');
      const dialog = ui.page.locator('.monaco-dialog-box');
      await dialog.filter({ hasText: 'Search outside the workspace?' }).filter({ hasText: outside }).waitFor();
      await screenshot('search-4-outside-the-workspace-asks');
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await waitForLog(/not run, searching outside the workspace \(.*grep-tools-ui-long-.*\) was declined/);
      await waitForTitle('Search Text in Workspace: files to include');

      // Confirming it searches; results appear while the search is still running.
      await press('Enter');
      await dialog.locator('.monaco-button', { hasText: 'Search' }).click();
      await row('f0000.txt:1').waitFor();
      assert.match(await waitForTitle('Searching for'), /^Searching for "\^\(a\|aa\)\+\$"…/);
      // A regular expression is not text the quick pick can highlight: the line is shown as it is.
      assert.equal(await row('f0000.txt:1').locator('.label-name').innerText(), 'aaaa');

      await openNotifications();
      const progress = notification('Search for "^(a|aa)+$"');
      await progress.waitFor();
      await screenshot('search-5-results-while-searching-with-progress');
      await progress.locator('.monaco-button', { hasText: 'Cancel' }).click();

      const cancelled = await waitForTitle('cancelled', 15_000);
      const [, found] = /cancelled: (\d+) results? in \d+ files? so far/.exec(cancelled) ?? [];
      assert.ok(Number(found) >= 1 && Number(found) < 2000, cancelled);
      await progress.waitFor({ state: 'detached' });
      await screenshot('search-6-cancelled');
      await waitForLog(/command grep cancelled after \d+ ms: \d+ matching lines? in \d+ files? so far/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('keeps the search text in the results input with no stray character; typing there and Alt+C/W/R search again', async () => {
    await openSearch();
    await type('name');
    await press('Enter');
    await waitForTitle('"name": 10 results in 3 files');
    // The input holds exactly what was searched for, as VS Code's Quick Search does.
    assert.equal(await input().inputValue(), 'name');
    assert.deepEqual([...new Set(await labelHighlights().allInnerTexts())], ['name']);
    await widgetScreenshot('readme-search-results');
    await screenshot('search-13-results-keep-the-search-text');

    // Alt+W: whole words only ("names" and "username" drop out); its toggle shows it is on.
    await press('Alt+w');
    await waitForTitle('"name": 5 results in 2 files');
    await toggle('Match Whole Word', '[aria-checked="true"]').waitFor();

    // Typing in the results searches for what is typed, with the same options.
    await type('nam.');
    await waitForTitle('"nam.": 0 results in 0 files');
    await press('Alt+r');
    await waitForTitle('"nam.": 5 results in 2 files');
    await toggle('Use Regular Expression', '[aria-checked="true"]').waitFor();
    assert.equal(await input().inputValue(), 'nam.');
    await screenshot('search-14-alt-w-and-alt-r-toggled');

    await type('todo');
    await waitForTitle('"todo": 4 results in 4 files');
    await press('Alt+c');
    await waitForTitle('"todo": 1 result in 1 file');
    await toggle('Match Case', '[aria-checked="true"]').waitFor();
    assert.deepEqual(await descriptions(), ['src/util/strings.ts:5']);
    assert.deepEqual(await labelHighlights().allInnerTexts(), ['todo']);
    await widgetScreenshot('search-15-toggles-on');

    // Alt+C again in the pattern input flips it back; the toggles keep their state.
    await clickTitleButton('Back');
    await waitForTitle('Search Text in Workspace');
    await press('Alt+c');
    await toggle('Match Case', '[aria-checked="false"]').waitFor();
    await toggle('Use Regular Expression', '[aria-checked="true"]').waitFor();
    await waitForLog(/command grep \{"pattern":"todo","word":true,"max_results":1000\}/);
  });

  it('reports a bad regular expression clearly, while typing and as an error message', async () => {
    await openSearch({ regex: true });
    await type('(unclosed');
    await row('Invalid regular expression "(unclosed": Unterminated group').waitFor();
    await screenshot('search-7-bad-regex-while-typing');
    await press('Enter');
    await openNotifications();
    const message = notification('Invalid regular expression');
    await message.waitFor();
    const text = await message.locator('.notification-list-item-message').innerText();
    assert.equal(
      text,
      'Invalid regular expression "(unclosed": Unterminated group. Escape special characters with a backslash, or turn off Use Regular Expression to search for the text as typed.',
    );
    await screenshot('search-8-bad-regex-message');
  });

  it('never shows denied files, and an empty result says what was searched and skipped, as the answer to the model does', async () => {
    // fixture-secret-token is only in .env and secrets/token.txt, both denied.
    await openSearch();
    await type('fixture-secret-token');
    await press('Enter');
    await waitForTitle('"fixture-secret-token": 0 results in 0 files');
    await row('No matches in 5 files searched').waitFor();
    await clickTitleButton('Copy Results as JSON');
    await ui.page.locator('.statusbar-item', { hasText: 'Copied the JSON answer' }).first().waitFor();
    const copied = JSON.parse(await clipboardText());
    // The answer's fields say what the row says in words: no file, 5 searched, the denied ones skipped.
    assert.deepEqual(copied.files, {});
    assert.equal(copied.files_searched, 5);
    assert.ok(copied.skipped.denied >= 1, JSON.stringify(copied.skipped));
    assert.equal(copied.notes, undefined);
    const [said] = await rows().locator('.label-name').allInnerTexts();
    assert.match(said, new RegExp(`^No matches in 5 files searched; skipped .*${copied.skipped.denied} denied by policy`));
    await screenshot('search-9-empty-result-notes');
  });

  it('applies a setting changed in the Settings editor to the next search, without a reload', async () => {
    await openSearch(); // activates the extension
    await press('Escape');
    const setMaxResultsCap = async (value) => {
      await runCommand('Preferences: Open User Settings');
      // The search box is an editor whose input element has no size: focus it, then type.
      const search = ui.page.locator('.settings-editor .settings-header [aria-label="Search settings"]').first();
      await search.waitFor({ state: 'attached' });
      await search.focus();
      await ui.page.keyboard.insertText('grepTools.maxResultsCap');
      const setting = ui.page.locator('.settings-editor .setting-item-contents', { hasText: 'Upper bound on max_results' });
      await setting.waitFor();
      await setting.locator('input').fill(String(value));
      await waitForLog(new RegExp(`settings changed; the next search uses \\{.*"maxResultsCap":${value}[,}]`));
    };
    await setMaxResultsCap(2);
    await screenshot('search-11-setting-in-the-settings-editor');
    try {
      await openSearch();
      await type('todo');
      await press('Enter');
      await waitForTitle('"todo": 4 results in 4 files, first 2 shown');
      assert.deepEqual(await descriptions(), ['docs/notes.md:4', 'src/app.ts:3']);
      await row('Showing the first 2 of 4 matching lines (grepTools.maxResultsCap). Narrow the search with Files to Include.').waitFor();
      await screenshot('search-12-setting-applied-to-the-next-search');
    } finally {
      await resetWorkbench();
      await setMaxResultsCap(1000);
    }
  });

  it('narrows to the files to include, and keeps the search in the recent history', async () => {
    await openSearch({ include: '*.py' });
    await type('TODO');
    await press('Enter');
    await waitForTitle('"TODO": 1 result in 1 file');
    assert.deepEqual(await describedDescriptions(), ['src/auth/client.py:16 · Client > logout()']);
    await press('Escape');

    await runCommand(COMMAND);
    await waitForTitle('Search Text in Workspace');
    const recent = row('TODO').filter({ hasText: 'in *.py' }).first();
    await recent.waitFor();
    await screenshot('search-10-recent-searches');
    await recent.click();
    await waitForTitle('"TODO": 1 result in 1 file');
    assert.deepEqual(await describedDescriptions(), ['src/auth/client.py:16 · Client > logout()']);
  });
});
