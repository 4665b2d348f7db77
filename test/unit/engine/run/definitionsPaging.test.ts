/**
 * Paging through answers that name their lines' definitions (docs/tools.md, "Definitions"): for any
 * page size, with and without the worker pool, all pages together are the whole answer, every line
 * exactly once, in the order of a cut page, with the same definitions and marks as on one page.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { byteBudget } from '../../../../src/engine/answer/budget';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { parseGrepInput } from '../../../../src/engine/input/schema';
import { renderGrep } from '../../../../src/engine/answer/printer';
import { SearchPool } from '../../../../src/engine/pool/pool';
import type { SearchEnvironment } from '../../../../src/engine/run/environment';
import { readAnswer } from '../../../support/answers';
import { waitUntil } from '../../../support/waitUntil';
import { contentFiles, Fixture, makeEnv, rel, type GrepAnswer } from '../../fixture';

/** Every line of every page as "file:line in | def", in page order. */
async function allPages(input: Record<string, unknown>, env: SearchEnvironment, root: string): Promise<{ lines: string[]; totals: number[] }> {
  const lines: string[] = [];
  const totals: number[] = [];
  let offset: number | undefined = 0;
  for (let pages = 0; offset !== undefined; pages++) {
    assert.ok(pages < 200, 'paging ends');
    const json: GrepAnswer = readAnswer<GrepAnswer>(
      await renderGrep(await answerGrep(parseGrepInput({ ...input, offset }), env), byteBudget(env.config.maxOutputBytes)),
    );
    for (const entry of contentFiles(json))
      for (const m of entry.matches) lines.push(`${rel(root, entry.file)}:${m.line} ${m.in ?? ''}${m.defines ? ' | def' : ''}`);
    totals.push(json.total_matches ?? lines.length);
    offset = json.next_offset;
  }
  return { lines, totals };
}

describe('paging through answers with definitions (fast-check)', function () {
  this.timeout(60_000);
  let fx: Fixture;
  let pool: SearchPool;

  before(() => {
    fx = new Fixture('grep-tools-definitions-');
    for (let f = 0; f < 6; f++) {
      const methods = Array.from({ length: 4 }, (_, m) => `  method${m}(): number {\n    return lookup(${f}, ${m});\n  }\n`).join('\n');
      fx.write(
        `src/mod${f}.ts`,
        `export class Service${f} {\n${methods}}\n\nexport function lookup(a: number, b: number): number {\n  return a + b; // lookup\n}\n`,
      );
    }
    fx.write('notes.md', 'lookup in prose\n');
    pool = new SearchPool(2).warm();
  });

  after(() => {
    pool.dispose();
    fx.remove();
  });

  it('all pages together are the one-page answer, every line once, with the same definitions', async () => {
    const inline = makeEnv(fx.root, { config: { maxResultsCap: 1000 } });
    const pooled: SearchEnvironment = { ...makeEnv(fx.root, { config: { maxResultsCap: 1000 } }), pool };
    const whole = await allPages({ pattern: 'lookup', max_results: 1000 }, inline, fx.root);
    assert.ok(
      whole.lines.some((line) => line.endsWith('Service0 > method0()')),
      whole.lines.join('\n'),
    );
    assert.ok(
      whole.lines.some((line) => line.endsWith(' | def')),
      'lookup is defined',
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.boolean(), async (max, withPool) => {
        const paged = await allPages({ pattern: 'lookup', max_results: max }, withPool ? pooled : inline, fx.root);
        // A cut page puts the files that define lookup (src/) before the others (notes.md): docs/tools.md, "Order of the results".
        assert.deepStrictEqual(paged.lines, [
          ...whole.lines.filter((line) => line.startsWith('src/')),
          ...whole.lines.filter((line) => !line.startsWith('src/')),
        ]);
        assert.ok(
          paged.totals.every((total) => total === whole.lines.length),
          'the same total on every page',
        );
      }),
      { numRuns: 12, seed: 20261125 },
    );
  });

  it("a cut page's next page finds its files' definitions known: they were parsed while the first page was read", async () => {
    const own = new Fixture('grep-tools-ahead-');
    const ahead = new SearchPool(2).warm();
    try {
      for (let f = 0; f < 8; f++) own.write(`src/part${f}.ts`, `export class Part${f} {\n  run() {\n    return find(${f});\n  }\n}\n`);
      const env: SearchEnvironment = { ...makeEnv(own.root), pool: ahead };
      const page = (offset: number) => answerGrep(parseGrepInput({ pattern: 'find\\(', max_results: 2, offset }), env);
      // Each file of a page with the definition its line is in.
      const shown = (report: Awaited<ReturnType<typeof page>>) =>
        report.files.map((entry) => typeof entry === 'object' && 'matches' in entry && `${rel(own.root, entry.file)} ${entry.matches[0].in}`);
      const first = await page(0);
      assert.deepStrictEqual(shown(first), ['src/part0.ts Part0 > run()', 'src/part1.ts Part1 > run()']);
      assert.strictEqual(first.outlined?.parsed, 2);
      await waitUntil(
        () => ahead.busyWorkers === 0 && ahead.queuedBatches === 0,
        () => 'the workers to finish the next page',
      );
      const second = await page(2);
      assert.deepStrictEqual(shown(second), ['src/part2.ts Part2 > run()', 'src/part3.ts Part3 > run()']);
      assert.deepStrictEqual(second.outlined && { parsed: second.outlined.parsed, cached: second.outlined.cached }, { parsed: 0, cached: 2 });
    } finally {
      ahead.dispose();
      own.remove();
    }
  });
});
