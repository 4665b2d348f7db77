// `npm run bench:host`: our tools against Copilot's own search tools in ONE code-server session on the bench
// corpus, both called the same way (vscode.lm.invokeTool from an extension, no chat request) and timed inside
// the extension host. Per question: a warm-up call of each side, then SAMPLES interleaved rounds (the side
// that goes first alternates); medians and the ratio ours / Copilot's. Also: our first call after the
// extension activates, three more of ours right after it while the content index builds, the first call of
// each side after a window reload (at once, and once the stored index was refreshed), the index's build
// (waited for before the samples), the extension host's round trips (a command run in it every 20 ms, its worst
// and median answer) during the first calls, the calls while the index builds and the rest of the build, and
// the extension host's peak RSS over our first call and the build, and over the comparisons, its growth taken
// from a window at rest opened first (the workspace not listed as it opens: the measured window's listing counts).
// Beside each median wall time, the median time the extension host's thread was busy during the call (event
// loop utilisation: the time no other extension could run). Prints a Markdown table and writes it, with every
// sample, to .test-artifacts/bench-host/.
// Copilot's tools stop at 5 × maxResults + 1 matches and are always case-insensitive; ours count everything.
// BENCH_HOST_SAMPLES (default 7) sets the rounds; BENCH_HOST_ONLY (a regex) keeps the questions whose id it
// matches; BENCH_HOST_INDEX=off runs the session with the content index turned off; BENCH_HOST_COPIES=n runs it
// on n copies of the corpus side by side (`npm run bench:scale`), with the default settings a user has (the
// index holds up to 5 GiB of text and 500,000 files; above them, the file list only). Each grep's total is
// checked against the command line's and ripgrep's on the same tree.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAgentSession, waitFor } from './lib/agent.mjs';
import { parseAnswer } from './lib/answers.mjs';
import { ensureCorpus } from './lib/corpus.mjs';
import { HOST_QUESTIONS } from './lib/hostQuestions.mjs';
import { ensureCodeServer } from './lib/install.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLES = Number(process.env.BENCH_HOST_SAMPLES ?? 7);
/** BENCH_HOST_INDEX=off: the same session with grepTools.index.enabled false (the first call and every answer without the index). */
const INDEX_OFF = process.env.BENCH_HOST_INDEX === 'off';
/** BENCH_HOST_COPIES=n: the workspace is n copies of the corpus (hard links, side by side). */
const COPIES = Number(process.env.BENCH_HOST_COPIES ?? 1);
/** `BENCH_HOST_SETTINGS`: more settings for the window, as JSON (`{"grepTools.definitions.enabled": false}`), to measure one apart. */
const EXTRA_SETTINGS = JSON.parse(process.env.BENCH_HOST_SETTINGS ?? '{}');
const artifacts = join(repo, '.test-artifacts', COPIES > 1 ? `bench-host-x${COPIES}` : 'bench-host');

const QUESTIONS = [...HOST_QUESTIONS];

if (process.env.BENCH_HOST_ONLY) {
  const only = new RegExp(process.env.BENCH_HOST_ONLY);
  QUESTIONS.splice(0, QUESTIONS.length, ...QUESTIONS.filter(([id]) => only.test(id)));
  if (QUESTIONS.length === 0) throw new Error(`BENCH_HOST_ONLY=${process.env.BENCH_HOST_ONLY} keeps no question`);
}

const mb = (bytes) => (bytes / 1048576).toFixed(0);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A parsed answer's files: paths, or each path's lines, count or time. */
const entriesOf = (answer) => (Array.isArray(answer.files ?? []) ? (answer.files ?? []) : Object.values(answer.files));

/** A grep answer's total: as it says, or (a whole answer on one page says none) the lines it shows. */
function linesOf(answer) {
  // (a content answer's rows naming definitions do not start with a line number: not counted)
  const shown = () =>
    entriesOf(answer).reduce((n, value) => n + (Array.isArray(value) ? value.filter((row) => typeof row !== 'string' || /^\d/.test(row)).length : 1), 0);
  return answer.total_matches ?? shown();
}

/** How many results an answer reports: ours from its fields, Copilot's from its header line. */
function reported(tool, text) {
  if (tool === 'grep' || tool === 'glob') {
    try {
      const answer = parseAnswer(text);
      const partial = answer.timed_out ? ' (timed out, partial)' : '';
      return tool === 'grep' ? `${linesOf(answer)} lines${partial}` : `${answer.total_files ?? answer.total ?? entriesOf(answer).length} files${partial}`;
    } catch {
      return `error: ${text.slice(0, 80)}`;
    }
  }
  const found = /Found (\d+) match/.exec(text) ?? /(\d+) total result/.exec(text);
  return found ? `${found[1]}${tool === 'copilot_findFiles' ? ' files' : ' lines'}` : text === '' ? '0 (empty)' : text.slice(0, 40);
}

/** Each grep question's total by `dist/cli.js` without an index and by ripgrep (the same flags as `npm run bench`), on `tree`. */
async function referenceTotals(tree) {
  const require = createRequire(import.meta.url);
  const { ripgrepArgs } = require(join(repo, 'out', 'test', 'support', 'ripgrep.js'));
  const { rg } = await ensureCodeServer();
  const totals = {};
  for (const [id, , [tool, input]] of QUESTIONS) {
    if (tool !== 'grep') continue;
    const cliTotal = () => {
      const cli = spawnSync(
        process.execPath,
        [join(repo, 'dist', 'cli.js'), 'grep', JSON.stringify({ ...input, output_mode: 'count', max_results: 1 }), '--workspace', tree, '--no-index'],
        { encoding: 'utf8', maxBuffer: 64 << 20 },
      );
      const answer = parseAnswer(cli.stdout);
      return answer.timed_out ? undefined : (answer.total_matches ?? 0);
    };
    const theirs = spawnSync(rg, ['--count', ...ripgrepArgs(input), '.'], { cwd: tree, encoding: 'utf8', maxBuffer: 256 << 20 });
    const rgTotal = theirs.stdout
      .split('\n')
      .filter(Boolean)
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
    // A tree read from disk (out of the page cache) may take the command line past its time limit, to a partial
    // total: it is asked once more, the tree read by then; a second partial total is no reference (the row differs).
    totals[id] = { cli: cliTotal() ?? cliTotal(), rg: rgTotal };
    process.stdout.write(`Reference total of ${id}: command line ${totals[id].cli ?? 'timed out twice'}, ripgrep ${totals[id].rg}\n`);
  }
  return totals;
}

/**
 * The extension host's RSS in a window at rest: our extension active, the workspace not listed
 * (grepTools.listWorkspaceOnOpen off), the window settled. The growth is taken from it, so the listing
 * the measured window makes as it opens counts in it.
 */
async function restingRss(tree) {
  const session = await openAgentSession({
    workspace: tree,
    script: { steps: [], fallbackText: 'bench:host measures a window at rest.' },
    artifactsDir: join(artifacts, 'at-rest'),
    settings: { ...EXTRA_SETTINGS, 'grepTools.listWorkspaceOnOpen': false },
    lifetimeSeconds: 600,
  });
  try {
    await waitFor(async () => (await session.bridge.call({ op: 'tools' })).includes('grep'), {
      timeoutMs: 90_000,
      intervalMs: 500,
      what: 'our tools to be registered',
    });
    await session.bridge.call({ op: 'settle', quietMs: 3000, timeoutMs: 60_000 }, { timeoutMs: 70_000 });
    const { rss } = await session.bridge.call({ op: 'memory' });
    process.stdout.write(`Extension host RSS in a window at rest (nothing listed): ${(rss / 1048576).toFixed(0)} MB\n`);
    return rss;
  } finally {
    await session.close?.();
  }
}

async function main() {
  const base = ensureCorpus();
  const corpus = COPIES > 1 ? { tree: base.copies(COPIES), files: base.files * COPIES, bytes: base.bytes * COPIES } : base;
  process.stdout.write(`Bench corpus: ${corpus.files} files, ${(corpus.bytes / 1048576).toFixed(0)} MB at ${corpus.tree}\n`);
  mkdirSync(artifacts, { recursive: true });
  // The grep questions' totals by the command line (no index) and by ripgrep on the same tree: the answers in VS Code must equal them.
  // (Reading the tree also brings its files into the page cache, which this machine's kernel empties of files not read for a while:
  // the first calls then compare the tools, not which side reads from disk first.)
  const expected = await referenceTotals(corpus.tree);
  const atRest = await restingRss(corpus.tree);
  const session = await openAgentSession({
    workspace: corpus.tree,
    script: { steps: [], fallbackText: 'bench:host calls the tools directly.' },
    artifactsDir: artifacts,
    settings: { ...(INDEX_OFF ? { 'grepTools.index.enabled': false } : {}), ...EXTRA_SETTINGS },
    lifetimeSeconds: 3600,
  });
  let ok = false;
  try {
    // A call that fails (Copilot's tool times out on a very large workspace) is timed and reported as its error, not fatal.
    // `probe`: the command round trips while it runs are measured too (roundTrips).
    const call = async (tool, input, probe = false) => {
      const started = Date.now();
      try {
        return await session.bridge.call({ op: 'invoke', tool, input, probe }, { timeoutMs: 300_000 });
      } catch (error) {
        return { ms: Date.now() - started, busyMs: 0, text: `error: ${error instanceof Error ? error.message.replace(/^invoke\s*:\s*/, '') : error}` };
      }
    };
    // Copilot's tools are registered once Copilot Chat has started (enabled on this fresh profile by the session).
    let tools = [];
    const toolsRegistered = () =>
      waitFor(
        async () => {
          tools = await session.bridge.call({ op: 'tools' });
          return tools.includes('copilot_findTextInFiles') && tools.includes('grep');
        },
        { timeoutMs: 90_000, intervalMs: 500, what: "Copilot's search tools and ours to be registered", details: () => `tools: ${tools.join(', ')}` },
      );
    await toolsRegistered();
    // The listing our extension makes as the window opens (grepTools.listWorkspaceOnOpen) runs to its end first, with the
    // command round trips meanwhile (VS Code's replies to its findFiles parts hold the extension host); a question asked
    // before it ends waits for it.
    const opening = await session.bridge.call({ op: 'probeUntilListed', timeoutMs: 300_000 }, { timeoutMs: 310_000 });
    // The first calls wait until the window has settled: other extensions starting up hold the extension
    // host's thread for seconds (git, on a folder of 136 packages, spawns a process per subfolder), and
    // the side called first would pay for it. A person's first question comes seconds after the window opens.
    const settled = await session.bridge.call({ op: 'settle', quietMs: 3000, timeoutMs: 60_000 }, { timeoutMs: 70_000 });
    // The extension host's memory before any search: what the searches, the listings and the index add is
    // measured from here. Its peak is taken over our phases (the first call, then the build), apart from the
    // comparisons, whose Copilot calls fill the same process (their results reach the extension host too).
    const before = await session.bridge.call({ op: 'memory', resetPeak: true });
    // Our first call: the cost a person pays once per window (the extension is active, its index not built yet).
    const [firstTool, firstInput] = QUESTIONS[0][2];
    // Whether the listing made as the window opened had ended when our first call began (a call made before joins it).
    const openedBefore = (await session.bridge.call({ op: 'indexState' }))?.openListing?.phase;
    const first = await call(firstTool, firstInput, true);
    const oursFirstPeak = (await session.bridge.call({ op: 'memory' })).peakRss;
    const { openListing } = (await session.bridge.call({ op: 'indexState' })) ?? {};
    const opened =
      openListing?.phase === 'listed'
        ? `; the workspace listed as the window opened, ${openListing.files} files in ${openListing.ms} ms, ${openedBefore === 'listed' ? 'ended before the first call' : 'still under way when the first call began (the call waited for it)'}`
        : `; the listing made as the window opened: ${openListing?.phase ?? 'none'}`;
    const settledLine = `the window settled ${(settled.waitedMs / 1000).toFixed(1)} s after the tools were registered${settled.settled ? '' : ' (not quiet within 60 s)'}${opened}`;
    process.stdout.write(`First call after activation (${settledLine}): ours ${first.ms.toFixed(0)} ms (${reported(firstTool, first.text)})\n`);
    // Searches go first while the index builds (the build waits for them): the first question three more times, with the build's phase as each began.
    const whileBuilding = [];
    for (let i = 0; i < 3; i++) {
      const phase = (await session.bridge.call({ op: 'indexState' }))?.phase ?? 'no index state';
      const { ms, roundTrips } = await call(firstTool, firstInput, true);
      whileBuilding.push({ phase, ms, roundTrips });
    }
    const buildingLine = `Ours again right after, the index ${INDEX_OFF ? 'off' : 'building'} (its phase as each call began): ${whileBuilding.map((c) => `${c.ms.toFixed(0)} ms (${c.phase})`).join(', ')}.`;
    process.stdout.write(`${buildingLine}\n`);
    // The content index builds in the background after activation: the samples are taken once it is ready.
    const indexWait = Date.now();
    // While it builds, a command run in the extension host every 20 ms measures how long the host takes to answer.
    const during = await session.bridge.call({ op: 'probeUntilIndexed', timeoutMs: 600_000 }, { timeoutMs: 620_000 });
    /** When the probes over 50 ms were sent (s into the probing), the first ten. */
    const overAt = (probed) =>
      probed?.over50At?.length ? ` (sent at ${probed.over50At.slice(0, 10).join(', ')}${probed.over50At.length > 10 ? ', …' : ''} s)` : '';
    const trips = (probed) =>
      probed
        ? `worst ${probed.worstMs.toFixed(1)} ms (garbage collection ${(probed.worstGcMs ?? 0).toFixed(1)} ms of it${probed.worstGcKinds?.length ? `: ${probed.worstGcKinds.join(', ')}` : ''}), ${probed.over50 ?? 0} over 50 ms${overAt(probed)}, median ${probed.medianMs.toFixed(1)} ms over ${probed.probes} commands`
        : 'not measured';
    const worstOf = (calls) => calls.map((c) => c.roundTrips).reduce((worst, t) => (t && (!worst || t.worstMs > worst.worstMs) ? t : worst), undefined);
    let index = await session.bridge.call({ op: 'indexState' });
    while (index && index.builds === 0 && index.phase !== 'off' && index.phase !== 'failed' && Date.now() - indexWait < 600_000) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      index = await session.bridge.call({ op: 'indexState' });
    }
    const readyAfterMs = Date.now() - indexWait;
    const buildPeak = (await session.bridge.call({ op: 'memory', resetPeak: true })).peakRss;
    const oursPeak = Math.max(oursFirstPeak, buildPeak);
    // Copilot's first call once our build is over: neither side's first call shares the cores with the other's work.
    const copilotFirst = await call(...QUESTIONS[0][3], true);
    // What listing the whole workspace through VS Code's findFiles costs alone, as the first call of a window does.
    const findFilesAlone = await session.bridge.call({ op: 'findFiles', include: '**/*' }, { timeoutMs: 300_000 });
    process.stdout.write(
      `Copilot's first call ${copilotFirst.ms.toFixed(0)} ms; findFiles of the whole workspace alone ${findFilesAlone.ms.toFixed(0)} ms (${findFilesAlone.files} files)\n`,
    );
    // (from here the peak counts what Copilot's first call left resident too: against us)
    await session.bridge.call({ op: 'memory', resetPeak: true });
    const probeLine =
      "Command round trip (a command run in the extension host every 20 ms: its answer plus how late a 20 ms timer fired after it; VS Code's own " +
      `handling of a listing's reply counts too): while the workspace was listed as the window opened, from when the tools were registered, ${trips(opening)}; during our first call ${trips(first.roundTrips)}; during Copilot's first ${trips(copilotFirst.roundTrips)}; ` +
      `during our three calls right after, the worst of them ${trips(worstOf(whileBuilding))}; ` +
      (during.probes === 0
        ? 'the build had ended by then.'
        : `while the index built, after them, ${trips(during)} in ${(during.waitedMs / 1000).toFixed(1)} s.`);
    process.stdout.write(`${probeLine}\n`);
    const built = index?.last;
    const indexLine = built
      ? `Index: ${built.files} files, built in ${built.elapsedMs} ms (${built.read} read, ${(built.bytes / 1048576).toFixed(0)} MB of text), ${(built.indexBytes / 1048576).toFixed(1)} MB on disk, postings ${(built.postingBytes / 1048576).toFixed(1)} MB of it${index.buildPeakRss ? `; the build process's peak RSS ${mb(index.buildPeakRss)} MB (its own process, not the extension host's)` : ''}; ready ${(readyAfterMs / 1000).toFixed(1)} s after the first call.`
      : `Index: not built (${index ? index.phase : 'no index state'}).`;
    process.stdout.write(`${indexLine}\n`);

    const samples = Object.fromEntries(
      QUESTIONS.map(([id]) => [
        id,
        { ours: [], copilot: [], oursBusy: [], copilotBusy: [], oursBytes: 0, copilotBytes: 0, oursReported: '', copilotReported: '' },
      ]),
    );
    for (const [id, , ours, copilot] of QUESTIONS) {
      const a = await call(...ours);
      const b = await call(...copilot);
      // The warm-up is the question's first ask: the index warm, nothing remembered of its files yet (later asks reuse what it read).
      Object.assign(samples[id], {
        oursFirstAskMs: a.ms,
        oursBytes: Buffer.byteLength(a.text),
        copilotBytes: Buffer.byteLength(b.text),
        oursReported: reported(ours[0], a.text),
        copilotReported: reported(copilot[0], b.text),
      });
      if (expected?.[id]) {
        const answer = (() => {
          try {
            return parseAnswer(a.text);
          } catch {
            return undefined;
          }
        })();
        const total = answer ? linesOf(answer) : undefined;
        // A timed-out answer says it is partial: its total is not held to the reference.
        samples[id].agrees = answer?.timed_out === true || (total === expected[id].cli && total === expected[id].rg);
        samples[id].reference =
          `${expected[id].cli ?? 'timed out'} / ${expected[id].rg}${answer?.timed_out ? ' (ours timed out)' : samples[id].agrees ? '' : ' (DIFFERS)'}`;
      }
    }
    for (let round = 0; round < SAMPLES; round++) {
      for (const [id, , ours, copilot] of QUESTIONS) {
        const order =
          round % 2 === 0
            ? [
                ['ours', ours],
                ['copilot', copilot],
              ]
            : [
                ['copilot', copilot],
                ['ours', ours],
              ];
        for (const [side, [tool, input]] of order) {
          const { ms, busyMs } = await call(tool, input);
          samples[id][side].push(ms);
          samples[id][`${side}Busy`].push(busyMs);
        }
      }
      process.stdout.write(`  round ${round + 1}/${SAMPLES} done\n`);
    }
    // A model paging through a frequent literal: ten pages of 100 lines, each call timed (Copilot's tool has no paging).
    const walk = [];
    for (let page = 0; page < 10 && samples['frequent-literal']; page++)
      walk.push((await call('grep', { pattern: 'TODO', fixed_strings: true, max_results: 100, offset: 100 * page })).ms);
    const walkLine =
      walk.length === 0
        ? 'No page walk (the frequent literal was not asked).'
        : `A 10-page walk of \`TODO\` (100 lines a page): ${walk.map((ms) => ms.toFixed(0)).join(', ')} ms (pages 2-10 median ${median(walk.slice(1)).toFixed(0)} ms).`;
    process.stdout.write(`${walkLine}\n`);
    const memory = await session.bridge.call({ op: 'memory' });

    // The window reloaded (the index stored by now): the first call of each side as soon as the tools are
    // registered, then, after another reload, once the extension has refreshed the stored index by itself.
    const reloads = [];
    // (no stored index to refresh when the workspace is over the index's limits: the second reload is skipped)
    for (const refreshed of index?.phase === 'listOnly' ? [false] : [false, true]) {
      const reloadedAt = Date.now();
      await session.reload();
      await toolsRegistered();
      await session.bridge.call({ op: 'settle', quietMs: 3000, timeoutMs: 60_000 }, { timeoutMs: 70_000 });
      if (refreshed && !INDEX_OFF)
        await waitFor(async () => (await session.bridge.call({ op: 'indexState' }).catch(() => undefined))?.builds > 0, {
          timeoutMs: 300_000,
          what: 'the reloaded window to refresh its stored index',
        }); // (undefined until the extension has activated)
      const waitedMs = Date.now() - reloadedAt;
      const ours = await call(firstTool, firstInput);
      const copilot = await call(...QUESTIONS[0][3]);
      reloads.push({ refreshed, waitedMs, ours: ours.ms, copilot: copilot.ms });
    }
    const reloadLine = `First call after a window reload: ${reloads
      .map(
        (r) =>
          `${r.refreshed ? `once the stored index was refreshed (${(r.waitedMs / 1000).toFixed(1)} s after the reload)` : `as soon as the tools were registered and the window settled (${(r.waitedMs / 1000).toFixed(1)} s after it)`} ours ${r.ours.toFixed(0)} ms, Copilot ${r.copilot.toFixed(0)} ms`,
      )
      .join('; ')}.`;
    process.stdout.write(`${reloadLine}\n`);

    const rows = QUESTIONS.map(([id, what]) => {
      const s = samples[id];
      const ours = median(s.ours);
      const copilot = median(s.copilot);
      return { ...s, id, what, oursMs: ours, copilotMs: copilot, ratio: ours / copilot, oursBusyMs: median(s.oursBusy), copilotBusyMs: median(s.copilotBusy) };
    });
    const reference = expected ? ' command line / ripgrep total |' : '';
    const table = [
      `| question | ours, first ask (ms) | ours, asked again (ms) | Copilot (ms) | ratio (again) | host busy, ours / Copilot (ms) | ours reports |${reference} Copilot reports | ours bytes | Copilot bytes |`,
      `| --- | ---: | ---: | ---: | ---: | ---: | --- |${expected ? ' --- |' : ''} --- | ---: | ---: |`,
      ...rows.map(
        (r) =>
          `| ${r.what} | ${r.oursFirstAskMs.toFixed(0)} | ${r.oursMs.toFixed(0)} | ${r.copilotMs.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.oursBusyMs.toFixed(0)} / ${r.copilotBusyMs.toFixed(0)} | ${r.oursReported} |${expected ? ` ${r.reference ?? '(glob)'} |` : ''} ${r.copilotReported} | ${r.oursBytes} | ${r.copilotBytes} |`,
      ),
    ].join('\n');
    const differs = rows.filter((r) => r.agrees === false);
    if (differs.length) process.exitCode = 1;
    const summary = [
      ...(expected
        ? [
            differs.length
              ? `TOTALS DIFFER from the command line's or ripgrep's: ${differs.map((r) => r.id).join(', ')}.`
              : "Every grep total equals the command line's and ripgrep's on the same tree.",
          ]
        : []),
      `bench:host on ${corpus.files} files (${(corpus.bytes / 1048576).toFixed(0)} MB), VS Code ${'1.139.1'} (code-server), ${SAMPLES} interleaved samples after a warm-up, medians${INDEX_OFF ? ', content index off (BENCH_HOST_INDEX=off)' : ''}${Object.keys(EXTRA_SETTINGS).length ? `, settings ${JSON.stringify(EXTRA_SETTINGS)}` : ''}.`,
      `First call after activation (${settledLine}): ours ${first.ms.toFixed(0)} ms, Copilot ${copilotFirst.ms.toFixed(0)} ms (its first call, made alone once our index was built); VS Code's findFiles of the whole workspace alone, which any first call that lists through it pays, ${findFilesAlone.ms.toFixed(0)} ms. Extension host RSS ${mb(atRest)} MB in a window at rest (nothing listed), ${mb(before.rss)} MB before the first call (the listing made as the window opened resident); its peak over our first call and the index build ${mb(oursPeak)} MB (growth from rest ${mb(oursPeak - atRest)} MB: ${mb(before.rss - atRest)} MB by the first call, ${mb(oursFirstPeak - atRest)} MB over it, ${mb(buildPeak - atRest)} MB over the calls right after and the build); its peak over the comparisons (both tools' calls) and the page walk ${mb(memory.peakRss)} MB; now ${mb(memory.rss)} MB.`,
      buildingLine,
      walkLine,
      reloadLine,
      indexLine,
      probeLine,
      '',
      table,
      '',
    ].join('\n');
    process.stdout.write(`\n${summary}`);
    writeFileSync(join(artifacts, 'bench-host.md'), summary);
    // The current figures, kept in the repository (bench/results/): one file per workspace size (and per INDEX_OFF, BENCH_HOST_SETTINGS), rewritten by each full run.
    if (!process.env.BENCH_HOST_ONLY) {
      const results = join(repo, 'bench', 'results');
      mkdirSync(results, { recursive: true });
      const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
      writeFileSync(
        // (a run with settings of its own keeps its file apart: the default settings' figures stay as they were)
        join(
          results,
          `bench-host${COPIES > 1 ? `-x${COPIES}` : ''}${INDEX_OFF ? '-index-off' : ''}${Object.keys(EXTRA_SETTINGS).length ? '-settings' : ''}.md`,
        ),
        `# \`npm run ${COPIES > 1 ? 'bench:scale' : 'bench:host'}\`${COPIES > 1 ? ` (${COPIES} copies)` : ''}, ${when} UTC, ${availableParallelism()} cores, load average ${loadavg()[1].toFixed(1)} over the last 5 minutes (above the cores: other work shared them)\n\n${summary}`,
      );
    }
    writeFileSync(
      join(artifacts, 'bench-host.json'),
      JSON.stringify(
        {
          first: first.ms,
          copilotFirst: copilotFirst.ms,
          findFilesAlone,
          whileBuilding,
          walk,
          reloads,
          memoryAtRest: atRest,
          memoryBefore: before,
          openListing: { ...openListing, endedBeforeFirstCall: openedBefore === 'listed', roundTrips: opening },
          oursFirstPeak,
          buildPeak,
          memory,
          index,
          during,
          rows,
        },
        null,
        2,
      ),
    );
    // The extension's log (each call's counters and phases) and the host's, to read where a call's time went.
    writeFileSync(join(artifacts, 'bench-host-logs.txt'), session.logs());
    process.stdout.write(`\nWritten to ${join(artifacts, 'bench-host.md')}, bench-host.json and bench-host-logs.txt\n`);
    ok = true;
  } finally {
    await session.close(ok);
  }
}

main().catch((error) => {
  process.stderr.write(`bench:host failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exitCode = 1;
});
