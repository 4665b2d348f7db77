/**
 * A cut page asked again through a resident workspace (its files watched, so their outcomes are
 * remembered with what their definitions were) sends nothing to the search workers for definitions: not
 * the files outlined while the page was the path order's, not the ones the order tried, not the next
 * page's sent ahead. (Not run under wine: its fs.watch reports no change, so nothing is vouched for.)
 */
import * as assert from 'assert';
import { byteBudget } from '../../../../src/engine/answer/budget';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { renderGrep } from '../../../../src/engine/answer/printer';
import { DEFAULT_INDEX_LIMITS } from '../../../../src/engine/index/limits';
import { parseGrepInput } from '../../../../src/engine/input/schema';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { ResidentWorkspace } from '../../../../src/engine/run/residentWorkspace';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { waitUntil } from '../../../support/waitUntil';
import { Fixture, makeEnv } from '../../fixture';
import { age } from '../index/age';

describe('engine/run: definitions of a repeated question', function () {
  this.timeout(60_000);
  const fx = new Fixture('grep-tools-remembered-');
  let pool: SearchPool;
  let resident: ResidentWorkspace;
  let ws: string;

  before(async () => {
    ws = fx.mkdir('ws');
    const uses = (n: number) => Array.from({ length: n }, (_, i) => `  const w${i} = new Widget(${i});`).join('\n');
    fx.files({
      'ws/a/uses.ts': `export function make() {\n${uses(5)}\n}\n`,
      'ws/b/calls.go': 'package b\n\nfunc run() {\n\tWidget()\n\tWidget()\n}\n',
      'ws/dist/widget.js': 'class Widget {\n  constructor() {}\n}\nmodule.exports = new Widget();\n',
      'ws/src/widget.rs': 'pub struct Widget {\n    size: u32,\n}\n\nimpl Widget {\n    pub fn new() -> Widget {\n        Widget { size: 0 }\n    }\n}\n',
      'ws/src/zz/widget.py': '@dataclass\nclass Widget:\n    size: int\n\n\ndef make() -> "Widget":\n    return Widget()\n',
    });
    age(ws);
    pool = new SearchPool(2).warm();
    resident = new ResidentWorkspace({ ...makeEnv(ws), source: new NodeFileSource() }, fx.path('index'), DEFAULT_INDEX_LIMITS, {
      refreshed: () => {},
      contentRefreshed: () => {},
      unwatched: () => {},
      ignoredUnwatched: () => {},
      failed: () => {},
    });
    await resident.start();
  });

  after(async () => {
    resident.close();
    await resident.whenIdle();
    pool.dispose();
    fx.remove();
  });

  it('a cut page asked again sends nothing to the workers for definitions', async () => {
    // Every file sent to the workers for its definitions, found or sent ahead.
    const sent: string[] = [];
    const counted = Object.create(pool) as SearchPool;
    counted.outline = (spec) => {
      const job = pool.outline(spec);
      const { batch, spare } = job;
      job.batch = (items, ...rest) => (sent.push(...items.map((item) => item.path)), batch.call(job, items, ...rest));
      job.spare = (items, ...rest) => (sent.push(...items.map((item) => item.path)), spare.call(job, items, ...rest));
      return job;
    };
    const input = parseGrepInput({ pattern: 'widget', case_insensitive: true, max_results: 3 });
    const ask = async () => renderGrep(await answerGrep(input, { ...makeEnv(ws), pool: counted, ...resident.environment() }), byteBudget(51_200));
    const first = await ask();
    assert.match(first, /next_offset: 3/, 'the page is cut');
    await waitUntil(
      () => pool.busyWorkers === 0 && pool.queuedBatches === 0,
      () => 'the workers to finish the next page',
    );
    assert.ok(sent.length > 0, 'the first call has them parsed');
    sent.length = 0;
    assert.strictEqual(await ask(), first);
    assert.deepStrictEqual(sent, [], 'asked again: every definition known from the remembered outcomes');
  });
});
