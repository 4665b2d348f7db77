import * as assert from 'assert';
import * as path from 'path';
import { folderPath, invokeError, invokeJson, type GlobAnswer } from '../helpers';

const abs = (relative: string) => path.join(folderPath(0), relative);

describe('glob in a single-folder workspace', () => {
  it('** finds files at any depth, sorted by path', async () => {
    const answer = await invokeJson<GlobAnswer>('glob', { pattern: '**/*.ts' });
    assert.deepStrictEqual(answer.files, [abs('src/app.ts'), abs('src/util/strings.ts')]);
    assert.strictEqual(answer.total, 2);
    assert.strictEqual(answer.mode, 'glob');
    assert.strictEqual(answer.base_path, undefined, 'the workspace folder: the default, not repeated');
    assert.strictEqual((await invokeJson<GlobAnswer>('glob', { pattern: '*.ts', path: 'src' })).base_path, abs('src'));
  });

  it('braces, path and top-level-only patterns', async () => {
    const braces = await invokeJson<GlobAnswer>('glob', { pattern: '**/*.{py,md}' });
    assert.deepStrictEqual(braces.files, [abs('README.md'), abs('docs/notes.md'), abs('src/auth/client.py')]);
    const scoped = await invokeJson<GlobAnswer>('glob', { pattern: '*.ts', path: 'src' });
    assert.deepStrictEqual(scoped.files, [abs('src/app.ts')]);
    const top = await invokeJson<GlobAnswer>('glob', { pattern: '*.md' });
    assert.deepStrictEqual(top.files, [abs('README.md')]);
  });

  it('an empty result explains itself and suggests the recursive form with its count', async () => {
    const answer = await invokeJson<GlobAnswer>('glob', { pattern: '*.py' });
    assert.deepStrictEqual(answer.files, []);
    assert.deepStrictEqual(answer.notes, ['"*.py" matches only directly in the base directory and found nothing there; "**/*.py" finds 1 files at any depth.']);
  });

  it('never lists denied files or excluded folders', async () => {
    const answer = await invokeJson<GlobAnswer>('glob', { pattern: '**/*' });
    const listed = answer.files.map((file) => path.relative(folderPath(0), file));
    assert.deepStrictEqual(listed, ['README.md', 'data.bin', 'docs/notes.md', 'src/app.ts', 'src/auth/client.py', 'src/util/strings.ts']);
  });

  it('rejects bad input with a message naming the field', async () => {
    assert.match(await invokeError('glob', { pattern: '*.ts', max_results: 0 }), /"max_results" must be an integer >= 1, got number 0/);
    assert.match(await invokeError('glob', {}), /"pattern" is required/);
  });
});
