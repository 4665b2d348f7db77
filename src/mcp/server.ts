/**
 * `node dist/cli.js mcp` (or the `grep-tools-mcp` bin): the grep and glob tools as an MCP server on
 * stdio, built on the official SDK. Each tool has the input schema of src/engine/input/schema.ts and
 * the description of src/engine/input/descriptions.ts, and answers exactly as the command line does
 * (cli/local.ts renderAnswer), from the resident index of its folders (workspaces.ts). A path outside
 * the folders is refused with the reason (MCP has no confirmation); denied paths are never read.
 *
 * stdout carries the protocol only; the log goes to stderr. The server stops when stdin closes (the
 * client went away): calls under way are cancelled, the workers and the watcher end, the process exits.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolRequest,
  type CallToolResult,
  type JSONRPCMessage,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { CancelledError } from '../engine/api/errors';
import { ListingSource } from '../engine/index/listing';
import { checkIndexDir } from '../engine/index/location';
import { modelDescription, TOOL_TITLES } from '../engine/input/descriptions';
import { GLOB_SCHEMA, GREP_SCHEMA } from '../engine/input/schema';
import { SearchPool } from '../engine/pool/pool';
import { onceEach, type SearchEnvironment } from '../engine/run/environment';
import { failure, type CliOutcome, type CliRequest } from '../cli/arguments';
import { renderAnswer } from '../cli/local';
import { rootFolders, Workspaces } from './workspaces';

/** The server's name and version in the MCP handshake. */
export const SERVER_INFO = { name: 'grep-tools', version: '0.1.0' };

/** A call that runs longer than this gets a progress notification this often (when the client sent a progressToken). */
export const PROGRESS_EVERY_MS = 1000;
/** How long the client has to list its roots before the --workspace folders are searched instead. */
const ROOTS_TIMEOUT_MS = 10_000;
/**
 * The largest JSON-RPC message read (the SDK's default is 10 MiB): larger arguments than the schemas
 * accept (a pattern of 2,048 characters, a path of 4,096) are refused with the reason, up to this size.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The tools as tools/list describes them. */
export function mcpTools(): Tool[] {
  return (['grep', 'glob'] as const).map((name) => ({
    name,
    title: TOOL_TITLES[name],
    description: modelDescription(name, 'mcp'),
    inputSchema: { ...(name === 'grep' ? GREP_SCHEMA : GLOB_SCHEMA) },
    annotations: { title: TOOL_TITLES[name], readOnlyHint: true, openWorldHint: false },
  }));
}

/** Where the server reads and writes, and its log. */
export interface McpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  log(line: string): void;
}

/** A JSON-RPC error with its code; its message goes to the client as it is (McpError would prefix "MCP error -32602: "). */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A value named in a message, cut short. */
const clip = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** The JSON-RPC error a line that is not a JSON-RPC message gets (its id is unknown: null). */
function unreadableMessage(error: Error): JSONRPCMessage | undefined {
  const parse = error instanceof SyntaxError;
  if (!parse && error.name !== 'ZodError') return undefined;
  const message = parse
    ? `Parse error: a line on stdin is not JSON (${clip(error.message, 200)}). Send one JSON-RPC 2.0 message per line.`
    : 'Invalid Request: a line on stdin is JSON but not a JSON-RPC 2.0 request, notification or response (jsonrpc "2.0", method, id).';
  return { jsonrpc: '2.0', id: null, error: { code: parse ? ErrorCode.ParseError : ErrorCode.InvalidRequest, message } } as unknown as JSONRPCMessage;
}

/** A call's request as the SDK hands it over: its cancellation signal, progress token and a way to notify the client. */
type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What answering a call takes: the folders' workspaces, the warm pool, the log. */
interface CallContext {
  workspaces: Workspaces;
  pool: SearchPool;
  log(line: string): void;
}

/** Answers one tools/call: the tool's answer, or its refusal as an error result; a cancelled call is a protocol error. */
async function answerCall(call: CallToolRequest, extra: CallExtra, { workspaces, pool, log }: CallContext): Promise<CallToolResult> {
  const name = call.params.name;
  if (name !== 'grep' && name !== 'glob') {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Unknown tool ${JSON.stringify(clip(name))}: this server has the tools grep and glob (tools/list describes them).`,
    );
  }
  const asked = Date.now();
  const input = call.params.arguments ?? {};
  const workspace = await workspaces.current();
  const signal = extra.signal;
  let files = 0;
  const progress = progressTicker(extra, asked, () => (name === 'grep' ? `grep: ${files} files with matches so far` : 'glob: listing'));
  const env: SearchEnvironment = {
    ...workspace.base,
    isCancelled: () => signal.aborted,
    onCancelled: (listener) => {
      signal.addEventListener('abort', listener);
      return { dispose: () => signal.removeEventListener('abort', listener) };
    },
    warn: onceEach((message) => log(`${name}: ${message}`)),
    pool,
    // One call's source (a walk its checks ask again is handed back), unless the resident index gives its own.
    source: new ListingSource(workspace.base.source, []),
    ...(name === 'grep' ? workspace.indexed() : {}),
  };
  let indexUse = '';
  try {
    const text = await renderAnswer(name, input, env, (line) => (indexUse = ` (${line})`), { onFile: () => void files++ });
    log(`${name}: answered in ${Date.now() - asked} ms${indexUse}`);
    return { content: [{ type: 'text', text }] };
  } catch (error) {
    if (error instanceof CancelledError || signal.aborted) {
      log(`${name}: cancelled after ${Date.now() - asked} ms`);
      throw new ProtocolError(ErrorCode.RequestTimeout, 'The call was cancelled.');
    }
    // Bad arguments and refused paths are the tool's answer: the model reads the reason and the fix.
    const message = error instanceof Error ? error.message : String(error);
    log(`${name}: refused: ${clip(message, 300)}`);
    return { content: [{ type: 'text', text: message }], isError: true };
  } finally {
    clearInterval(progress);
  }
}

/** With a progressToken, a progress notification every PROGRESS_EVERY_MS saying `state()` and the seconds since `asked`; clear it when the call ends. */
function progressTicker(extra: CallExtra, asked: number, state: () => string): NodeJS.Timeout | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let ticks = 0;
  return setInterval(() => {
    const seconds = Math.round((Date.now() - asked) / 1000);
    const notification: ServerNotification = {
      method: 'notifications/progress',
      params: { progressToken, progress: ++ticks, message: `${state()}, ${seconds} s` },
    };
    extra.sendNotification(notification).catch(() => undefined);
  }, PROGRESS_EVERY_MS);
}

/** The folders the client's roots name, or undefined (no file: root, or no answer): the --workspace folders are searched then. */
async function listRoots(server: Server, fallback: string[], log: (line: string) => void): Promise<string[] | undefined> {
  try {
    const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
    const { folders, skipped } = rootFolders(roots.map((root) => root.uri));
    if (skipped.length > 0) log(`roots: ${skipped.map((uri) => clip(uri)).join(', ')} left out: only file: roots are searched`);
    if (folders.length === 0) log(`roots: the client lists no folder; searching ${fallback.join(', ')}`);
    return folders.length > 0 ? folders : undefined;
  } catch (error) {
    log(`roots: the client did not list its roots (${(error as Error).message}); searching ${fallback.join(', ')}`);
    return undefined;
  }
}

/** Why the server stops, once it must: the client went away (stdin closes, or stdout breaks: EPIPE), or with `signals`, SIGINT / SIGTERM. */
function whenStopped(io: McpIo, transport: StdioServerTransport, signals: boolean): Promise<string> {
  return new Promise<string>((resolve) => {
    io.stdin.once('end', () => resolve('stdin closed'));
    io.stdin.once('close', () => resolve('stdin closed'));
    io.stdin.once('error', (error: Error) => resolve(`stdin failed (${error.message})`));
    io.stdout.once('error', (error: Error) => resolve(`stdout failed (${error.message})`));
    transport.onclose = () => resolve('the transport closed');
    if (signals) {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    }
  });
}

/** Runs the server until stdin closes (or SIGINT / SIGTERM); the --index-dir given is checked first. */
export async function runMcp(request: CliRequest, io: McpIo, signals = true): Promise<CliOutcome> {
  const { log } = io;
  if (request.indexDirGiven) {
    try {
      checkIndexDir(request.indexDir, request.folders);
    } catch (error) {
      return failure(error);
    }
  }
  const pool = new SearchPool().warm();
  const workspaces = new Workspaces(request, log);
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'grep searches file contents and glob finds files by path in the workspace folders (the roots): exact, fast, read-only. Paths outside the folders are refused.',
  });
  const transport = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream, { maxBufferSize: MAX_MESSAGE_BYTES });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools() }));
  server.setRequestHandler(CallToolRequestSchema, (call, extra) => answerCall(call, extra, { workspaces, pool, log }));
  const useRoots = () => workspaces.useRoots(listRoots(server, request.folders, log));
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots) useRoots();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, useRoots);
  server.onerror = (error) => {
    const reply = unreadableMessage(error);
    if (reply) {
      log(`protocol: ${(reply as unknown as { error: { message: string } }).error.message}`);
      transport.send(reply).catch(() => undefined);
    } else log(`protocol: ${error.message}`);
  };

  const stopped = whenStopped(io, transport, signals);
  await server.connect(transport);
  log(`mcp: serving grep and glob on stdio for ${request.folders.join(', ')} (the client's roots replace them when it lists some)`);
  const reason = await stopped;
  log(`mcp: stopping: ${reason}`);
  // Closing aborts the calls under way (their workers are terminated), then the index, its watcher and the workers end.
  await server.close();
  workspaces.close();
  pool.dispose();
  return { code: 0 };
}
