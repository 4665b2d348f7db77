/**
 * The index build's own process (dist/indexProcess.js), started by the extension host with an IPC channel,
 * so that the build's memory (its postings, the texts it reads, its heap) is neither held by the extension
 * host, which every extension shares, nor left there once it ends. It runs the build thread
 * (dist/indexWorker.js, buildWorker.ts) and relays between it and the host: the host's count of searches
 * under way (the build waits while there are any) and the list with the ignored files it asks for, in; its
 * progress and outcome, out.
 */
import * as nodePath from 'path';
import { Worker } from 'worker_threads';
import { ignoredOnRequest, type BuildMessage, type BuildRequest } from './buildWorker';
import { TimeSlices } from '../source/timeSlices';
import { processInBackground } from '../pool/background';

/** What the host sends: the build first, then the searches under way as their count changes, and the list it asked for. */
export type ToBuildProcess =
  /** A run of the next list's files: the build's (before `start`), then the one with the ignored files (before `withIgnored`). */
  | { kind: 'files'; paths: string[] }
  /** The build, of the files sent before it. */
  | { kind: 'start'; request: ProcessBuildRequest; resourceLimits: { maxYoungGenerationSizeMb: number; maxOldGenerationSizeMb: number } }
  | { kind: 'searching'; count: number }
  /** The list with the ignored files the build asked for: the files sent since `start`, or none (`listed` false: it could not be made). */
  | { kind: 'withIgnored'; listed: boolean };

/** A build request as it crosses to the process: its files go apart, and what is shared between threads is made there (`asksIgnored`: the build may ask for the list with the ignored files). */
export type ProcessBuildRequest = Omit<BuildRequest, 'paths' | 'searching' | 'ignoredOnRequest'> & { asksIgnored: boolean };

/** What the process sends back: the build thread's messages; with the outcome, the process's peak resident memory. */
export type FromBuildProcess = BuildMessage & { peakRssBytes?: number };

/** Files a message carries: one message of 500,000 paths would hold the sending thread (the extension host's) for a fifth of a second. */
const FILES_PER_MESSAGE = 10_000;

/**
 * Sends a message to the build process; settles once the channel has taken it (written to the pipe, or
 * failed), so a list's runs are sent one at a time.
 */
export type SendToBuild = (message: ToBuildProcess) => Promise<void>;

/**
 * The host's side of a list: sent a run at a time, other work let in between (`slices`: with what they
 * wait for), the next run once the channel has taken the one before: a process that starts slowly
 * (it runs below the host) would leave every run's serialized bytes queued in the host, outside its heap,
 * and about 50 MB of them at 500,000 files set off the host's garbage collections.
 */
async function sendFiles(send: SendToBuild, paths: readonly string[], slices = new TimeSlices()): Promise<void> {
  for (let i = 0; i < paths.length; i += FILES_PER_MESSAGE) {
    if (i > 0) await slices.pause();
    await send({ kind: 'files', paths: paths.slice(i, i + FILES_PER_MESSAGE) });
  }
}

/** The host's side: a build of these files. */
export async function sendBuild(
  send: SendToBuild,
  { paths, ...request }: ProcessBuildRequest & { paths: readonly string[] },
  resourceLimits: Extract<ToBuildProcess, { kind: 'start' }>['resourceLimits'],
  slices?: TimeSlices,
): Promise<void> {
  await sendFiles(send, paths, slices);
  await send({ kind: 'start', request, resourceLimits });
}

/** The host's side: the list with the ignored files the build asked for, or undefined when it could not be made. */
export async function sendWithIgnored(send: SendToBuild, withIgnored: readonly string[] | undefined): Promise<void> {
  await sendFiles(send, withIgnored ?? []);
  await send({ kind: 'withIgnored', listed: withIgnored !== undefined });
}

function relay(send: (message: FromBuildProcess, sent?: () => void) => void): void {
  const searching = new Int32Array(new SharedArrayBuffer(4));
  let ignored: ReturnType<typeof ignoredOnRequest> | undefined;
  let worker: Worker | undefined;
  let outcome = false;
  const ended = (message: BuildMessage) => {
    if (outcome) return;
    outcome = true;
    // (maxRSS is in kilobytes) The channel closes once the outcome is sent, and the process ends.
    send({ ...message, peakRssBytes: process.resourceUsage().maxRSS * 1024 }, () => process.disconnect());
  };
  // The runs of the list being sent.
  const runs: string[][] = [];
  const list = () => runs.splice(0).flat();
  process.on('message', (message: ToBuildProcess) => {
    if (message.kind === 'files') runs.push(message.paths);
    else if (message.kind === 'searching') {
      Atomics.store(searching, 0, message.count);
      Atomics.notify(searching, 0);
    } else if (message.kind === 'withIgnored') {
      const withIgnored = list();
      ignored?.answer(message.listed ? withIgnored : undefined);
    } else if (!worker) {
      const { asksIgnored, ...request } = message.request;
      ignored = asksIgnored ? ignoredOnRequest() : undefined;
      const workerData: BuildRequest = { ...request, paths: list(), searching: searching.buffer as SharedArrayBuffer, ignoredOnRequest: ignored?.onRequest };
      worker = new Worker(nodePath.join(__dirname, 'indexWorker.js'), {
        workerData,
        resourceLimits: message.resourceLimits,
        transferList: ignored ? [ignored.onRequest.port] : [],
      });
      worker.on('message', (built: BuildMessage) => (built.kind === 'progress' || built.kind === 'listIgnored' ? send(built) : ended(built)));
      worker.on('error', (error) => ended({ kind: 'failed', message: error.message }));
      worker.on('exit', () => ended({ kind: 'failed', message: 'the index build thread ended without an outcome' }));
    }
  });
  // The host went (closed, reloaded, crashed), or the outcome was sent: nothing is left to do.
  process.on('disconnect', () => process.exit(0));
}

if (require.main === module && process.send) {
  // Below the extension host, which started it, all of it: the build thread and what V8 does for it.
  processInBackground();
  const send = process.send.bind(process);
  relay((message, sent) => send(message, undefined, {}, () => sent?.()));
}
