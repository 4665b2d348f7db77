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

/** What the host sends: the build first, then the searches under way as their count changes, and the list it asked for. */
export type ToBuildProcess =
  | { kind: 'start'; request: ProcessBuildRequest; resourceLimits: { maxYoungGenerationSizeMb: number; maxOldGenerationSizeMb: number } }
  | { kind: 'searching'; count: number }
  | { kind: 'withIgnored'; withIgnored: string[] | undefined };

/** A build request as it crosses to the process: what is shared between threads is made there (`asksIgnored`: the build may ask for the list with the ignored files). */
export type ProcessBuildRequest = Omit<BuildRequest, 'searching' | 'ignoredOnRequest'> & { asksIgnored: boolean };

/** What the process sends back: the build thread's messages; with the outcome, the process's peak resident memory. */
export type FromBuildProcess = BuildMessage & { peakRssBytes?: number };

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
  process.on('message', (message: ToBuildProcess) => {
    if (message.kind === 'searching') {
      Atomics.store(searching, 0, message.count);
      Atomics.notify(searching, 0);
    } else if (message.kind === 'withIgnored') ignored?.answer(message.withIgnored);
    else if (!worker) {
      const { asksIgnored, ...request } = message.request;
      ignored = asksIgnored ? ignoredOnRequest() : undefined;
      const workerData: BuildRequest = { ...request, searching: searching.buffer as SharedArrayBuffer, ignoredOnRequest: ignored?.onRequest };
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
  const send = process.send.bind(process);
  relay((message, sent) => send(message, undefined, {}, () => sent?.()));
}
