/**
 * A search worker, driven as the engine drives it (through the pool: one batch in, its outcomes out, in
 * order): each file's matches, 0 for none, or why it was skipped (binary, over the size limit,
 * unreadable); content sent in a file's place searched instead of the file; a
 * page's room for line texts; declarations told only in a language with a grammar; names tested
 * against glob's regex or glob; a page's lines given their definitions. (A file that leads out of the
 * read scope: workerLinks.test.ts.)
 */
import * as assert from 'assert';
import { SearchPool, type SearchSpec } from '../../../../src/engine/pool/pool';
import type { SearchOptions } from '../../../../src/engine/searcher/searcher';
import { Fixture } from '../../fixture';

const CONTENT: SearchOptions = { invert: false, before: 0, after: 0, maxPerFile: 100, maxLineLength: 500, collect: true };

describe('engine/pool/worker (through the pool)', function () {
  this.timeout(20_000);
  const fx = new Fixture('grep-tools-worker-');
  let pool: SearchPool;
  before(() => {
    fx.files({
      'src/find.ts': 'export function find() {\n  return find;\n}\n',
      'src/none.ts': 'const other = 1;\n',
      'notes/find.txt': 'function find() in prose\n',
      'bin/blob.bin': new Uint8Array([0x66, 0x69, 0x6e, 0x64, 0, 1, 2]),
      'big/large.txt': `find ${'x'.repeat(200)}\n`,
    });
    pool = new SearchPool(1);
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  const spec = (search: Partial<SearchOptions> = {}, extra: Partial<SearchSpec> = {}): SearchSpec => ({
    pattern: 'find',
    matcher: {},
    search: { ...CONTENT, ...search },
    maxFileSize: 100,
    ...extra,
  });

  it('answers each file of a batch in order: its lines, 0 for none, or why it was skipped', async () => {
    const outcomes = await pool
      .search(spec())
      .batch([fx.path('src/find.ts'), fx.path('src/none.ts'), fx.path('bin/blob.bin'), fx.path('big/large.txt'), fx.path('src/missing.ts')], 10);
    const [found, ...rest] = outcomes;
    assert.ok(typeof found === 'object');
    assert.deepStrictEqual(
      found.lines.map((line) => [line.line, line.text]),
      [
        [1, 'export function find() {'],
        [2, '  return find;'],
      ],
    );
    assert.deepStrictEqual(rest, [0, 'binary', 'too_large', 'unreadable']);
  });

  it("searches the content sent in a file's place (an editor's text, a virtual file's bytes) instead of the file", async () => {
    const outcomes = await pool.search(spec()).batch(
      [
        { path: fx.path('src/none.ts'), content: 'unsaved: find me\n' },
        { path: fx.path('src/find.ts'), content: new TextEncoder().encode('nothing here\n') },
      ],
      10,
    );
    assert.ok(typeof outcomes[0] === 'object');
    assert.deepStrictEqual(
      outcomes[0].lines.map((line) => line.text),
      ['unsaved: find me'],
    );
    assert.strictEqual(outcomes[1], 0);
  });

  it('gives the text of only as many lines as the page has room for, counting all; none with no room', async () => {
    const job = pool.search(spec());
    const [one] = await job.batch([fx.path('src/find.ts')], 1);
    assert.ok(typeof one === 'object');
    assert.deepStrictEqual([one.count, one.lines.length], [2, 1]);
    const [counted] = await job.batch([fx.path('src/find.ts')], 0);
    assert.ok(typeof counted === 'object');
    assert.deepStrictEqual([counted.count, counted.lines.length], [2, 0]);
  });

  it('says a line declares the name only in a language with a grammar', async () => {
    const outcomes = await pool.search(spec({ collect: false, declarations: true })).batch([fx.path('src/find.ts'), fx.path('notes/find.txt')], 0);
    assert.deepStrictEqual(
      outcomes.map((outcome) => typeof outcome === 'object' && outcome.declares === true),
      [true, false],
    );
  });

  it("tests names against glob's regex (mode regex) and against a glob", async () => {
    const names = ['src/find.ts', 'notes/find.txt', 'src/deep/find.ts'];
    assert.deepStrictEqual(await pool.nameTest({ nameRegex: '^src/.*\\.ts$' }).batch(names), [true, false, true]);
    assert.deepStrictEqual(await pool.nameTest({ nameGlob: 'src/*.ts' }).batch(names), [true, false, false]);
  });

  it("gives a page's lines the definitions enclosing them, from a file or from the content sent", async () => {
    const job = pool.outline({ outline: { pattern: 'find', matcher: {}, maxFileSize: 1 << 20 } });
    const [fromFile, fromContent] = await job.batch([
      { path: fx.path('src/find.ts'), lines: [2] },
      { path: fx.path('src/other.ts'), lines: [2], content: 'class Other {\n  find() {}\n}\n' },
    ]);
    assert.deepStrictEqual(fromFile?.marks, [{ in: 'find()' }]);
    assert.deepStrictEqual(fromContent?.marks, [{ in: 'Other', defines: true }]);
  });
});
