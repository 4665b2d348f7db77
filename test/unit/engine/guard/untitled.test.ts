import * as assert from 'assert';
import * as nodePath from 'path';
import { untitledGlobMessage } from '../../../../src/engine/run/glob';
import type { SearchEnvironment } from '../../../../src/engine/run/environment';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { untitledAt, untitledByName, untitledByUri, untitledNotFoundMessage, type UntitledDocument } from '../../../../src/engine/guard/untitled';
import { contentFiles, Fixture, globJson, grepJson, makeEnv, rejectsWith } from '../../fixture';

/** An untitled document as the VS Code layer passes it; `reads` counts the reads of its text. */
function untitled(uri: string, text: string, associatedPath?: string): UntitledDocument & { reads: number } {
  const path = uri.slice('untitled:'.length);
  const document = {
    uri,
    name: associatedPath === undefined ? path : nodePath.basename(associatedPath),
    ...(associatedPath !== undefined ? { associatedPath } : {}),
    reads: 0,
    text: () => {
      document.reads++;
      return text;
    },
  };
  return document;
}

for (const [flavourName, flavour, top] of [
  ['path.posix', nodePath.posix, '/'],
  ['path.win32', nodePath.win32, 'C:\\'],
] as const) {
  describe(`engine/untitled: lookups under ${flavourName}`, () => {
    const at = (...segments: string[]) => flavour.join(top, 'ws', ...segments);
    const plain = untitled('untitled:Untitled-1', '');
    const spaced = { ...untitled('untitled:/ws/my%20notes.md', '', at('my notes.md')), name: 'my notes.md' };
    const named = { ...untitled('untitled:/ws/Untitled-1', '', at('Untitled-1')), name: 'Untitled-1' };
    const documents = [plain, spaced, named];

    it('finds a document by its URI, as VS Code encodes it or decoded', () => {
      assert.strictEqual(untitledByUri('untitled:Untitled-1', documents), plain);
      assert.strictEqual(untitledByUri('untitled:/ws/my%20notes.md', documents), spaced);
      assert.strictEqual(untitledByUri('untitled:/ws/my notes.md', documents), spaced);
      assert.strictEqual(untitledByUri('Untitled:Untitled-1', documents), plain, 'a URI scheme is case-insensitive');
      assert.strictEqual(untitledByUri('untitled:Untitled-2', documents), undefined);
      assert.strictEqual(untitledByUri('Untitled-1', documents), undefined, 'a name is not a URI');
    });

    it('finds by name only a document without a file path', () => {
      assert.strictEqual(untitledByName('Untitled-1', documents), plain);
      assert.strictEqual(untitledByName('my notes.md', documents), undefined, 'a document with a path is named by its path');
    });

    it('finds a document by the path it will be saved to', () => {
      assert.strictEqual(untitledAt(at('my notes.md'), documents, flavour), spaced);
      assert.strictEqual(untitledAt(at('sub', '..', 'Untitled-1'), documents, flavour), named);
      assert.strictEqual(untitledAt(at('other.md'), documents, flavour), undefined);
      // Windows names a file in any case (VS Code writes the drive 'c:', a model 'C:'); POSIX does not.
      assert.strictEqual(untitledAt(at('MY NOTES.md').replace(/^C:/, 'c:'), documents, flavour), flavour === nodePath.win32 ? spaced : undefined);
    });

    it('names the open documents when an untitled: path names none', () => {
      assert.strictEqual(
        untitledNotFoundMessage('untitled:Untitled-9', [plain]),
        'No untitled (unsaved) editor "untitled:Untitled-9" is open; the open ones are "untitled:Untitled-1". ' +
          'An untitled editor can be searched only while it is open; once saved, search its file path instead.',
      );
      assert.match(untitledNotFoundMessage('untitled:Untitled-9', []), /is open; none is open\./);
    });
  });
}

/** env.untitled: an untitled editor is searched from its text only when `path` names it. */
describe('engine/untitled: grep and glob of an untitled editor', function () {
  this.timeout(20_000);
  const fx = new Fixture();
  let pool: SearchPool;
  const TEXT = 'alpha line\nneedle-5e1f here\nbeta line\nneedle-5e1f again\n';
  let scratch: ReturnType<typeof untitled>;
  let draft: ReturnType<typeof untitled>;
  let shadowed: ReturnType<typeof untitled>;
  let outside: ReturnType<typeof untitled>;

  before(() => {
    fx.files({ 'ws/a.ts': 'needle-5e1f on disk\n', 'ws/exists.ts': 'needle-5e1f in the real file\n', 'other/keep.txt': '' });
    pool = new SearchPool(2);
  });
  beforeEach(() => {
    scratch = untitled('untitled:Untitled-1', TEXT);
    draft = untitled(`untitled:${fx.path('ws/src/new.ts')}`, 'export const needle = "needle-5e1f";\n', fx.path('ws/src/new.ts'));
    shadowed = untitled(`untitled:${fx.path('ws/exists.ts')}`, 'needle-5e1f in the editor\n', fx.path('ws/exists.ts'));
    outside = untitled(`untitled:${fx.path('other/new.md')}`, 'needle-5e1f outside\n', fx.path('other/new.md'));
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  for (const withPool of [false, true]) {
    const how = withPool ? 'worker pool' : 'inline reads';
    const env = (extra: Partial<SearchEnvironment> = {}): SearchEnvironment => ({
      ...makeEnv(fx.path('ws')),
      ...(withPool ? { pool } : {}),
      untitled: [scratch, draft, shadowed, outside],
      ...extra,
    });

    it(`searches the editor named by its URI, named in the answer by that URI, with exact totals (${how})`, async () => {
      const answer = await grepJson({ pattern: 'needle-5e1f', path: 'untitled:Untitled-1', context_lines: 1 }, env());
      assert.strictEqual(answer.base_path, 'untitled:Untitled-1');
      assert.deepStrictEqual(answer.files, [
        {
          file: 'untitled:Untitled-1',
          matches: [
            { line: 2, text: 'needle-5e1f here', before: ['alpha line'], after: ['beta line'] },
            { line: 4, text: 'needle-5e1f again' },
          ],
        },
      ]);
      assert.deepStrictEqual(
        [answer.total_matches, answer.returned_matches, answer.files_searched, answer.files_matched, answer.truncated],
        [2, 2, 1, 1, false],
      );
      assert.deepStrictEqual(answer.skipped, { binary: 0, too_large: 0, denied: 0, unreadable: 0, outside_workspace: 0 });
      assert.deepStrictEqual(answer.notes, []);
    });

    it(`searches it by its name, and in every output mode (${how})`, async () => {
      const count = await grepJson({ pattern: 'line', path: 'Untitled-1', output_mode: 'count' }, env());
      assert.deepStrictEqual(count.files, [{ file: 'untitled:Untitled-1', count: 2 }]);
      const files = await grepJson({ pattern: 'beta', path: 'Untitled-1', output_mode: 'files_with_matches' }, env());
      assert.deepStrictEqual(files.files, ['untitled:Untitled-1']);
    });

    it(`searches a document with a file path by that path, absolute or relative, and by its URI (${how})`, async () => {
      const expected = [{ file: draft.uri, matches: [{ line: 1, text: 'export const needle = "needle-5e1f";' }] }];
      for (const path of [fx.path('ws/src/new.ts'), 'src/new.ts', draft.uri]) {
        const answer = await grepJson({ pattern: 'needle-5e1f', path }, env());
        assert.deepStrictEqual(answer.files, expected, path);
        assert.strictEqual(answer.base_path, draft.uri, path);
      }
    });

    it(`a real file at that path wins over the editor, unless the editor's URI is given (${how})`, async () => {
      const onDisk = await grepJson({ pattern: 'needle-5e1f', path: 'exists.ts' }, env());
      assert.deepStrictEqual(onDisk.files, [{ file: fx.path('ws/exists.ts'), matches: [{ line: 1, text: 'needle-5e1f in the real file' }] }]);
      const inEditor = await grepJson({ pattern: 'needle-5e1f', path: shadowed.uri }, env());
      assert.deepStrictEqual(inEditor.files, [{ file: shadowed.uri, matches: [{ line: 1, text: 'needle-5e1f in the editor' }] }]);
    });

    it(`a document that would be saved outside the workspace is searched without confirmation (${how})`, async () => {
      const answer = await grepJson({ pattern: 'needle-5e1f', path: fx.path('other/new.md') }, env());
      assert.deepStrictEqual(contentFiles(answer), [{ file: outside.uri, matches: [{ line: 1, text: 'needle-5e1f outside' }] }]);
      await rejectsWith(grepJson({ pattern: 'x', path: fx.path('other/keep.txt') }, env()), /outside every workspace folder/);
    });

    it(`is never searched unless path names it (${how})`, async () => {
      for (const path of [undefined, '.']) {
        const answer = await grepJson({ pattern: 'needle-5e1f|alpha line', ...(path !== undefined ? { path } : {}) }, env());
        const files = contentFiles(answer).map((entry) => entry.file);
        assert.ok(
          files.every((file) => !file.startsWith('untitled:')),
          `${path}: ${files.join(', ')}`,
        );
      }
      assert.strictEqual(scratch.reads, 0, 'its text is not even read');
    });
  }

  it('include and exclude match its name; over grepTools.maxFileSize it is skipped as a file would be', async () => {
    const env = (extra: Partial<SearchEnvironment> = {}): SearchEnvironment => ({ ...makeEnv(fx.path('ws')), untitled: [scratch, draft], ...extra });
    assert.strictEqual((await grepJson({ pattern: 'needle', path: draft.uri, include: '*.ts' }, env())).files_matched, 1);
    const left = await grepJson({ pattern: 'needle', path: 'Untitled-1', include: '*.ts' }, env());
    assert.deepStrictEqual([left.files, left.files_searched], [[], 0]);
    assert.deepStrictEqual(left.notes, ['The include glob "*.ts" matched no file under the search path.']);
    assert.strictEqual(scratch.reads, 0, 'left out by include: not read');
    assert.strictEqual((await grepJson({ pattern: 'needle', path: draft.uri, exclude: 'new.*' }, env())).files_matched, 0);
    const big = await grepJson({ pattern: 'needle', path: 'Untitled-1' }, env({ config: { ...makeEnv(fx.path('ws')).config, maxFileSize: 10 } }));
    assert.deepStrictEqual([big.files, big.files_searched, big.skipped.too_large], [[], 0, 1]);
  });

  it('pages through its matches with offset', async () => {
    const env: SearchEnvironment = { ...makeEnv(fx.path('ws')), untitled: [scratch] };
    const first = await grepJson({ pattern: 'needle', path: 'untitled:Untitled-1', max_results: 1 }, env);
    assert.deepStrictEqual([first.truncated, first.next_offset, first.total_matches], [true, 1, 2]);
    const second = await grepJson({ pattern: 'needle', path: 'untitled:Untitled-1', max_results: 1, offset: 1 }, env);
    assert.deepStrictEqual(contentFiles(second), [{ file: 'untitled:Untitled-1', matches: [{ line: 4, text: 'needle-5e1f again' }] }]);
  });

  it('an empty answer explains itself, with the checked suggestion', async () => {
    const env: SearchEnvironment = { ...makeEnv(fx.path('ws')), untitled: [scratch] };
    const answer = await grepJson({ pattern: 'NEEDLE-5E1F', path: 'Untitled-1' }, env);
    assert.deepStrictEqual(answer.files, []);
    assert.strictEqual(answer.files_searched, 1);
    assert.strictEqual(answer.notes.length, 1);
    assert.match(
      answer.notes[0],
      /^The search is case-sensitive; ignoring case it matches 2 lines in 1 file \(first: untitled:Untitled-1:2 "needle-5e1f here"\)\. Call again with \{"pattern":"NEEDLE-5E1F","path":"Untitled-1","case_insensitive":true\}\.$/,
    );
  });

  it('glob refuses an untitled editor, saying how to search it', async () => {
    const env: SearchEnvironment = { ...makeEnv(fx.path('ws')), untitled: [scratch, draft] };
    for (const [path, document] of [
      ['untitled:Untitled-1', scratch],
      ['Untitled-1', scratch],
      ['src/new.ts', draft],
    ] as const) {
      const error = await rejectsWith(globJson({ pattern: '*', path }, env));
      assert.strictEqual(error.message, untitledGlobMessage(path, document), path);
    }
    assert.strictEqual(
      untitledGlobMessage('Untitled-1', scratch),
      'glob lists files on disk, and "Untitled-1" is an untitled (unsaved) editor, untitled:Untitled-1, with no file on disk. ' +
        'To search its text, call grep with this path: {"pattern":"<text to find>","path":"untitled:Untitled-1"}. To list files, give glob a directory as "path".',
    );
  });

  it('an untitled: path that names no open editor says which are open', async () => {
    const env: SearchEnvironment = { ...makeEnv(fx.path('ws')), untitled: [scratch] };
    await rejectsWith(
      grepJson({ pattern: 'x', path: 'untitled:Untitled-7' }, env),
      /^No untitled \(unsaved\) editor "untitled:Untitled-7" is open; the open ones are "untitled:Untitled-1"\./,
    );
  });
});
