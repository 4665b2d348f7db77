/**
 * Which matching files a cut page names first (docs/tools.md, "A cut page names what it hides"): the file
 * named after a word of the pattern, then source, then tests, type declarations, minified and source map
 * files; within a tier more matching lines first; ties in their first order.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
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
      rankFiles(files, 'new WebpackError\\(', files.length).map((entry) => entry.file),
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
      rankFiles(files, 'x', 3).map((entry) => entry.file),
      ['/ws/c.js', '/ws/b.js', '/ws/a.js'],
    );
    assert.deepStrictEqual(
      files.map((entry) => entry.file),
      before,
    );
  });

  it('gives the first `most` files of the whole order, as sorting them all would (fast-check)', () => {
    const SECONDARY_LIKE = /(^|[/.\\_-])(tests?|specs?|__tests__|__mocks__|fixtures?)([/.\\_-]|$)|\.d\.[cm]?ts$|\.min\.[cm]?js$|\.map$/i;
    const wholeOrder = (files: ReturnType<typeof file>[], pattern: string) => {
      const words = new Set((pattern.match(/[A-Za-z_$][\w$]{2,}/g) ?? []).map((word) => word.toLowerCase()));
      const tier = (path: string) =>
        words.has(
          path
            .slice(path.lastIndexOf('/') + 1)
            .split('.')[0]
            .toLowerCase(),
        )
          ? 0
          : SECONDARY_LIKE.test(path)
            ? 2
            : 1;
      return files
        .map((entry, index) => ({ entry, index, tier: tier(entry.file) }))
        .sort((a, b) => a.tier - b.tier || b.entry.count - a.entry.count || a.index - b.index)
        .map(({ entry }) => entry);
    };
    const path = fc
      .tuple(
        fc.constantFrom('/ws/lib/', '/ws/test/', '/ws/dist/', '/ws/__tests__/', '/ws/src/deep/'),
        fc.constantFrom('Compiler', 'compiler', 'util', 'WebpackError', 'errors', 'index'),
        fc.constantFrom('.js', '.test.js', '.d.ts', '.min.js', '.js.map', '.ts', ''),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(path, fc.integer({ min: 1, max: 4 })), { maxLength: 40 }),
        fc.constantFrom('WebpackError', 'new Compiler\\(', 'x', 'util|index'),
        fc.integer({ min: 0, max: 8 }),
        (pairs, pattern, most) => {
          const files = pairs.map(([p, count]) => file(p, count));
          assert.deepStrictEqual(rankFiles(files, pattern, most), wholeOrder(files, pattern).slice(0, most));
        },
      ),
      { numRuns: 500 },
    );
  });
});
