/**
 * `serve`: keeps the index of a workspace in memory, current through a watcher of its directories
 * (run/residentWorkspace.ts), with warm search workers, and answers the grep and glob calls of
 * `node dist/cli.js` for the same folders and index directory over a socket in that directory. Runs
 * until stopped (SIGINT or SIGTERM from the command line). Each answer is the one the command line computes alone.
 */
import { chmodSync, existsSync, rmSync } from 'fs';
import { connect, createServer, type Server, type Socket } from 'net';
import { InputError } from '../engine/api/errors';
import { ListingSource, sameList, type StreamingSource } from '../engine/index/listing';
import { checkIndexDir } from '../engine/index/location';
import { SearchPool } from '../engine/pool/pool';
import { onceEach, type SearchEnvironment } from '../engine/run/environment';
import { ResidentWorkspace, type ResidentLog } from '../engine/run/residentWorkspace';
import { failure, type CliOutcome, type CliRequest } from './arguments';
import { MAX_SOCKET_PATH, messageText, readMessage, socketPath, type ServerQuestion, type ServerReply } from './client';
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

/**
 * Checks that a server may listen at `path` for the request's index directory: the directory is a valid
 * one, the path fits a socket, and no server answers there (a socket left by one that did not stop
 * cleanly is removed). Throws an InputError naming the fix.
 */
async function claimSocket(request: CliRequest, path: string): Promise<void> {
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
}

/** What a server answers from: the request it was started with, its build of the engine, the environment, the warm pool, the resident index. */
interface Serving {
  request: CliRequest;
  engine: string;
  base: SearchEnvironment & { source: StreamingSource };
  pool: SearchPool;
  resident: ResidentWorkspace;
}

/** Answers one question read from `socket`, and logs it (declined: the client then answers it alone). */
async function answer(socket: Socket, serving: Serving, log: (line: string) => void): Promise<void> {
  const question = await readMessage<ServerQuestion>(socket);
  const asked = Date.now();
  // Watcher events already queued when the question came are taken in before it is answered.
  await new Promise((resolve) => setImmediate(resolve));
  let indexUse = '';
  const reply = await replyTo(question, serving, (line) => (indexUse = ` (${line})`));
  socket.end(messageText(reply));
  log('outcome' in reply ? `${question?.request.tool}: answered in ${Date.now() - asked} ms${indexUse}` : `declined: ${reply.declined}`);
}

/** The outcome of a question this server may answer (the same engine, workspace and index directory), or why it declines. */
async function replyTo(question: ServerQuestion | undefined, serving: Serving, indexUse: (line: string) => void): Promise<ServerReply> {
  const { request, engine, base, pool, resident } = serving;
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
    // One call's source (a walk its checks ask again is handed back), unless the resident index gives its own.
    source: new ListingSource(base.source, []),
    ...(asked.tool === 'grep' ? resident.environment() : {}),
  };
  return { outcome: await answerRequest(asked, env, warnings, indexUse) };
}

/** Listens on the socket at `path` (a question and its reply are a line each: client.ts, readMessage). */
async function listenAt(path: string, onSocket: (socket: Socket) => void): Promise<Server> {
  const server = createServer(onSocket);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  // Only this user may ask (whatever the umask): a question can name any path the user may read.
  if (process.platform !== 'win32') chmodSync(path, 0o600);
  return server;
}

export async function serve(request: CliRequest, engine: string, { print, log, stopped }: ServerIo): Promise<CliOutcome> {
  const started = Date.now();
  const path = socketPath(request.indexDir);
  try {
    await claimSocket(request, path);
  } catch (error) {
    return failure(error);
  }
  const base = cliEnvironment(request, log);
  const resident = new ResidentWorkspace(base, request.indexDir, request.limits, residentLog(log));
  const pool = new SearchPool().warm();
  const serving: Serving = { request, engine, base, pool, resident };
  let server: Server;
  try {
    await resident.start();
    server = await listenAt(path, (socket) => void answer(socket, serving, log));
  } catch (error) {
    resident.close();
    pool.dispose();
    return failure(error);
  }
  print(JSON.stringify({ serving: path, folders: request.folders, indexDir: request.indexDir, elapsedMs: Date.now() - started }));
  await stopped();
  server.close();
  if (process.platform !== 'win32') rmSync(path, { force: true });
  resident.close();
  pool.dispose();
  return { code: 0 };
}
