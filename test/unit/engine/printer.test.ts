import * as assert from 'assert';
import type { GlobReport } from '../../../src/engine/glob';
import type { GrepReport } from '../../../src/engine/grep';
import { globNotes, grepNotes, printGlob, printGrep } from '../../../src/engine/printer';
import { emptySkips } from '../../../src/engine/types';

function grepReport(overrides: Partial<GrepReport> = {}): GrepReport {
  return {
    pattern: 'TODO',
    basePaths: ['/ws'],
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
    elapsedMs: 12,
    ...overrides,
  };
}

function globReport(overrides: Partial<GlobReport> = {}): GlobReport {
  return { pattern: '*.ts', mode: 'glob', basePaths: ['/ws'], files: [], total: 0, offset: 0, skipped: emptySkips(), elapsedMs: 3, ...overrides };
}

describe('engine/printer', () => {
  describe('printGrep', () => {
    it('prints content results exactly as SPEC §3 shows them', () => {
      const text = printGrep(
        grepReport({
          pattern: 'def authenticate',
          basePaths: ['/abs/workspace/src'],
          files: [
            {
              file: '/abs/workspace/src/auth/client.py',
              matches: [{ line: 42, text: 'def authenticate(self, username, password):', before: ['    # Validate credentials'], after: ['        return False'] }],
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
          output_mode: 'content',
          files: [
            {
              file: '/abs/workspace/src/auth/client.py',
              matches: [{ line: 42, text: 'def authenticate(self, username, password):', before: ['    # Validate credentials'], after: ['        return False'] }],
            },
          ],
          total_matches: 57,
          returned_matches: 50,
          files_searched: 1234,
          files_matched: 12,
          truncated: true,
          next_offset: 50,
          skipped: { binary: 3, too_large: 1, denied: 2, unreadable: 0, outside_workspace: 0 },
          elapsed_ms: 84,
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
        printGrep(grepReport({ outputMode: 'count', files: [{ file: '/ws/a', count: 3 }], totalResults: 2, returnedResults: 1, totalMatches: 5, filesMatched: 2, nextOffset: 1 })),
      );
      assert.strictEqual(json.total_matches, 5);
      assert.strictEqual(json.returned_files, 1);
      assert.strictEqual('returned_matches' in json, false);
      assert.deepStrictEqual(json.notes, ['Showing files 1-1 of 2. Call again with offset 1 for more, or narrow the search.']);
    });

    it('files_with_matches mode prints paths and returned_files only', () => {
      const json = JSON.parse(printGrep(grepReport({ outputMode: 'files_with_matches', files: ['/ws/a'], totalResults: 1, returnedResults: 1, totalMatches: 1, filesMatched: 1 })));
      assert.deepStrictEqual(json.files, ['/ws/a']);
      assert.strictEqual(json.returned_files, 1);
      assert.strictEqual('total_matches' in json, false);
      assert.strictEqual(json.truncated, false);
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
      assert.deepStrictEqual(
        grepNotes(grepReport({ skipped: { binary: 1, too_large: 2, denied: 3, unreadable: 4, outside_workspace: 5 } })),
        ['No matches in 10 files searched; skipped 1 binary, 2 over the size limit, 3 denied by policy, 4 unreadable, 5 outside the workspace (symlinks).'],
      );
    });

    it('blames the include glob when it matched no file', () => {
      assert.deepStrictEqual(grepNotes(grepReport({ candidates: 0, filesSearched: 0, include: '*.rs' })), ['The include glob "*.rs" matched no file under the search path.']);
      // Without an include there is nothing to blame: the general note.
      assert.deepStrictEqual(grepNotes(grepReport({ candidates: 0, filesSearched: 0 })), ['No matches in 0 files searched.']);
    });

    it('says when offset is past the end, in the unit of the mode', () => {
      assert.deepStrictEqual(grepNotes(grepReport({ totalResults: 7, offset: 9 })), ['offset 9 is past the last result: there are 7 matches. Use an offset below that.']);
      assert.deepStrictEqual(grepNotes(grepReport({ outputMode: 'count', totalResults: 2, offset: 2 })), ['offset 2 is past the last result: there are 2 files. Use an offset below that.']);
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

  describe('printGlob and globNotes', () => {
    it('prints the documented fields', () => {
      const text = printGlob(globReport({ files: ['/ws/a.ts', '/ws/b.ts'], total: 3, nextOffset: 2 }));
      assert.strictEqual(
        text,
        JSON.stringify({
          pattern: '*.ts',
          mode: 'glob',
          base_path: '/ws',
          files: ['/ws/a.ts', '/ws/b.ts'],
          count: 2,
          total: 3,
          truncated: true,
          next_offset: 2,
          skipped: emptySkips(),
          elapsed_ms: 3,
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

    it('says when offset is past the end', () => {
      assert.deepStrictEqual(globNotes(globReport({ total: 4, offset: 4 })), ['offset 4 is past the last result: there are 4 files. Use an offset below that.']);
    });
  });
});
