// What one setting costs our grep, warm, in ONE code-server session on the bench corpus:
//   node bench/settingCost.mjs [SETTING] [VALUE]      default: grepTools.definitions.enabled false
// The grep questions of `npm run bench:host` (scripts/lib/hostQuestions.mjs), each asked once with the setting
// as it is by default and once changed, alternating which goes first, BENCH_RUNS (7) rounds after a warm-up
// of each, once the content index is ready. Medians of the time in the extension host and the ratio
// default / changed: what the default costs against the setting turned the other way, under the same load.
// Both answers' totals must agree (exit 1 otherwise). The extension's log: .test-artifacts/setting-cost/logs.txt. Needs `npm run build` first (npm run bench does it).
import { writeFileSync } from 'node:fs';
import { openAgentSession } from '../scripts/lib/agent.mjs';
import { parseAnswer } from '../scripts/lib/answers.mjs';
import { ensureCorpus } from '../scripts/lib/corpus.mjs';
import { HOST_QUESTIONS } from '../scripts/lib/hostQuestions.mjs';

const [setting = 'grepTools.definitions.enabled', raw = 'false'] = process.argv.slice(2);
const changed = JSON.parse(raw);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const dot = setting.lastIndexOf('.');
const section = setting.slice(0, dot);
const key = setting.slice(dot + 1);
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

const corpus = ensureCorpus();
const session = await openAgentSession({
  workspace: corpus.tree,
  script: { steps: [], fallbackText: 'x' },
  artifactsDir: '.test-artifacts/setting-cost',
  settings: {},
  lifetimeSeconds: 3600,
});
let failed = false;
try {
  const call = (op) => session.bridge.call(op, { timeoutMs: 120_000 });
  for (let i = 0; i < 240 && !(await call({ op: 'tools' })).includes('grep'); i++) await new Promise((resolve) => setTimeout(resolve, 500));
  // A first call activates the extension (the tools are listed from its manifest before that).
  await call({ op: 'invoke', tool: 'glob', input: { pattern: 'package.json' } });
  await call({ op: 'probeUntilIndexed', timeoutMs: 600_000 });
  await call({ op: 'settle', quietMs: 3000, timeoutMs: 60_000 });
  const configure = (value) => call({ op: 'configure', section, key, value });
  const ask = async (input, value) => {
    await configure(value);
    const result = await call({ op: 'invoke', tool: 'grep', input });
    return { ms: result.ms, total: parseAnswer(result.text).total_matches };
  };
  const rows = [];
  for (const [, what, [tool, input]] of HOST_QUESTIONS) {
    if (tool !== 'grep') continue;
    await ask(input, undefined);
    await ask(input, changed);
    const times = { default: [], changed: [] };
    const totals = new Set();
    for (let round = 0; round < RUNS; round++) {
      const order = round % 2 === 0 ? ['default', 'changed'] : ['changed', 'default'];
      for (const side of order) {
        const { ms, total } = await ask(input, side === 'default' ? undefined : changed);
        times[side].push(ms);
        totals.add(total);
      }
    }
    if (totals.size !== 1) failed = true;
    rows.push([what, median(times.default), median(times.changed), [...totals].join(' / ')]);
  }
  await configure(undefined);
  console.log(`\n${setting} by default against ${raw}, warm, medians of ${RUNS} interleaved rounds, ${corpus.files} files\n`);
  console.log(`| question | default (ms) | ${setting} ${raw} (ms) | ratio | total |`);
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const [what, a, b, total] of rows) console.log(`| ${what} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(a / b).toFixed(2)} | ${total} |`);
  if (failed) console.log('\nThe totals differ between the two settings.');
} finally {
  writeFileSync('.test-artifacts/setting-cost/logs.txt', session.logs());
  await session.close(true);
}
process.exit(failed ? 1 : 0);
