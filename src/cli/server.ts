/**
 * `serve`: keeps the index of a workspace in memory, current through a watcher of its directories
 * (run/residentWorkspace.ts), with warm search workers, and answers the grep and glob calls of
 * `node dist/cli.js` for the same folders and index directory over a socket in that directory. Runs
 * until stopped (SIGINT or SIGTERM from the command line). Each answer is the one the command line computes alone.
 */
import { chmodSync, existsSync, rmSync } from 'fs';
import { connect, createServer, type Server, type Socket } from 'net';
import { InputError } from '../engine/api/errors';
import { sameList } from '../engine/index/listing';
import { checkIndexDir } from '../engine/index/location';
import { SearchPool } from '../engine/pool/pool';
import { onceEach } from '../engine/run/environment';
import { ResidentWorkspace, type ResidentLog } from '../engine/run/residentWorkspace';
import { failure, type CliOutcome, type CliRequest } from './arguments';
import { MAX_SOCKET_PATH, readMessage, socketPath, type ServerQuestion, type ServerReply } from './client';
import { answerRequest, cliEnvironment } from './local';

/** Whether something already listens on `path`. */
function listening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Where a server writes: its ready line (stdout), its log (stderr), and what stops it. */
export interface ServerIo {
  print(line: string): void;
  log(line: string): void;
  /** Resolves when the server is to stop; asked once it listens. */
  stopped(): Promise<void>;
}

/** SIGINT or SIGTERM. */
export function signalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** The log lines of a resident index (its refreshes, and what it cannot watch), shared by `serve` and `mcp`. */
export function residentLog(log: (line: string) => void): ResidentLog {
  return {
    refreshed: (summary, watched) =>
      log(
        `index: ${summary.files} files (${summary.read} read, ${summary.kept} kept, ${summary.dropped} dropped) in ${summary.elapsedMs} ms${summary.listOnly ? `, file list only (${summary.listOnly})` : ''}; watching ${watched} directories`,
      ),
    contentRefreshed: (files, ms) =>
      log(`index: ${files} changed files read again in ${ms} ms (the tree kept its shape: nothing listed, no other file checked)`),
    unwatched: (reason) => log(`index: the tree cannot be watched (${reason}); each call checks every file it relies on, as the command line alone does`),
    ignoredUnwatched: (reason) =>
      log(
        `index: the directories of the files searches leave out cannot be watched too (${reason}); include_ignored lists the tree and checks those files, as the command line alone does`,
      ),
    failed: (reason) => log(`index: refresh failed (${reason}); each call checks every file it relies on`),
  };
}

export async function serve(request: CliRequest, engine: string, { print, log, stopped }: ServerIo): Promise<CliOutcome> {
  const started = Date.now();
  const path = socketPath(request.indexDir);
  try {
    checkIndexDir(request.indexDir, request.folders);
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
      throw new InputError(
        `The index directory's socket path ${path} is longer than ${MAX_SOCKET_PATH} bytes, which sockets cannot have. Pass a shorter --index-dir.`,
      );
    }
    if (process.platform !== 'win32' && existsSync(path)) {
      if (await listening(path))
        throw new InputError(`A server already answers for ${request.indexDir} (socket ${path}). Stop it first, or pass another --index-dir.`);
      rmSync(path, { force: true }); // left by a server that did not stop cleanly
    }
  } catch (error) {
    return failure(error);
  }
  const base = cliEnvironment(request, log);
  const resident = new ResidentWorkspace(base, request.indexDir, request.limits, residentLog(log));
  const pool = new SearchPool().warm();
  let server: Server | undefined;
  try {
    await resident.start();
    // Half open: the client ends its side once it has asked; the reply follows on ours.
    server = createServer({ allowHalfOpen: true }, (socket) => void answer(socket));
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(path, resolve);
    });
    // Only this user may ask (whatever the umask): a question can name any path the user may read.
    if (process.platform !== 'win32') chmodSync(path, 0o600);
  } catch (error) {
    resident.close();
    pool.dispose();
    return failure(error);
  }
  print(JSON.stringify({ serving: path, folders: request.folders, indexDir: request.indexDir, elapsedMs: Date.now() - started }));

  async function answer(socket: Socket): Promise<void> {
    const question = await readMessage<ServerQuestion>(socket);
    const asked = Date.now();
    // Watcher events already queued when the question came are taken in before it is answered.
    await new Promise((resolve) => setImmediate(resolve));
    let indexUse = '';
    const reply = await replyTo(question, (line) => (indexUse = ` (${line})`));
    socket.end(JSON.stringify(reply));
    log('outcome' in reply ? `${question?.request.tool}: answered in ${Date.now() - asked} ms${indexUse}` : `declined: ${reply.declined}`);
  }

  async function replyTo(question: ServerQuestion | undefined, indexUse: (line: string) => void): Promise<ServerReply> {
    if (!question) return { declined: 'unreadable question' };
    const asked = question.request;
    if (question.engine !== engine) return { declined: 'another build of the engine' };
    if (asked.tool !== 'grep' && asked.tool !== 'glob') return { declined: `${asked.tool} is not answered by a server` };
    if (!sameList(asked.folders, request.folders) || asked.indexDir !== request.indexDir || !asked.useIndex) return { declined: 'another workspace or index' };
    const warnings: string[] = [];
    const env = {
      ...base,
      allowOutside: asked.allowOutside,
      warn: onceEach((message) => warnings.push(message)),
      pool,
      ...(asked.tool === 'grep' ? resident.environment() : {}),
    };
    return { outcome: await answerRequest(asked, env, warnings, indexUse) };
  }

  await stopped();
  server.close();
  if (process.platform !== 'win32') rmSync(path, { force: true });
  resident.close();
  pool.dispose();
  return { code: 0 };
}
