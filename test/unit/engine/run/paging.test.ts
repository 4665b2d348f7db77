import * as assert from 'assert';
import { readAnswer } from '../../../support/answers';
import { byteBudget } from '../../../../src/engine/answer/budget';
import { answerGlob } from '../../../../src/engine/answer/globAnswer';
import { parseGlobInput, parseGrepInput } from '../../../../src/engine/input/schema';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { renderGlob, renderGrep } from '../../../../src/engine/answer/printer';
import { contentFiles, countFiles, Fixture, makeEnv, pathFiles, rel, type GlobAnswer, type GrepAnswer } from '../../fixture';

/** The text the model receives, checked to be within the budget, parsed. */
async function grepJson(input: unknown, env: SearchEnvironment): Promise<GrepAnswer> {
  const text = await renderGrep(await answerGrep(parseGrepInput(input), env), byteBudget(env.config.maxOutputBytes));
  assert.ok(Buffer.byteLength(text) <= env.config.maxOutputBytes, `${Buffer.byteLength(text)} bytes`);
  return readAnswer<GrepAnswer>(text);
}

async function globJson(input: unknown, env: SearchEnvironment): Promise<GlobAnswer> {
  const text = await renderGlob(await answerGlob(parseGlobInput(input), env), byteBudget(env.config.maxOutputBytes));
  assert.ok(Buffer.byteLength(text) <= env.config.maxOutputBytes, `${Buffer.byteLength(text)} bytes`);
  return readAnswer<GlobAnswer>(text);
}

/** The call a budget note gives: `Call again with {…} to continue.` */
function continuation(notes: string[]): Record<string, unknown> | undefined {
  const note = notes.find((n) => n.startsWith('Output budget reached'));
  const match = note && /Call again with (\{.*\}) (?:to continue|and )/.exec(note);
  return match ? (JSON.parse(match[1]) as Record<string, unknown>) : undefined;
}

/**
 * Pages through a search until no next_offset, following the exact call of each budget note (or
 * offset = next_offset after a max_results page); returns every page.
 */
async function pageThrough<T extends GrepAnswer | GlobAnswer>(
  first: Record<string, unknown>,
  call: (input: Record<string, unknown>) => Promise<T>,
): Promise<T[]> {
  const pages: T[] = [];
  let input: Record<string, unknown> | undefined = first;
  while (input) {
    const json: T = await call(input);
    pages.push(json);
    assert.strictEqual(json.truncated, json.next_offset !== undefined);
    const next = continuation(json.notes);
    if (next) assert.strictEqual(next.offset, json.next_offset, 'the note continues at next_offset');
    input = json.next_offset === undefined ? undefined : (next ?? { ...input, offset: json.next_offset });
    assert.ok(pages.length < 500, 'paging ends');
  }
  return pages;
}

describe('paging through a large result (max_results and the output budget)', function () {
  // Each test makes up to a few hundred calls (one per page): about 1 s, several times more under wine.
  this.timeout(20_000);
  let fx: Fixture;
  let env: SearchEnvironment;
  const FILES = 40;
  const LINES = 60; // every third line matches: 20 per file, 800 in all
  const expected: string[] = [];

  before(() => {
    fx = new Fixture('grep-tools-paging-');
    for (let f = 0; f < FILES; f++) {
      const name = `pkg/mod${String(f).padStart(2, '0')}/file.ts`;
      const lines = Array.from({ length: LINES }, (_, i) =>
        i % 3 === 0 ? `export const value${i} = lookup("key-${f}-${i}"); // matched` : `const other${i} = ${i};`,
      );
      fx.write(name, lines.join('\n') + '\n');
      for (let i = 0; i < LINES; i += 3) expected.push(`${name}:${i + 1}`);
    }
    // 4 KB answers: many budget cuts per page.
    env = makeEnv(fx.root, { config: { maxOutputBytes: 4096, maxResultsCap: 1000 } });
  });

  after(() => fx.remove());

  // One test per page size: each makes one call per page, each call reading the 40 files again, and
  // wine runs them ten times slower (12–18 s for the 62 pages of 13 matches). 37 matches a page (22
  // pages) puts the cut after each of a file's 20 matches in turn (37 and 20 share no factor), as a
  // smaller page would, in fewer calls.
  for (const max of [1000, 37]) {
    it(`content, max_results ${max}: every match exactly once, in order, each answer within the budget and readable`, async () => {
      const pages = await pageThrough({ pattern: 'lookup\\(', max_results: max }, (input) => grepJson(input, env));
      const seen = pages.flatMap((page) => contentFiles(page).flatMap((entry) => entry.matches.map((m) => `${rel(fx.root, entry.file)}:${m.line}`)));
      assert.deepStrictEqual(seen, expected);
      for (const page of pages) assert.strictEqual(page.total_matches, 800);
      if (max === 1000) assert.ok(pages.length > 10, `${pages.length} budget-cut pages`);
      else assert.strictEqual(pages.length, Math.ceil(800 / max));
    });
  }

  it('content with context: pages stay gap-free and no line repeats within a file', async () => {
    const pages = await pageThrough({ pattern: 'matched', context_lines: 2 }, (input) => grepJson(input, env));
    const lines = new Map<string, number[]>();
    for (const page of pages) {
      for (const entry of contentFiles(page)) {
        const shown = lines.get(entry.file) ?? [];
        for (const m of entry.matches) {
          shown.push(...(m.before ?? []).map((_, i) => m.line - (m.before!.length - i)), m.line, ...(m.after ?? []).map((_, i) => m.line + 1 + i));
        }
        lines.set(entry.file, shown);
      }
    }
    assert.strictEqual(lines.size, FILES);
    for (const [file, shown] of lines) {
      assert.deepStrictEqual(
        shown,
        Array.from({ length: LINES }, (_, i) => i + 1),
        `${file}: every line once, in order`,
      );
    }
  });

  it('files_with_matches and count: every file exactly once', async () => {
    const files = [...new Set(expected.map((e) => e.split(':')[0]))];
    const listed = await pageThrough({ pattern: 'lookup', output_mode: 'files_with_matches', max_results: 1000 }, (input) =>
      grepJson(input, makeEnv(fx.root, { config: { maxOutputBytes: 400 } })),
    );
    assert.ok(listed.length > 2, `${listed.length} pages`);
    assert.deepStrictEqual(
      listed.flatMap((page) => pathFiles(page).map((f) => rel(fx.root, f))),
      files,
    );
    const counted = await pageThrough({ pattern: 'lookup', output_mode: 'count', max_results: 9 }, (input) => grepJson(input, env));
    assert.deepStrictEqual(
      counted.flatMap((page) => countFiles(page).map((c) => `${rel(fx.root, c.file)}=${c.count}`)),
      files.map((f) => `${f}=20`),
    );
  });

  it('glob: every path exactly once', async () => {
    const pages = await pageThrough({ pattern: '**/*.ts' }, (input) => globJson(input, makeEnv(fx.root, { config: { maxOutputBytes: 400 } })));
    assert.ok(pages.length > 2, `${pages.length} pages`);
    for (const page of pages) assert.strictEqual(page.total, FILES);
    assert.deepStrictEqual(
      pages.flatMap((page) => page.files.map((f) => rel(fx.root, f))),
      [...new Set(expected.map((e) => e.split(':')[0]))],
    );
  });
});
