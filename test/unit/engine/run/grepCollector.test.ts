import * as assert from 'assert';
import { emptySkips, type LineResult } from '../../../../src/engine/api/types';
import type { FileOutcome } from '../../../../src/engine/pool/pool';
import { GrepCollector, resultLimit, type GrepFileEntry } from '../../../../src/engine/run/grepCollector';

/** A file's outcome with `count` matching lines numbered from 1, each "<file> <n>". */
function matches(file: string, count: number, collect = true): FileOutcome {
  const lines: LineResult[] = Array.from({ length: count }, (_, i) => ({ line: i + 1, text: `${file} ${i + 1}` }));
  return collect ? { count, lines } : { count, lines: [], first: lines[0] };
}

/** Feeds the files in order (name → outcome) to a new collector. */
function collect(
  mode: 'content' | 'count' | 'files_with_matches',
  offset: number,
  limit: number,
  files: Array<[string, FileOutcome]>,
  onFile?: (entry: GrepFileEntry) => void,
): GrepCollector {
  const collector = new GrepCollector(mode, offset, limit, emptySkips(), onFile);
  for (const [file, outcome] of files) collector.add(file, outcome);
  return collector;
}

describe('engine/run/grepCollector: the page and the totals of a grep, from outcomes in report order', () => {
  const tree: Array<[string, FileOutcome]> = [
    ['a.ts', matches('a.ts', 3)],
    ['b.ts', 0],
    ['c.bin', 'binary'],
    ['d.ts', matches('d.ts', 2)],
    ['big.js', 'too_large'],
    ['e.ts', matches('e.ts', 4)],
  ];

  it('content: the page holds the lines from offset to offset + limit, across files; totals count every line', () => {
    const collector = collect('content', 2, 4, tree);
    assert.deepStrictEqual(
      collector.files.map((entry) => typeof entry === 'object' && 'matches' in entry && [entry.file, entry.matches.map((m) => m.line)]),
      [
        ['a.ts', [3]],
        ['d.ts', [1, 2]],
        ['e.ts', [1]],
      ],
    );
    assert.strictEqual(collector.returnedResults, 4);
    assert.strictEqual(collector.totalResults, 9);
    assert.strictEqual(collector.totalMatches, 9);
    assert.strictEqual(collector.filesSearched, 4, 'a file with no match is searched; binary and too large files are skipped');
    assert.strictEqual(collector.filesMatched, 3);
    assert.deepStrictEqual(collector.skipped, { ...emptySkips(), binary: 1, too_large: 1 });
    assert.deepStrictEqual(collector.largeFiles, ['big.js']);
  });

  it('content: the page has room for the lines still missing, then none; the next page starts where this one ended', () => {
    const collector = new GrepCollector('content', 0, 5, emptySkips());
    assert.strictEqual(collector.pageRoom, 5);
    collector.add('a.ts', matches('a.ts', 3));
    assert.strictEqual(collector.pageRoom, 2);
    collector.add('d.ts', matches('d.ts', 4));
    assert.strictEqual(collector.pageRoom, 0);
    const next = collect('content', 5, 5, [
      ['a.ts', matches('a.ts', 3)],
      ['d.ts', matches('d.ts', 4)],
    ]);
    assert.deepStrictEqual(next.files, [
      {
        file: 'd.ts',
        matches: [
          { line: 3, text: 'd.ts 3' },
          { line: 4, text: 'd.ts 4' },
        ],
      },
    ]);
  });

  it('count: one entry per matching file within the page; totalResults counts the files, totalMatches the lines', () => {
    const collector = collect('count', 1, 1, tree);
    assert.deepStrictEqual(collector.files, [{ file: 'd.ts', count: 2 }]);
    assert.strictEqual(collector.returnedResults, 1);
    assert.strictEqual(collector.totalResults, 3);
    assert.strictEqual(collector.totalMatches, 9);
  });

  it('files_with_matches: the page lists the matching files from offset; a page past the end is empty with exact totals', () => {
    assert.deepStrictEqual(collect('files_with_matches', 0, 2, tree).files, ['a.ts', 'd.ts']);
    const past = collect('files_with_matches', 10, 2, tree);
    assert.deepStrictEqual(past.files, []);
    assert.strictEqual(past.returnedResults, 0);
    assert.strictEqual(past.totalResults, 3);
  });

  it('keeps every matching file with its count and first line for a cut page, even when its lines were not collected', () => {
    const collector = collect('files_with_matches', 0, 1, [
      ['a.ts', matches('a.ts', 2, false)],
      ['d.ts', matches('d.ts', 5, false)],
    ]);
    assert.deepStrictEqual(collector.matched, [
      { file: 'a.ts', count: 2, first: { line: 1, text: 'a.ts 1' } },
      { file: 'd.ts', count: 5, first: { line: 1, text: 'd.ts 1' } },
    ]);
  });

  it('counts each kind of skipped file, and names at most 20 of the files over the size limit', () => {
    const skipped: Array<[string, FileOutcome]> = [
      ['x', 'unreadable'],
      ['y', 'denied'],
      ['z', 'outside_workspace'],
      ...Array.from({ length: 25 }, (_, i): [string, FileOutcome] => [`large${i}.js`, 'too_large']),
    ];
    const collector = collect('content', 0, 10, skipped);
    assert.deepStrictEqual(collector.skipped, { binary: 0, too_large: 25, denied: 1, unreadable: 1, outside_workspace: 1 });
    assert.strictEqual(collector.largeFiles.length, 20);
    assert.strictEqual(collector.largeFiles[0], 'large0.js');
    assert.strictEqual(collector.filesSearched, 0);
  });

  it('tells the listener of each entry as it joins the page, in order, and of none past it', () => {
    const seen: GrepFileEntry[] = [];
    const collector = collect('count', 0, 2, tree, (entry) => seen.push(entry));
    assert.deepStrictEqual(seen, collector.files);
    assert.deepStrictEqual(seen, [
      { file: 'a.ts', count: 3 },
      { file: 'd.ts', count: 2 },
    ]);
  });

  it('resultLimit: max_results, else the setting, never above the cap', () => {
    const config = { maxResults: 100, maxResultsCap: 2000 };
    assert.strictEqual(resultLimit({}, config), 100);
    assert.strictEqual(resultLimit({ max_results: 7 }, config), 7);
    assert.strictEqual(resultLimit({ max_results: 50_000 }, config), 2000);
  });
});
