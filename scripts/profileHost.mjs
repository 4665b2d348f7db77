// `npm run profile:host`: where the extension host's thread goes during a window's first grep and the
// content index's first build, and which of its holds were longest. A fresh code-server window on the
// bench corpus (BENCH_HOST_COPIES=n: n copies side by side, as bench:scale; BENCH_HOST_SETTINGS: more
// settings as JSON; PROFILE_HOST_WORKSPACE: another folder instead) lists the workspace as it opens, then
// asks one rare literal (and three times more, as bench:host does), then waits until the index is built,
// then asks PROFILE_HOST_AGAIN (20) literals found nowhere, one after the other. Each of those steps (but
// the three calls) runs while V8's sampling profiler records the host's thread and a command is run there
// every 20 ms (test/agent/bridge.ts `profile`). Prints, for each, the host's thread time by whose code ran
// (idle, VS Code's, ours, GC) and the longest holds with the functions that ran in them (and, for the
// last, the functions that ran longest); the profiles are written to .test-artifacts/profile-host[-x<n>]/
// (open-listing.cpuprofile, from when the tools were registered, first-call.cpuprofile, build.cpuprofile,
// asked-again.cpuprofile: Chrome's DevTools or speedscope open them), with the extension host's logs
// (host.log). PROFILE_HOST_HEAP=1 also writes the host's heap snapshot once the index is built
// (after-build.heapsnapshot) and prints what holds the heap.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAgentSession, waitFor } from './lib/agent.mjs';
import { ensureCorpus } from './lib/corpus.mjs';
import { heapSummary } from './lib/heapSummary.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const COPIES = Number(process.env.BENCH_HOST_COPIES ?? 1);
const SETTINGS = JSON.parse(process.env.BENCH_HOST_SETTINGS ?? '{}');
/** Calls profiled once the index is built (PROFILE_HOST_AGAIN). */
const AGAIN = Number(process.env.PROFILE_HOST_AGAIN ?? 20);
const artifacts = join(repo, '.test-artifacts', COPIES > 1 ? `profile-host-x${COPIES}` : 'profile-host');

/** Whose code a sample ran: the nearest frame of a known file, from the sampled function up. */
function owners(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return (id) => {
    const leaf = byId.get(id).callFrame.functionName;
    if (leaf === '(idle)') return 'idle';
    if (leaf === '(garbage collector)') return 'GC';
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { url } = byId.get(at).callFrame;
      if (/extensionHostProcess\.js$/.test(url)) return "VS Code's";
      if (/\/dist\/extension\.js$/.test(url)) return 'ours';
      if (/agent\/bridge\.js$/.test(url)) return 'the probe';
    }
    return 'Node.js and other';
  };
}

/** The host thread's time in a profile by whose code ran, in ms, largest first. */
function timeByOwner(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const owner = owners(profile);
  const spent = new Map();
  profile.samples.forEach((id, i) => spent.set(owner(id), (spent.get(owner(id)) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  return [...spent].sort((a, b) => b[1] - a[1]);
}

function report(label, file, result) {
  process.stdout.write(
    `\n${label}: ${Math.round(result.ms)} ms, the host's thread busy ${Math.round(result.busyMs)} ms; ${result.stalls.length} holds over 25 ms\n`,
  );
  process.stdout.write(
    `  by whose code: ${timeByOwner(file)
      .map(([who, ms]) => `${who} ${Math.round(ms)} ms`)
      .join(', ')}\n`,
  );
  process.stdout.write(
    `  garbage collections: ${Object.entries(result.collections)
      .map(([kind, { count, totalMs, longestMs }]) => `${kind} ${count} (${Math.round(totalMs)} ms, longest ${Math.round(longestMs)} ms)`)
      .join(', ')}\n`,
  );
  for (const stall of [...result.stalls].sort((a, b) => b.ms - a.ms).slice(0, 12)) {
    process.stdout.write(
      `  ${stall.ms} ms at ${(stall.atMs / 1000).toFixed(1)} s: ${stall.top
        .slice(0, 4)
        .map((fn) => `${fn.fn} ${fn.ms}`)
        .join(' | ')}\n`,
    );
  }
}

async function main() {
  const base = ensureCorpus();
  const tree = process.env.PROFILE_HOST_WORKSPACE ?? (COPIES > 1 ? base.copies(COPIES) : base.tree);
  mkdirSync(artifacts, { recursive: true });
  process.stdout.write(`Profiling the extension host on ${process.env.PROFILE_HOST_WORKSPACE ? 'the folder' : `${base.files * COPIES} files`} at ${tree}\n`);
  const session = await openAgentSession({
    workspace: tree,
    script: { steps: [], fallbackText: 'profile:host calls the tools directly.' },
    artifactsDir: artifacts,
    settings: SETTINGS,
    lifetimeSeconds: 3600,
  });
  try {
    await waitFor(async () => (await session.bridge.call({ op: 'tools' })).includes('grep'), { timeoutMs: 90_000, intervalMs: 500, what: 'the grep tool' });
    // The listing our extension makes as the window opens (grepTools.listWorkspaceOnOpen), from when the tools are registered.
    const opening = join(artifacts, 'open-listing.cpuprofile');
    report(
      'While the workspace was listed as the window opened',
      opening,
      await session.bridge.call({ op: 'profile', untilListed: 600_000, file: opening }, { timeoutMs: 620_000 }),
    );
    // Other extensions starting up hold the thread for seconds after a window opens: the first call waits for quiet.
    await session.bridge.call({ op: 'settle', quietMs: 3000, timeoutMs: 60_000 }, { timeoutMs: 70_000 });
    const first = join(artifacts, 'first-call.cpuprofile');
    const input = { pattern: 'MAX_SAFE_INTEGER', fixed_strings: true };
    report(
      'First call (grep MAX_SAFE_INTEGER)',
      first,
      await session.bridge.call({ op: 'profile', tool: 'grep', inputs: [input], file: first }, { timeoutMs: 600_000 }),
    );
    // The three calls right after the first, as bench:host makes them: the build's preparation waits for
    // searches, so what it does on this thread falls after them, in the profile below.
    for (let i = 0; i < 3; i++) await session.bridge.call({ op: 'invoke', tool: 'grep', input }, { timeoutMs: 600_000 });
    const build = join(artifacts, 'build.cpuprofile');
    report('Until the index was built', build, await session.bridge.call({ op: 'profile', untilIndexed: 1_800_000, file: build }, { timeoutMs: 1_900_000 }));
    // What a call costs once the index is built and the listing resident, the part of it that grows with
    // the workspace: literals found nowhere, each asked once (no outcome of an earlier call to replay).
    const again = join(artifacts, 'asked-again.cpuprofile');
    const noMatch = (i) => ({ pattern: `zq_no_such_identifier_${i}_qz`, fixed_strings: true });
    await session.bridge.call({ op: 'invoke', tool: 'grep', input: noMatch(0) }, { timeoutMs: 600_000 });
    // (once what follows the build has settled: the index and the listing stored)
    await session.bridge.call({ op: 'settle', quietMs: 3000, timeoutMs: 60_000 }, { timeoutMs: 70_000 });
    const inputs = Array.from({ length: AGAIN }, (_, i) => noMatch(i + 1));
    const calls = await session.bridge.call({ op: 'profile', tool: 'grep', inputs, file: again }, { timeoutMs: 600_000 });
    report(`Once built, ${AGAIN} calls (grep, each a new literal found nowhere)`, again, calls);
    process.stdout.write(
      `  functions (self time): ${calls.top
        .slice(0, 20)
        .map(({ fn, ms }) => `${fn} ${ms}`)
        .join(', ')}\n`,
    );
    if (process.env.PROFILE_HOST_HEAP === '1') {
      const file = join(artifacts, 'after-build.heapsnapshot');
      const bytes = await session.bridge.call({ op: 'heapSnapshot', file }, { timeoutMs: 600_000 });
      const { total, nodes, groups } = heapSummary(file);
      process.stdout.write(`\nHeap after the build: ${Math.round(total / 1e6)} MB in ${nodes} objects (${file}, ${Math.round(bytes / 1e6)} MB)\n`);
      for (const group of groups.slice(0, 20))
        process.stdout.write(`  ${String(Math.round(group.bytes / 1e5) / 10).padStart(7)} MB  ${String(group.count).padStart(9)}  ${group.kind}\n`);
    }
  } finally {
    writeFileSync(join(artifacts, 'host.log'), session.logs());
    await session.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`profile:host failed: ${error instanceof Error ? error.stack : error}\n`);
    process.exit(1);
  },
);
