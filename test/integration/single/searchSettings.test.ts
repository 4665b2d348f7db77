import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { folderPath, invokeJson, type GlobAnswer, type GrepAnswer } from '../helpers';

/** VS Code's own search settings `search.useIgnoreFiles` and `search.followSymlinks`, read per folder. */
describe('search.useIgnoreFiles and search.followSymlinks', () => {
  const dir = () => path.join(folderPath(0), 'search-settings-tmp');
  const file = (relative: string) => path.join(dir(), relative);
  const setting = (key: string, value: boolean | undefined) =>
    vscode.workspace.getConfiguration('search').update(key, value, vscode.ConfigurationTarget.Global);
  const grepFiles = async () =>
    (await invokeJson<GrepAnswer>('grep', { pattern: 'token-9d3b', output_mode: 'files_with_matches', path: 'search-settings-tmp' })).files;
  const globFiles = async () => (await invokeJson<GlobAnswer>('glob', { pattern: '**/*.txt', path: 'search-settings-tmp' })).files;

  before(() => {
    fs.mkdirSync(file('real'), { recursive: true });
    fs.writeFileSync(file('.gitignore'), 'ignored.txt\n');
    for (const name of ['kept.txt', 'ignored.txt', 'real/inner.txt']) fs.writeFileSync(file(name), 'token-9d3b\n');
    fs.symlinkSync('real', file('linked'));
    fs.symlinkSync('kept.txt', file('link.txt'));
  });
  after(async () => {
    await setting('useIgnoreFiles', undefined);
    await setting('followSymlinks', undefined);
    fs.rmSync(dir(), { recursive: true, force: true });
  });

  it('by default .gitignore applies and symlinks inside the workspace are followed', async () => {
    const expected = [file('kept.txt'), file('link.txt'), file('linked/inner.txt'), file('real/inner.txt')];
    assert.deepStrictEqual(await grepFiles(), expected);
    assert.deepStrictEqual(await globFiles(), expected);
  });

  it('search.followSymlinks false: nothing is reached through a symlink', async () => {
    await setting('followSymlinks', false);
    try {
      const expected = [file('kept.txt'), file('real/inner.txt')];
      assert.deepStrictEqual(await grepFiles(), expected);
      assert.deepStrictEqual(await globFiles(), expected);
    } finally {
      await setting('followSymlinks', undefined);
    }
  });

  it('search.useIgnoreFiles false: .gitignore is not applied', async () => {
    await setting('useIgnoreFiles', false);
    try {
      const expected = [file('ignored.txt'), file('kept.txt'), file('link.txt'), file('linked/inner.txt'), file('real/inner.txt')];
      assert.deepStrictEqual(await grepFiles(), expected);
      assert.deepStrictEqual(await globFiles(), expected);
    } finally {
      await setting('useIgnoreFiles', undefined);
    }
  });
});
