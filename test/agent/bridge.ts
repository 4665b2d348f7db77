/**
 * The agent suite's hands inside the extension host (`extensionTestsPath`). The suite itself runs in the
 * Node runner (scripts/lib/agent.mjs), which drives the workbench with Playwright; what only the
 * extension API can do (open a chat with a prompt, agent mode and the scripted model; list the tools) it
 * asks this module for over HTTP on 127.0.0.1: GET <bridge>/next returns the next operation (long poll),
 * POST <bridge>/result answers it. `run()` settles when the runner sends `exit`, so the page reports the
 * suite's exit code through `codeAutomationExit`.
 */
import * as vscode from 'vscode';

type Operation =
  | { id: number; op: 'command'; command: string; args?: unknown[]; wait?: boolean }
  | { id: number; op: 'tools' }
  /** `probe`: with the command round trips while it runs (probeUntil). */
  | { id: number; op: 'invoke'; tool: string; input: object; probe?: boolean }
  /**
   * While a tool's calls run (one after the other, an input each), or (a time limit in ms) until the content index's first build
   * has ended (`untilIndexed`) or the listing made as the window opened has (`untilListed`).
   */
  | ({ id: number; op: 'profile'; file: string } & ({ tool: string; inputs: object[] } | { untilIndexed: number } | { untilListed: number }))
  /** `resetPeak`: after it is read, the peak is measured from here on (written to /proc/self/clear_refs, Linux). */
  | { id: number; op: 'memory'; resetPeak?: boolean }
  /** Writes the extension host's V8 heap snapshot to `file` (Chrome's DevTools open it); resolves to its size in bytes. */
  | { id: number; op: 'heapSnapshot'; file: string }
  | { id: number; op: 'host' }
  /** Times VS Code's own findFiles of `include` over the workspace: what a listing through it costs alone. */
  | { id: number; op: 'findFiles'; include: string }
  | { id: number; op: 'indexState' }
  | { id: number; op: 'probeUntilIndexed'; timeoutMs: number }
  /** The round trips until the listing our extension makes as the window opens has ended (at once when there is none). */
  | { id: number; op: 'probeUntilListed'; timeoutMs: number }
  | { id: number; op: 'settle'; quietMs: number; timeoutMs: number }
  | { id: number; op: 'configure'; section: string; key: string; value: unknown }
  | { id: number; op: 'exit'; ok: boolean; message?: string };

interface Result {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

function bridgeUrl(): string {
  const url = process.env.GREP_TOOLS_AGENT_BRIDGE;
  if (!url || !/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error(`GREP_TOOLS_AGENT_BRIDGE must be http://127.0.0.1:PORT, not ${String(url)}`);
  return url;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Commands whose promise settles only when a chat turn ends run without waiting; their failure is reported on the next answer. */
const background: string[] = [];

/** The text a tool result carries for the model: its text parts, and the text nodes of a prompt-tsx part (Copilot's tools). */
function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(resultText).join('');
  if (value && typeof value === 'object') {
    // A prompt-tsx part's value is { node: { children: [...] } }; its text pieces are { text, lineBreakBefore }.
    const node = value as { value?: unknown; node?: unknown; text?: unknown; children?: unknown; lineBreakBefore?: boolean };
    if (typeof node.text === 'string') return `${node.lineBreakBefore ? '\n' : ''}${node.text}`;
    return resultText(node.children ?? node.node ?? node.value ?? '');
  }
  return '';
}

/**
 * Calls a tool the way another extension does (no chat request) and times it here, in the extension
 * host: its wall time, and how long the host's thread was busy meanwhile (event loop utilisation: the
 * time no other extension's work could run).
 */
async function invoke(tool: string, input: object): Promise<{ ms: number; busyMs: number; text: string }> {
  const started = performance.now();
  const loop = performance.eventLoopUtilization();
  const result = await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
  const ms = performance.now() - started;
  const busyMs = performance.eventLoopUtilization(loop).active;
  const text = resultText(result.content);
  // A result whose text could not be read is shown raw, so a change of its shape is seen, not taken for an empty answer.
  return { ms, busyMs, text: text || (result.content.length > 0 ? `(unread: ${JSON.stringify(result.content).slice(0, 300)})` : '') };
}

/** A function's self time in a CPU profile, in ms. */
type SelfTime = { ms: number; fn: string };

/**
 * Runs `work` (a tool's call, or the wait for the index's first build) while V8's sampling profiler
 * records the extension host's thread and a probe (probeUntil, given the list of stalls) watches it; the
 * profile is written to `file` (a .cpuprofile, for Chrome's DevTools or speedscope). Returns the
 * functions that held the thread longest (self time), and each stall the probe saw (the thread held over
 * STALL_MS) with the functions that ran in it: the profile's clock and process.hrtime's are both the
 * monotonic clock (Linux).
 */
/** Garbage collections while a profile ran, by kind: how many, their pauses' total and the longest (ms). */
type Collections = Record<string, { count: number; totalMs: number; longestMs: number }>;

/** A garbage collection's pause: its kind, and when it began and ended (ms, performance.now()'s clock). */
interface Pause {
  kind: string;
  from: number;
  to: number;
}

/**
 * Records each garbage collection's pause (Node's performance entries of type 'gc') until `stop()`,
 * which first waits a tick: the entries of the last collections are delivered on a later one.
 */
async function watchPauses(): Promise<{ pauses: Pause[]; stop(): Promise<void> }> {
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const pauses: Pause[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[(entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other';
      pauses.push({ kind, from: entry.startTime, to: entry.startTime + entry.duration });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const stop = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    observer.disconnect();
  };
  return { pauses, stop };
}

async function profile(
  file: string,
  work: (stalls: Stall[]) => Promise<{ ms: number; busyMs: number }>,
): Promise<{ ms: number; busyMs: number; top: SelfTime[]; stalls: Array<{ atMs: number; ms: number; top: SelfTime[] }>; collections: Collections }> {
  const { Session } = await import('node:inspector/promises');
  const watched = await watchPauses();
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    const stalls: Stall[] = [];
    const { ms, busyMs } = await work(stalls);
    const { profile: recorded } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(recorded));
    await watched.stop();
    const collections: Collections = {};
    for (const { kind, from, to } of watched.pauses) {
      const seen = (collections[kind] ??= { count: 0, totalMs: 0, longestMs: 0 });
      seen.count++;
      seen.totalMs += to - from;
      seen.longestMs = Math.max(seen.longestMs, to - from);
    }
    const byId = new Map(recorded.nodes.map((node) => [node.id, node]));
    const deltas = recorded.timeDeltas ?? [];
    const samples = recorded.samples ?? [];
    // Each sample's time (µs): the profile's start plus the deltas up to it.
    const at: number[] = [];
    let time = recorded.startTime;
    for (let i = 0; i < samples.length; i++) at.push((time += deltas[i] ?? 0));
    /** Self time by function of the samples taken from `from` to `to` (µs), longest first. */
    const selfTimes = (from = -Infinity, to = Infinity): SelfTime[] => {
      const self = new Map<string, number>();
      samples.forEach((id, i) => {
        const node = byId.get(id);
        if (!node || at[i] < from || at[i] > to) return;
        const frame = node.callFrame;
        const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-1)[0]}:${frame.lineNumber + 1}`;
        self.set(name, (self.get(name) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
      });
      return [...self].sort((a, b) => b[1] - a[1]).map(([fn, self]) => ({ ms: Math.round(self), fn }));
    };
    return {
      ms,
      busyMs,
      top: selfTimes().slice(0, 25),
      stalls: stalls.map(([from, to]) => ({
        atMs: Math.round((from - recorded.startTime) / 1000),
        ms: Math.round((to - from) / 1000),
        top: selfTimes(from, to).slice(0, 8),
      })),
      collections,
    };
  } finally {
    await watched.stop();
    session.disconnect();
  }
}

/** The extension host's memory: resident now and its peak so far (VmHWM), in bytes; when asked, the peak then starts again from now. */
async function memory(resetPeak = false): Promise<{ rss: number; peakRss: number }> {
  const { readFile, writeFile } = await import('node:fs/promises');
  const status = await readFile('/proc/self/status', 'utf8');
  const peak = /^VmHWM:\s+(\d+) kB/m.exec(status);
  const measured = { rss: process.memoryUsage().rss, peakRss: peak ? Number(peak[1]) * 1024 : NaN };
  if (resetPeak) await writeFile('/proc/self/clear_refs', '5');
  return measured;
}

/** The content index's state, as the extension exports it (null before activation). */
const indexState = () => vscode.extensions.getExtension<{ index?: { builds: number; phase: string } }>('grep-tools.vscode-grep-tools')?.exports?.index ?? null;

/** A probe this late (ms) records a stall: from when its command was sent to when its timer fired, in µs on process.hrtime's clock. */
const STALL_MS = 25;
type Stall = [from: number, to: number];

/** How long the extension host took to answer a command run in it every 20 ms (ms), and over how long. */
interface RoundTrips {
  probes: number;
  worstMs: number;
  medianMs: number;
  waitedMs: number;
  /** The garbage collections' pauses within the worst probe's span (ms): how much of it was V8's collector. */
  worstGcMs: number;
  /** The kinds of those collections (major, minor, incremental, weak callbacks), each once. */
  worstGcKinds: string[];
  /** Probes over 50 ms. */
  over50: number;
  /** When each probe over 50 ms was sent, in seconds since the probing began: where in a build the host was held. */
  over50At: number[];
}

/**
 * Runs a command registered here every 20 ms until `done()` (or the time is up): how long the extension
 * host takes to answer a command meanwhile (a thread held by a search or a build answers late). Each
 * probe counts the command's round trip and how late the 20 ms timer after it fired, so a stretch the
 * thread was held between two commands is counted too; given `stalls`, a probe over STALL_MS adds its span.
 * The garbage collections' pauses (Node's performance entries of type 'gc') are kept for the worst probe.
 */
async function probeUntil(done: () => boolean, timeoutMs: number, stalls?: Stall[]): Promise<RoundTrips> {
  const watched = await watchPauses();
  const command = `grepToolsBench.ping.${Date.now()}.${Math.random()}`;
  const registration = vscode.commands.registerCommand(command, () => Date.now());
  const started = Date.now();
  const times: number[] = [];
  const over50At: number[] = [];
  let worst = { late: -1, from: 0, to: 0 };
  try {
    while (!done() && Date.now() - started <= timeoutMs) {
      const sent = performance.now();
      await vscode.commands.executeCommand(command);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const now = performance.now();
      const late = Math.max(0, now - sent - 20);
      times.push(late);
      if (late > 50) over50At.push(Math.round((Date.now() - started - late - 20) / 100) / 10);
      if (late > worst.late) worst = { late, from: sent, to: now };
      if (stalls && late > STALL_MS) {
        const at = Number(process.hrtime.bigint() / 1000n);
        stalls.push([at - Math.round((late + 20) * 1000), at]);
      }
    }
  } finally {
    registration.dispose();
    await watched.stop();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const inWorst = watched.pauses.filter(({ from, to }) => Math.min(to, worst.to) > Math.max(from, worst.from));
  const worstGcMs = inWorst.reduce((sum, { from, to }) => sum + Math.min(to, worst.to) - Math.max(from, worst.from), 0);
  return {
    probes: times.length,
    worstMs: sorted[sorted.length - 1] ?? 0,
    medianMs: sorted[sorted.length >> 1] ?? 0,
    waitedMs: Date.now() - started,
    worstGcMs,
    worstGcKinds: [...new Set(inWorst.map(({ kind }) => kind))],
    over50: times.filter((late) => late > 50).length,
    over50At,
  };
}

/** The round trips (probeUntil) until the content index's first build has ended. */
async function probeUntilIndexed(timeoutMs: number): Promise<RoundTrips> {
  return await probeUntil(indexBuilt, timeoutMs);
}

/** Whether the listing made as the window opened has ended (or none is under way). */
function openListingEnded(): boolean {
  const extension = vscode.extensions.getExtension<{ index?: { openListing?: { phase: string } } }>('grep-tools.vscode-grep-tools');
  // (its exports exist once activate() has returned: its tools are registered before that)
  return extension?.isActive === true && extension.exports.index?.openListing?.phase !== 'listing';
}

/** Whether the content index's first build has ended (or there is none to wait for). */
function indexBuilt(): boolean {
  const state = indexState();
  return state !== null && (state.builds > 0 || state.phase === 'off' || state.phase === 'failed');
}

/** Invokes a tool as `invoke` does, with the round trips (probeUntil) while it runs. */
async function invokeProbed(tool: string, input: object): Promise<{ ms: number; busyMs: number; text: string; roundTrips: RoundTrips }> {
  let finished = false;
  const [result, roundTrips] = await Promise.all([invoke(tool, input).finally(() => (finished = true)), probeUntil(() => finished, 600_000)]);
  return { ...result, roundTrips };
}

/**
 * Waits until the extension host's thread has been free for `quietMs`: a 20 ms timer never fired more
 * than 50 ms late in that time (other extensions starting up, such as git scanning the folders for
 * repositories, hold the thread for seconds after a window opens). Resolves with how long it waited.
 */
async function settle(quietMs: number, timeoutMs: number): Promise<{ waitedMs: number; settled: boolean }> {
  const started = Date.now();
  let quietSince = started;
  while (Date.now() - quietSince < quietMs) {
    if (Date.now() - started > timeoutMs) return { waitedMs: Date.now() - started, settled: false };
    const sent = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (performance.now() - sent > 70) quietSince = Date.now();
  }
  return { waitedMs: Date.now() - started, settled: true };
}

async function perform(operation: Exclude<Operation, { op: 'exit' }>): Promise<unknown> {
  if (operation.op === 'tools') return vscode.lm.tools.map((tool) => tool.name);
  if (operation.op === 'invoke') return operation.probe ? await invokeProbed(operation.tool, operation.input) : await invoke(operation.tool, operation.input);
  if (operation.op === 'profile') {
    if ('untilIndexed' in operation || 'untilListed' in operation) {
      const [until, timeoutMs] = 'untilIndexed' in operation ? [indexBuilt, operation.untilIndexed] : [openListingEnded, operation.untilListed];
      return await profile(operation.file, async (stalls) => {
        const loop = performance.eventLoopUtilization();
        const { waitedMs } = await probeUntil(until, timeoutMs, stalls);
        return { ms: waitedMs, busyMs: performance.eventLoopUtilization(loop).active };
      });
    }
    const { tool, inputs } = operation;
    const calls = async () => {
      const started = performance.now();
      const loop = performance.eventLoopUtilization();
      let called;
      for (const input of inputs) called = await invoke(tool, input);
      return { ...called, ms: performance.now() - started, busyMs: performance.eventLoopUtilization(loop).active };
    };
    return await profile(operation.file, async (stalls) => {
      let finished = false;
      const [called] = await Promise.all([calls().finally(() => (finished = true)), probeUntil(() => finished, 600_000, stalls)]);
      return called;
    });
  }
  if (operation.op === 'memory') return await memory(operation.resetPeak);
  if (operation.op === 'heapSnapshot') {
    const { writeHeapSnapshot } = await import('node:v8');
    const { statSync } = await import('node:fs');
    return statSync(writeHeapSnapshot(operation.file)).size;
  }
  if (operation.op === 'findFiles') {
    const started = performance.now();
    const files = (await vscode.workspace.findFiles(operation.include)).length;
    return { ms: performance.now() - started, files };
  }
  if (operation.op === 'host') return process.pid; // which extension host answers (a reloaded window has a new one)
  if (operation.op === 'indexState') return indexState();
  if (operation.op === 'probeUntilIndexed') return await probeUntilIndexed(operation.timeoutMs);
  if (operation.op === 'probeUntilListed') return await probeUntil(openListingEnded, operation.timeoutMs);
  if (operation.op === 'settle') return await settle(operation.quietMs, operation.timeoutMs);
  // A user setting changed between calls (the benches compare one setting on and off in the same window).
  if (operation.op === 'configure')
    return await vscode.workspace.getConfiguration(operation.section).update(operation.key, operation.value, vscode.ConfigurationTarget.Global);
  const pending = vscode.commands.executeCommand(operation.command, ...(operation.args ?? []));
  if (operation.wait === false) {
    pending.then(undefined, (error: unknown) => background.push(`${operation.command}: ${message(error)}`));
    return undefined;
  }
  return await pending;
}

/** A command's result as JSON (VS Code objects can be cyclic or hold functions). */
function serializable(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return String(value);
  }
}

async function post(url: string, result: Result): Promise<void> {
  const failures = background.splice(0);
  if (failures.length > 0 && result.ok) Object.assign(result, { ok: false, error: `background command failed: ${failures.join('; ')}` });
  await fetch(`${url}/result`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) });
}

export async function run(): Promise<void> {
  const url = bridgeUrl();
  for (;;) {
    const response = await fetch(`${url}/next`);
    if (response.status === 204) continue; // the long poll expired with nothing to do
    if (!response.ok) throw new Error(`bridge answered ${response.status}`);
    const operation = (await response.json()) as Operation;
    if (operation.op === 'exit') {
      await post(url, { id: operation.id, ok: true });
      if (!operation.ok) throw new Error(operation.message ?? 'the agent suite failed');
      return;
    }
    try {
      const value = await perform(operation);
      await post(url, { id: operation.id, ok: true, value: serializable(value) });
    } catch (error) {
      await post(url, { id: operation.id, ok: false, error: message(error) });
    }
  }
}
