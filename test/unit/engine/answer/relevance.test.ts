/**
 * Which matching files a cut page names first (docs/tools.md, "A cut page names what it hides"): the file
 * named after a word of the pattern, then source, then tests, type declarations, minified and source map
 * files; within a tier more matching lines first; ties in their first order.
 */
import * as assert from 'assert';
import { rankFiles } from '../../../../src/engine/answer/relevance';

const file = (path: string, count: number) => ({ file: path, count });

describe('answer: the files a cut page names first', () => {
  it('the file named after a word of the pattern, then source, then tests, declarations and generated files', () => {
    const files = [
      file('/ws/test/errors.test.js', 9),
      file('/ws/lib/util.js', 2),
      file('/ws/types.d.ts', 40),
      file('/ws/dist/bundle.min.js', 50),
      file('/ws/lib/WebpackError.js', 1),
      file('/ws/lib/Compiler.js', 5),
      file('/ws/lib/Compiler.js.map', 7),
      file('/ws/__tests__/compiler.js', 3),
    ];
    assert.deepStrictEqual(
      rankFiles(files, 'new WebpackError\\(').map((entry) => entry.file),
      [
        '/ws/lib/WebpackError.js',
        '/ws/lib/Compiler.js',
        '/ws/lib/util.js',
        '/ws/dist/bundle.min.js',
        '/ws/types.d.ts',
        '/ws/test/errors.test.js',
        '/ws/lib/Compiler.js.map',
        '/ws/__tests__/compiler.js',
      ],
    );
  });

  it('keeps the first order between files of one tier with as many lines, and leaves its input as it was', () => {
    const files = [file('/ws/b.js', 2), file('/ws/a.js', 2), file('/ws/c.js', 3)];
    const before = files.map((entry) => entry.file);
    assert.deepStrictEqual(
      rankFiles(files, 'x').map((entry) => entry.file),
      ['/ws/c.js', '/ws/b.js', '/ws/a.js'],
    );
    assert.deepStrictEqual(
      files.map((entry) => entry.file),
      before,
    );
  });
});
