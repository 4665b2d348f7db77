import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { folderPath, invokeJson, type GrepAnswer } from '../helpers';

describe('.gitignore in the extension host', () => {
  const dir = () => path.join(folderPath(0), 'gitignore-tmp');
  const file = (relative: string) => path.join(dir(), relative);
  before(() => {
    fs.mkdirSync(path.join(dir(), 'build'), { recursive: true });
    fs.mkdirSync(path.join(dir(), 'sub'), { recursive: true });
    fs.writeFileSync(file('.gitignore'), 'ignored.txt\nbuild/\n*.log\n');
    fs.writeFileSync(file('sub/.gitignore'), '!keep.log\n');
    for (const name of ['kept.txt', 'ignored.txt', 'build/out.txt', 'app.log', 'sub/keep.log', 'sub/ignored.txt']) fs.writeFileSync(file(name), 'token-5a1f\n');
  });
  after(() => fs.rmSync(dir(), { recursive: true, force: true }));

  it('leaves out what nested .gitignore files ignore, as git does', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'token-5a1f', output_mode: 'files_with_matches' });
    assert.deepStrictEqual(answer.files, [file('kept.txt'), file('sub/keep.log')]);
  });

  it('include_ignored searches them too', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'token-5a1f', output_mode: 'files_with_matches', include_ignored: true });
    assert.deepStrictEqual(answer.files, [
      file('app.log'),
      file('build/out.txt'),
      file('ignored.txt'),
      file('kept.txt'),
      file('sub/ignored.txt'),
      file('sub/keep.log'),
    ]);
  });

  it('a search of a folder below applies the .gitignore files above it too', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'token-5a1f', output_mode: 'files_with_matches', path: 'gitignore-tmp/sub' });
    assert.deepStrictEqual(answer.files, [file('sub/keep.log')]);
  });

  it('a .gitignore that files.exclude leaves out of the listing still applies', async () => {
    const files = vscode.workspace.getConfiguration('files');
    await files.update('exclude', { '**/.gitignore': true }, vscode.ConfigurationTarget.Global);
    try {
      const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'token-5a1f', output_mode: 'files_with_matches' });
      assert.deepStrictEqual(answer.files, [file('kept.txt'), file('sub/keep.log')]);
    } finally {
      await files.update('exclude', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
