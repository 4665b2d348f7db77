// `npm run soak`: SOAK_MINUTES (default 10) of random tool invocations against the bench corpus, through
// the engine and one shared worker pool in this process (as the extension host runs them), SOAK_CONCURRENCY
// (default 4) at a time. Mixes realistic grep/glob calls (glob's mode "regex" too), invalid inputs,
// catastrophic regexes (against lines and against file names) under a short time limit and cancelled
// calls. Reports invocations, outcomes and errors by kind, p50/p99 latency, and the process RSS (workers
// included) over time. Exits 1 on any unexpected error, a non-JSON answer or RSS that grew by more than
// half (+64 MB) from the first minute to the last. SOAK_SEED makes the sequence repeatable.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from './lib/corpus.mjs';
import { parseAnswer } from './lib/answers.mjs';
import { seeded } from './lib/seeded.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const out = (m) => require(join(repo, 'out', 'src', 'engine', m));
const { answerGrep } = out('answer/grepAnswer.js');
const { answerGlob } = out('answer/globAnswer.js');
const { renderGrep, renderGlob } = out('answer/printer.js');
const { byteBudget } = out('answer/budget.js');
const { SearchPool } = out('pool/pool.js');
const { DEFAULT_CONFIG } = out('api/config.js');
const { readFileCapped } = out('searcher/reader.js');
const { NodeFileSource } = out('source/walker.js');
const { CancelledError, InputError } = out('api/errors.js');

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 4);
const { random, pick } = seeded(Number(process.env.SOAK_SEED ?? 1));

const corpus = ensureCorpus();
const pool = new SearchPool().warm();
// A second workspace folder with lines that make the catastrophic patterns backtrack (the corpus is shared: never written).
const redosDir = mkdtempSync(join(tmpdir(), 'grep-tools-soak-'));
writeFileSync(join(redosDir, 'evil.txt'), `${'a'.repeat(40)}b\n${'x'.repeat(40)}zy\n${'word '.repeat(12)}${'a'.repeat(20)}!\n`);
// The same lines as file names, for glob's mode "regex".
for (const name of [`${'a'.repeat(40)}b`, `${'x'.repeat(40)}zy`, `${'word '.repeat(12)}${'a'.repeat(20)}!`]) writeFileSync(join(redosDir, name), '');
const folders = [
  { name: 'tree', path: corpus.tree },
  { name: 'redos', path: redosDir },
];

function env({ timeoutSeconds = 30, isCancelled = () => false } = {}) {
  return {
    folders,
    source: new NodeFileSource(),
    config: { ...DEFAULT_CONFIG, deniedPaths: [...DEFAULT_CONFIG.deniedPaths], timeoutSeconds },
    readFile: readFileCapped,
    allowOutside: false,
    isCancelled,
    pool,
  };
}

const words = [
  'function',
  'TODO',
  'require',
  'export default',
  'class \\w+ extends',
  'debounce',
  'Promise\\.all',
  'addEventListener',
  'process\\.env\\.\\w+',
  'use strict',
  'Vector3',
  '(?i)license',
  'throw new Error',
  'async function \\w+\\(',
];
const dirs = [undefined, 'lodash', 'rxjs', 'three/src', 'webpack/lib', 'typescript/lib'];
const globs = ['**/*.js', '**/package.json', '*.json', '**/*.d.ts', 'lodash/*.js', '**/{README,readme}.md', '**/test/**', '**/*.{ts,tsx}', '**/index.*'];
const globRegexes = ['\\.test\\.js$', '(^|/)package\\.json$', '^lodash/[a-z]+\\.js$', '\\.d\\.ts$', '(^|/)src/.*\\.ts$'];
const redos = [
  ['(a+)+$', undefined],
  ['(x+x+)+y', undefined],
  ['^(\\w+\\s?)*$', undefined],
];

/** One random invocation: { kind, tool, input, timeoutSeconds?, cancelAfterMs?, expect }. */
function nextCall() {
  const r = random();
  if (r < 0.45) {
    const input = { pattern: pick(words), output_mode: pick(['content', 'files_with_matches', 'count']) };
    const path = pick(dirs);
    if (path) input.path = path;
    if (random() < 0.3) input.include = pick(['*.js', '*.ts', '**/*.md', 'src/**']);
    if (random() < 0.2) input.context_lines = Math.floor(random() * 3);
    if (random() < 0.2) input.offset = Math.floor(random() * 300);
    if (random() < 0.2) input.case_insensitive = true;
    if (random() < 0.1) input.max_results = 1 + Math.floor(random() * 1000);
    return { kind: 'grep', tool: 'grep', input, expect: 'answer' };
  }
  if (r < 0.75) {
    const input = random() < 0.2 ? { pattern: pick(globRegexes), mode: 'regex' } : { pattern: pick(globs) };
    const path = pick(dirs);
    if (path) input.path = path;
    if (random() < 0.2) input.sort = 'mtime';
    if (random() < 0.2) input.max_depth = Math.floor(random() * 4);
    if (random() < 0.2) input.offset = Math.floor(random() * 2000);
    return { kind: 'glob', tool: 'glob', input, expect: 'answer' };
  }
  if (r < 0.85) {
    if (random() < 0.3) {
      const input = pick([
        { pattern: '../*' },
        { pattern: '(', mode: 'regex' },
        { pattern: '/etc/*', path: 'lodash' },
        { pattern: '*', sort: 'size' },
        { pattern: 'x\\y' },
      ]);
      return { kind: 'invalid', tool: 'glob', input, expect: 'input-error' };
    }
    const input = pick([
      { pattern: '' },
      { pattern: 'x', max_results: -1 },
      { pattern: '(' },
      { pattern: 'x', path: '../../etc' },
      { pattern: 'x', path: 'no/such/dir' },
      { pattern: 'a'.repeat(5000) },
      { pattern: 'x', colour: true },
      { pattern: 'x', path: '.env' },
      { pattern: 'x', include: '/etc/*' },
    ]);
    return { kind: 'invalid', tool: 'grep', input, expect: 'input-error' };
  }
  if (r < 0.92) {
    const [pattern] = pick(redos);
    if (random() < 0.3) return { kind: 'redos', tool: 'glob', input: { pattern, mode: 'regex', path: redosDir }, timeoutSeconds: 1, expect: 'answer' };
    return { kind: 'redos', tool: 'grep', input: { pattern, path: redosDir }, timeoutSeconds: 1, expect: 'answer' };
  }
  return { kind: 'cancelled', tool: 'grep', input: { pattern: pick(words) }, cancelAfterMs: 20 + Math.floor(random() * 200), expect: 'cancel-or-answer' };
}

const stats = { invocations: 0, answers: 0, timedOut: 0, inputErrors: 0, cancelled: 0, byKind: {}, unexpected: [], latencies: [] };
const rss = [];
const started = Date.now();
const deadline = started + minutes * 60_000;

async function invoke(call) {
  let cancelled = false;
  const timer = call.cancelAfterMs !== undefined ? setTimeout(() => (cancelled = true), call.cancelAfterMs) : undefined;
  const e = env({ timeoutSeconds: call.timeoutSeconds ?? 30, isCancelled: () => cancelled });
  const budget = byteBudget(e.config.maxOutputBytes);
  const t0 = performance.now();
  try {
    const text = call.tool === 'grep' ? await renderGrep(await answerGrep(call.input, e), budget) : await renderGlob(await answerGlob(call.input, e), budget);
    const ms = performance.now() - t0;
    const json = parseAnswer(text);
    // files: a list of paths, or an object from each path to its lines, count or time; no timing in an answer.
    if (typeof json.files !== 'object' || json.files === null || 'elapsed_ms' in json || Buffer.byteLength(text) > e.config.maxOutputBytes)
      throw new Error(`not an answer of the contract: ${text.slice(0, 200)}`);
    if (call.expect === 'input-error') throw new Error(`expected an input error for ${JSON.stringify(call.input).slice(0, 100)}, got an answer`);
    if (call.kind === 'redos' && json.timed_out !== true) throw new Error(`catastrophic ${call.input.pattern} did not time out`);
    stats.answers++;
    if (json.timed_out) stats.timedOut++;
    if (call.kind === 'grep' || call.kind === 'glob') stats.latencies.push(ms);
  } catch (error) {
    if (error instanceof InputError && call.expect === 'input-error') stats.inputErrors++;
    else if (error instanceof CancelledError && call.expect === 'cancel-or-answer') stats.cancelled++;
    else {
      const kind = `${call.kind}: ${error?.name ?? 'thrown'}`;
      stats.byKind[kind] = (stats.byKind[kind] ?? 0) + 1;
      const line = `${kind}: ${String(error?.message ?? error).slice(0, 300)} (input ${JSON.stringify(call.input).slice(0, 200)})`;
      if (stats.unexpected.length < 20) {
        stats.unexpected.push(line);
        process.stdout.write(`[soak] unexpected: ${line}\n`);
      }
    }
  } finally {
    clearTimeout(timer);
    stats.invocations++;
  }
}

const sampler = setInterval(() => rss.push({ t: Date.now() - started, rss: process.memoryUsage().rss }), 1000);
const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;
const progress = setInterval(() => {
  const last = rss[rss.length - 1];
  process.stdout.write(
    `[soak] ${Math.round((Date.now() - started) / 1000)} s: ${stats.invocations} invocations, ${stats.unexpected.length} unexpected, RSS ${last ? mb(last.rss) : '?'}\n`,
  );
}, 30_000);

process.stdout.write(
  `[soak] ${minutes} min on ${corpus.tree} (${corpus.files} files, ${mb(corpus.bytes)}), ${concurrency} at a time, pool of ${pool.size} workers, seed ${process.env.SOAK_SEED ?? 1}\n`,
);
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) await invoke(nextCall());
  }),
);
clearInterval(sampler);
clearInterval(progress);
pool.dispose();
rmSync(redosDir, { recursive: true, force: true });

const sorted = [...stats.latencies].sort((a, b) => a - b);
const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const window = Math.min(60_000, (minutes * 60_000) / 4);
const peak = (samples) => samples.reduce((max, s) => Math.max(max, s.rss), 0);
const total = Date.now() - started;
const startPeak = peak(rss.filter((s) => s.t <= window));
const endPeak = peak(rss.filter((s) => s.t >= total - window));
const flat = endPeak <= startPeak * 1.5 + 64 * 1024 * 1024;

const report = [
  `[soak] done in ${(total / 60_000).toFixed(1)} min`,
  `  invocations: ${stats.invocations} (answers ${stats.answers}, of which timed out ${stats.timedOut}; expected input errors ${stats.inputErrors}; cancelled ${stats.cancelled})`,
  `  unexpected errors: ${Object.values(stats.byKind).reduce((a, b) => a + b, 0)} ${JSON.stringify(stats.byKind)}`,
  ...stats.unexpected.map((line) => `    ${line}`),
  `  latency of grep/glob answers (${sorted.length}): p50 ${pct(50).toFixed(0)} ms, p99 ${pct(99).toFixed(0)} ms, max ${sorted.length ? sorted[sorted.length - 1].toFixed(0) : NaN} ms`,
  `  peak RSS: first ${window / 1000} s ${mb(startPeak)}, last ${window / 1000} s ${mb(endPeak)}, overall ${mb(peak(rss))} (${flat ? 'flat' : 'GREW'})`,
];
process.stdout.write(report.join('\n') + '\n');
process.exitCode = stats.unexpected.length === 0 && flat ? 0 : 1;
