/**
 * The index's stamps taken by the search workers in a long-running process (VS Code, serve): a search
 * of a listed workspace hands the stamps of the files the index would settle to the pool (never one
 * twice in a call, even when the checks of an empty answer run side by side), and the answer is the one
 * a search without the index gives, files edited after the index was built included.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as nodePath from 'path';
import { byteBudget } from '../../../../src/engine/answer/budget';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { renderGrep } from '../../../../src/engine/answer/printer';
import type { Candidate, GrepInput } from '../../../../src/engine/api/types';
import { compileMatcher } from '../../../../src/engine/matcher/matcher';
import type { ContentIndex } from '../../../../src/engine/index/contentIndex';
import { planRegex } from '../../../../src/engine/index/planner';
import { currentIndexPrejudge, RecentResults } from '../../../../src/engine/index/prejudge';
import type { Vouching, WatchWord } from '../../../../src/engine/index/treeWatcher';
import { statStamp } from '../../../../src/engine/source/fileStamp';
import { loadIndex } from '../../../../src/engine/index/store';
import { SearchPool, type OutlineSpec } from '../../../../src/engine/pool/pool';
import type { SearchEnvironment } from '../../../../src/engine/run/environment';
import { buildWorkspaceIndex, openWorkspaceIndex } from '../../../../src/engine/run/workspaceIndex';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, makeEnv } from '../../fixture';
import { age } from './age';
import { vouchingBy } from './vouchingBy';

/** A pool that counts the stamps it is asked for, per path. */
class CountingPool extends SearchPool {
  readonly asked = new Map<string, number>();

  override stamps(paths: readonly string[]) {
    for (const path of paths) this.asked.set(path, (this.asked.get(path) ?? 0) + 1);
    return super.stamps(paths);
  }
}

async function text(input: GrepInput, env: SearchEnvironment): Promise<{ text: string; settled: number }> {
  const report = await answerGrep(input, env);
  return { text: await renderGrep(report, byteBudget(env.config.maxOutputBytes)), settled: report.indexed?.settled ?? 0 };
}

describe('index: the stamps of the files it settles, taken by the search workers', function () {
  this.timeout(60_000);
  const fx = new Fixture('grep-tools-prejudge-');
  const indexDir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-prejudge-index-'));
  const pool = new CountingPool(2);
  let off: SearchEnvironment;
  const opened: Array<() => void> = [];
  /** The index as one call of a long-running process sees it (each call takes its stamps afresh), over the recorded listing. */
  const onePerCall = (): SearchEnvironment => {
    const workspace = openWorkspaceIndex(indexDir, [fx.root], new NodeFileSource());
    const stored = loadIndex(indexDir);
    assert.ok(workspace && stored, 'the index was stored and opened');
    opened.push(workspace.close, stored.close);
    return { ...off, index: currentIndexPrejudge(() => stored.index, { stampsInWorkers: true }), source: workspace.source };
  };
  const FILES = 700;

  before(async () => {
    for (let i = 0; i < FILES; i++) fx.write(`src/d${i % 7}/m${i}.ts`, `export const value${i} = ${i};\n${i % 50 === 0 ? 'const rare = "needle";\n' : ''}`);
    age(fx.root);
    off = { ...makeEnv(fx.root), pool };
    await buildWorkspaceIndex(off, indexDir);
    // Edited in place after the index was built (the listing stays replayable): the same size with the pattern now in it, a new size.
    fs.writeFileSync(fx.path('src/d1/m1.ts'), fs.readFileSync(fx.path('src/d1/m1.ts'), 'utf8').replace('value1 ', 'needle '));
    fx.write('src/d2/m2.ts', 'const needle = 2; // grown\n');
  });
  after(() => {
    for (const close of opened) close();
    pool.dispose();
    fx.remove();
    fs.rmSync(indexDir, { recursive: true, force: true });
  });
  beforeEach(() => pool.asked.clear());

  it('a hit: the workers take the stamps of the files the index settles, and the answer is the one without the index', async () => {
    const input: GrepInput = { pattern: 'needle' };
    const withIndex = await text(input, onePerCall());
    assert.strictEqual(withIndex.text, (await text(input, off)).text);
    assert.match(withIndex.text, /m1\.ts/, 'the file edited to the same size is read afresh');
    assert.match(withIndex.text, /grown/);
    assert.ok(withIndex.settled > FILES - 50, `${withIndex.settled} files settled`);
    assert.ok(pool.asked.size >= withIndex.settled, `${pool.asked.size} stamps taken by the workers for ${withIndex.settled} settled files`);
    assert.ok(!pool.asked.has(fx.path('src/d0/m0.ts')), 'a file holding every trigram of the pattern is read, not stamped');
  });

  it('an empty answer and its checks: stamps taken by the workers once, the answer the one without the index', async () => {
    const input: GrepInput = { pattern: 'Nowhere To Be Found' };
    const withIndex = await text(input, onePerCall());
    assert.strictEqual(withIndex.text, (await text(input, off)).text);
    assert.ok(pool.asked.size > FILES / 2, `${pool.asked.size} stamps taken by the workers`);
    const twice = [...pool.asked].filter(([, count]) => count > 1);
    assert.deepStrictEqual(twice, [], 'stamps taken twice in one call');
  });

  it('an empty answer whose notes count what ignoring case finds: the same with the index as without, settled files and edited ones included', async () => {
    for (const pattern of ['NEEDLE', 'Needle|VALUE1\\b']) {
      const withIndex = await text({ pattern }, onePerCall());
      assert.strictEqual(withIndex.text, (await text({ pattern }, off)).text, pattern);
      assert.match(withIndex.text, /ignoring case it matches (\d+) lines/, pattern);
      assert.ok(withIndex.settled > FILES / 2, `${pattern}: ${withIndex.settled} files settled`);
    }
  });

  it('two searches of one call asking side by side: each stamp is taken once, and both judge with it', async () => {
    const search = onePerCall().index!;
    const paths = Array.from({ length: FILES }, (_, i) => fx.path(`src/d${i % 7}/m${i}.ts`)).filter((path) => !/m[12]\.ts$/.test(path));
    const request = { matcher: compileMatcher('nowhere', {}), invert: false, maxFileSize: 1 << 20 };
    const listed = [...paths, ...paths].map((path) => ({ path, relative: nodePath.relative(fx.root, path) }));
    const judges = await Promise.all([1, 2].map(() => search.prejudgeListed(request, listed, (wanted) => pool.stamps(wanted))));
    assert.strictEqual(pool.asked.size, paths.length, 'every stamp taken by the workers');
    assert.ok(
      [...pool.asked.values()].every((count) => count === 1),
      'none twice',
    );
    for (const judge of judges)
      assert.deepStrictEqual(
        listed.map((_, at) => judge!(at)),
        listed.map(() => 0),
        'every file settled as holding no match',
      );
  });

  it('a search of a list judges each file by its position as a search of the same paths judges it by path, again from the ids it remembers', async () => {
    const search = onePerCall().index!;
    const paths = [...Array.from({ length: FILES }, (_, i) => fx.path(`src/d${i % 7}/m${i}.ts`)), fx.path('src/absent.ts')];
    const listed = paths.map((path) => ({ path, relative: nodePath.relative(fx.root, path) }));
    for (const pattern of ['needle', 'nowhere']) {
      const request = { matcher: compileMatcher(pattern, {}), invert: false, maxFileSize: 1 << 20 };
      const byPath = search.prejudge(request)!;
      const expected = paths.map((path) => byPath(path));
      assert.ok(expected.includes(0) && expected.includes(undefined), `${pattern}: some files settled, some read`);
      for (const round of [1, 2]) {
        const byPosition = (await search.prejudgeListed(request, listed, (wanted) => pool.stamps(wanted)))!;
        assert.deepStrictEqual(
          listed.map((_, at) => byPosition(at)),
          expected,
          `${pattern}, search ${round}`,
        );
      }
    }
  });
});

describe('index: the outcomes of recent searches, kept while a watcher vouches for their files', function () {
  this.timeout(60_000);
  const fx = new Fixture('grep-tools-recent-');
  const indexDir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-recent-index-'));
  const pool = new SearchPool(2);
  /** Files no longer vouched for (a watcher saw them change). */
  const changed = new Set<string>();
  let off: SearchEnvironment;
  let watched: SearchEnvironment;
  /** The same, remembering outcomes in `recent`. */
  let watchedWith: (recent: RecentResults) => SearchEnvironment;
  const opened: Array<() => void> = [];
  const FILES = 300;

  before(async () => {
    for (let i = 0; i < FILES; i++)
      fx.write(
        `src/d${i % 5}/m${i}.ts`,
        `export const value${i} = ${i};\n${i % 10 === 0 ? `const rare = "needle ${i}"; // needle again\nfunction outer${i}() {\n  return 'inner';\n}\n` : ''}`,
      );
    age(fx.root);
    off = { ...makeEnv(fx.root), pool };
    await buildWorkspaceIndex(off, indexDir);
    const workspace = openWorkspaceIndex(indexDir, [fx.root], new NodeFileSource());
    const stored = loadIndex(indexDir);
    assert.ok(workspace && stored);
    opened.push(workspace.close, stored.close);
    // One index for every call, as in VS Code: what it remembers lives as long as the index.
    // A new view of the index for every call, as VS Code and serve make, sharing what they remember.
    watchedWith = (recent) =>
      Object.defineProperty({ ...off, source: workspace.source }, 'index', {
        get: () =>
          currentIndexPrejudge(() => stored.index, { vouching: vouchingBy((idx, id) => !changed.has(idx.fileOf(id).path)), recent, stampsInWorkers: true }),
      });
    watched = watchedWith(new RecentResults());
  });
  after(() => {
    for (const close of opened) close();
    pool.dispose();
    fx.remove();
    fs.rmSync(indexDir, { recursive: true, force: true });
  });

  const run = async (input: GrepInput, env: SearchEnvironment) => {
    const report = await answerGrep(input, env);
    return { text: await renderGrep(report, byteBudget(env.config.maxOutputBytes)), read: report.indexed?.read ?? -1 };
  };

  it('a repeated search reads no file again, and answers the same', async () => {
    for (const input of [{ pattern: 'needle' }, { pattern: 'needle', output_mode: 'count' as const }, { pattern: 'value\\d+ = 1\\d;' }]) {
      const first = await run(input, watched);
      assert.ok(first.read > 0, `${input.pattern}: the first search reads the candidates`);
      const again = await run(input, watched);
      assert.strictEqual(again.read, 0, `${JSON.stringify(input)}: nothing read again`);
      assert.strictEqual(again.text, first.text);
      assert.strictEqual(again.text, (await run(input, off)).text, 'the answer without the index');
    }
  });

  it('a question asked again after others filled the lines kept reads only the files its page shows, and answers the same', async () => {
    // 30 lines (30 files) hold "needle"; 300 hold "value": kept whole, the second pushes the first's lines out (40 kept in all).
    const env = watchedWith(new RecentResults({ specs: 16, lines: 40 }));
    const input: GrepInput = { pattern: 'needle', max_results: 5 };
    const first = await run(input, env);
    assert.ok(first.read >= 30, `${first.read} files read the first time`);
    assert.ok((await run({ pattern: 'value', max_results: 5 }, env)).read > 0);
    const again = await run(input, env);
    assert.ok(again.read > 0 && again.read <= 5, `${again.read} files read again: the page's 5 lines, not the other 25 files`);
    assert.strictEqual(again.text, first.text);
    assert.strictEqual(again.text, (await run(input, off)).text, 'the answer without the index');
  });

  it('a page asked again reads no file and asks the workers nothing for its order or its definitions: the same page, definitions included', async () => {
    /** Counts the files the workers are asked about for definitions: whether they define the name (a cut page's order), and their lines' definitions. */
    class CountingOutlines extends SearchPool {
      asked = 0;
      override outline(spec: OutlineSpec) {
        const search = super.outline(spec);
        const batch = search.batch.bind(search);
        search.batch = (items, ...rest) => {
          this.asked += items.length;
          return batch(items, ...rest);
        };
        return search;
      }
    }
    const counting = new CountingOutlines(2);
    try {
      const env = (): SearchEnvironment => ({ ...watched, pool: counting, index: watched.index });
      // 30 files hold `return 'inner';` inside `function outerN`: a page of 5 is cut and ordered, a page of 100 is not.
      for (const input of [{ pattern: 'inner', max_results: 5 }, { pattern: 'inner' }, { pattern: 'rare', max_results: 7 }]) {
        counting.asked = 0;
        const first = await run(input, env());
        assert.ok(counting.asked > 0, `${JSON.stringify(input)}: the first time the workers are asked`);
        counting.asked = 0;
        const again = await run(input, env());
        assert.strictEqual(again.read, 0, `${JSON.stringify(input)}: nothing read again`);
        assert.strictEqual(counting.asked, 0, `${JSON.stringify(input)}: nothing asked again`);
        assert.strictEqual(again.text, first.text);
        assert.strictEqual(again.text, (await run(input, off)).text, 'the answer without the index');
      }
      assert.match((await run({ pattern: 'inner' }, env())).text, /^outer\d+\(\)$/m, 'the definitions are on the page');
    } finally {
      counting.dispose();
    }
  });

  it('an empty answer asked again keeps its notes, counted afresh for the files it remembers as holding no match', async () => {
    const input: GrepInput = { pattern: 'NEEDLE' };
    const first = await run(input, watched);
    assert.match(first.text, /ignoring case it matches 30 lines in 30 files/);
    const again = await run(input, watched);
    assert.strictEqual(again.read, 0, 'nothing read again by the search');
    assert.strictEqual(again.text, first.text);
  });

  it('a walk through the pages reads only the files whose lines a page shows, and every page is the one without the index', async () => {
    const pages = async (env: SearchEnvironment) => {
      const texts: string[] = [];
      let reads = 0;
      for (let offset = 0; offset < 60; offset += 7) {
        const page = await run({ pattern: 'needle', max_results: 7, offset }, env);
        texts.push(page.text);
        reads += Math.max(0, page.read);
      }
      return { texts, reads };
    };
    const expected = await pages(off);
    await run({ pattern: 'needle', max_results: 7 }, watched); // the first page: every candidate read
    const walked = await pages(watched);
    assert.deepStrictEqual(walked.texts, expected.texts);
    assert.ok(walked.reads <= 7, `${walked.reads} files read over 9 pages of 7 lines (30 files hold the 30 lines; the first page read them all)`);
  });

  it('a watched search passes over each run of files held to hold no match at once: the same runs as judging them one by one, within the limit it is given', async () => {
    const paths = Array.from({ length: FILES }, (_, i) => fx.path(`src/d${i % 5}/m${i}.ts`));
    const listed = [...paths, fx.path('src/absent.ts')].map((path) => ({ path, relative: nodePath.relative(fx.root, path) }));
    changed.add(paths[43]);
    try {
      // (patterns no earlier test searched: no remembered outcome settles a file the index itself would read)
      for (const pattern of ['needle again', 'nowhere at all']) {
        const request = { matcher: compileMatcher(pattern, {}), invert: false, maxFileSize: 1 << 20, resultsKey: pattern };
        const judge = (await watched.index!.prejudgeListed(request, listed, (wanted) => pool.stamps(wanted)))!;
        assert.ok(judge.quiet, `${pattern}: runs are counted where a watcher vouches`);
        // (a file the watcher does not vouch for is judged on its own, by its stamp)
        const runs = listed.map(() => 0);
        for (let at = listed.length - 1; at >= 0; at--) runs[at] = judge(at) === 0 && at !== 43 ? 1 + (runs[at + 1] ?? 0) : 0;
        assert.deepStrictEqual(
          listed.map((_, at) => judge.quiet!(at, Infinity)),
          runs,
          pattern,
        );
        assert.strictEqual(judge.quiet!(42, Infinity), 1, `${pattern}: a run ends before a file the watcher saw change`);
        assert.ok(runs[1] > 5, `${pattern}: a run from the second file (${runs[1]})`);
        assert.strictEqual(judge.quiet!(1, 3), 3, 'no further than the limit');
      }
    } finally {
      changed.delete(paths[43]);
    }
  });

  it("an open editor's text is searched instead of its file, whose run on disk the index would have counted as holding no match", async () => {
    const file = fx.path('src/d2/m7.ts');
    const input: GrepInput = { pattern: 'typed in the editor', output_mode: 'content' };
    const onDisk = await run(input, watched);
    assert.match(onDisk.text, /files_searched: 30[0-9]/);
    const editing = await run(input, { ...watched, index: watched.index, overrides: new Map([[file, 'const note = "typed in the editor";\n']]) });
    assert.match(editing.text, /m7\.ts[\s\S]*typed in the editor/);
  });

  it('a file the watcher saw change is read again', async () => {
    const file = fx.path('src/d0/m10.ts');
    await run({ pattern: 'needle' }, watched);
    fs.writeFileSync(file, 'const changed = "needle moved"; // and longer than before\n');
    changed.add(file);
    const after = await run({ pattern: 'needle', output_mode: 'content' }, watched);
    assert.match(after.text, /needle moved/);
    assert.strictEqual(after.read, 1, 'only the changed file is read');
  });
});

describe("index: a watcher's word on a listed search, worked out once for the list", function () {
  this.timeout(60_000);
  const fx = new Fixture('grep-tools-word-');
  const indexDir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-word-index-'));
  const pool = new SearchPool(1);
  const DIRS = 8;
  const FILES = 800;
  const pathAt = (i: number) => fx.path(`src/d${i % DIRS}/m${i}.ts`);
  let index: ContentIndex;
  let close: () => void;

  /** A watcher that watches `dirs` and saw events name `named`; `word` gives none while `silent` (an overflow). */
  class TestVouching implements Vouching {
    dirs = new Set<string>();
    named = new Set<string>();
    silent = false;
    mark = 0;
    /** How many times it was asked about one file. */
    asked = 0;
    private watched(path: string): boolean {
      this.asked++;
      return this.dirs.has(nodePath.dirname(path));
    }
    vouches(idx: ContentIndex, id: number): boolean {
      const path = idx.pathOf(id);
      return !this.silent && this.watched(path) && !this.named.has(path);
    }
    word(idx: ContentIndex): WatchWord | undefined {
      return this.silent ? undefined : { mark: this.mark, watched: (id) => this.watched(idx.pathOf(id)), named: () => this.named };
    }
  }

  before(async () => {
    for (let i = 0; i < FILES; i++) {
      if (i % 30 === 7) fx.write(`src/d${i % DIRS}/m${i}.ts`, new Uint8Array([110, 101, 0, 1, 2, i % 256]));
      else
        fx.write(
          `src/d${i % DIRS}/m${i}.ts`,
          `export const value${i} = ${i};\n${i % 20 === 0 ? 'const needle = 1;\n' : ''}${i % 25 === 3 ? '// padding\n'.repeat(30) : ''}`,
        );
    }
    age(fx.root);
    const built: SearchEnvironment = { ...makeEnv(fx.root), pool };
    await buildWorkspaceIndex(built, indexDir);
    const stored = loadIndex(indexDir);
    assert.ok(stored);
    index = stored.index;
    close = stored.close;
  });
  after(() => {
    close();
    pool.dispose();
    fx.remove();
    fs.rmSync(indexDir, { recursive: true, force: true });
  });

  /** One search's view of the list: whether each position is quiet, and the paths whose stamps it sent to the workers. */
  async function survey(vouching: Vouching, pattern: string, maxFileSize: number, listed: Candidate[]) {
    const sent: string[] = [];
    const search = currentIndexPrejudge(() => index, { vouching, stampsInWorkers: true });
    const request = { matcher: compileMatcher(pattern, {}), invert: false, maxFileSize };
    const judge = (await search.prejudgeListed(request, listed, async (paths) => (sent.push(...paths), paths.map((path) => statStamp(path)))))!;
    return { quiet: listed.map((_, at) => judge.quiet?.(at, 1) ?? 0), sent, judge };
  }

  it('quiet exactly where the index and the watcher say no match, the stamps sent exactly those the watcher does not vouch for, as the watches and events change', async () => {
    const patterns = ['needle', 'value1', 'zzqqxx', 'export'];
    await fc.assert(
      fc.asyncProperty(
        // The list: files by number (repeated ones listed twice), numbers past FILES a path the index does not hold.
        fc.array(fc.integer({ min: 0, max: FILES + 20 }), { minLength: 1, maxLength: FILES * 2, size: 'max' }),
        fc.array(
          fc.record({
            // (undefined: the watches stay, so what was worked out for the list may be reused)
            dirs: fc.oneof(fc.constant(undefined), fc.subarray([...Array(DIRS).keys()])),
            named: fc.array(fc.integer({ min: 0, max: FILES - 1 }), { maxLength: 40, size: 'max' }),
            silent: fc.boolean(),
            pattern: fc.constantFrom(...patterns),
            maxFileSize: fc.constantFrom(1 << 20, 200),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        async (numbers, steps) => {
          const listed = numbers.map((i) => ({ path: i < FILES ? pathAt(i) : fx.path(`src/absent${i}.ts`), relative: '' }));
          const vouching = new TestVouching();
          vouching.dirs = new Set([...Array(DIRS).keys()].map((d) => fx.path(`src/d${d}`)));
          for (const step of steps) {
            if (step.dirs) {
              vouching.dirs = new Set(step.dirs.map((d) => fx.path(`src/d${d}`)));
              vouching.mark++;
            }
            vouching.named = new Set(step.named.map(pathAt));
            vouching.silent = step.silent;
            const { quiet, sent } = await survey(vouching, step.pattern, step.maxFileSize, listed);
            const candidates = new Set(index.candidates(planRegex(compileMatcher(step.pattern, {}).regex)) ?? []);
            const expectedQuiet: number[] = [];
            const expectedSent = new Set<string>();
            for (const { path } of listed) {
              const id = index.idOf(path);
              const vouched = id !== undefined && vouching.vouches(index, id);
              const plain = id !== undefined && index.kindOf(id) === 'text' && index.sizeOf(id) <= step.maxFileSize;
              expectedQuiet.push(vouched && plain && !candidates.has(id) ? 1 : 0);
              const kind = id === undefined ? 'unread' : index.kindOf(id);
              const settles = kind !== 'unread' && kind !== 'linked' && !(plain && candidates.has(id!));
              if (!vouched && settles) expectedSent.add(path);
            }
            assert.deepStrictEqual(quiet, expectedQuiet, `quiet: ${JSON.stringify(step)}`);
            // (fewer than STAMPS_SENT_AT_LEAST are taken by the search itself)
            assert.deepStrictEqual(new Set(sent), expectedSent.size >= 512 ? expectedSent : new Set(), `sent: ${JSON.stringify(step)}`);
            assert.strictEqual(sent.length, new Set(sent).size, 'no stamp sent twice');
          }
        },
      ),
      // (no shrinking: a failing list is hundreds of files long, and each try searches it up to four times)
      { numRuns: 60, endOnFailure: true },
    );
  });

  it('a second search of the same list under the same watches asks the watcher about no file it settles as quiet: its cost is the candidates, not the list', async () => {
    const vouching = new TestVouching();
    vouching.dirs = new Set([...Array(DIRS).keys()].map((d) => fx.path(`src/d${d}`)));
    vouching.named = new Set([pathAt(1), pathAt(2)]);
    const listed = Array.from({ length: FILES }, (_, i) => ({ path: pathAt(i), relative: '' }));
    const first = await survey(vouching, 'needle', 1 << 20, listed);
    assert.ok(vouching.asked >= FILES, `the first search asks about every file (${vouching.asked})`);
    vouching.asked = 0;
    const again = await survey(vouching, 'needle', 1 << 20, listed);
    assert.deepStrictEqual(again.quiet, first.quiet);
    assert.strictEqual(vouching.asked, 0, 'the same watches: the list is not asked about again');
    const quietCount = again.quiet.filter((q) => q === 1).length;
    assert.ok(quietCount > FILES * 0.8, `${quietCount} files quiet`);
    // Judging what is not quiet asks about each such file once: the candidates, the named, the binary ones.
    for (let at = 0; at < listed.length; at++) if (again.quiet[at] === 0) again.judge(at);
    assert.ok(vouching.asked <= FILES - quietCount, `${vouching.asked} files asked about when judged one by one`);
    vouching.mark++;
    vouching.asked = 0;
    await survey(vouching, 'needle', 1 << 20, listed);
    assert.ok(vouching.asked >= FILES, 'a watch placed or closed: the list is asked about again');
  });
});
