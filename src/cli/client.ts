/**
 * Asks a running `serve` of the same index directory to answer a grep or glob: the answer it gives is
 * the one this process would compute, without loading the engine or the index. Undefined when no
 * server answers (none runs, another build of the engine runs it, or it stopped mid-answer).
 */
import { createHash } from 'crypto';
import { connect, type Socket } from 'net';
import * as nodePath from 'path';
import type { CliOutcome, CliRequest } from './arguments';

/** The longest socket path the platforms accept (Linux: 108 bytes with the terminating NUL). */
export const MAX_SOCKET_PATH = 103;

/** Where the server of an index directory listens: a socket in it (a named pipe on Windows). */
export function socketPath(indexDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `\\\\.\\pipe\\grep-tools-${createHash('sha256').update(indexDir).digest('hex').slice(0, 16)}`;
  return nodePath.join(indexDir, 'serve.sock');
}

/** What a client sends: the request and the engine it expects to answer it. */
export interface ServerQuestion {
  engine: string;
  request: CliRequest;
}

/** What a server replies: the answer, or why it leaves the request to the client. */
export type ServerReply = { outcome: CliOutcome } | { declined: string };

/**
 * The one JSON message the other side sends, ended by a line break (JSON.stringify writes none inside):
 * neither side half-closes the socket before the other answers, which a Windows named pipe does not
 * support. Undefined when the socket fails or ends first, or the message is not JSON (the other side
 * stopped mid-way).
 */
export function readMessage<T>(socket: Socket): Promise<T | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (message: T | undefined) => {
      socket.removeAllListeners('data');
      resolve(message);
    };
    socket.on('error', () => done(undefined));
    socket.on('end', () => done(undefined));
    socket.on('data', (chunk: Buffer) => {
      const end = chunk.indexOf(0x0a);
      if (end === -1) return void chunks.push(chunk);
      chunks.push(chunk.subarray(0, end));
      try {
        done(JSON.parse(Buffer.concat(chunks).toString('utf8')) as T);
      } catch {
        done(undefined);
      }
    });
  });
}

/** A message as readMessage reads it: JSON and a line break. */
export function messageText(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

export async function askServer(request: CliRequest, engine: string): Promise<CliOutcome | undefined> {
  const path = socketPath(request.indexDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) return undefined;
  const socket = connect(path);
  const reply = readMessage<ServerReply>(socket);
  socket.write(messageText({ engine, request } satisfies ServerQuestion));
  const answered = await reply;
  socket.destroy();
  return answered && 'outcome' in answered ? answered.outcome : undefined;
}
