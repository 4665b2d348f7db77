// `node bench/ngrams.mjs TREE INDEX_DIR [--serve DIST[,DIST...]] [--sparse] [--case] [--no-verify]`:
// what the content index leaves to read, per question. For each question: the trigram lists its plan
// reads and their bytes, the candidates it leaves, the files that really match (the candidates read and
// searched), the time of the index lookup alone (median of BENCH_RUNS, warm); with --serve, the warm
// answer of `cli.js serve` of each build given (interleaved, the order reversed every other round,
// medians, each round a fresh spec) and its total beside ripgrep's; with --sparse, a prototype of sparse
// n-grams (bench/ngrams/sparse.mjs): the candidates it would leave, the lists it would read, and the
// size of its index; with --case, the candidates and size of trigrams kept in their case. The index in
// INDEX_DIR is built by `cli.js index` first (not changed here).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { parseAnswer } from '../scripts/lib/answers.mjs';
import { covering, PairWeights, SparseSizer, MAX_GRAM } from './ngrams/sparse.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RUNS = Number(process.env.BENCH_RUNS || 7);

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const [tree, indexDir] = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1] === '--serve')).map((a) => resolve(a));
if (!tree || !indexDir) {
  console.error('usage: node bench/ngrams.mjs TREE INDEX_DIR [--serve DIST[,DIST...]] [--sparse] [--case] [--no-verify]');
  process.exit(1);
}

/** [name, grep input]: the frequent, broad, ignoring case, selective and no-match questions of bench:host and bench. */
const QUESTIONS = [
  ['rare literal', { pattern: 'MAX_SAFE_INTEGER', fixed_strings: true }],
  ['frequent literal', { pattern: 'TODO', fixed_strings: true }],
  ['frequent literal 2', { pattern: 'function', fixed_strings: true }],
  ['ignore case', { pattern: 'deprecated', fixed_strings: true, case_insensitive: true }],
  ['ignore case, alternation', { pattern: 'todo|fixme|hack', case_insensitive: true }],
  ['regex, required literal', { pattern: '\\w+Error\\(' }],
  ['regex, class', { pattern: '[A-Z][a-z]+Error' }],
  ['word', { pattern: 'Error', word: true }],
  ['broad literal', { pattern: 'WebpackError' }],
  ['literal (include-ts)', { pattern: 'export declare function', fixed_strings: true }],
  ['selective regex', { pattern: 'async function formatWithCursor\\(' }],
  ['selective regex 2', { pattern: 'new Compiler\\(' }],
  ['no match', { pattern: 'zq_no_such_identifier_qz', fixed_strings: true }],
  ['regex, no literal', { pattern: '[A-Z][a-z]+[0-9]{2,}' }],
];

if (process.env.BENCH_NGRAMS_ONLY) {
  const only = new RegExp(process.env.BENCH_NGRAMS_ONLY);
  QUESTIONS.splice(0, QUESTIONS.length, ...QUESTIONS.filter(([name]) => only.test(name)));
}

// The engine pieces, bundled with the planner a second time over literal strings (the sparse prototype's plan).
const bundle = join(repo, '.test-artifacts', 'ngrams', 'probe.cjs');
mkdirSync(dirname(bundle), { recursive: true });
const plannerPath = join(repo, 'src', 'engine', 'index', 'planner.ts');
await build({
  entryPoints: [join(repo, 'bench', 'ngrams', 'probe.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: bundle,
  logLevel: 'error',
  plugins: [
    {
      name: 'literal-planner',
      setup(build) {
        const here = (name) => JSON.stringify(join(repo, 'bench', 'ngrams', name));
        build.onResolve({ filter: /^(literal|case)-planner$/ }, ({ path }) => ({ path: plannerPath, namespace: path.slice(0, -'-planner'.length) }));
        build.onLoad({ filter: /.*/, namespace: 'literal' }, () => ({
          contents: readFileSync(plannerPath, 'utf8').replace("from './query'", `from ${here('literalQuery.ts')}`),
          loader: 'ts',
          resolveDir: dirname(plannerPath),
        }));
        // The same planner with its literals in their own case (what an index that kept case could use).
        build.onLoad({ filter: /.*/, namespace: 'case' }, () => ({
          contents: readFileSync(plannerPath, 'utf8')
            .replace("from './query'", `from ${here('literalQuery.ts')}`)
            .replace("from './fold'", `from ${here('keepCase.ts')}`),
          loader: 'ts',
          resolveDir: dirname(plannerPath),
        }));
      },
    },
  ],
});
const probe = require(bundle);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

const { index, counts, size: indexSize } = probe.loadCounting(indexDir);
const textIds = [];
for (let id = 0; id < index.idLimit; id++) if (index.fileOf(id).kind === 'text') textIds.push(id);
console.log(`${tree}: ${index.size} files in the index (${textIds.length} text), index ${(indexSize / 1048576).toFixed(1)} MiB on disk.`);

/** The trigram lists a query reads (all of them, today's evaluation) and their bytes. */
function listsOf(query) {
  if (query.op === 'trigram') return [query.key];
  if (query.op === 'and' || query.op === 'or') return query.args.flatMap(listsOf);
  return [];
}

const rows = [];
for (const [name, input] of QUESTIONS) {
  const matcher = probe.compileMatcher(input.pattern, input);
  const plan = probe.planRegex(matcher.regex);
  const times = [];
  let ids;
  let read = 0;
  let reads = 0;
  for (let i = 0; i < RUNS; i++) {
    counts.bytes = 0;
    counts.reads = 0;
    const start = process.hrtime.bigint();
    ids = index.evaluate(plan);
    times.push(ms(start));
    read = counts.bytes;
    reads = counts.reads;
  }
  const candidates = ids ?? textIds;
  let matching;
  if (!flag('--no-verify')) {
    matching = 0;
    for (const id of candidates) {
      const file = index.fileOf(id);
      if (file.kind !== 'text') continue;
      try {
        if (probe.matchesText(probe.readText(file.path), matcher)) matching++;
      } catch {
        // gone since the build: not a match
      }
    }
  }
  rows.push({
    name,
    input,
    plan,
    lists: new Set(listsOf(plan)).size,
    candidates: ids === undefined ? `all (${textIds.length})` : ids.length,
    count: candidates.length,
    matching,
    evaluateMs: median(times),
    read,
    reads,
  });
}

console.log('\n| question | pattern | trigram lists | postings read (bytes, reads) | candidates | files matching | lookup ms |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  console.log(
    `| ${row.name} | \`${row.input.pattern}\`${row.input.case_insensitive ? ' (i)' : ''} | ${row.lists} | ${row.read} (${row.reads}) | ${row.candidates} | ${row.matching ?? '-'} | ${row.evaluateMs.toFixed(2)} |`,
  );
}

// Frequency-weighted choice: the trigrams of a conjunction rarest first (as evaluate orders them), with the
// candidates left and the bytes walked after each; what stopping after k lists would leave.
console.log('\n| question | after each list, rarest first: list bytes → candidates left |');
console.log('| --- | --- |');
for (const row of rows) {
  if (row.plan.op !== 'and' || row.plan.args.some((arg) => arg.op !== 'trigram')) continue;
  const steps = [];
  // Each list decoded on its own (evaluate of one trigram) and intersected here: every list, none left unread.
  const keys = row.plan.args.map((arg) => ({ key: arg.key, bytes: index['list'](arg.key).bytes })).sort((a, b) => a.bytes - b.bytes);
  let left;
  for (const { key, bytes } of keys) {
    const ids = new Set(index.evaluate({ op: 'trigram', key }));
    left = left === undefined ? [...ids] : left.filter((id) => ids.has(id));
    steps.push(`${bytes}→${left.length}`);
    if (left.length === 0) break;
  }
  console.log(`| ${row.name} | ${steps.join(', ')} |`);
}

if (flag('--sparse')) sparse();
if (flag('--case')) keepingCase();
if (option('--serve')) await serve(option('--serve').split(','));

/** The sparse n-gram prototype on the index's text files: weights, index size, candidates per question. */
function sparse() {
  const fold = (text) => {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const u = text.charCodeAt(i);
      out += String.fromCharCode(u >= 65 && u <= 90 ? u + 32 : u === 0x212a ? 107 : u === 0x017f ? 115 : u);
    }
    return out;
  };
  let started = process.hrtime.bigint();
  const texts = [];
  for (const id of textIds) {
    try {
      texts.push({ id, folded: fold(probe.readText(index.fileOf(id).path)) });
    } catch {
      texts.push({ id, folded: '' });
    }
  }
  const weights = new PairWeights();
  for (const { folded } of texts) weights.addText(folded);
  weights.seal();
  const readMs = ms(started);
  started = process.hrtime.bigint();
  const sizer = new SparseSizer(26);
  for (const { id, folded } of texts) sizer.addFile(id, folded, weights.pairs(folded));
  const buildMs = ms(started);
  const trigramPostings = sizer.postings - sizer.longer;
  console.log(
    `\nSparse n-grams (up to ${MAX_GRAM} characters, pair weights from this tree): ${sizer.keyCount} keys, ${sizer.postings} postings ` +
      `(${trigramPostings} of them trigrams: ${(sizer.postings / trigramPostings).toFixed(2)}x), lists ${(sizer.bytes / 1048576).toFixed(1)} MB ` +
      `(trigrams alone ${(sizer.trigramBytes / 1048576).toFixed(1)} MB: ${(sizer.bytes / sizer.trigramBytes).toFixed(2)}x); ` +
      `extracting them took ${(buildMs / 1000).toFixed(1)} s on one thread (reading and folding ${(readMs / 1000).toFixed(1)} s).`,
  );
  console.log('\n| question | trigram candidates | sparse grams looked up | sparse candidates | candidates holding each whole literal | files matching |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const literalPlan = probe.planLiterals(probe.compileMatcher(row.input.pattern, row.input).regex);
    const grams = new Map();
    const gramsOf = (text) => {
      if (!grams.has(text)) grams.set(text, covering(text, weights));
      return grams.get(text);
    };
    const holds = (folded, query, whole) => {
      switch (query.op) {
        case 'all':
          return true;
        case 'none':
          return false;
        case 'literal':
          return whole ? folded.includes(query.text) : gramsOf(query.text).every((gram) => folded.includes(gram));
        case 'and':
          return query.args.every((arg) => holds(folded, arg, whole));
        case 'or':
          return query.args.some((arg) => holds(folded, arg, whole));
      }
    };
    let sparseCount = 0;
    let ideal = 0;
    for (const { folded } of texts) {
      if (holds(folded, literalPlan, false)) sparseCount++;
      if (holds(folded, literalPlan, true)) ideal++;
    }
    const looked = [...grams.values()].reduce((sum, list) => sum + list.length, 0);
    const shown = [...grams.entries()].map(([text, list]) => `${JSON.stringify(text)} → ${list.map((g) => JSON.stringify(g)).join(' ')}`).join('; ');
    console.log(
      `| ${row.name} | ${row.count} | ${looked}${shown ? ` (${shown.replace(/\|/g, '\\|')})` : ''} | ${literalPlan.op === 'all' ? 'all' : sparseCount} | ${literalPlan.op === 'all' ? 'all' : ideal} | ${row.matching ?? '-'} |`,
    );
  }
}

/**
 * An index that kept case (trigrams of the text as it is), for the questions that do not ignore case:
 * the candidates it would leave, and its size beside the folded trigrams' (`--case`).
 */
function keepingCase() {
  const texts = textIds.map((id) => {
    try {
      return probe.readText(index.fileOf(id).path);
    } catch {
      return '';
    }
  });
  const folded = new SparseSizer(24);
  const exact = new SparseSizer(24);
  texts.forEach((text, id) => {
    const none = new Float64Array(Math.max(0, text.length - 1)); // equal weights: trigrams only
    exact.addFile(id, text, none);
    folded.addFile(
      id,
      text.replace(/[A-Z\u212a\u017f]/g, (c) => (c === '\u212a' ? 'k' : c === '\u017f' ? 's' : c.toLowerCase())),
      none,
    );
  });
  console.log(
    `\nTrigrams in their case: ${exact.keyCount} keys, ${exact.postings} postings, lists ${(exact.bytes / 1048576).toFixed(1)} MiB ` +
      `(folded: ${folded.keyCount} keys, ${folded.postings} postings, ${(folded.bytes / 1048576).toFixed(1)} MiB: ${(exact.bytes / folded.bytes).toFixed(2)}x).`,
  );
  console.log('\n| question | folded trigram candidates | trigrams in their case: candidates | files holding each literal in its case | files matching |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const matcher = probe.compileMatcher(row.input.pattern, row.input);
    if (matcher.regex.ignoreCase) continue;
    const plan = probe.planCaseLiterals(matcher.regex);
    const trigramsOf = (literal) => Array.from({ length: literal.length - 2 }, (_, i) => literal.slice(i, i + 3));
    const holds = (text, query, whole) => {
      switch (query.op) {
        case 'all':
          return true;
        case 'none':
          return false;
        case 'literal':
          return whole ? text.includes(query.text) : trigramsOf(query.text).every((t) => text.includes(t));
        case 'and':
          return query.args.every((arg) => holds(text, arg, whole));
        case 'or':
          return query.args.some((arg) => holds(text, arg, whole));
      }
    };
    const count = (whole) => (plan.op === 'all' ? 'all' : texts.filter((text) => holds(text, plan, whole)).length);
    console.log(`| ${row.name} | ${row.count} | ${count(false)} | ${count(true)} | ${row.matching ?? '-'} |`);
  }
}

/** Warm answers of `cli.js serve` of each build, interleaved; totals beside ripgrep's. */
async function serve(dists) {
  const limits = ['--max-indexed-bytes', String(4 * 2 ** 30), '--max-files', '1000000'];
  const servers = [];
  for (const dist of dists.map((d) => resolve(d))) {
    const dir = mkdtempSync(join(tmpdir(), 'grep-tools-ngrams-'));
    for (const name of readdirSync(indexDir)) if (name.endsWith('.bin')) copyFileSync(join(indexDir, name), join(dir, name));
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [join(dist, 'cli.js'), 'serve', '--workspace', tree, '--index-dir', dir, ...limits], {
      cwd: tree,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise((done, fail) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) done();
      });
      child.once('exit', (code) => fail(new Error(`serve of ${dist} exited (${code})`)));
    });
    const engine = join(dist, 'cliEngine.js');
    const stat = statSync(engine);
    servers.push({ dist, dir, child, identity: `${engine}:${stat.size}:${stat.mtimeMs}`, readyMs: ms(started) });
  }
  const rg = probe.findRipgrep();
  console.log(
    `\nServed answers (output_mode count), warm, ${RUNS} interleaved rounds, medians; ready after ${servers.map((s) => `${(s.readyMs / 1000).toFixed(1)} s`).join(', ')}.`,
  );
  console.log(
    `| question | ${servers.map((s, k) => `build ${k + 1} ms`).join(' | ')} | ${servers.length > 1 ? 'ratio 2/1 | ' : ''}totals (${servers.map((_, k) => k + 1).join(', ')}, rg) |`,
  );
  console.log(`| --- | ${servers.map(() => '---').join(' | ')} | ${servers.length > 1 ? '--- | ' : ''}--- |`);
  let wrong = 0;
  try {
    for (const [name, input] of QUESTIONS) {
      // Each round caps the matches per file at another number no file reaches: the same answer, another spec,
      // so no round is answered from the results a server keeps of an earlier one (RecentResults).
      const ask = async (server, round) => {
        const json = JSON.stringify({ ...input, max_matches_per_file: 1_000_000 + round, output_mode: 'count' });
        const request = probe.parseArguments(['grep', json, '--workspace', tree, '--index-dir', server.dir], tree);
        const start = process.hrtime.bigint();
        const outcome = await probe.askServer(request, server.identity);
        const took = ms(start);
        if (!outcome) throw new Error(`serve of ${server.dist} declined`);
        return { ms: took, total: parseAnswer(outcome.stdout).total_matches };
      };
      const samples = servers.map(() => []);
      for (const server of servers) await ask(server, 0); // warm-up
      for (let i = 0; i < RUNS; i++) {
        // Every other round in the reverse order: neither build always runs right after the other.
        const order = [...servers.entries()];
        if (i % 2 === 1) order.reverse();
        for (const [k, server] of order) samples[k].push(await ask(server, i + 1));
      }
      const run = spawnSync(rg, ['--count', ...probe.ripgrepArgs(input), '.'], { cwd: tree, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      const rgTotal = run.stdout
        .split('\n')
        .filter(Boolean)
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
      const totals = samples.map((s) => s[0].total);
      const agree = samples.every((s) => s.every((r) => r.total === rgTotal));
      if (!agree) wrong++;
      const medians = samples.map((s) => median(s.map((r) => r.ms)));
      console.log(
        `| ${name} | ${medians.map((m) => m.toFixed(1)).join(' | ')} | ${servers.length > 1 ? `${(medians[1] / medians[0]).toFixed(2)} | ` : ''}${totals.join(', ')}, ${rgTotal}${agree ? '' : ' DIFFER'} |`,
      );
    }
  } finally {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await new Promise((done) => server.child.once('exit', done));
      rmSync(server.dir, { recursive: true, force: true });
    }
  }
  if (wrong > 0) {
    console.log(`${wrong} question(s) with totals that differ from ripgrep's.`);
    process.exitCode = 1;
  }
}
