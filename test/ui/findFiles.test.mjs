// `Grep Tools: Find Files by Glob…` in a real workbench, driven as a person would drive it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { activeEditor, clickTitleButton, press, resetWorkbench, row, rows, runCommand, screenshot, type, ui, waitForLog, waitForTitle } from './harness.mjs';

const COMMAND = 'Grep Tools: Find Files by Glob…';

async function labels() {
  return rows().locator('.label-name').allInnerTexts();
}

describe('Find Files by Glob', () => {
  beforeEach(resetWorkbench);

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(`FAILED ${this.currentTest.title.slice(0, 60)}`);
  });

  it('lists the files a glob matches with their file-type icons, and opens the picked one', async () => {
    await runCommand(COMMAND);
    await waitForTitle('Find Files by Glob');
    await type('**/*.{ts,py,md}');
    await press('Enter');
    await waitForTitle('"**/*.{ts,py,md}": 5 files');
    assert.deepEqual(await labels(), ['README.md', 'notes.md', 'app.ts', 'client.py', 'strings.ts']);
    // Icons come from the file icon theme, by file type.
    const icon = (name) => row(name).first().locator('.monaco-icon-label.file-icon').getAttribute('class');
    assert.match(await icon('app.ts'), /\bts-ext-file-icon\b/);
    assert.match(await icon('client.py'), /\bpy-ext-file-icon\b/);
    assert.match(await icon('README.md'), /\bmd-ext-file-icon\b/);
    await screenshot('files-1-results');

    await row('strings.ts').first().click();
    assert.equal((await activeEditor()).file, 'strings.ts');
    await screenshot('files-2-opened');
    await waitForLog(/command glob done: base \[".*"\], 5 files found \(5 shown\), skipped .*, \d+ ms/);
  });

  it('never lists denied files, and explains a glob that finds nothing with the recursive form to try', async () => {
    await runCommand(COMMAND);
    await waitForTitle('Find Files by Glob');
    await type('**/*');
    await press('Enter');
    await waitForTitle(/: \d+ files/);
    const listed = await labels();
    assert.ok(listed.includes('app.ts') && listed.includes('data.bin'), listed.join(', '));
    assert.ok(!listed.includes('.env') && !listed.includes('token.txt'), listed.join(', '));

    await clickTitleButton('Back');
    await waitForTitle('Find Files by Glob');
    await type('*.ts');
    await press('Enter');
    await waitForTitle('"*.ts": 0 files');
    await row('"*.ts" matches only directly in the base directory and found nothing there; "**/*.ts" finds 2 files at any depth.').waitFor();
    await screenshot('files-3-nothing-found-notes');
    await row('Find **/*.ts instead').click();
    await waitForTitle('"**/*.ts": 2 files');
    assert.deepEqual(await labels(), ['app.ts', 'strings.ts']);
  });

  it('asks before listing a folder outside the workspace', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'grep-tools-ui-outside-'));
    try {
      mkdirSync(join(outside, 'docs'));
      writeFileSync(join(outside, 'docs', 'guide.md'), '# Guide\n');
      writeFileSync(join(outside, '.env'), 'SECRET=1\n');
      await runCommand(COMMAND);
      await waitForTitle('Find Files by Glob');
      await type(`${outside}/**/*`);
      await press('Enter');
      const dialog = ui.page.locator('.monaco-dialog-box');
      await dialog.filter({ hasText: 'Search outside the workspace?' }).filter({ hasText: outside }).waitFor();
      await dialog.locator('.monaco-button', { hasText: 'Search' }).click();
      await waitForTitle(/: 1 file \(/);
      assert.deepEqual(await labels(), ['guide.md']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
