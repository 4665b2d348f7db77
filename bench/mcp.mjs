// `npm run bench:mcp`: the latency of one grep on a small corpus (lodash from the bench corpus, about
// 1,000 files), three ways: a warm call to the MCP server (`node dist/cli.js mcp`, its index built, timed
// in the MCP SDK's client, JSON-RPC over stdio included), the CLI one-shot (`node dist/cli.js grep`, a
// whole process, with the stored index and without), and ripgrep (a whole process, the engine's
// semantics: test/support/ripgrep.ts). Median wall time of BENCH_RUNS runs (default 9). Totals must agree.
// Writes nothing into the work tree (the index goes to a temporary directory).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from '../scripts/lib/corpus.mjs';
import { parseAnswer } from '../scripts/lib/answers.mjs';
import { ensureCodeServer } from '../scripts/lib/install.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { ripgrepArgs } = require(join(repo, 'out', 'test', 'support', 'ripgrep.js'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const RUNS = Number(process.env.BENCH_RUNS || 9);
const PATTERNS = [
  ['rare literal', { pattern: 'MAX_SAFE_INTEGER', output_mode: 'count' }],
  ['frequent literal', { pattern: 'function', output_mode: 'count' }],
  ['regex, no literal', { pattern: '[A-Z][a-z]+[0-9]{2,}', output_mode: 'count' }],
];

const { rg } = await ensureCodeServer();
// BENCH_MCP_WHOLE=1: the whole bench corpus (about 10,000 files) instead of lodash.
const corpus = process.env.BENCH_MCP_WHOLE ? ensureCorpus().tree : join(ensureCorpus().tree, 'lodash');
const cli = join(repo, 'dist', 'cli.js');
const indexDir = mkdtempSync(join(tmpdir(), 'grep-tools-bench-mcp-'));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Wall time (ms) and stdout of a whole process. */
function timed(command, args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && !(command === rg && result.status === 1)) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}
const rgTotal = (stdout) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .reduce((n, line) => n + Number(line.slice(line.lastIndexOf(':') + 1)), 0);

try {
  const built = timed(process.execPath, [cli, 'index', '--workspace', corpus, '--index-dir', indexDir]);
  const summary = JSON.parse(built.stdout);
  console.log(`Corpus: ${corpus} (${summary.files} files indexed in ${Math.round(built.ms)} ms). ${RUNS} runs each, median wall time.`);

  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--workspace', corpus, '--index-dir', indexDir], stderr: 'pipe' });
  let log = '';
  transport.stderr.on('data', (chunk) => (log += chunk));
  const client = new Client({ name: 'bench-mcp', version: '1.0.0' });
  await client.connect(transport);
  const call = async (input) => {
    const started = process.hrtime.bigint();
    const result = await client.callTool({ name: 'grep', arguments: input });
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, answer: parseAnswer(result.content[0].text) };
  };
  const first = await call(PATTERNS[0][1]);
  // The first call starts the resident index: wait until it is built and watched before timing warm calls.
  while (!/^index: \d+ files .*watching/m.test(log)) await new Promise((resolve) => transport.stderr.once('data', resolve));
  console.log(`MCP first call (starts the index): ${first.ms.toFixed(1)} ms`);

  const rows = [];
  for (const [name, input] of PATTERNS) {
    const mcp = [];
    const oneShot = [];
    const noIndex = [];
    const ripgrep = [];
    let totals;
    await call(input); // warm-up of this pattern
    for (let run = 0; run < RUNS; run++) {
      const warm = await call(input);
      mcp.push(warm.ms);
      const shot = timed(process.execPath, [cli, 'grep', JSON.stringify(input), '--workspace', corpus, '--index-dir', indexDir]);
      oneShot.push(shot.ms);
      const plain = timed(process.execPath, [cli, 'grep', JSON.stringify(input), '--workspace', corpus, '--no-index']);
      noIndex.push(plain.ms);
      const rgRun = timed(rg, [...ripgrepArgs(input), '--count', corpus]);
      ripgrep.push(rgRun.ms);
      totals = [
        warm.answer.total_matches ?? 0,
        parseAnswer(shot.stdout).total_matches ?? 0,
        parseAnswer(plain.stdout).total_matches ?? 0,
        rgTotal(rgRun.stdout),
      ];
    }
    if (new Set(totals).size !== 1) throw new Error(`${name}: the totals differ (MCP, CLI, CLI --no-index, ripgrep): ${totals.join(', ')}`);
    rows.push([name, totals[0], median(mcp), median(oneShot), median(noIndex), median(ripgrep)]);
  }
  await client.close();

  console.log('\n| pattern (count) | matches | MCP warm call | CLI one-shot (index) | CLI one-shot (--no-index) | ripgrep |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, total, ...ms] of rows) console.log(`| ${name} | ${total} | ${ms.map((value) => `${value.toFixed(1)} ms`).join(' | ')} |`);
} finally {
  rmSync(indexDir, { recursive: true, force: true });
}
