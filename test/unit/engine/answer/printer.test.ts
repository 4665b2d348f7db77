import * as assert from 'assert';
import { parseAnswer, readAnswer, type GrepAnswer } from '../../../support/answers';
import { byteBudget } from '../../../../src/engine/answer/budget';
import type { GlobAnswer as GlobReport } from '../../../../src/engine/answer/globAnswer';
import type { GrepAnswer as GrepReport } from '../../../../src/engine/answer/grepAnswer';
import { answerRoot, globNotes, grepNotes, printGlob, printGrep, renderGlob, renderGrep, thousands } from '../../../../src/engine/answer/printer';
import { emptySkips, type LineResult } from '../../../../src/engine/api/types';

function grepReport(overrides: Partial<GrepReport> = {}): GrepReport {
  return {
    pattern: 'TODO',
    basePaths: ['/ws'],
    folders: ['/ws'],
    outputMode: 'content',
    files: [],
    totalResults: 0,
    returnedResults: 0,
    totalMatches: 0,
    filesSearched: 10,
    filesMatched: 0,
    candidates: 10,
    offset: 0,
    skipped: emptySkips(),
    timedOut: false,
    listingCut: false,
    elapsedMs: 12,
    matched: [],
    largeFiles: [],
    ...overrides,
  };
}

function globReport(overrides: Partial<GlobReport> = {}): GlobReport {
  return {
    pattern: '*.ts',
    mode: 'glob',
    basePaths: ['/ws'],
    folders: ['/ws'],
    files: [],
    total: 0,
    offset: 0,
    skipped: emptySkips(),
    timedOut: false,
    elapsedMs: 3,
    ...overrides,
  };
}

describe('engine/printer', () => {
  it('groups the thousands of a count as en-US does', () => {
    for (const count of [0, 7, 999, 1000, 10_000, 99_999, 100_000, 446_805, 1_234_567, 9_007_199_254_740_991]) {
      assert.strictEqual(thousands(count), count.toLocaleString('en-US'));
    }
  });

  describe('printGrep', () => {
    it('prints content results exactly as docs/tools.md shows them', () => {
      const text = printGrep(
        grepReport({
          pattern: 'def authenticate',
          basePaths: ['/abs/workspace/src'],
          files: [
            {
              file: '/abs/workspace/src/auth/client.py',
              matches: [
                { line: 42, text: 'def authenticate(self, username, password):', before: ['    # Validate credentials'], after: ['        return False'] },
              ],
            },
          ],
          totalResults: 57,
          returnedResults: 50,
          totalMatches: 57,
          filesSearched: 1234,
          filesMatched: 12,
          nextOffset: 50,
          skipped: { binary: 3, too_large: 1, denied: 2, unreadable: 0, outside_workspace: 0 },
          elapsedMs: 84,
        }),
      );
      assert.strictEqual(
        text,
        JSON.stringify({
          pattern: 'def authenticate',
          base_path: '/abs/workspace/src',
          files: {
            '/abs/workspace/src/auth/client.py': [
              '41-     # Validate credentials',
              '42: def authenticate(self, username, password):',
              '43-         return False',
            ],
          },
          total_matches: 57,
          returned_matches: 50,
          files_matched: 12,
          files_searched: 1234,
          truncated: true,
          next_offset: 50,
          skipped: { binary: 3, too_large: 1, denied: 2 },
          notes: ['Showing matches 1-50 of 57. Call again with offset 50 for more, or narrow the search.'],
        }),
      );
    });

    it('prints a list of bases for a multi-root search, a single path otherwise', () => {
      assert.deepStrictEqual(JSON.parse(printGrep(grepReport({ basePaths: ['/a', '/b'] }))).base_path, ['/a', '/b']);
      assert.strictEqual(JSON.parse(printGrep(grepReport())).base_path, '/ws');
    });

    it('count mode totals matching lines and returned files', () => {
      const json = JSON.parse(
        printGrep(
          grepReport({
            outputMode: 'count',
            files: [{ file: '/ws/a', count: 3 }],
            totalResults: 2,
            returnedResults: 1,
            totalMatches: 5,
            filesMatched: 2,
            nextOffset: 1,
          }),
        ),
      );
      assert.deepStrictEqual(json.files, { '/ws/a': 3 });
      assert.strictEqual(json.total_matches, 5);
      assert.strictEqual(json.returned_files, 1);
      assert.strictEqual('returned_matches' in json, false);
      assert.deepStrictEqual(json.notes, ['Showing files 1-1 of 2. Call again with offset 1 for more, or narrow the search.']);
    });

    it('files_with_matches mode prints paths, and returned_files only when the page is cut', () => {
      const json = JSON.parse(
        printGrep(grepReport({ outputMode: 'files_with_matches', files: ['/ws/a'], totalResults: 1, returnedResults: 1, totalMatches: 1, filesMatched: 1 })),
      );
      assert.deepStrictEqual(json.files, ['/ws/a']);
      assert.strictEqual('returned_files' in json, false);
      assert.strictEqual('total_matches' in json, false);
      assert.strictEqual('truncated' in json, false);
      assert.strictEqual('next_offset' in json, false);
    });

    it('only prints timed_out when the search timed out', () => {
      assert.strictEqual('timed_out' in JSON.parse(printGrep(grepReport())), false);
      assert.strictEqual(JSON.parse(printGrep(grepReport({ timedOut: true }))).timed_out, true);
    });
  });

  describe('grepNotes', () => {
    it('says nothing when every result is returned', () => {
      assert.deepStrictEqual(grepNotes(grepReport({ totalResults: 3, returnedResults: 3 })), []);
    });

    it('explains zero results with the files searched and every kind of skip', () => {
      assert.deepStrictEqual(grepNotes(grepReport()), ['No matches in 10 files searched.']);
      assert.deepStrictEqual(grepNotes(grepReport({ skipped: { binary: 1, too_large: 2, denied: 3, unreadable: 4, outside_workspace: 5 } })), [
        'No matches in 10 files searched; skipped 1 binary, 2 over the size limit, 3 denied by policy, 4 unreadable, 5 outside the workspace (symlinks).',
        '4 files or directories could not be read (no permission, removed meanwhile, or no file descriptor left), so what they hold was not searched and the matches cover only the rest.',
      ]);
    });

    it("says in the model's answer that files it could not read were not searched, with or without matches", () => {
      const empty = JSON.parse(printGrep(grepReport({ skipped: { ...emptySkips(), unreadable: 1 } })));
      assert.deepStrictEqual(empty.notes, [
        '1 file or directory could not be read (no permission, removed meanwhile, or no file descriptor left), so what they hold was not searched and the matches cover only the rest.',
      ]);
      const found = grepReport({
        skipped: { ...emptySkips(), unreadable: 2 },
        totalResults: 1,
        returnedResults: 1,
        totalMatches: 1,
        filesMatched: 1,
        files: [{ file: '/ws/a.ts', matches: [{ line: 1, text: 'TODO' }] }],
      });
      assert.match(grepNotes(found).at(-1) ?? '', /^2 files or directories could not be read .* the matches cover only the rest\.$/);
    });

    it("leaves out of the model's answer the sentence its fields say: no match in N files, what was skipped", () => {
      const json = JSON.parse(printGrep(grepReport({ skipped: { ...emptySkips(), binary: 1 } })));
      assert.deepStrictEqual(json, { pattern: 'TODO', base_path: '/ws', files: {}, files_searched: 10, skipped: { binary: 1 } });
      // A person's list of notes (the Command Palette) says it in words.
      assert.deepStrictEqual(grepNotes(grepReport({ skipped: { ...emptySkips(), binary: 1 } })), ['No matches in 10 files searched; skipped 1 binary.']);
    });

    it('names the large files that hold the pattern, quoting a first line once when a copy repeats it', () => {
      const first = { line: 7, text: '  function createProgram(root) {' };
      const largeFilesCheck = {
        limit: 1024,
        skipped: 5,
        checked: [
          { file: '/ws/lib/tsc.js', size: 3 * 1024 * 1024, checked: true, first },
          { file: '/ws/lib/typescript.js', size: 2048, checked: true, first: { ...first, line: 9 } },
          { file: '/ws/lib/other.js', size: 4096, checked: true },
          { file: '/ws/lib/huge.js', size: 40 * 1024 * 1024, checked: false },
        ],
      };
      assert.deepStrictEqual(grepNotes(grepReport({ largeFilesCheck }), undefined, true), [
        '5 files were skipped as over grepTools.maxFileSize (1024 bytes); the pattern occurs in /ws/lib/tsc.js (3.0 MB, first at line 7: "function createProgram(root) {"), ' +
          '/ws/lib/typescript.js (2 KB, first at line 9: the same text) (1 without a match, 2 not checked). Read them there with your file-reading tool, or ask the user to raise grepTools.maxFileSize.',
      ]);
    });

    it('blames the include glob when it matched no file', () => {
      assert.deepStrictEqual(grepNotes(grepReport({ candidates: 0, filesSearched: 0, include: '*.rs' })), [
        'The include glob "*.rs" matched no file under the search path.',
      ]);
      // Without an include there is nothing to blame: the general note.
      assert.deepStrictEqual(grepNotes(grepReport({ candidates: 0, filesSearched: 0 })), ['No matches in 0 files searched.']);
    });

    it('says when offset is past the end, in the unit of the mode', () => {
      assert.deepStrictEqual(grepNotes(grepReport({ totalResults: 7, offset: 9 })), [
        'offset 9 is past the last result: there are 7 matches. Use an offset below that.',
      ]);
      assert.deepStrictEqual(grepNotes(grepReport({ outputMode: 'count', totalResults: 2, offset: 2 })), [
        'offset 2 is past the last result: there are 2 files. Use an offset below that.',
      ]);
    });

    it('describes the page and the next offset', () => {
      assert.deepStrictEqual(grepNotes(grepReport({ totalResults: 30, returnedResults: 10, offset: 10, nextOffset: 20 })), [
        'Showing matches 11-20 of 30. Call again with offset 20 for more, or narrow the search.',
      ]);
    });

    it('puts the time-out note first', () => {
      const notes = grepNotes(grepReport({ timedOut: true, elapsedMs: 30_400, totalResults: 5, returnedResults: 5 }));
      assert.deepStrictEqual(notes, [
        'The search timed out after 30 s; results and totals cover only the files searched before then. Narrow it with path or include.',
      ]);
    });
  });

  describe('a cut page names the matching files it hides', () => {
    it('lists them most relevant first, with counts and a looked-up first line, and the calls that list them all', () => {
      const notes = grepNotes(
        grepReport({
          pattern: 'WebpackError',
          files: [{ file: '/ws/lib/Compilation.js', matches: [{ line: 5, text: 'new WebpackError()' }] }],
          totalResults: 9,
          returnedResults: 1,
          totalMatches: 9,
          filesMatched: 4,
          nextOffset: 1,
          matched: [
            { file: '/ws/lib/Compilation.js', count: 3 },
            { file: '/ws/test/Error.test.js', count: 4 },
            { file: '/ws/lib/Stats.js', count: 1 },
            { file: '/ws/lib/WebpackError.js', count: 1 },
          ],
          firstLines: new Map([['/ws/lib/WebpackError.js', { line: 17, text: 'class WebpackError extends Error {' }]]),
          input: { pattern: 'WebpackError', max_results: 1 },
        }),
      );
      assert.deepStrictEqual(notes.slice(1), [
        '3 more matching files are not on this page: /ws/lib/WebpackError.js (1; 17: "class WebpackError extends Error {"), /ws/lib/Stats.js (1), /ws/test/Error.test.js (4). ' +
          'All of them: {"pattern":"WebpackError","output_mode":"files_with_matches"}, or "count" for lines per file.',
      ]);
    });

    it('says nothing of hidden files when every matching file is on the page', () => {
      const notes = grepNotes(
        grepReport({
          files: [{ file: '/ws/a.js', matches: [{ line: 1, text: 'TODO' }] }],
          totalResults: 2,
          returnedResults: 1,
          filesMatched: 1,
          nextOffset: 1,
          matched: [{ file: '/ws/a.js', count: 2 }],
        }),
      );
      assert.strictEqual(notes.length, 1);
    });
  });

  describe('printGlob and globNotes', () => {
    it('prints the documented fields', () => {
      const text = printGlob(globReport({ files: ['/ws/a.ts', '/ws/b.ts'], total: 3, nextOffset: 2 }));
      assert.strictEqual(
        text,
        JSON.stringify({
          pattern: '*.ts',
          base_path: '/ws',
          files: ['/ws/a.ts', '/ws/b.ts'],
          total: 3,
          truncated: true,
          next_offset: 2,
          notes: ['Showing files 1-2 of 3. Call again with offset 2 for more, or narrow the search.'],
        }),
      );
    });

    it('suggests the recursive pattern with its count', () => {
      assert.deepStrictEqual(globNotes(globReport({ deeperMatches: 312 })), [
        '"*.ts" matches only directly in the base directory and found nothing there; "**/*.ts" finds 312 files at any depth.',
      ]);
    });

    it('explains an empty result without a deeper match', () => {
      assert.deepStrictEqual(globNotes(globReport({ deeperMatches: 0, skipped: { ...emptySkips(), denied: 1 } })), [
        'No file matches "*.ts" under the base path; skipped 1 denied by policy.',
      ]);
    });

    it('says why a call timed out, one note per cause', () => {
      assert.deepStrictEqual(
        [
          globNotes(globReport({ timedOut: true, listingTimedOut: true, elapsedMs: 2000 })),
          globNotes(globReport({ timedOut: true, namesWaited: true, mode: 'regex', elapsedMs: 2000 })),
          globNotes(globReport({ timedOut: true, mode: 'regex', elapsedMs: 2000 })),
          globNotes(globReport({ timedOut: true, elapsedMs: 2000 })),
        ].map((notes) => notes[0].split(/[:;]/)[0]),
        [
          'The call timed out after 2 s, before the listing of the paths under the base path had finished',
          'The call timed out after 2 s before a search thread was free to test the pattern (other calls held every one)',
          'The regex timed out after 2 s',
          'The call timed out after 2 s',
        ],
      );
    });

    it('says when offset is past the end', () => {
      assert.deepStrictEqual(globNotes(globReport({ total: 4, offset: 4 })), [
        'offset 4 is past the last result: there are 4 files. Use an offset below that.',
      ]);
    });
  });

  describe("the model's answer: plain text, paths below a root given once", () => {
    it('prints a content answer exactly as docs/tools.md shows it', async () => {
      const report = grepReport({
        pattern: 'SearcherBuilder',
        files: [
          {
            file: '/ws/crates/searcher/src/lib.rs',
            matches: [{ line: 42, text: 'pub struct SearcherBuilder {', before: ['/// Build a searcher.'], defines: true }],
          },
        ],
        totalResults: 158,
        returnedResults: 1,
        totalMatches: 158,
        filesMatched: 9,
        filesSearched: 1203,
        nextOffset: 1,
        skipped: { ...emptySkips(), binary: 3 },
        input: { pattern: 'SearcherBuilder', max_results: 1 },
      });
      const text = await renderGrep(report, byteBudget(51200));
      assert.strictEqual(
        text,
        [
          'root: /ws',
          'total_matches: 158',
          'returned_matches: 1',
          'files_matched: 9',
          'files_searched: 1203',
          'next_offset: 1',
          'skipped: binary 3',
          '',
          'crates/searcher/src/lib.rs',
          '41- /// Build a searcher.',
          '42 def: pub struct SearcherBuilder {',
          '',
          'note: Showing matches 1-1 of 158. Call again with offset 1 for more, or narrow the search.',
        ].join('\n'),
      );
    });

    it("names a note's paths below the root, and a call's path whole, as the call takes it", async () => {
      const report = grepReport({
        pattern: 'x',
        files: [{ file: '/ws/a.ts', matches: [{ line: 1, text: 'x' }] }],
        totalResults: 3,
        returnedResults: 1,
        totalMatches: 3,
        filesMatched: 2,
        nextOffset: 1,
        matched: [
          { file: '/ws/a.ts', count: 1 },
          { file: '/ws/lib/b.ts', count: 2 },
        ],
        input: { pattern: 'x', path: '/ws/lib', max_results: 1 },
      });
      const notes = parseAnswer(await renderGrep(report, byteBudget(51200))).notes as string[];
      assert.match(
        notes[1],
        /^1 more matching file is not on this page: lib\/b\.ts \(2\)\. All of them: \{"pattern":"x","path":"\/ws\/lib","output_mode":"files_with_matches"\}/,
      );
    });

    it('writes a result spanning lines one row a line, and a path holding a line break as a JSON string', async () => {
      const report = grepReport({
        files: [{ file: '/ws/odd\nname.py', matches: [{ line: 2, text: '# Validate credentials\ndef authenticate(self):' }] }],
        totalResults: 1,
        returnedResults: 1,
        totalMatches: 1,
        filesMatched: 1,
        input: { pattern: 'x', multiline: true },
      });
      const text = await renderGrep(report, byteBudget(51200));
      assert.strictEqual(
        text,
        ['root: /ws', 'files_searched: 10', '', '"odd\\nname.py"', '2: # Validate credentials', '3+ def authenticate(self):'].join('\n'),
      );
      assert.deepStrictEqual(readAnswer<GrepAnswer>(text).files, [
        { file: '/ws/odd\nname.py', matches: [{ line: 2, text: '# Validate credentials\ndef authenticate(self):' }] },
      ]);
    });

    it("prints count, files_with_matches and glob's mtime one file a line", async () => {
      const input = { pattern: 'x' };
      const count = grepReport({
        outputMode: 'count',
        files: [{ file: '/ws/src/a.ts', count: 2 }],
        totalResults: 1,
        returnedResults: 1,
        totalMatches: 2,
        filesMatched: 1,
        input,
      });
      assert.strictEqual(await renderGrep(count, byteBudget(51200)), 'root: /ws\noutput_mode: count\ntotal_matches: 2\nfiles_searched: 10\n\nsrc/a.ts: 2');
      const listed = grepReport({
        outputMode: 'files_with_matches',
        files: ['/ws/a.ts', '/ws/b/c.ts'],
        totalResults: 2,
        returnedResults: 2,
        filesMatched: 2,
        input,
      });
      assert.strictEqual(await renderGrep(listed, byteBudget(51200)), 'root: /ws\noutput_mode: files_with_matches\nfiles_searched: 10\n\na.ts\nb/c.ts');
      const glob = globReport({
        input: { pattern: '*.ts' },
        files: ['/ws/b.ts', '/ws/a.ts'],
        total: 2,
        mtimes: new Map([
          ['/ws/b.ts', Date.UTC(2026, 10, 23, 18, 1, 42)],
          ['/ws/a.ts', 0],
        ]),
      });
      assert.strictEqual(await renderGlob(glob, byteBudget(51200)), 'root: /ws\n\nb.ts: 2026-11-23T18:01:42Z\na.ts: 1970-01-01T00:00:00Z');
      assert.strictEqual(
        await renderGlob(globReport({ pattern: '*.zz', input: { pattern: '*.zz' } }), byteBudget(51200)),
        'root: /ws\n\nnote: No file matches "*.zz" under the base path.',
      );
    });

    it('takes the root from the workspace folders: the folder, the directory several share, or none', () => {
      assert.strictEqual(answerRoot(['/ws']), '/ws');
      assert.strictEqual(answerRoot(['/ws/']), '/ws');
      assert.strictEqual(answerRoot(['/ws/api', '/ws/web']), '/ws');
      assert.strictEqual(answerRoot(['/ws/api', '/ws/api-client']), '/ws');
      assert.strictEqual(answerRoot(['/home/me/api', '/srv/web']), undefined);
      assert.strictEqual(answerRoot(['/']), undefined);
      assert.strictEqual(answerRoot(['C:\\ws\\api', 'C:\\ws\\web']), 'C:\\ws');
      assert.strictEqual(answerRoot(['C:\\api', 'D:\\web']), undefined);
      assert.strictEqual(answerRoot(['C:\\api', 'C:\\web']), undefined);
      assert.strictEqual(answerRoot([]), undefined);
    });

    it('writes every path whole when there is no root, and a path outside the root whole', async () => {
      const spread = grepReport({
        folders: ['/home/me/api', '/srv/web'],
        basePaths: ['/home/me/api', '/srv/web'],
        input: { pattern: 'x', output_mode: 'files_with_matches' },
        outputMode: 'files_with_matches',
        files: ['/home/me/api/a.ts', '/srv/web/b.ts'],
        totalResults: 2,
        returnedResults: 2,
        filesMatched: 2,
      });
      assert.strictEqual(
        await renderGrep(spread, byteBudget(51200)),
        'output_mode: files_with_matches\nfiles_searched: 10\n\n/home/me/api/a.ts\n/srv/web/b.ts',
      );
      const outside = grepReport({
        basePaths: ['/elsewhere'],
        outputMode: 'files_with_matches',
        files: ['/elsewhere/a.ts'],
        totalResults: 1,
        returnedResults: 1,
        filesMatched: 1,
        input: { pattern: 'x', path: '/elsewhere' },
      });
      assert.strictEqual(
        await renderGrep(outside, byteBudget(51200)),
        'root: /ws\nbase_path: /elsewhere\noutput_mode: files_with_matches\nfiles_searched: 10\n\n/elsewhere/a.ts',
      );
    });
  });

  describe('renderGrep and renderGlob: the output budget', () => {
    const line = (n: number): LineResult => ({ line: n, text: `match number ${n} with some text around it` });
    /** 3 files with 20 matching lines each, a whole page of 60. */
    const page = (offset = 0): GrepReport =>
      grepReport({
        files: ['/ws/a.ts', '/ws/b.ts', '/ws/c.ts'].map((file, f) => ({ file, matches: Array.from({ length: 20 }, (_, i) => line(f * 100 + i + 1)) })),
        totalResults: 75,
        returnedResults: 60,
        totalMatches: 75,
        filesMatched: 4,
        offset,
        nextOffset: offset + 60,
        input: { pattern: 'match', include: '*.ts', max_results: 60, ...(offset ? { offset } : {}) },
      });

    it('prints the page as is when it fits', async () => {
      const report = page();
      // The same fields, but for the pattern and the root: a person's JSON copy names the pattern and absolute
      // paths, the model's answer leaves out its own call's input and names the paths below the root.
      const { root, ...fields } = parseAnswer(await renderGrep(report, byteBudget(51200)));
      assert.strictEqual(root, '/ws');
      assert.deepStrictEqual({ pattern: report.pattern, ...fields }, JSON.parse(printGrep(report)));
    });

    it('drops whole matches from the end, cutting inside a file, and says how to continue exactly', async () => {
      const text = await renderGrep(page(10), byteBudget(1000));
      assert.ok(Buffer.byteLength(text) <= 1000);
      const json = readAnswer<GrepAnswer>(text);
      const shown = json.returned_matches!;
      assert.ok(shown > 0 && shown < 20, `${shown} matches fit`);
      assert.deepStrictEqual(parseAnswer(text).files, { '/ws/a.ts': Array.from({ length: shown }, (_, i) => `${i + 1}: ${line(i + 1).text}`) });
      assert.deepStrictEqual(json.files, [{ file: '/ws/a.ts', matches: Array.from({ length: shown }, (_, i) => line(i + 1)) }]);
      assert.strictEqual(json.total_matches, 75);
      assert.strictEqual(json.truncated, true);
      assert.strictEqual(json.next_offset, 10 + shown);
      assert.deepStrictEqual(json.notes, [
        `Output budget reached (1000 bytes): showing ${shown} of 75 matches (11-${10 + shown}). Call again with {"pattern":"match","include":"*.ts","max_results":60,"offset":${10 + shown}} to continue.`,
      ]);
    });

    it('keeps whole files of the first files when the cut falls in a later one', async () => {
      const json = readAnswer<GrepAnswer>(await renderGrep(page(), byteBudget(2000)));
      const shown = json.returned_matches!;
      assert.ok(shown > 20 && shown < 40, `${shown} matches fit`);
      assert.strictEqual((json.files[0] as { matches: unknown[] }).matches.length, 20);
      assert.strictEqual((json.files[1] as { matches: unknown[] }).matches.length, shown - 20);
    });

    it('says so when not even one result fits, and continues from the same offset', async () => {
      const huge = grepReport({
        files: [{ file: '/ws/a.ts', matches: [{ line: 1, text: 'x', after: Array(50).fill('y'.repeat(400)) }] }],
        totalResults: 1,
        returnedResults: 1,
        totalMatches: 1,
        filesMatched: 1,
        input: { pattern: 'x', context_lines: 50 },
      });
      const json = parseAnswer(await renderGrep(huge, byteBudget(2000)));
      assert.deepStrictEqual(json.files, {});
      assert.strictEqual(json.next_offset, 0);
      assert.deepStrictEqual(json.notes, [
        'Output budget reached (2000 bytes): the next result alone is larger than the budget. Call again with {"pattern":"x","context_lines":50,"offset":0} and fewer context_lines, or output_mode "files_with_matches".',
      ]);
    });

    it('counts files in the other modes', async () => {
      const files = Array.from({ length: 300 }, (_, i) => `/ws/src/module-${i}/index.ts`);
      const report = grepReport({
        outputMode: 'files_with_matches',
        files,
        totalResults: 300,
        returnedResults: 300,
        totalMatches: 900,
        filesMatched: 300,
        input: { pattern: 'x', output_mode: 'files_with_matches', max_results: 1000 },
      });
      const json = parseAnswer(await renderGrep(report, byteBudget(3000)));
      assert.deepStrictEqual(json.files, files.slice(0, json.returned_files));
      assert.strictEqual(json.next_offset, json.returned_files);
      assert.match(
        json.notes[0],
        new RegExp(
          `^Output budget reached \\(3000 bytes\\): showing ${json.returned_files} of 300 files \\(1-${json.returned_files}\\)\\. Call again with \\{"pattern":"x","output_mode":"files_with_matches","max_results":1000,"offset":${json.returned_files}\\} to continue\\.$`,
        ),
      );
    });

    it('cuts a glob answer the same way', async () => {
      const files = Array.from({ length: 400 }, (_, i) => `/ws/pkg/file-${String(i).padStart(3, '0')}.ts`);
      const report = globReport({ pattern: '**/*.ts', files, total: 400, input: { pattern: '**/*.ts' } });
      const text = await renderGlob(report, byteBudget(4096));
      assert.ok(Buffer.byteLength(text) <= 4096);
      const json = parseAnswer(text);
      const shown: number = json.files.length;
      assert.deepStrictEqual(json.files, files.slice(0, shown));
      assert.strictEqual(json.total, 400);
      assert.strictEqual(json.truncated, true);
      assert.strictEqual(json.next_offset, shown);
      assert.deepStrictEqual(json.notes, [
        `Output budget reached (4096 bytes): showing ${shown} of 400 files (1-${shown}). Call again with {"pattern":"**/*.ts","offset":${shown}} to continue.`,
      ]);
      const { root, ...fields } = parseAnswer(await renderGlob(report, byteBudget(1_000_000)));
      assert.strictEqual(root, '/ws');
      assert.deepStrictEqual({ pattern: report.pattern, ...fields }, JSON.parse(printGlob(report)));
    });
  });

  describe('zero-result suggestions', () => {
    const finding = { lines: 3, files: 2, first: { file: '/ws/a.ts', line: 4, text: '   export class UserService {' }, partial: false };

    it('gives each checked fix with its count, its first match and the exact call', () => {
      const notes = grepNotes(
        grepReport({
          pattern: 'userservice',
          diagnostics: {
            caseInsensitive: { ...finding, call: { pattern: 'userservice', case_insensitive: true } },
            includeIgnored: { ...finding, lines: 1, files: 1, partial: true, call: { pattern: 'userservice', include_ignored: true } },
          },
        }),
      );
      assert.deepStrictEqual(notes, [
        'No matches in 10 files searched.',
        'The search is case-sensitive; ignoring case it matches 3 lines in 2 files (first: /ws/a.ts:4 "export class UserService {"). Call again with {"pattern":"userservice","case_insensitive":true}.',
        'Files left out by .gitignore, files.exclude or search.exclude hold matches: at least 1 line in 1 file (first: /ws/a.ts:4 "export class UserService {"). Call again with {"pattern":"userservice","include_ignored":true} to search them.',
      ]);
    });

    it('says when the files left out were not checked (a workspace too large to list again), with the call that searches them', () => {
      const notes = grepNotes(
        grepReport({
          pattern: 'zq_nothing',
          diagnostics: {
            includeIgnored: { lines: 0, files: 0, partial: true, unchecked: { searched: 446085 }, call: { pattern: 'zq_nothing', include_ignored: true } },
          },
        }),
      );
      assert.deepStrictEqual(notes.slice(1), [
        'Files left out by .gitignore, files.exclude or search.exclude were not checked: the search had 446,085 files, too many to list again with them on an empty answer. Call again with {"pattern":"zq_nothing","include_ignored":true} to search them.',
      ]);
    });

    it('suggests literal text and the include glob at any depth', () => {
      const notes = grepNotes(
        grepReport({
          pattern: '$HOME',
          candidates: 0,
          filesSearched: 0,
          include: 'lib/*.sh',
          diagnostics: {
            fixedStrings: { ...finding, first: undefined, call: { pattern: '$HOME', fixed_strings: true } },
            deeperInclude: { ...finding, first: undefined, call: { pattern: '$HOME', include: '**/lib/*.sh' } },
          },
        }),
      );
      assert.deepStrictEqual(notes, [
        'The include glob "lib/*.sh" matched no file under the search path.',
        'As a regular expression the pattern matches nothing ($ is an end-of-line anchor); as literal text it matches 3 lines in 2 files. Call again with {"pattern":"$HOME","fixed_strings":true}.',
        'The include glob "lib/*.sh" is matched from the search path; "**/lib/*.sh" at any depth matches 3 lines in 2 files. Call again with {"pattern":"$HOME","include":"**/lib/*.sh"}.',
      ]);
    });

    it('glob: ignoring case, without max_depth, include_ignored', () => {
      const notes = globNotes(
        globReport({
          pattern: '**/*.MD',
          input: { pattern: '**/*.MD', max_depth: 2 },
          diagnostics: {
            caseInsensitive: { call: { pattern: '**/*.[mM][dD]' }, total: 4, first: ['/ws/a.md', '/ws/b.md', '/ws/c.md'] },
            withoutMaxDepth: { call: { pattern: '**/*.MD', max_depth: 0 }, total: 1, first: ['/ws/x/y/z/README.MD'] },
            includeIgnored: { call: { pattern: '**/*.MD', max_depth: 2, include_ignored: true }, total: 2, first: ['/ws/dist/A.MD', '/ws/dist/B.MD'] },
          },
        }),
      );
      assert.deepStrictEqual(notes, [
        'No file matches "**/*.MD" under the base path.',
        'Glob patterns are case-sensitive; ignoring case the pattern matches 4 files (/ws/a.md, /ws/b.md, /ws/c.md, …). Use those paths, or spell the pattern as they are spelled.',
        'max_depth 2 stops above them; at any depth the pattern matches 1 file (/ws/x/y/z/README.MD). Call again with {"pattern":"**/*.MD","max_depth":0}.',
        'Files left out by .gitignore, files.exclude or search.exclude match: 2 files (/ws/dist/A.MD, /ws/dist/B.MD). Call again with {"pattern":"**/*.MD","max_depth":2,"include_ignored":true} to list them.',
      ]);
    });
  });
});
