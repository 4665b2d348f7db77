/**
 * The order of grep's results (docs/tools.md, "Order of the results"): files holding a definition of
 * the searched name first, then ordinary source, then tests, then generated and vendored files, path
 * order within each group; for any page size, with or without the worker pool, and with the remembered
 * outcomes of a resident workspace serving the next pages, all pages together are every result exactly
 * once, in that order, with the same totals.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { byteBudget } from '../../../../src/engine/answer/budget';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { describeOutline, renderGrep } from '../../../../src/engine/answer/printer';
import { DEFAULT_INDEX_LIMITS } from '../../../../src/engine/index/limits';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { parseGrepInput } from '../../../../src/engine/input/schema';
import type { SearchEnvironment } from '../../../../src/engine/run/environment';
import { byGroup, firstOf, GENERATED, namedAfter, pathGroup, SOURCE, TEST } from '../../../../src/engine/run/pageOrder';
import { ResidentWorkspace } from '../../../../src/engine/run/residentWorkspace';
import { looksLikeDeclaration } from '../../../../src/engine/searcher/searcher';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { readAnswer } from '../../../support/answers';
import { contentFiles, Fixture, makeEnv, rel, type GrepAnswer } from '../../fixture';
import { age } from '../index/age';

describe('engine/run/pageOrder: the kind of a file by its path', () => {
  const group = (path: string) => pathGroup(`/ws/${path}`, ['/ws']);
  it('tells tests, generated and vendored files from source', () => {
    for (const path of ['src/walk.rs', 'lib/WebpackError.js', 'crates/ignore/src/walk.rs', 'pkg/server.go', 'types.d.ts', 'contest/a.py'])
      assert.strictEqual(group(path), SOURCE, path);
    for (const path of [
      'test/a.js',
      'src/__tests__/a.ts',
      'a.test.ts',
      'b.spec.js',
      'server_test.go',
      'test_walk.py',
      'FooTest.java',
      'testdata/x.rs',
      'spec/a_spec.rb',
    ])
      assert.strictEqual(group(path), TEST, path);
    for (const path of [
      'dist/bundle.js',
      'rxjs/dist/esm/Observable.js',
      'vendor/lib.go',
      'app.min.js',
      'a.js.map',
      'package-lock.json',
      'Cargo.lock',
      'go.sum',
      'yarn.lock',
      'api.pb.go',
      'third_party/x.c',
    ])
      assert.strictEqual(group(path), GENERATED, path);
  });

  it('takes the path relative to the search base, so the base folder itself does not count', () => {
    assert.strictEqual(pathGroup('/home/me/dist/src/app.ts', ['/home/me/dist']), SOURCE);
    assert.strictEqual(pathGroup('/home/me/test/src/app.ts', ['/home/me/test']), SOURCE);
  });
});

describe('engine/run/pageOrder: taking the order by kind', () => {
  it('gives the items as a stable sort by group would, working out the group only of the items it reached (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 60 }), fc.nat(70), (groups, most) => {
        const items = groups.map((group, index) => ({ group, index }));
        const sorted = [...items].sort((a, b) => a.group - b.group || a.index - b.index);
        const asked = new Set<number>();
        const taken = firstOf(
          byGroup(
            items,
            (item) => {
              assert.ok(!asked.has(item.index), 'asked once');
              asked.add(item.index);
              return item.group;
            },
            3,
          ),
          most,
        );
        assert.deepStrictEqual(taken, sorted.slice(0, most));
        // The group of an item after the last taken is not asked while the first group is still being taken.
        const last = taken.at(-1);
        if (last && last.group === 0) assert.ok([...asked].every((index) => index <= last.index));
      }),
    );
  });

  it('tells a file named after a word of the pattern, by its name without extensions, in any case', () => {
    const named = namedAfter('new WebpackError\\(');
    assert.strictEqual(named('/ws/lib/WebpackError.js'), true);
    assert.strictEqual(named('/ws/lib/webpackerror.d.ts'), true);
    assert.strictEqual(named('/ws/lib/WebpackErrors.js'), false);
    assert.strictEqual(named('/ws/WebpackError/index.js'), false, 'a directory of that name does not count');
    assert.strictEqual(named('/ws/lib/new.js'), true, 'every word of three characters or more');
    assert.strictEqual(namedAfter('a|b')('/ws/a.js'), false, 'shorter words do not name files');
  });
});

describe('searcher: a matching line that looks like a declaration', () => {
  const at = (line: string, name: string) => looksLikeDeclaration(line, line.indexOf(name));
  it('lets declarations through in each language', () => {
    for (const [line, name] of [
      ['pub struct WalkBuilder {', 'WalkBuilder'],
      ['pub(crate) fn walk(&self) {', 'walk'],
      ['impl WalkBuilder {', 'WalkBuilder'],
      ['class WebpackError extends Error {', 'WebpackError'],
      ['export default async function handler(req) {', 'handler'],
      ['  static create(options) {', 'create'],
      ['export const debounce = (fn, wait) => {', 'debounce'],
      ['    def search_path(self, path):', 'search_path'],
      ['func (s *Server) Start(ctx context.Context) error {', 'Start'],
      ['type Server struct {', 'Server'],
      ['  public static <T> List<T> listOf(T item) {', 'listOf'],
      ['@Override public String toString() {', 'toString'],
      ['module.exports = class MultiCompiler {', 'MultiCompiler'],
      ['\treturn function ruleErrorHandler(...listenerArgs) {', 'ruleErrorHandler'],
    ])
      assert.ok(at(line, name), line);
  });

  it('turns away uses: assignments, calls after a keyword, member access, comments and imports', () => {
    for (const [line, name] of [
      ['let builder = WalkBuilder::new(path);', 'WalkBuilder'],
      ['use ignore::WalkBuilder;', 'WalkBuilder'],
      ['    return new WebpackError(message);', 'WebpackError'],
      ['const WebpackError = require("./WebpackError");', 'require'],
      ['  this.hooks.done.call(stats);', 'call'],
      ['/// Build a WalkBuilder from the flags.', 'WalkBuilder'],
      [' * @param {WebpackError} error', 'WebpackError'],
      ['import { Observable } from "rxjs";', 'Observable'],
      ['fn build(builder: WalkBuilder) {', 'WalkBuilder'],
    ])
      assert.ok(!at(line, name), line);
  });
});

/** Every line of every page as "file:line", in page order, and each page's total. */
async function allPages(input: Record<string, unknown>, env: SearchEnvironment, root: string): Promise<{ lines: string[]; totals: number[]; first: string[] }> {
  const lines: string[] = [];
  const totals: number[] = [];
  let first: string[] = [];
  let offset: number | undefined = 0;
  for (let pages = 0; offset !== undefined; pages++) {
    assert.ok(pages < 200, 'paging ends');
    const json: GrepAnswer = readAnswer<GrepAnswer>(
      await renderGrep(await answerGrep(parseGrepInput({ ...input, offset }), env), byteBudget(env.config.maxOutputBytes)),
    );
    const page = contentFiles(json).flatMap((entry) => entry.matches.map((m) => `${rel(root, entry.file)}:${m.line}${m.defines ? ' def' : ''}`));
    if (pages === 0) first = page;
    lines.push(...page);
    totals.push(json.total_matches ?? lines.length);
    offset = json.next_offset;
  }
  return { lines, totals, first };
}

describe('engine/run/pageOrder: paging through the order (fast-check)', function () {
  this.timeout(60_000);
  let fx: Fixture;
  let pool: SearchPool;
  let resident: ResidentWorkspace;
  let ws: string;

  before(async () => {
    fx = new Fixture('grep-tools-order-');
    ws = fx.mkdir('ws');
    const uses = (n: number) => Array.from({ length: n }, (_, i) => `  const w${i} = new Widget(${i});`).join('\n');
    fx.files({
      'ws/README.md': 'Widget is the main type.\nSee Widget below.\n',
      'ws/a/uses.ts': `export function make() {\n${uses(5)}\n}\n`,
      'ws/b/calls.go': 'package b\n\nfunc run() {\n\tWidget()\n\tWidget()\n}\n',
      'ws/dist/widget.js': 'class Widget {\n  constructor() {}\n}\nmodule.exports = new Widget();\n',
      'ws/package-lock.json': '{ "name": "Widget", "lockfileVersion": 3 }\n',
      'ws/src/widget.rs': 'pub struct Widget {\n    size: u32,\n}\n\nimpl Widget {\n    pub fn new() -> Widget {\n        Widget { size: 0 }\n    }\n}\n',
      'ws/src/zz/widget.py': '@dataclass\nclass Widget:\n    size: int\n\n\ndef make() -> "Widget":\n    return Widget()\n',
      'ws/test/widget.test.ts': `import { Widget } from '../src/widget';\n${uses(4)}\n`,
    });
    age(ws);
    pool = new SearchPool(2).warm();
    resident = new ResidentWorkspace(
      { ...makeEnv(ws, { config: { maxResultsCap: 1000 } }), source: new NodeFileSource() },
      fx.path('index'),
      DEFAULT_INDEX_LIMITS,
      { refreshed: () => {}, contentRefreshed: () => {}, unwatched: () => {}, ignoredUnwatched: () => {}, failed: () => {} },
    );
    await resident.start();
  });

  after(async () => {
    resident.close();
    await resident.whenIdle(); // (an open segment file cannot be removed on Windows)
    pool.dispose();
    fx.remove();
  });

  it('puts the files that define the name first, then source, tests, generated; all pages together are every result once', async () => {
    const inline = makeEnv(ws, { config: { maxResultsCap: 1000 } });
    const pooled: SearchEnvironment = { ...inline, pool };
    const input = { pattern: 'Widget', word: true };
    const whole = await allPages({ ...input, max_results: 1000 }, inline, ws);
    const pathOrder = [...new Set(whole.lines.map((line) => line.split(':')[0]))];
    assert.deepStrictEqual(pathOrder, [...pathOrder].sort(), 'an answer that shows every result is in path order');
    const cut = await allPages({ ...input, max_results: whole.lines.length - 1 }, inline, ws);
    const files = [...new Set(cut.lines.map((line) => line.split(':')[0]))];
    assert.deepStrictEqual(files, [
      'src/widget.rs',
      'src/zz/widget.py',
      'dist/widget.js',
      'README.md',
      'a/uses.ts',
      'b/calls.go',
      'test/widget.test.ts',
      'package-lock.json',
    ]);
    assert.deepStrictEqual([...cut.lines].sort(), [...whole.lines].sort(), 'the same results');
    assert.strictEqual(cut.lines[0], 'src/widget.rs:1 def', 'the defining line comes first');
    const environments = [inline, pooled, () => ({ ...pooled, ...resident.environment() })];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 2 }), async (max, which) => {
        const chosen = environments[which];
        const env = typeof chosen === 'function' ? chosen() : chosen;
        const paged = await allPages({ ...input, max_results: max }, env, ws);
        assert.deepStrictEqual(paged.lines, cut.lines, `max_results ${max}, environment ${which}`);
        assert.ok(
          paged.totals.every((total) => total === whole.lines.length),
          'the same total on every page',
        );
        assert.strictEqual(paged.first[0], 'src/widget.rs:1 def');
      }),
      { numRuns: 24, seed: 20261125 },
    );
  });

  it('keeps path order when every line fits in max_results, also on the pages the output budget cuts', async () => {
    const env = makeEnv(ws, { config: { maxResultsCap: 1000 } });
    const whole = await allPages({ pattern: 'Widget', word: true, max_results: 1000 }, env, ws);
    const budgeted = await allPages({ pattern: 'Widget', word: true, max_results: 1000 }, { ...env, config: { ...env.config, maxOutputBytes: 700 } }, ws);
    assert.ok(budgeted.totals.length > 2, `${budgeted.totals.length} pages`);
    assert.deepStrictEqual(budgeted.lines, whole.lines);
  });

  it('says in the log what ordering a cut page cost: the files parsed or known, those that define the name, the time', async () => {
    const env = makeEnv(ws);
    const input = { pattern: 'Widget', word: true, max_results: 2 };
    const cost = (line: string) => /cut page ordered: (\d+) files parsed and (\d+) known for definitions, (\d+) defining, \d+ ms/.exec(line);
    const first = cost(describeOutline(await answerGrep(input, env)));
    // Four files have a line that looks like a declaration (b/calls.go's `Widget()` too); three define Widget.
    assert.ok(first && Number(first[1]) + Number(first[2]) === 4 && first[3] === '3', String(first));
    const again = cost(describeOutline(await answerGrep({ ...input, offset: 2 }, env)));
    assert.deepStrictEqual(again?.slice(1, 4), ['0', '4', '3'], 'the next page knows them by their stamps');
    assert.strictEqual(
      describeOutline(await answerGrep({ ...input, max_results: 100 }, env)).includes('cut page'),
      false,
      'a page that shows every line is not ordered',
    );
  });

  it('keeps path order with grepTools.definitions.enabled off', async () => {
    const off = makeEnv(ws, { config: { definitions: false } });
    const paged = await allPages({ pattern: 'Widget', word: true, max_results: 3 }, off, ws);
    const files = [...new Set(paged.lines.map((line) => line.split(':')[0]))];
    assert.deepStrictEqual(files, [...files].sort());
  });
});
