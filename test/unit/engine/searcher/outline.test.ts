/**
 * The definitions enclosing a matching line (searcher/outline.ts), per language, on the small files of
 * test/fixtures/outline: a method in a class, a nested function, a Rust impl block, a Python decorator,
 * a Go method with a receiver, a Java constructor; and the lines that define the searched name.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { compileMatcher, type MatcherOptions } from '../../../../src/engine/matcher/matcher';
import { definesMatch, grammarOf, looksMinified, outlineLines, parseDefinitions, TOO_LARGE } from '../../../../src/engine/searcher/outline';
import { looksLikeDeclaration, searchText } from '../../../../src/engine/searcher/searcher';
import { compactLines } from '../../../../src/engine/answer/printer';
import type { LineResult } from '../../../../src/engine/api/types';

const fixtures = nodePath.resolve(__dirname, '../../../../../test/fixtures/outline');

/** The file's matching lines as `line: in | def`, after outlining. */
async function outline(file: string, pattern: string, options: MatcherOptions = {}, stamp?: string): Promise<string[]> {
  const path = nodePath.join(fixtures, file);
  const source = fs.readFileSync(path, 'utf8');
  const matcher = compileMatcher(pattern, options);
  const found = searchText(source, matcher, { invert: false, before: 0, after: 0, maxPerFile: 1000, maxLineLength: 500, collect: true });
  const cost = await outlineLines(path, source, found.lines, matcher, stamp);
  assert.ok(cost, `${file} was outlined`);
  return found.lines.map((line) => `${line.line}: ${line.in ?? ''}${line.defines ? ' | def' : ''}`);
}

describe('outline: the definitions enclosing a matching line', function () {
  this.timeout(20_000);

  it('TypeScript: a method in a class, a function nested in a method, an arrow function bound to a const', async () => {
    assert.deepStrictEqual(await outline('store.ts', 'sessions'), ['2: SessionStore', '5: SessionStore > get()', '12: SessionStore > expire()']);
    assert.deepStrictEqual(await outline('store.ts', 'now - stamp'), ['10: SessionStore > expire() > isOld()']);
    assert.deepStrictEqual(await outline('store.ts', 'new SessionStore'), ['17: makeStore()']);
  });

  it('TypeScript: a line that defines the searched name is marked, a use of it is not', async () => {
    assert.deepStrictEqual(await outline('store.ts', 'SessionStore', { word: true }), ['1:  | def', '17: makeStore()']);
    assert.deepStrictEqual(await outline('store.ts', 'isOld'), ['9: SessionStore > expire() | def', '12: SessionStore > expire()']);
  });

  it('Rust: an impl block, a function in a module', async () => {
    assert.deepStrictEqual(await outline('worker.rs', 'search_path'), ['6: impl SearchWorker<W> | def', '17: mod tests | def']);
    assert.deepStrictEqual(await outline('worker.rs', 'self.printer'), ['12: impl SearchWorker<W> > search()']);
    assert.deepStrictEqual(await outline('worker.rs', 'let path'), ['18: mod tests > search_path_works()']);
  });

  it('Python: a decorated method is in its class, its decorator and body in the method; a nested decorated function', async () => {
    assert.deepStrictEqual(await outline('app.py', '@cached'), ['12: Migrator > run_migrations()']);
    assert.deepStrictEqual(await outline('app.py', 'step.apply'), ['15: Migrator > run_migrations()']);
    assert.deepStrictEqual(await outline('app.py', 'return func'), ['7: cached() > wrapper()']);
    assert.deepStrictEqual(await outline('app.py', 'def run_migrations'), ['13: Migrator | def']);
  });

  it('Go: a method with a receiver, a type', async () => {
    assert.deepStrictEqual(await outline('queue.go', 'append'), ['13: (q *Queue) Push()']);
    assert.deepStrictEqual(await outline('queue.go', 'Job', { word: true }), ['3:  | def', '9: type Queue', '12: ']);
  });

  it('Java: a constructor and a method in a class', async () => {
    assert.deepStrictEqual(await outline('Store.java', 'this.size'), ['7: Store > Store()']);
    assert.deepStrictEqual(await outline('Store.java', 'return size'), ['11: Store > size()']);
  });

  it('JavaScript, TSX, C#, C++, Ruby and PHP: each grammar finds its definitions, outermost first', async () => {
    const sources: Record<string, [string, string[]]> = {
      javascript: ['class A {\n  m() {\n    function inner() {}\n  }\n}\nconst f = () => 1;\n', ['0-4 A', '1-3 m()', '2-2 inner()', '5-5 f()']],
      tsx: ['interface P {\n  x: number;\n}\nexport function App(p: P) {\n  return <div />;\n}\n', ['0-2 interface P', '3-5 App()']],
      'c-sharp': ['namespace N {\n  class C {\n    void M() {}\n  }\n}\n', ['0-4 namespace N', '1-3 C', '2-2 M()']],
      cpp: ['namespace n {\nstruct S {\n  int x;\n};\nint f(int a) {\n  return a;\n}\n}\n', ['0-7 namespace n', '1-3 struct S', '4-6 f()']],
      ruby: ['module M\n  class C\n    def m\n    end\n    def self.s\n    end\n  end\nend\n', ['0-7 module M', '1-6 C', '2-3 m()', '4-5 self.s()']],
      php: ['<?php\nnamespace App;\nclass C {\n  function m() {}\n}\nfunction f() {}\n', ['1-1 namespace App', '2-4 C', '3-3 m()', '5-5 f()']],
    };
    for (const [grammar, [source, expected]] of Object.entries(sources)) {
      const definitions = await parseDefinitions(source, grammar);
      assert.deepStrictEqual(
        definitions?.map((d) => `${d.start}-${d.end} ${d.label}`),
        expected,
        grammar,
      );
    }
  });

  it('the answer writes a row naming the definitions when they change, "def" on a defining line', async () => {
    const path = nodePath.join(fixtures, 'store.ts');
    const source = fs.readFileSync(path, 'utf8');
    const matcher = compileMatcher('SessionStore|sessions', {});
    const found = searchText(source, matcher, { invert: false, before: 0, after: 0, maxPerFile: 1000, maxLineLength: 500, collect: true });
    await outlineLines(path, source, found.lines, matcher, undefined);
    assert.deepStrictEqual(compactLines(found.lines), [
      '1 def: export class SessionStore {',
      'SessionStore',
      '2:   private readonly sessions = new Map<string, string>();',
      '… > get()',
      '5:     return this.sessions.get(id);',
      '… > expire()',
      '12:     for (const [id] of this.sessions) if (isOld(Number(id))) this.sessions.delete(id);',
      'makeStore()',
      '17:   return new SessionStore();',
    ]);
  });

  it('a file is parsed once for its stamp, again when the stamp changes', async () => {
    const path = nodePath.join(fixtures, 'queue.go');
    const source = fs.readFileSync(path, 'utf8');
    const matcher = compileMatcher('append', {});
    const lines = () => searchText(source, matcher, { invert: false, before: 0, after: 0, maxPerFile: 1000, maxLineLength: 500, collect: true }).lines;
    assert.strictEqual((await outlineLines(path, source, lines(), matcher, 'stamp-1'))?.parsed, true);
    assert.strictEqual((await outlineLines(path, source, lines(), matcher, 'stamp-1'))?.parsed, false);
    assert.strictEqual((await outlineLines(path, source, lines(), matcher, 'stamp-2'))?.parsed, true);
  });

  it('other languages, minified bundles and files over the bound answer as before', async () => {
    assert.strictEqual(grammarOf('/a/README.md'), undefined);
    assert.strictEqual(grammarOf('/a/dist/app.min.js'), undefined);
    assert.strictEqual(grammarOf('/a/src/app.TSX'), 'tsx');
    const lines = [{ line: 1, text: 'x' }];
    assert.strictEqual(await outlineLines('/a/notes.txt', 'x', lines, undefined, undefined), undefined);
    // Over the bound: answered without definitions, not parsed (as a minified file).
    // (its ms is the clock's, 0 or 1 whatever the code does: not compared)
    assert.strictEqual((await outlineLines('/a/big.ts', 'x'.repeat(600 * 1024), lines, undefined, undefined))?.parsed, false);
    assert.deepStrictEqual(lines, [{ line: 1, text: 'x' }]);
  });

  it('a file over the bound is read once while unchanged, and defines no name', async () => {
    let reads = 0;
    const source = (): typeof TOO_LARGE => (reads++, TOO_LARGE);
    const lines = [{ line: 1, text: 'x' }];
    assert.strictEqual((await outlineLines('/a/huge.ts', source, lines, undefined, 'stamp-h'))?.parsed, false);
    assert.strictEqual((await outlineLines('/a/huge.ts', source, lines, undefined, 'stamp-h'))?.parsed, false);
    // (its cost's ms is the clock's: 0 or 1 whatever the code does, so only what it says is compared)
    const found = await definesMatch('/a/huge.ts', source, compileMatcher('huge', {}), 'stamp-h');
    assert.deepStrictEqual(found && { defines: found.defines, parsed: found.cost.parsed }, { defines: false, parsed: false });
    assert.strictEqual(reads, 1, 'known by its stamp after the first read');
    assert.deepStrictEqual(lines, [{ line: 1, text: 'x' }]);
    await outlineLines('/a/huge.ts', source, lines, undefined, 'stamp-h2');
    assert.strictEqual(reads, 2, 'read again once changed');
  });

  it('a minified file (its lines averaging over 300 characters) answers without definitions, and is not parsed', async () => {
    const code = Array.from({ length: 300 }, (_, i) => `function f${i}(a) {\n  return a + ${i};\n}\n`).join('');
    const minified = code.replace(/\n\s*/g, '');
    assert.deepStrictEqual([looksMinified(code), looksMinified(minified), looksMinified('x'.repeat(1000))], [false, true, false]);
    const readable: LineResult[] = [{ line: 2, text: 'x' }];
    assert.strictEqual((await outlineLines('/a/readable.js', code, readable, undefined, 'stamp-r'))?.parsed, true);
    assert.strictEqual(readable[0].in, 'f0()');
    const bundled = [{ line: 1, text: 'x' }];
    assert.strictEqual((await outlineLines('/a/bundle.js', minified, bundled, undefined, 'stamp-b'))?.parsed, false);
    assert.deepStrictEqual(bundled, [{ line: 1, text: 'x' }]);
  });
});

describe('outline: which files define the searched name (the order of a cut page)', function () {
  this.timeout(20_000);
  const files = ['store.ts', 'worker.rs', 'app.py', 'queue.go', 'Store.java'];

  it('per language, a file defines a name declared in it and not one it only uses', async () => {
    const defines = async (file: string, name: string) =>
      (await definesMatch(file, fs.readFileSync(nodePath.join(fixtures, file), 'utf8'), compileMatcher(name, { word: true }), undefined))?.defines;
    for (const [file, name] of [
      ['store.ts', 'isOld'], // a function nested in a method
      ['store.ts', 'expire'], // a method in a class
      ['worker.rs', 'SearchWorker'], // named by its impl block
      ['worker.rs', 'search_path_works'], // a function in a module
      ['app.py', 'run_migrations'], // a decorated method
      ['app.py', 'wrapper'], // a nested function
      ['queue.go', 'Push'], // a method with a receiver
      ['queue.go', 'Job'], // a type
      ['Store.java', 'Store'], // a class and its constructor
    ])
      assert.strictEqual(await defines(file, name), true, `${file} defines ${name}`);
    for (const [file, name] of [
      ['store.ts', 'Map'],
      ['worker.rs', 'printer'],
      ['app.py', 'apply'],
      ['queue.go', 'append'],
    ])
      assert.strictEqual(await defines(file, name), false, `${file} only uses ${name}`);
  });

  it('every line of these files that defines a name looks like a declaration to the search, so the file is parsed', async () => {
    for (const file of files) {
      const source = fs.readFileSync(nodePath.join(fixtures, file), 'utf8');
      const rows = source.split('\n');
      const definitions = await parseDefinitions(source, grammarOf(file)!);
      assert.ok(definitions && definitions.length > 0, file);
      for (const definition of definitions) {
        const row = rows[definition.nameRow];
        assert.ok(looksLikeDeclaration(row, definition.nameStart), `${file}:${definition.nameRow + 1} ${JSON.stringify(row)} (${definition.label})`);
      }
    }
  });
});
