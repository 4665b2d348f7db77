/**
 * The notes that name what an answer would otherwise hide, through vscode.lm.invokeTool in the extension
 * host: a cut page's hidden files, the path that ends with a missing one, a pattern that matches
 * directories, the literal reading of an invalid regex, and files over the size limit.
 */
import * as assert from 'assert';
import { parseAnswer } from '../../support/answers';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { folderPath, invokeError, invokeJson, invokeText, type GlobAnswer, type GrepAnswer } from '../helpers';

const root = () => folderPath(0);
const dir = () => path.join(root(), 'v2-tmp');
const at = (relative: string) => path.join(dir(), relative);

describe('answers name what they would otherwise hide', () => {
  before(() => {
    fs.mkdirSync(at('lib/errors'), { recursive: true });
    fs.mkdirSync(at('pkg/crates/searcher/src'), { recursive: true });
    // One file crowds the first page; the defining file comes later in path order.
    fs.writeFileSync(at('lib/a-heavy.js'), Array.from({ length: 30 }, (_, i) => `use(ShapeError, ${i});`).join('\n') + '\n');
    fs.writeFileSync(at('lib/errors/ShapeError.js'), 'const base = 1;\nclass ShapeError extends Error {}\nmodule.exports = ShapeError;\n');
    fs.writeFileSync(at('lib/z-user.js'), 'throw new ShapeError();\n');
    fs.writeFileSync(at('pkg/crates/searcher/src/lib.rs'), 'pub struct SearcherBuilder;\n');
    fs.writeFileSync(at('pkg/crates/searcher/mod.rs'), 'mod src;\n');
    // Over grepTools.maxFileSize (set below): a definition in a generated file.
    fs.writeFileSync(at('generated.js'), `${'// filler\n'.repeat(300)}function makeWidgetV2(options) {}\n`);
  });
  after(async () => {
    fs.rmSync(dir(), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('grepTools').update('maxFileSize', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a cut page puts the file that defines the name first, names the matching files it hides, and the call that lists them all', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'ShapeError', path: 'v2-tmp', max_results: 10 });
    // The defining file first (docs/tools.md, "Order of the results"), its definition marked, then the rest of the page in path order.
    assert.deepStrictEqual(
      answer.files.map((f) => (typeof f === 'string' ? f : f.file)),
      [at('lib/errors/ShapeError.js'), at('lib/a-heavy.js')],
    );
    const defining = answer.files[0] as { matches: Array<{ line: number; defines?: boolean }> };
    assert.deepStrictEqual(
      defining.matches.map((m) => [m.line, m.defines === true]),
      [
        [2, true],
        [3, false],
      ],
    );
    assert.strictEqual(answer.total_matches, 33);
    assert.strictEqual(answer.next_offset, 10);
    assert.ok(answer.notes[1].startsWith(`1 more matching file is not on this page: ${path.relative(folderPath(0), at('lib/z-user.js'))} (1`), answer.notes[1]);
    assert.ok(
      answer.notes[1].endsWith('All of them: {"pattern":"ShapeError","path":"v2-tmp","output_mode":"files_with_matches"}, or "count" for lines per file.'),
      answer.notes[1],
    );
    // The next page goes on in the same order: the rest of a-heavy.js, then z-user.js.
    const next = await invokeJson<GrepAnswer>('grep', { pattern: 'ShapeError', path: 'v2-tmp', max_results: 10, offset: 30 });
    assert.deepStrictEqual(
      next.files.map((f) => (typeof f === 'string' ? f : f.file)),
      [at('lib/a-heavy.js'), at('lib/z-user.js')],
    );
    const all = await invokeJson<GrepAnswer>('grep', { pattern: 'ShapeError', path: 'v2-tmp', output_mode: 'files_with_matches' });
    assert.strictEqual(all.files.length, 3);
  });

  it('a path whose first folder was left out: the existing path that ends with it, with the files it holds', async () => {
    const message = await invokeError('grep', { pattern: 'SearcherBuilder', path: 'crates/searcher' });
    assert.ok(message.includes(`Did you mean ${at('pkg/crates/searcher')} (2 files)?`), message);
    const typo = await invokeError('grep', { pattern: 'SearcherBuilder', path: 'crate/searcher' });
    assert.ok(typo.includes(`Did you mean ${at('pkg/crates/searcher')} (2 files)?`), typo);
    // The path it names works.
    const found = await invokeJson<GrepAnswer>('grep', { pattern: 'SearcherBuilder', path: at('pkg/crates/searcher') });
    assert.strictEqual(found.total_matches, 1);
  });

  it('glob: a pattern that matches a directory says so with the dir/** call; a one-level listing names its subdirectories', async () => {
    const answer = await invokeJson<GlobAnswer>('glob', { pattern: '**/searcher' });
    assert.deepStrictEqual(answer.files, []);
    assert.deepStrictEqual(answer.notes, [
      `"**/searcher" matches 1 directory, and glob lists files only: ${path.relative(root(), at('pkg/crates/searcher'))} (2 files). List their files with {"pattern":"**/searcher/**"}.`,
    ]);
    assert.strictEqual((await invokeJson<GlobAnswer>('glob', { pattern: '**/searcher/**' })).total, 2);
    const listing = await invokeJson<GlobAnswer>('glob', { pattern: '*', path: 'v2-tmp/lib' });
    assert.deepStrictEqual(listing.files, [at('lib/a-heavy.js'), at('lib/z-user.js')]);
    assert.deepStrictEqual(listing.notes, [
      'Not listed, as glob lists files only: 1 directory (files in each): errors/ (1). List their files with {"pattern":"*/**","path":"v2-tmp/lib"}.',
    ]);
  });

  it('glob sort "mtime" gives each file its modification time', async () => {
    const when = new Date('2026-03-04T05:06:07Z');
    fs.utimesSync(at('lib/z-user.js'), when, when);
    const text = await invokeText('glob', { pattern: '**/z-user.js', sort: 'mtime' });
    assert.deepStrictEqual(parseAnswer(text).files, { [at('lib/z-user.js')]: '2026-03-04T05:06:07Z' });
  });

  it('an invalid regex that is valid literal text: the error gives the literal count, first match and the exact call', async () => {
    const literal = await invokeError('grep', { pattern: 'use(ShapeError, 1', path: 'v2-tmp' });
    assert.ok(
      literal.endsWith(
        `As literal text the pattern matches 11 lines in 1 file (first: ${at('lib/a-heavy.js')}:2 "use(ShapeError, 1);"). Call again with {"pattern":"use(ShapeError, 1","path":"v2-tmp","fixed_strings":true}.`,
      ),
      literal,
    );
  });

  it('a file over the size limit: an empty answer says the pattern occurs in it, with size and first matching line', async () => {
    await vscode.workspace.getConfiguration('grepTools').update('maxFileSize', 1024, vscode.ConfigurationTarget.Global);
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'function makeWidgetV2\\(', path: 'v2-tmp' });
    assert.deepStrictEqual(answer.files, []);
    assert.strictEqual(answer.skipped.too_large, 1);
    assert.strictEqual(
      answer.notes[0],
      `1 file was skipped as over grepTools.maxFileSize (1024 bytes); the pattern occurs in ${path.relative(root(), at('generated.js'))} (3 KB, first at line 301: "function makeWidgetV2(options) {}"). ` +
        'Read it there with your file-reading tool, or ask the user to raise grepTools.maxFileSize.',
    );
  });
});
