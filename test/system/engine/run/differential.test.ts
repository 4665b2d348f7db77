/**
 * Differential test: for a tree with nested .gitignore files, binary files, BOM and UTF-16 files, CRLF
 * line ends, long lines and unicode, the engine's (file, line) results equal ripgrep's for a table of
 * patterns and flags. ripgrep: GREP_TOOLS_RG, else `rg` on PATH, else the one bundled with the cached
 * code-server (npm test installs it).
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as nodePath from 'path';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { findRipgrep, ripgrepArgs } from '../../../support/ripgrep';
import { Fixture, makeEnv } from '../../../unit/fixture';
import { DIFFERENTIAL_TABLE, writeDifferentialTree } from './differentialTable';

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
    writeDifferentialTree(fx);
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  const table = DIFFERENTIAL_TABLE;

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
        const report = await answerGrep({ ...input, max_results: 1000 }, env);
        const actual = (report.files as Array<{ file: string; matches: Array<{ line: number }> }>)
          .flatMap((entry) => entry.matches.map((match) => `${entry.file}:${match.line}`))
          .sort();
        assert.ok(expected.length > 0 || input.pattern === '', 'ripgrep found something');
        assert.deepStrictEqual(actual, expected);
      }
    });
  }
});
