import * as assert from 'assert';
import * as path from 'path';
import { folderPath, invokeJson, invokeText, type GlobAnswer, type GrepAnswer } from '../helpers';

const alpha = (relative: string) => path.join(folderPath(0), relative);
const beta = (relative: string) => path.join(folderPath(1), relative);

describe('a multi-root workspace', () => {
  it("grep searches every folder in folder order, with each folder's own files.exclude", async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'Shared helper' });
    assert.strictEqual(answer.base_path, undefined, 'all folders: the default, not repeated');
    assert.deepStrictEqual(answer.files, [
      { file: alpha('lib/math.js'), matches: [{ line: 1, text: '// Shared helper used by both folders' }] },
      { file: beta('src/main.js'), matches: [{ line: 3, text: '// Shared helper call' }] },
    ]);
  });

  it('a leading folder name in path selects that folder', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'add', path: 'beta/src', output_mode: 'count' });
    assert.strictEqual(answer.base_path, beta('src'));
    assert.deepStrictEqual(answer.files, [{ file: beta('src/main.js'), count: 2 }]);
  });

  it('names the paths below the directory both folders share, each starting with its folder', async () => {
    const text = await invokeText('glob', { pattern: '**/*.js' });
    const parent = path.dirname(folderPath(0));
    assert.strictEqual(path.dirname(folderPath(1)), parent);
    assert.strictEqual(text, `root: ${parent}\n\n${path.join('alpha', 'lib', 'math.js')}\n${path.join('beta', 'src', 'main.js')}`);
  });

  it('glob lists files of both folders in folder order', async () => {
    const answer = await invokeJson<GlobAnswer>('glob', { pattern: '**/*.js' });
    assert.deepStrictEqual(answer.files, [alpha('lib/math.js'), beta('src/main.js')]);
  });
});
