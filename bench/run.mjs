// `npm run bench`: the engine (the CLI, whole process) against ripgrep on the same tree with the same
// semantics, interleaved runs, median wall time, ratio, peak RSS; on the bench corpus and on four copies
// of it. Then the same queries answered with the content index (`cli.js index`, kept in a temporary
// directory): its build time, memory and size, and the indexed queries beside ripgrep. Totals must
// agree. Prints the tables and, at the end of the run, writes them as Markdown to bench/results/bench-cli.md
// (rewritten by each run: the current figures; earlier ones are in git). The index goes to a temporary directory.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAnswer } from '../scripts/lib/answers.mjs';
import { ensureCorpus } from '../scripts/lib/corpus.mjs';
import { ensureCodeServer, ensureDebianPackages } from '../scripts/lib/install.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { ripgrepArgs } = require(join(repo, 'out', 'test', 'support', 'ripgrep.js'));

const RUNS = Number(process.env.BENCH_RUNS || 5);
const PATTERNS = [
  ['rare literal', { pattern: 'MAX_SAFE_INTEGER' }],
  ['frequent literal', { pattern: 'function' }],
  ['case-insensitive', { pattern: 'deprecated', case_insensitive: true }],
  ['word', { pattern: 'Error', word: true }],
  ['regex, required literal', { pattern: '\\w+Error\\(' }],
  ['regex, no literal', { pattern: '[A-Z][a-z]+[0-9]{2,}' }],
];
/** The patterns the index narrows to a few files (target 0.5x ripgrep); the others read most files (target 1.5x). */
const SELECTIVE = new Set(['rare literal', 'case-insensitive', 'regex, required literal']);

ensureDebianPackages(['time'], 'Measuring peak memory (GNU time)');
const { rg } = await ensureCodeServer();
const corpus = ensureCorpus();

/** Runs a command under GNU time: { ms, rssKb, stdout }. */
function timed(command, args, cwd, env = process.env) {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && !(command === rg && result.status === 1)) throw new Error(`${command} failed: ${result.stderr}`);
  const rssKb = Number(result.stderr.trim().split('\n').pop());
  return { ms, rssKb, stdout: result.stdout };
}

/** The engine without an index (`--no-index`), or with the one in `indexDir` (answered by its server when one runs). */
function engine(input, dir, indexDir, env) {
  const index = indexDir ? ['--index-dir', indexDir] : ['--no-index'];
  const run = timed(
    process.execPath,
    [join(repo, 'dist', 'cli.js'), 'grep', JSON.stringify({ ...input, output_mode: 'count' }), '--workspace', dir, ...index],
    dir,
    env,
  );
  return { ...run, total: parseAnswer(run.stdout).total_matches };
}

function ripgrep(input, dir) {
  const run = timed(rg, ['--count', ...ripgrepArgs(input), '.'], dir);
  const total = run.stdout
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
  return { ...run, total };
}

/** Every line printed, kept for bench/results/bench-cli.md. */
const printed = [];
function print(line) {
  console.log(line);
  printed.push(line);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * What any Node.js program pays on this tree (bench/floor.cjs: no rules, no order, no answer), beside
 * ripgrep's rare-literal search and the engine's, interleaved in the same runs: how much of the ratio is
 * Node itself, and how much the one check the engine's reader makes on every file it opens.
 */
function floor(dir) {
  const input = PATTERNS[0][1];
  const literal = input.pattern;
  // Node 20 parses NODE_EXTRA_CA_CERTS at start-up, whether the program makes a TLS connection or not
  // (about 50 ms per process on these machines); Node 22+ reads it when a connection first needs it.
  const { NODE_EXTRA_CA_CERTS: extraCerts, ...withoutCerts } = process.env;
  const floorScript = join(repo, 'bench', 'floor.cjs');
  const program = (args, env) => () => timed(process.execPath, [floorScript, ...args], dir, env).ms;
  const steps = [
    ['Node starts and exits', program(['start'])],
    ...(extraCerts ? [['Node starts and exits, NODE_EXTRA_CA_CERTS unset', program(['start'], withoutCerts)]] : []),
    ['lists every file (readdirSync)', program(['walk', dir])],
    ['lists, reads, indexOf: 1 thread', program(['read', dir, literal])],
    ['lists, reads, indexOf: 2 worker threads', program(['workers', dir, literal, '2'])],
    ["the same, each open file's real path read from /proc (the engine's reader's check)", program(['checked', dir, literal, '2'])],
    ['the engine (`--no-index`)', () => engine(input, dir).ms],
    ...(extraCerts ? [['the engine, NODE_EXTRA_CA_CERTS unset', () => engine(input, dir, undefined, withoutCerts).ms]] : []),
  ];
  const times = steps.map(() => []);
  const theirs = [];
  for (let i = 0; i < RUNS; i++) {
    steps.forEach(([, run], k) => times[k].push(run()));
    theirs.push(ripgrep(input, dir).ms);
  }
  const rgMs = median(theirs);
  print(
    `\nThe floor: minimal Node.js programs on the same tree (bench/floor.cjs) and the engine, interleaved, median of ${RUNS}, against ripgrep's \`${literal}\` (${rgMs.toFixed(0)} ms)`,
  );
  print('| program | ms | ratio to rg |');
  print('| --- | ---: | ---: |');
  steps.forEach(([name], k) => print(`| ${name} | ${median(times[k]).toFixed(0)} | ${(median(times[k]) / rgMs).toFixed(2)} |`));
}

function bench(title, dir) {
  print(`\n${title}: ${dir}`);
  print('| pattern | matches | engine ms | rg ms | ratio | engine peak RSS MB | rg peak RSS MB |');
  print('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const rows = [];
  for (const [name, input] of PATTERNS) {
    engine(input, dir); // warm the page cache and the OS for both
    ripgrep(input, dir);
    const ours = [];
    const theirs = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(engine(input, dir));
      theirs.push(ripgrep(input, dir));
    }
    const row = {
      name,
      matches: ours[0].total,
      agree: ours.every((r) => r.total === theirs[0].total),
      engineMs: median(ours.map((r) => r.ms)),
      rgMs: median(theirs.map((r) => r.ms)),
      engineRss: Math.max(...ours.map((r) => r.rssKb)) / 1024,
      rgRss: Math.max(...theirs.map((r) => r.rssKb)) / 1024,
    };
    rows.push(row);
    print(
      `| ${name} \`${input.pattern}\` | ${row.matches}${row.agree ? '' : ` (rg: ${theirs[0].total}!)`} | ${row.engineMs.toFixed(0)} | ${row.rgMs.toFixed(0)} | ${(row.engineMs / row.rgMs).toFixed(2)} | ${row.engineRss.toFixed(0)} | ${row.rgRss.toFixed(0)} |`,
    );
  }
  return rows;
}

print(
  `Bench corpus: ${corpus.files} files, ${(corpus.bytes / 1048576).toFixed(0)} MB (pinned npm packages). ${RUNS} interleaved runs per pattern, median wall time of the whole process.`,
);
const rgVersion = spawnSync(rg, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
print(`Engine: node ${process.version} dist/cli.js (count mode). ripgrep: ${rgVersion} (${rg})`);
const base = bench('Base corpus', corpus.tree);
floor(corpus.tree);
const four = bench('Corpus copied four times', corpus.copies(4));
const worstRatio = Math.max(...base.map((r) => r.engineMs / r.rgMs));
const rssGrowth = Math.max(...four.map((r) => r.engineRss)) / Math.max(...base.map((r) => r.engineRss));
/** Starts `cli.js serve` on `dir` with the index in `indexDir`; resolves once it listens. */
function startServer(dir, indexDir) {
  const server = spawn(process.execPath, [join(repo, 'dist', 'cli.js'), 'serve', '--workspace', dir, '--index-dir', indexDir], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ ready: JSON.parse(out), stop: () => new Promise((done) => (server.once('exit', done), server.kill('SIGTERM'))) });
    });
    server.once('exit', (code) => reject(new Error(`cli.js serve exited (${code}) before it listened`)));
  });
}

/**
 * Builds the index of `dir` in a temporary directory, then times indexed queries against ripgrep: each
 * call a process of its own (`cli.js grep` loads the stored index and checks it), and the same calls
 * answered by a running `cli.js serve` (the index in memory, kept current by its watcher).
 */
async function benchIndexed(title, dir) {
  const indexDir = mkdtempSync(join(tmpdir(), 'grep-tools-bench-index-'));
  const { NODE_EXTRA_CA_CERTS: extraCerts, ...withoutCerts } = process.env;
  try {
    const build = timed(process.execPath, [join(repo, 'dist', 'cli.js'), 'index', '--workspace', dir, '--index-dir', indexDir], dir);
    const summary = JSON.parse(build.stdout);
    const refresh = timed(process.execPath, [join(repo, 'dist', 'cli.js'), 'index', '--workspace', dir, '--index-dir', indexDir], dir);
    // The table (index.bin) and the postings' segment files beside it.
    const onDisk = readdirSync(indexDir).reduce((sum, name) => sum + statSync(join(indexDir, name)).size, 0);
    print(`\n${title}, with the content index: ${dir}`);
    print(
      `Index build: ${(build.ms / 1000).toFixed(1)} s wall, peak RSS ${(build.rssKb / 1024).toFixed(0)} MB, ${summary.files} files (${(summary.bytes / 1048576).toFixed(0)} MB of text), ` +
        `${(onDisk / 1048576).toFixed(1)} MB on disk, postings ${(summary.postingBytes / 1048576).toFixed(1)} MB in memory (${((100 * summary.postingBytes) / summary.bytes).toFixed(0)}% of the text); ` +
        `listing recorded: ${summary.listing}; refresh with nothing changed: ${(refresh.ms / 1000).toFixed(2)} s.`,
    );
    // One call alone first (no server runs yet), interleaved with ripgrep and with the engine without the index.
    const oneShot = [];
    const plain = [];
    const rgAlone = [];
    for (const [, input] of PATTERNS) {
      engine(input, dir, indexDir);
      oneShot.push([]);
      plain.push([]);
      rgAlone.push([]);
      for (let i = 0; i < RUNS; i++) {
        oneShot.at(-1).push(engine(input, dir, indexDir));
        rgAlone.at(-1).push(ripgrep(input, dir));
        plain.at(-1).push(engine(input, dir));
      }
    }
    const serveStarted = Date.now();
    const server = await startServer(dir, indexDir);
    const serveMs = Date.now() - serveStarted;
    const rows = [];
    try {
      for (const [k, [name, input]] of PATTERNS.entries()) {
        engine(input, dir, indexDir);
        const served = [];
        const servedFast = [];
        const theirs = [];
        for (let i = 0; i < RUNS; i++) {
          served.push(engine(input, dir, indexDir));
          if (extraCerts) servedFast.push(engine(input, dir, indexDir, withoutCerts));
          theirs.push(ripgrep(input, dir));
        }
        const agree = [...served, ...servedFast, ...oneShot[k], ...plain[k]].every((r) => r.total === theirs[0].total);
        const ms = (runs) => median(runs.map((r) => r.ms));
        rows.push({
          name,
          matches: served[0].total,
          agree,
          rgMs: ms(theirs),
          servedMs: ms(served),
          fastMs: extraCerts ? ms(servedFast) : undefined,
          oneShotMs: ms(oneShot[k]),
          rgAloneMs: ms(rgAlone[k]),
          plainMs: ms(plain[k]),
          rss: Math.max(...oneShot[k].map((r) => r.rssKb)) / 1024,
        });
      }
    } finally {
      await server.stop();
    }
    print(`cli.js serve: listening ${(serveMs / 1000).toFixed(1)} s after it started (it refreshes the index, then watches the tree).`);
    const fastColumns = extraCerts ? ' served, NODE_EXTRA_CA_CERTS unset ms | ratio |' : '';
    print(
      `| pattern | kind | matches | rg ms | served ms | ratio |${fastColumns} one call alone, indexed ms | ratio (to rg in its runs) | without the index ms | indexed peak RSS MB |`,
    );
    print(`| --- | --- | ---: | ---: | ---: | ---: |${extraCerts ? ' ---: | ---: |' : ''} ---: | ---: | ---: | ---: |`);
    for (const row of rows) {
      const input = PATTERNS.find(([name]) => name === row.name)[1];
      const fast = extraCerts ? ` ${row.fastMs.toFixed(0)} | ${(row.fastMs / row.rgMs).toFixed(2)} |` : '';
      print(
        `| ${row.name} \`${input.pattern}\` | ${SELECTIVE.has(row.name) ? 'selective' : 'broad'} | ${row.matches}${row.agree ? '' : ' (totals differ!)'} | ${row.rgMs.toFixed(0)} | ${row.servedMs.toFixed(0)} | ${(row.servedMs / row.rgMs).toFixed(2)} |${fast} ` +
          `${row.oneShotMs.toFixed(0)} | ${(row.oneShotMs / row.rgAloneMs).toFixed(2)} | ${row.plainMs.toFixed(0)} | ${row.rss.toFixed(0)} |`,
      );
    }
    return rows;
  } finally {
    rmSync(indexDir, { recursive: true, force: true });
  }
}

const indexedBase = await benchIndexed('Base corpus', corpus.tree);
const indexedFour = await benchIndexed('Corpus copied four times', corpus.copies(4));

print(`\nWorst engine/ripgrep ratio on the base corpus: ${worstRatio.toFixed(2)} (target <= 1.5)`);
print(`Engine peak RSS, 4x corpus / base corpus: ${rssGrowth.toFixed(2)} (target <= 1.3)`);
/** Each indexed pattern against its target (selective <= 0.5x ripgrep, broad <= 1.5x), by the column `key`. */
const verdicts = (rows, key, rgKey = 'rgMs') =>
  rows.map((r) => `${r.name} ${(r[key] / r[rgKey]).toFixed(2)}${r[key] / r[rgKey] <= (SELECTIVE.has(r.name) ? 0.5 : 1.5) ? ' ✓' : ' ✗'}`).join(', ');
print(`Served/ripgrep ratios on the base corpus (targets: selective <= 0.5, broad <= 1.5): ${verdicts(indexedBase, 'servedMs')}`);
if (indexedBase[0].fastMs !== undefined) print(`  the same, NODE_EXTRA_CA_CERTS unset for the CLI's process: ${verdicts(indexedBase, 'fastMs')}`);
print(`One indexed call alone/ripgrep on the base corpus: ${verdicts(indexedBase, 'oneShotMs', 'rgAloneMs')}`);
const agree = [...base, ...four, ...indexedBase, ...indexedFour].every((r) => r.agree);
if (!agree) {
  print('Totals differ from ripgrep for some pattern (marked with !).');
  process.exitCode = 1;
}

// The current figures, kept in the repository (bench/results/bench-cli.md): what was printed above, with a blank
// line around each table so that it reads as Markdown.
const lines = printed.join('\n').split('\n');
const body = lines.map((line, i) => (i > 0 && line && lines[i - 1] && line.startsWith('|') !== lines[i - 1].startsWith('|') ? `\n${line}` : line));
const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
const results = join(repo, 'bench', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'bench-cli.md'),
  [
    `# \`npm run bench\`, ${when} UTC, ${availableParallelism()} cores, load average ${loadavg()[1].toFixed(1)} over the last 5 minutes (above the cores: other work shared them)`,
    '',
    agree
      ? "Every total (the engine's without and with the index, one call alone and served) equals ripgrep's on the same tree."
      : "TOTALS DIFFER from ripgrep's for some pattern (marked with !).",
    '',
    ...body,
    '',
  ].join('\n'),
);
console.log(`\nWritten to ${join(results, 'bench-cli.md')}`);
