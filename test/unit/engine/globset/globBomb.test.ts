/**
 * Globs a model writes that would take minutes to compile or match: refused up front with an error
 * naming the limit (braces that expand past 256 alternatives, 4,000 '['), and what stays within the
 * limits matched in the search workers under the time limit, the caller's event loop never held.
 */
import * as assert from 'assert';
import { answerGlob } from '../../../../src/engine/answer/globAnswer';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { GLOB_LIMITS, globComplexityProblem } from '../../../../src/engine/globset/globs';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { Fixture, makeEnv, rejectsWith } from '../../fixture';

/** The longest the event loop went without a turn while `work` ran (a timer every 5 ms). */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = Date.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    stallMs = Math.max(stallMs, Date.now() - last);
    last = Date.now();
  }, 5);
  try {
    const result = await work();
    stallMs = Math.max(stallMs, Date.now() - last);
    return { result, stallMs };
  } finally {
    clearInterval(timer);
  }
}

describe('glob bombs', function () {
  this.timeout(30_000);
  const fx = new Fixture('grep-tools-globbomb-');
  let pool: SearchPool;
  let env: SearchEnvironment;
  before(() => {
    // Names that make `*a*a*a[b-c]` backtrack: 250 'a' and no 'b' or 'c' (about 1.5 ms each, seconds in all on the calling
    // thread; a range is no literal end a name is first checked for, globMayMatch).
    for (let i = 0; i < 1500; i++) fx.write(`names/${'a'.repeat(250)}${i}`, 'x\n');
    fx.write('src/app.ts', 'x\n');
    pool = new SearchPool(2);
    env = { ...makeEnv(fx.root, { config: { timeoutSeconds: 1 } }), pool };
  });
  after(() => {
    pool.dispose();
    fx.remove();
  });

  it('{a,b} 17 times (131,072 alternatives) is refused at once, naming the limit', async () => {
    const { stallMs } = await longestStall(() =>
      rejectsWith(answerGlob({ pattern: '{a,b}'.repeat(17) }, env), /^Invalid glob "\{a,b\}.*": its braces expand to more than 256 alternatives \(the limit\)/),
    );
    assert.ok(stallMs < 100, `the event loop stalled ${stallMs} ms`);
  });

  it('an include of 4,000 "[" is refused at once, naming the limit', async () => {
    const { stallMs } = await longestStall(() =>
      rejectsWith(
        answerGrep({ pattern: 'x', include: '['.repeat(4000) }, env),
        /^Invalid include glob .*: it has 4000 '\[', at most 32 character classes are accepted/,
      ),
    );
    assert.ok(stallMs < 100, `the event loop stalled ${stallMs} ms`);
  });

  it('names the limit for stars per segment and "**" segments', () => {
    assert.strictEqual(
      globComplexityProblem('**/*a*b*c*d'),
      `the path segment "*a*b*c*d" has 4 '*', at most ${GLOB_LIMITS.starsPerSegment} per segment are accepted`,
    );
    assert.strictEqual(globComplexityProblem('**/a/**/b/**/c'), `"**/a/**/b/**/c" has 3 '**' segments, at most ${GLOB_LIMITS.globstars} are accepted`);
    for (const ordinary of ['**/*.{ts,tsx,js,jsx}', 'src/**/*.test.ts', '{src,lib}/**/[A-Z]*.ts', '*.min.*', '**/test/**/*.spec.*'])
      assert.strictEqual(globComplexityProblem(ordinary), undefined, ordinary);
  });

  it('a slow glob within the limits is matched in the workers: timed_out, the event loop free', async () => {
    const { result, stallMs } = await longestStall(() => answerGlob({ pattern: 'names/*a*a*a[b-c]' }, env));
    assert.strictEqual(result.timedOut, true);
    // About 10 s of matching on this thread before; what is left is the CLI walker's synchronous
    // listing of the 1,500 names (20–100 ms, more on a loaded machine).
    assert.ok(stallMs < 300, `the event loop stalled ${stallMs} ms`);
    // The pool is still good for the next call.
    const next = await answerGlob({ pattern: '**/*.ts' }, env);
    assert.deepStrictEqual(next.files, [fx.path('src/app.ts')]);
  });

  it("a slow include within the limits shares grep's time limit: timed_out, not minutes of testing names", async () => {
    const started = Date.now();
    const report = await answerGrep({ pattern: 'x', include: '*a*a*a[b-c]', output_mode: 'files_with_matches' }, env);
    const elapsed = Date.now() - started;
    assert.strictEqual(report.timedOut, true);
    // Seconds of name tests without the limit; with it, the limit (1 s) plus at most one name's test and the answer.
    assert.ok(elapsed < 2_000, `answered after ${elapsed} ms`);
  });

  it("extglobs are plain characters, as in VS Code's globs", async () => {
    fx.write('+(a|aa).txt', 'x\n');
    const report = await answerGlob({ pattern: '+(a|aa).txt' }, env);
    assert.deepStrictEqual(report.files, [fx.path('+(a|aa).txt')]);
  });
});
