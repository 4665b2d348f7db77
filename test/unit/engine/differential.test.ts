/**
 * Differential test: for a tree with nested .gitignore files, binary files, BOM and UTF-16 files, CRLF
 * line ends, long lines and unicode, the engine's (file, line) results equal ripgrep's for a table of
 * patterns and flags. ripgrep: GREP_TOOLS_RG, else `rg` on PATH, else the one bundled with the cached
 * code-server (npm test installs it).
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as nodePath from 'path';
import { runGrep } from '../../../src/engine/grep';
import { SearchPool } from '../../../src/engine/pool';
import type { GrepInput } from '../../../src/engine/types';
import { findRipgrep, ripgrepArgs } from '../../support/ripgrep';
import { Fixture, makeEnv } from '../fixture';

interface RipgrepEvent {
  type: string;
  data: { path: { text: string }; line_number: number; lines: { text: string }; submatches: Array<{ match: { text: string }; start: number }> };
}

/**
 * The lines the engine reports for one ripgrep match event. ripgrep joins the lines of adjacent
 * multiline matches into one event; the engine reports each match at its first line (matches that
 * share a line being one result), so the event is split back into its matches.
 */
function resultLines(event: RipgrepEvent): number[] {
  const { line_number: first, lines, submatches } = event.data;
  if (submatches.length === 0) return [first]; // invert_match
  const bytes = Buffer.from(lines.text, 'utf8');
  const newlines = (buffer: Buffer) => buffer.toString('utf8').split('\n').length - 1;
  const result: number[] = [];
  let coveredThrough = 0;
  for (const submatch of submatches) {
    const line = first + newlines(bytes.subarray(0, submatch.start));
    const last = line + newlines(Buffer.from(submatch.match.text, 'utf8'));
    if (line > coveredThrough) result.push(line);
    coveredThrough = Math.max(coveredThrough, last);
  }
  return result;
}

describe('differential: the engine against ripgrep', function () {
  this.timeout(30_000);
  const fx = new Fixture('grep-tools-diff-');
  let rg: string;
  let pool: SearchPool;

  before(() => {
    rg = findRipgrep();
    pool = new SearchPool(2);
    const utf16 = (text: string, bigEndian = false) => {
      const le = Buffer.from(text, 'utf16le');
      if (bigEndian) for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
      return Buffer.concat([Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]), le]);
    };
    fx.files({
      '.gitignore': 'build/\n*.log\n!keep.log\n',
      'src/.gitignore': 'generated/\n',
      'src/app.ts': 'import { needle } from "./lib";\n// a needle in the code\nconst NEEDLE = needle + 1;\nexport function needled() {}\n',
      'src/lib.ts': 'export const needle = 42; // needle needle\nexport const haystack = "no match here";\n',
      'src/generated/out.ts': 'needle generated\n',
      'src/crlf.ts': 'line one needle;\r\nline two;\r\nend;\r\nneedle at end;\r\n',
      'src/long.js': `${'x'.repeat(3000)}needle${'y'.repeat(3000)}\nshort needle\n`,
      'src/unicode.txt': 'café needle\nnaïve NEEDLE résumé\nÜber needle straße\n日本語 needle テキスト\n',
      'src/bom.txt': '\ufeffneedle after a BOM\nsecond line\n',
      'src/utf16le.txt': utf16('needle in utf-16 le\nanother line\nNEEDLE again\n'),
      'src/utf16be.txt': utf16('needle in utf-16 be\nlast\n', true),
      // Word boundaries at Unicode word characters: a mark (U+FE0F, U+0301), a joiner (U+200D), a letter
      // number (U+2160), and non-word numbers (superscript two, one half) next to the word.
      'src/words.txt': '\ufe0fimport x\nimport\u0301 y\n\u200dimport z\n\u2160import w\n\u00b2import v\nimport\u00bd u\nplain import t\n',
      'src/multi.txt': 'start of block\nmiddle needle\nend of block\nstart again end\n',
      'data/blob.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2, 3]), Buffer.from('needle\n')]),
      'app.log': 'needle in a log\n',
      'keep.log': 'needle kept\n',
      'build/out.js': 'needle built\n',
      '.hidden/config.txt': 'needle in a hidden dir\n',
      '.env': 'needle secret\n',
      'node_modules/pkg/index.js': 'needle in node_modules\n',
      'big.txt': `needle\n${'z'.repeat(1100 * 1024)}\n`,
    });
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  const table: GrepInput[] = [
    { pattern: 'needle' },
    { pattern: 'NEEDLE', case_insensitive: true },
    { pattern: '(?i)needle' },
    { pattern: 'needle', word: true },
    { pattern: 'import', word: true },
    { pattern: 'need\\w*' },
    { pattern: 'ne+dle\\b' },
    { pattern: 'needle + 1', fixed_strings: true },
    { pattern: 'café|naïve|straße' },
    { pattern: '[\\p{Script=Han}]+', },
    { pattern: '^export' },
    { pattern: 'end;$' },
    { pattern: 'start.*?end', multiline: true },
    { pattern: 'needle', invert_match: true },
    { pattern: 'needle', include: '*.ts' },
    { pattern: '\\d+' },
  ];

  for (const input of table) {
    it(`${JSON.stringify(input)} gives ripgrep's (file, line) results`, async () => {
      const output = execFileSync(rg, ['--json', ...ripgrepArgs(input), '.'], {
        cwd: fx.root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const expected = output
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as RipgrepEvent)
        .filter((event) => event.type === 'match')
        .flatMap((event) => resultLines(event).map((line) => `${nodePath.join(fx.root, event.data.path.text)}:${line}`))
        .sort();
      for (const env of [makeEnv(fx.root), { ...makeEnv(fx.root), pool }]) {
        const report = await runGrep({ ...input, max_results: 1000 }, env);
        const actual = (report.files as Array<{ file: string; matches: Array<{ line: number }> }>)
          .flatMap((entry) => entry.matches.map((match) => `${entry.file}:${match.line}`))
          .sort();
        assert.ok(expected.length > 0 || input.pattern === '', 'ripgrep found something');
        assert.deepStrictEqual(actual, expected);
      }
    });
  }
});
