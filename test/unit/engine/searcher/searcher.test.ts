import * as assert from 'assert';
import * as fc from 'fast-check';
import { compileMatcher, type MatcherOptions } from '../../../../src/engine/matcher/matcher';
import {
  BINARY_PROBE_BYTES,
  clipLine,
  compilePrefilter,
  decodeText,
  pageOptions,
  searchBytes,
  searchText,
  type SearchOptions,
} from '../../../../src/engine/searcher/searcher';
import type { LineResult } from '../../../../src/engine/api/types';

function search(text: string, pattern: string, matcherOptions: MatcherOptions = {}, options: Partial<SearchOptions> = {}) {
  return searchText(text, compileMatcher(pattern, matcherOptions), {
    invert: false,
    before: 0,
    after: 0,
    maxPerFile: Number.MAX_SAFE_INTEGER,
    maxLineLength: 500,
    collect: true,
    ...options,
  });
}

/** line → text of the reported lines. */
function reported(lines: LineResult[]): Array<[number, string]> {
  return lines.map((l) => [l.line, l.text]);
}

/** Every line number shown for a file (context and results), in output order. */
function shownLineNumbers(lines: LineResult[]): number[] {
  const shown: number[] = [];
  for (const result of lines) {
    const before = result.before ?? [];
    before.forEach((_, i) => shown.push(result.line - before.length + i));
    const spanned = result.text.split('\n').length;
    for (let i = 0; i < spanned; i++) shown.push(result.line + i);
    const last = result.line + spanned - 1;
    (result.after ?? []).forEach((_, i) => shown.push(last + 1 + i));
  }
  return shown;
}

const numbered = (n: number, match: (i: number) => boolean = () => false) =>
  Array.from({ length: n }, (_, i) => (match(i + 1) ? `line ${i + 1} HIT` : `line ${i + 1}`)).join('\n') + '\n';

describe('engine/searcher', () => {
  describe('decodeText', () => {
    const bytes = (...parts: Array<number[] | string | Buffer>) =>
      new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p)))));

    it('decodes UTF-8 and strips a UTF-8 BOM', () => {
      assert.strictEqual(decodeText(bytes('héllo\n')), 'héllo\n');
      assert.strictEqual(decodeText(bytes([0xef, 0xbb, 0xbf], 'TODO bom\n')), 'TODO bom\n');
    });

    it('decodes UTF-16 LE and BE with a BOM (their NUL bytes do not make them binary)', () => {
      assert.strictEqual(decodeText(bytes([0xff, 0xfe], Buffer.from('x\nTODO le ü\n', 'utf16le'))), 'x\nTODO le ü\n');
      const be = Buffer.from('TODO be ü\n', 'utf16le').swap16();
      assert.strictEqual(decodeText(bytes([0xfe, 0xff], be)), 'TODO be ü\n');
    });

    it('treats a NUL byte in the first 8 KB as binary', () => {
      assert.strictEqual(decodeText(bytes('TODO', [0], 'TODO')), undefined);
      assert.strictEqual(decodeText(bytes('x'.repeat(BINARY_PROBE_BYTES - 1), [0])), undefined);
      assert.strictEqual(BINARY_PROBE_BYTES, 8192);
    });

    it('does not look for NUL bytes past the first 8 KB', () => {
      const text = decodeText(bytes('TODO\n', 'a'.repeat(BINARY_PROBE_BYTES), [0], '\n'));
      assert.ok(text !== undefined && text.startsWith('TODO\n'));
    });

    it('decodes an empty file as empty text', () => {
      assert.strictEqual(decodeText(new Uint8Array(0)), '');
    });
  });

  describe('clipLine', () => {
    it('leaves a line within the limit unchanged', () => {
      assert.strictEqual(clipLine('short', 10, 0, 5), 'short');
      assert.strictEqual(clipLine('x'.repeat(10), 10), 'x'.repeat(10));
    });

    it('cuts a long line to a window around the match, marking both cuts with …', () => {
      const line = 'a'.repeat(1000) + 'MATCH' + 'b'.repeat(1000);
      const clipped = clipLine(line, 50, 1000, 5);
      assert.ok(clipped.startsWith('…') && clipped.endsWith('…'), clipped);
      assert.strictEqual(clipped.length, 52);
      assert.ok(clipped.includes('MATCH'));
    });

    it('marks only the cut side when the match is near either end', () => {
      const line = 'MATCH' + 'z'.repeat(100);
      assert.strictEqual(clipLine(line, 20, 0, 5), 'MATCH' + 'z'.repeat(15) + '…');
      const tail = 'z'.repeat(100) + 'MATCH';
      assert.strictEqual(clipLine(tail, 20, 100, 5), '…' + 'z'.repeat(15) + 'MATCH');
    });
  });

  describe('searchText', () => {
    it('reports 1-based line numbers and the line text', () => {
      const result = search('alpha\nTODO one\nbeta\nTODO two\n', 'TODO');
      assert.strictEqual(result.count, 2);
      assert.deepStrictEqual(result.lines, [
        { line: 2, text: 'TODO one' },
        { line: 4, text: 'TODO two' },
      ]);
    });

    it('counts several matches on one line as one result', () => {
      const result = search('a a a\nb\na\n', 'a');
      assert.strictEqual(result.count, 2);
      assert.deepStrictEqual(reported(result.lines), [
        [1, 'a a a'],
        [3, 'a'],
      ]);
    });

    it('finds a match on a last line without a newline', () => {
      assert.deepStrictEqual(reported(search('x\nlast TODO', 'TODO').lines), [[2, 'last TODO']]);
    });

    it('reports CRLF lines without the \\r, and $ matches before \\r\\n', () => {
      const text = 'a\r\nTODO crlf\r\nb\r\n';
      assert.deepStrictEqual(search(text, 'TODO').lines, [{ line: 2, text: 'TODO crlf' }]);
      assert.deepStrictEqual(reported(search(text, 'crlf$').lines), [[2, 'TODO crlf']]);
      assert.deepStrictEqual(reported(search(text, '^b$').lines), [[3, 'b']]);
      const context = search(text, 'TODO', {}, { before: 1, after: 1 }).lines;
      assert.deepStrictEqual(context, [{ line: 2, text: 'TODO crlf', before: ['a'], after: ['b'] }]);
    });

    it('matches empty lines with ^$ but never the "line" after the final newline', () => {
      assert.deepStrictEqual(reported(search('a\n\nc\n', '^$').lines), [[2, '']]);
      assert.strictEqual(search('a\nb\n', '^$').count, 0);
      assert.strictEqual(search('a\nb\n', '^').count, 2);
    });

    it('reports nothing in an empty file, even for a pattern that matches the empty string', () => {
      assert.deepStrictEqual(search('', '^').lines, []);
      assert.strictEqual(search('', '^').count, 0);
      assert.strictEqual(search('', '^', { multiline: true }).count, 0);
      assert.strictEqual(search('', 'x', {}, { invert: true }).count, 0);
    });

    it('without multiline, a match never spans lines', () => {
      assert.strictEqual(search('a\nb\n', 'a\\sb').count, 0);
      assert.strictEqual(search('foo\nbar\n', 'foo[^x]*bar').count, 0);
      // A match that would run past the line is verified on the line alone.
      assert.deepStrictEqual(reported(search('ab\ncd\n', '[a-z]\\s*[a-z]+').lines), [
        [1, 'ab'],
        [2, 'cd'],
      ]);
      assert.deepStrictEqual(reported(search('x y\nz\n', 'y\\s*\\w*').lines), [[1, 'x y']]);
    });

    it('with multiline, a match spanning lines is one result at its first line, holding the spanned lines', () => {
      const text = 'start\nfunction f(\n  a,\n  b) {\nend\n';
      const result = search(text, 'f\\(\\s*a,\\s*b\\)', { multiline: true });
      assert.strictEqual(result.count, 1);
      assert.deepStrictEqual(result.lines, [{ line: 2, text: 'function f(\n  a,\n  b) {' }]);
    });

    it('with multiline, matches that start on one line are one result, and overlapping spans merge', () => {
      assert.deepStrictEqual(reported(search('a1 a2\nx\n', 'a\\d', { multiline: true }).lines), [[1, 'a1 a2']]);
      const merged = search('A\nB A\nB\n', 'A\\nB', { multiline: true });
      assert.strictEqual(merged.count, 1);
      assert.deepStrictEqual(reported(merged.lines), [[1, 'A\nB A\nB']]);
    });

    it('with multiline, after-context starts below the last spanned line', () => {
      const result = search('0\nab\ncd\nef\ngh\n', 'b\\ncd', { multiline: true }, { before: 1, after: 1 });
      assert.deepStrictEqual(result.lines, [{ line: 2, text: 'ab\ncd', before: ['0'], after: ['ef'] }]);
    });

    it('with invert_match reports the lines that do not match', () => {
      const result = search('keep 1\ndrop\nkeep 2\n', 'drop', {}, { invert: true });
      assert.strictEqual(result.count, 2);
      assert.deepStrictEqual(reported(result.lines), [
        [1, 'keep 1'],
        [3, 'keep 2'],
      ]);
    });

    it('with invert_match and multiline, reports the lines no match touches', () => {
      const result = search('a\nb\nc\nd\n', 'b\\nc', { multiline: true }, { invert: true });
      assert.deepStrictEqual(reported(result.lines), [
        [1, 'a'],
        [4, 'd'],
      ]);
    });

    it('adds before and after context lines', () => {
      const result = search(
        numbered(9, (i) => i === 5),
        'HIT',
        {},
        { before: 2, after: 3 },
      );
      assert.deepStrictEqual(result.lines, [{ line: 5, text: 'line 5 HIT', before: ['line 3', 'line 4'], after: ['line 6', 'line 7', 'line 8'] }]);
    });

    it('clips context windows at the start and end of the file', () => {
      const result = search('HIT first\nmiddle\nHIT last', 'HIT', {}, { before: 5, after: 5 });
      assert.deepStrictEqual(result.lines, [
        { line: 1, text: 'HIT first', after: ['middle'] },
        { line: 3, text: 'HIT last' },
      ]);
    });

    it('merges overlapping context windows so no line is shown twice', () => {
      const text = numbered(12, (i) => i === 3 || i === 5 || i === 6 || i === 10);
      const result = search(text, 'HIT', {}, { before: 2, after: 2 });
      assert.strictEqual(result.count, 4);
      assert.deepStrictEqual(result.lines, [
        { line: 3, text: 'line 3 HIT', before: ['line 1', 'line 2'], after: ['line 4'] },
        { line: 5, text: 'line 5 HIT' },
        { line: 6, text: 'line 6 HIT', after: ['line 7', 'line 8'] },
        { line: 10, text: 'line 10 HIT', before: ['line 9'], after: ['line 11', 'line 12'] },
      ]);
      const shown = shownLineNumbers(result.lines);
      assert.deepStrictEqual(
        shown,
        [...new Set(shown)].sort((a, b) => a - b),
        'each line once, in order',
      );
      assert.deepStrictEqual(shown, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    });

    it('handles before-only and after-only context', () => {
      const text = numbered(6, (i) => i === 3);
      assert.deepStrictEqual(search(text, 'HIT', {}, { before: 1 }).lines, [{ line: 3, text: 'line 3 HIT', before: ['line 2'] }]);
      assert.deepStrictEqual(search(text, 'HIT', {}, { after: 1 }).lines, [{ line: 3, text: 'line 3 HIT', after: ['line 4'] }]);
    });

    it('stops after maxPerFile reported lines', () => {
      const result = search(
        numbered(10, () => true),
        'HIT',
        {},
        { maxPerFile: 3 },
      );
      assert.strictEqual(result.count, 3);
      assert.deepStrictEqual(
        result.lines.map((l) => l.line),
        [1, 2, 3],
      );
      assert.strictEqual(
        search(
          numbered(10, () => true),
          'HIT',
          { multiline: true },
          { maxPerFile: 2 },
        ).count,
        2,
      );
      assert.strictEqual(search(numbered(10), 'HIT', {}, { maxPerFile: 4, invert: true }).count, 4);
    });

    it('only counts when collect is false', () => {
      const result = search(
        numbered(10, (i) => i % 2 === 0),
        'HIT',
        {},
        { collect: false, before: 2 },
      );
      assert.deepStrictEqual(result, { count: 5, lines: [] });
    });

    it('clips a long matching line around the match, and long context lines too', () => {
      const long = 'y'.repeat(1000) + 'TODO' + 'z'.repeat(1000);
      const text = `${'c'.repeat(800)}\n${long}\n`;
      const [result] = search(text, 'TODO', {}, { before: 1, maxLineLength: 100 }).lines;
      assert.strictEqual(result.line, 2);
      assert.ok(result.text.startsWith('…') && result.text.endsWith('…'), result.text);
      assert.ok(result.text.includes('TODO'));
      assert.strictEqual(result.text.length, 102);
      assert.deepStrictEqual(result.before, ['c'.repeat(100) + '…']);
    });

    it('matches Unicode text by code point', () => {
      assert.deepStrictEqual(reported(search('naïve café\n😀x\n', '^.x$').lines), [[2, '😀x']]);
      assert.deepStrictEqual(reported(search('ÉCOLE\n', 'école', { case_insensitive: true }).lines), [[1, 'ÉCOLE']]);
    });
  });
  describe('literal lines counted in the bytes', () => {
    const count = (first: boolean, maxPerFile = Number.MAX_SAFE_INTEGER): SearchOptions => ({
      invert: false,
      before: 0,
      after: 0,
      maxPerFile,
      maxLineLength: 40,
      collect: false,
      first,
    });
    /** What decoding the file and searching its text gives: what the byte path must give too. */
    const viaText = (bytes: Buffer, pattern: string, options: SearchOptions, matcherOptions: MatcherOptions = {}) =>
      searchText(decodeText(new Uint8Array(bytes))!, compileMatcher(pattern, matcherOptions), options);
    const viaBytes = (bytes: Buffer, pattern: string, options: SearchOptions, matcherOptions: MatcherOptions = {}) =>
      searchBytes(new Uint8Array(bytes), compileMatcher(pattern, matcherOptions), undefined, options);

    it('only a whole-pattern literal on one line (ignoring case or not) is counted in the bytes', () => {
      assert.strictEqual(compileMatcher('MAX_SAFE_INTEGER', {}).literalOnly, true);
      assert.strictEqual(compileMatcher('a.b(c)', { fixed_strings: true }).literalOnly, true);
      assert.strictEqual(compileMatcher('a\\.b', {}).literalOnly, true);
      assert.strictEqual(compileMatcher('todo', { case_insensitive: true }).literalOnly, true);
      assert.strictEqual(compileMatcher('(?i)todo', {}).literalOnly, true);
      for (const [pattern, options] of [
        ['a.b', {}],
        ['Error', { word: true }],
        ['todo', { word: true, case_insensitive: true }],
        ['a\\-b', {}],
        ['ab', { multiline: true }],
      ] as Array<[string, MatcherOptions]>) {
        assert.strictEqual(compileMatcher(pattern, options).literalOnly, false, pattern);
      }
    });

    it('a page with room for n more lines gets the text of the first n, and every line counted', () => {
      const text = numbered(6, (i) => i % 2 === 0);
      const matcher = compileMatcher('HIT', {});
      const search = (room: number) => searchText(text, matcher, pageOptions({ ...count(true), collect: true }, room));
      assert.deepStrictEqual(search(2), {
        count: 3,
        lines: [
          { line: 2, text: 'line 2 HIT' },
          { line: 4, text: 'line 4 HIT' },
        ],
      });
      assert.deepStrictEqual(search(0), { count: 3, lines: [], first: { line: 2, text: 'line 2 HIT' } });
      assert.deepStrictEqual(viaBytes(Buffer.from(text), 'HIT', pageOptions({ ...count(true), collect: true }, 2)), search(2));
    });

    it('counts lines, not occurrences, and gives the first line as decoding does (BOM, CRLF, long lines)', () => {
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`TODO TODO\r\nnone\r\n${'x'.repeat(60)} TODO end\r\nTODO`)]);
      const result = viaBytes(bytes, 'TODO', count(true));
      assert.deepStrictEqual(result, { count: 3, lines: [], first: { line: 1, text: 'TODO TODO' } });
      assert.deepStrictEqual(result, viaText(bytes, 'TODO', count(true)));
      assert.deepStrictEqual(viaBytes(bytes, 'end', count(true)), viaText(bytes, 'end', count(true)));
      assert.deepStrictEqual(viaBytes(bytes, 'TODO', count(false, 2)), { count: 2, lines: [] });
    });

    it('agrees with decoding then searching on random bytes, invalid UTF-8, non-ASCII literals, regexes, whole words and ignored case included', () => {
      // Literals (found in the bytes alone), and regexes with a required literal (each line holding it is tested).
      const searches: Array<[string, MatcherOptions]> = [
        ...['ab', 'a', 'é', 'aé', '😀', 'b a'].map((literal): [string, MatcherOptions] => [literal, { fixed_strings: true }]),
        ['a', { word: true }],
        ['ab', { word: true }],
        ['é', { word: true }],
        ['a\\w*b', {}],
        ['^ab', {}],
        ['ab$', {}],
        ['é.', {}],
        ['(?:x|a)b a', {}],
        ['[^a]b', {}],
        // Ignoring case: an ASCII literal is found in the bytes read as Latin-1; in Unicode mode a k or
        // an s is not (K, U+212A, folds to k and ſ, U+017F, to s), in plain mode ('\\-') it is.
        ['ab', { fixed_strings: true, case_insensitive: true }],
        ['b a', { fixed_strings: true, case_insensitive: true }],
        ['(?i)a\\w*b', {}],
        ['aB', { case_insensitive: true }],
        ['(?i)B a', {}],
        ['ab', { word: true, case_insensitive: true }],
        ['sk', { case_insensitive: true }],
        ['k\\-a', { case_insensitive: true }],
        ['é', { case_insensitive: true }],
      ];
      const piece = fc.oneof(
        fc.constantFrom('ab', 'a', 'b', 'é', '\n', '\r\n', '\r', ' ', '😀', 'ab\n', 'aé', 'AB', 'É', 'k', 'S', '\u212a', '\u017f', '-'),
        fc.uint8Array({ minLength: 1, maxLength: 3 }).map((b) => Buffer.from(b.map((x) => (x === 0 ? 0x80 : x))).toString('latin1')),
      );
      const file = fc
        .array(piece, { maxLength: 30 })
        .chain((parts) =>
          fc
            .array(fc.boolean(), { minLength: parts.length, maxLength: parts.length })
            .map((raw) => Buffer.concat(parts.map((p, i) => (raw[i] ? Buffer.from(p, 'latin1') : Buffer.from(p, 'utf8'))))),
        );
      fc.assert(
        fc.property(
          file,
          fc.constantFrom(...searches),
          fc.boolean(),
          fc.integer({ min: 1, max: 4 }),
          fc.option(fc.integer({ min: 0, max: 3 })),
          (bytes, [pattern, matcherOptions], first, maxPerFile, pageRoom) => {
            fc.pre(bytes.indexOf(0) === -1); // a NUL makes the file binary either way
            const options = pageRoom === null ? count(first, maxPerFile) : pageOptions({ ...count(true, maxPerFile), collect: true }, pageRoom);
            assert.deepStrictEqual(viaBytes(bytes, pattern, options, matcherOptions), viaText(bytes, pattern, options, matcherOptions), pattern);
          },
        ),
        { numRuns: 3000 },
      );
    });
    it('ignoring case, finds every line across the 64 KB pieces the bytes are read in, as decoding does', () => {
      // Lines of 'x' with "DePrEcAtEd" placed at random offsets, around the piece boundaries included.
      const boundary = fc.integer({ min: 1, max: 4 }).chain((k) => fc.integer({ min: k * 65536 - 12, max: k * 65536 + 2 }));
      const offsets = fc.array(fc.oneof(boundary, fc.integer({ min: 0, max: 300_000 })), { minLength: 1, maxLength: 12 });
      fc.assert(
        fc.property(offsets, fc.integer({ min: 20, max: 5000 }), fc.boolean(), (at, lineLength, first) => {
          const bytes = Buffer.alloc(300_010, 'x');
          for (let i = lineLength; i < bytes.length; i += lineLength) bytes[i] = 10;
          for (const offset of at) bytes.write('DePrEcAtEd', offset, 'latin1');
          const options = first ? count(true) : pageOptions({ ...count(true), collect: true }, 5);
          assert.deepStrictEqual(
            viaBytes(bytes, 'deprecated', options, { case_insensitive: true }),
            viaText(bytes, 'deprecated', options, { case_insensitive: true }),
          );
        }),
        { numRuns: 200 },
      );
    });
  });
  describe('byte prefilter', () => {
    const filler = (size: number) => Buffer.alloc(size, 'x');
    const prefilter = (pattern: string, options: MatcherOptions = {}) => compilePrefilter(compileMatcher(pattern, options))!;

    it('finds a case-insensitive literal anywhere in a large file, also across the 64 KB steps it decodes', () => {
      const test = prefilter('deprecated', { case_insensitive: true });
      for (const at of [0, 65536 - 5, 65536 - 10, 65536, 200_000, 1_000_000 - 10]) {
        const bytes = Buffer.concat([filler(at), Buffer.from('DePrEcAtEd'), filler(1_000_000 - at)]);
        assert.strictEqual(test(bytes), true, `at ${at}`);
      }
      assert.strictEqual(test(filler(1_000_000)), false);
      assert.strictEqual(test(Buffer.from('deprecate')), false);
    });

    it('a literal other than ASCII ignoring case is not tested on bytes: é also matches É', () => {
      const matcher = compileMatcher('é', { case_insensitive: true });
      assert.strictEqual(compilePrefilter(matcher), undefined);
      const options: SearchOptions = { invert: false, before: 0, after: 0, maxPerFile: 9, maxLineLength: 40, collect: false, first: true };
      assert.deepStrictEqual(searchBytes(new Uint8Array(Buffer.from('CAFÉ only\n')), matcher, compilePrefilter(matcher), options), {
        count: 1,
        lines: [],
        first: { line: 1, text: 'CAFÉ only' },
      });
      assert.strictEqual(prefilter('é')(Buffer.from('CAFÉ')), false, 'case-sensitive: still tested on bytes');
    });

    it('the Kelvin sign and long s fold to k and s with the unicode flag', () => {
      assert.strictEqual(prefilter('kiss', { case_insensitive: true })(Buffer.from('\u212aiss')), true);
      assert.strictEqual(prefilter('kiss', { case_insensitive: true })(Buffer.from('ki\u017fs')), true);
    });
  });
});
