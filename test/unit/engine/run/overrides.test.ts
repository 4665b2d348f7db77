import * as assert from 'assert';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { SearchPool } from '../../../../src/engine/pool/pool';
import type { FileSource } from '../../../../src/engine/source/fileSource';
import { Fixture, makeEnv } from '../../fixture';

/** env.overrides (the text of open editors with unsaved changes) and a source's reader (a virtual file) are searched instead of the file on disk. */
describe('unsaved editor text (env.overrides)', function () {
  this.timeout(20_000);
  const fx = new Fixture();
  let pool: SearchPool;
  before(() => {
    fx.files({ 'a.ts': 'const onDisk = 1;\nshared line\n', 'b.ts': 'const onDisk = 2;\n', 'big.ts': 'x\n' });
    pool = new SearchPool(2);
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  const overrides = () => new Map([[fx.path('a.ts'), 'const inEditor = 1;\nshared line\n']]);
  for (const withPool of [false, true]) {
    const env = (extra: Partial<SearchEnvironment> = {}): SearchEnvironment => ({
      ...makeEnv(fx.root),
      ...(withPool ? { pool } : {}),
      overrides: overrides(),
      ...extra,
    });

    it(`searches the editor's text, not the disk's (${withPool ? 'worker pool' : 'inline reads'})`, async () => {
      const inEditor = await answerGrep({ pattern: 'inEditor|onDisk' }, env());
      assert.deepStrictEqual(inEditor.files, [
        { file: fx.path('a.ts'), matches: [{ line: 1, text: 'const inEditor = 1;' }] },
        { file: fx.path('b.ts'), matches: [{ line: 1, text: 'const onDisk = 2;' }] },
      ]);
      const counted = await answerGrep({ pattern: 'line', output_mode: 'count', invert_match: true }, env());
      assert.deepStrictEqual(counted.files, [
        { file: fx.path('a.ts'), count: 1 },
        { file: fx.path('b.ts'), count: 1 },
        { file: fx.path('big.ts'), count: 1 },
      ]);
    });

    it(`an overridden file is still listed and filtered as usual (${withPool ? 'worker pool' : 'inline reads'})`, async () => {
      const excluded = await answerGrep({ pattern: 'inEditor', exclude: 'a.ts' }, env());
      assert.deepStrictEqual(excluded.files, []);
      const unlisted = await answerGrep({ pattern: 'ghost' }, env({ overrides: new Map([[fx.path('not-on-disk.ts'), 'ghost']]) }));
      assert.deepStrictEqual(unlisted.files, [], 'a path the source does not list is not searched');
      const tooLarge = await answerGrep(
        { pattern: 'y' },
        env({ config: { ...makeEnv(fx.root).config, maxFileSize: 100 }, overrides: new Map([[fx.path('big.ts'), 'y'.repeat(200)]]) }),
      );
      assert.strictEqual(tooLarge.skipped.too_large, 1, 'unsaved text over grepTools.maxFileSize is skipped as the file would be');
      assert.deepStrictEqual(tooLarge.files, []);
    });

    it(`a reader (a virtual file system's file) is called only to search (and once more for the definitions of a page's file), and its bytes are searched as a file's (${withPool ? 'worker pool' : 'inline reads'})`, async () => {
      const calls: string[] = [];
      const reader = (path: string, bytes: Uint8Array | undefined) => async () => {
        calls.push(path);
        return bytes;
      };
      const readers = new Map([
        [fx.path('a.ts'), reader(fx.path('a.ts'), Buffer.from('\ufeffconst fromProvider = 1;\n'))],
        [fx.path('b.ts'), reader(fx.path('b.ts'), Buffer.from([0, 1, 2]))],
        [fx.path('big.ts'), reader(fx.path('big.ts'), undefined)],
      ]);
      const base = makeEnv(fx.root);
      // The source that listed them reads them (FileSource.reader), as the VS Code source does for a virtual folder.
      const source: FileSource = Object.assign(Object.create(base.source) as FileSource, { reader: (path: string) => readers.get(path) });
      const answer = await answerGrep({ pattern: 'fromProvider|onDisk' }, env({ overrides: new Map(), source }));
      assert.deepStrictEqual(answer.files, [{ file: fx.path('a.ts'), matches: [{ line: 1, text: 'const fromProvider = 1;' }] }]);
      assert.strictEqual(answer.skipped.binary, 1, 'b.ts: a NUL byte');
      assert.strictEqual(answer.skipped.unreadable, 1, 'big.ts: the reader could not read it');
      // a.ts is on the page, in a language with a grammar: read again once the page is known, for its definitions.
      assert.deepStrictEqual(calls.sort(), [fx.path('a.ts'), fx.path('a.ts'), fx.path('b.ts'), fx.path('big.ts')]);
    });
  }
});
