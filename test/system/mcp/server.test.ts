/**
 * `node dist/cli.js mcp`: the MCP server on stdio, driven by the MCP SDK's own Client and
 * StdioClientTransport (and by raw JSON-RPC lines where a client would never send them). It lists the
 * two tools as VS Code declares them, answers as the command line does, refuses what it must with the
 * reason, keeps its index warm, stops a cancelled call, and exits when the client goes away.
 */
import * as assert from 'assert';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'child_process';
import * as fs from 'fs';
import * as nodePath from 'path';
import { pathToFileURL } from 'url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, ListRootsRequestSchema, McpError, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { modelDescription, TOOL_TITLES } from '../../../src/engine/input/descriptions';
import { GLOB_SCHEMA, GREP_SCHEMA } from '../../../src/engine/input/schema';
import { MCP_OUTSIDE_HINT } from '../../../src/mcp/workspaces';
import { parseAnswer } from '../../support/answers';
import { SERVER_INFO } from '../../../src/mcp/server';
import { age } from '../../unit/engine/index/age';
import { Fixture } from '../../unit/fixture';

const repoRoot = nodePath.resolve(__dirname, '../../../..');
const distCli = nodePath.join(repoRoot, 'dist', 'cli.js');
const manifest = JSON.parse(fs.readFileSync(nodePath.join(repoRoot, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

/** The server's stderr as it grows, and a wait for a line of it (no sleeps: resolves on the data that matches). */
class Log {
  text = '';
  private waiters: { re: RegExp; resolve: () => void }[] = [];

  attach(stream: NodeJS.EventEmitter | null): void {
    stream?.on('data', (chunk: Buffer) => {
      this.text += chunk.toString('utf8');
      this.waiters = this.waiters.filter((waiter) => !(waiter.re.test(this.text) && (waiter.resolve(), true)));
    });
  }

  waitFor(re: RegExp): Promise<void> {
    return new Promise((resolve) => (re.test(this.text) ? resolve() : this.waiters.push({ re, resolve })));
  }

  count(re: RegExp): number {
    return this.text.split('\n').filter((line) => re.test(line)).length;
  }
}

interface Connected {
  client: Client;
  transport: StdioClientTransport;
  log: Log;
}

/** The SDK's client, spawning `node <entry> <args>` over stdio; `roots` makes it a client that lists them. */
async function connect(args: string[], options: { roots?: () => string[]; entry?: string[] } = {}): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...(options.entry ?? [distCli, 'mcp']), ...args], stderr: 'pipe' });
  const log = new Log();
  log.attach(transport.stderr);
  const client = new Client({ name: 'grep-tools-test', version: '1.0.0' }, options.roots ? { capabilities: { roots: { listChanged: true } } } : {});
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots().map((path) => ({ uri: pathToFileURL(path).href, name: nodePath.basename(path) })),
    }));
  }
  await client.connect(transport);
  return { client, transport, log };
}

/** The text of a tool's answer. */
function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  assert.strictEqual(content.length, 1);
  assert.strictEqual(content[0].type, 'text');
  return (content[0] as { text: string }).text;
}

/** What `node dist/cli.js <tool> <input> --no-index` prints for the same workspace. */
function cliAnswer(tool: 'grep' | 'glob', input: object, ws: string): string {
  const run = spawnSync(process.execPath, [distCli, tool, JSON.stringify(input), '--workspace', ws, '--no-index'], { encoding: 'utf8' });
  assert.strictEqual(run.status, 0, run.stderr);
  return run.stdout.replace(/\n$/, '');
}

/** A raw server process, for what the SDK's client would never send (lines that are not JSON-RPC) or do (close stdin mid-call). */
function rawServer(args: string[]): {
  child: ChildProcessWithoutNullStreams;
  log: Log;
  send(line: string): void;
  next(): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [distCli, 'mcp', ...args]);
  const log = new Log();
  log.attach(child.stderr);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    child,
    log,
    exited,
    send: (line) => void child.stdin.write(line + '\n'),
    next: () => new Promise((resolve) => (lines.length ? resolve(JSON.parse(lines.shift()!)) : waiting.push((line) => resolve(JSON.parse(line))))),
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
/** A regex that backtracks without end on a line of a's followed by '!': the call runs until stopped (timeout 30 s). */
const SLOW = { pattern: '(a+)+$', path: 'slow' };

describe('mcp: the MCP server on stdio (the SDK client)', function () {
  this.timeout(30_000);
  let fx: Fixture;
  let ws: string;
  let other: string;
  let indexDir: string;
  let server: Connected;

  before(async () => {
    fx = new Fixture('grep-tools-mcp-');
    ws = fx.mkdir('ws');
    other = fx.mkdir('other');
    indexDir = fx.path('index');
    fx.files({
      'ws/src/app.ts': 'const a = 1; // TODO tidy\nexport function run() {}\n',
      'ws/README.md': 'TODO docs\n',
      'ws/.env': 'TODO secret\n',
      'ws/lib/util.ts': 'export const b = 2;\n',
      'ws/.gitignore': 'build/\n',
      'ws/build/out.js': 'TODO built\n',
      'ws/slow/slow.txt': 'a'.repeat(40) + '!\n',
      'other/x.ts': 'TODO other\n',
    });
    age(ws);
    server = await connect(['--workspace', ws, '--index-dir', indexDir]);
  });

  after(async () => {
    await server?.client.close();
    fx.remove();
  });

  it('introduces itself with the package version and lists grep and glob: the schemas, titles and descriptions VS Code has, read-only, closed world', async () => {
    assert.deepStrictEqual(server.client.getServerVersion(), { name: 'grep-tools', version: manifest.version });
    assert.strictEqual(SERVER_INFO.version, manifest.version);
    const { tools } = await server.client.listTools();
    assert.deepStrictEqual(
      tools.map((tool) => ({ ...tool })),
      [
        {
          name: 'grep',
          title: TOOL_TITLES.grep,
          description: modelDescription('grep', 'mcp'),
          inputSchema: GREP_SCHEMA,
          annotations: { title: TOOL_TITLES.grep, readOnlyHint: true, openWorldHint: false },
        },
        {
          name: 'glob',
          title: TOOL_TITLES.glob,
          description: modelDescription('glob', 'mcp'),
          inputSchema: GLOB_SCHEMA,
          annotations: { title: TOOL_TITLES.glob, readOnlyHint: true, openWorldHint: false },
        },
      ],
    );
    assert.match(tools[0].description ?? '', /A path outside the workspace folders \(the client's roots\) is refused/);
  });

  it('answers grep and glob with the very text the command line prints; the first call starts the index, later calls use it', async () => {
    const first = await server.client.callTool({ name: 'grep', arguments: { pattern: 'TODO' } });
    assert.strictEqual(first.isError, undefined);
    assert.strictEqual(textOf(first), cliAnswer('grep', { pattern: 'TODO' }, ws));
    assert.deepStrictEqual(Object.keys(parseAnswer(textOf(first)).files), [`${ws}/README.md`, `${ws}/src/app.ts`]);
    await server.log.waitFor(/^index: \d+ files \(.*\) in \d+ ms; watching \d+ directories$/m);
    for (const input of [
      { pattern: 'TODO', output_mode: 'count' },
      { pattern: 'export', output_mode: 'files_with_matches' },
      { pattern: 'nothing like this' },
      { pattern: 'built', include_ignored: true },
    ]) {
      assert.strictEqual(textOf(await server.client.callTool({ name: 'grep', arguments: input })), cliAnswer('grep', input, ws), JSON.stringify(input));
    }
    assert.ok(
      server.log.count(
        /^grep: answered in \d+ ms \(index: \d+ files settled, \d+ read(, definitions: \d+ files parsed, \d+ known, \d+ ms)?(, cut page ordered: \d+ files parsed and \d+ known for definitions, \d+ defining, \d+ ms)?\)$/,
      ) >= 1,
      server.log.text,
    );
    for (const input of [{ pattern: '**/*.ts' }, { pattern: '*', path: 'src', sort: 'mtime' }]) {
      assert.strictEqual(textOf(await server.client.callTool({ name: 'glob', arguments: input })), cliAnswer('glob', input, ws), JSON.stringify(input));
    }
  });

  it('sees a file written after the index was built in the next call (the watcher keeps it current)', async () => {
    await server.log.waitFor(/^index: /m);
    fx.write('ws/src/fresh.ts', 'TODO fresh\n');
    const answer = parseAnswer(textOf(await server.client.callTool({ name: 'grep', arguments: { pattern: 'TODO fresh', output_mode: 'files_with_matches' } })));
    assert.deepStrictEqual(answer.files, [`${ws}/src/fresh.ts`]);
    fs.rmSync(fx.path('ws/src/fresh.ts'));
    assert.deepStrictEqual(
      parseAnswer(textOf(await server.client.callTool({ name: 'grep', arguments: { pattern: 'TODO fresh', output_mode: 'files_with_matches' } }))).files,
      [],
    );
  });

  it('never returns a denied file, and refuses a path to one with the reason', async () => {
    const grep = parseAnswer(textOf(await server.client.callTool({ name: 'grep', arguments: { pattern: 'secret', include_ignored: true } })));
    assert.deepStrictEqual(grep.files, {});
    assert.doesNotMatch(JSON.stringify(grep), /\.env/);
    const glob = await server.client.callTool({ name: 'glob', arguments: { pattern: '**/.env*', include_ignored: true } });
    assert.doesNotMatch(textOf(glob), /"[^"]*\/\.env"/);
    const direct = await server.client.callTool({ name: 'grep', arguments: { pattern: 'secret', path: '.env' } });
    assert.strictEqual(direct.isError, true);
    assert.match(textOf(direct), /permission denied by policy/);
    assert.doesNotMatch(textOf(direct), /TODO secret/);
  });

  it('refuses a path outside the workspace folders with the reason and the fix (MCP has no confirmation)', async () => {
    for (const [tool, path] of [
      ['grep', other],
      ['glob', other],
      ['grep', '/etc'],
      ['grep', '../other'],
    ] as const) {
      const result = await server.client.callTool({ name: tool, arguments: { pattern: tool === 'grep' ? 'TODO' : '*', path } });
      assert.strictEqual(result.isError, true, `${tool} ${path}`);
      assert.match(textOf(result), /outside every workspace folder/);
      assert.ok(textOf(result).endsWith(MCP_OUTSIDE_HINT), textOf(result));
      assert.doesNotMatch(textOf(result), /TODO other/);
    }
  });

  it('answers bad arguments with the reason, as the VS Code tool does: wrong types, unknown or missing fields, huge values', async () => {
    const refused = async (name: string, args: Record<string, unknown> | undefined, message: string) => {
      const result = await server.client.callTool({ name, arguments: args });
      assert.strictEqual(result.isError, true, JSON.stringify(args)?.slice(0, 100));
      assert.strictEqual(textOf(result), message);
    };
    await refused('grep', { pattern: 3 }, 'Invalid grep input: "pattern" must be a string, got number 3.');
    await refused('grep', { pattern: 'x', max_results: '10' }, 'Invalid grep input: "max_results" must be an integer >= 1, got a string.');
    await refused(
      'glob',
      { pattern: '*', regex: true },
      'Invalid glob input: unknown field "regex". Allowed fields: pattern, path, mode, max_depth, max_results, offset, sort, include_ignored.',
    );
    await refused('grep', undefined, 'Invalid grep input: "pattern" is required (a string).');
    // An invalid regex: the command line's error, which says what the literal text finds.
    const cli = spawnSync(process.execPath, [distCli, 'grep', '{"pattern":"run("}', '--workspace', ws, '--no-index'], { encoding: 'utf8' });
    assert.strictEqual(cli.status, 1);
    await refused('grep', { pattern: 'run(' }, cli.stderr.replace(/\n$/, ''));
    // Over the SDK's default message size (10 MiB) too: refused by the schema, not by closing the connection.
    for (const size of [1_000_000, 12_000_000]) {
      await refused('grep', { pattern: 'a'.repeat(size) }, `Invalid grep input: "pattern" is ${size} characters long, at most 2048 are accepted.`);
    }
    assert.strictEqual(
      textOf(await server.client.callTool({ name: 'glob', arguments: { pattern: 'README.md' } })),
      cliAnswer('glob', { pattern: 'README.md' }, ws),
      'still serving',
    );
  });

  it('answers an unknown tool with a JSON-RPC error naming the tools', async () => {
    await assert.rejects(server.client.callTool({ name: 'find', arguments: { pattern: 'x' } }), (error: McpError) => {
      assert.strictEqual(error.code, ErrorCode.InvalidParams);
      assert.match(error.message, /Unknown tool "find": this server has the tools grep and glob \(tools\/list describes them\)\./);
      return true;
    });
  });

  it('reports progress on a long call and stops it when the client cancels (AbortSignal), then answers the next call', async () => {
    const controller = new AbortController();
    const progress: Progress[] = [];
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    const asked = Date.now();
    const call = server.client.callTool({ name: 'grep', arguments: SLOW }, undefined, {
      signal: controller.signal,
      onprogress: (update) => {
        progress.push(update);
        progressed();
      },
    });
    await firstProgress;
    assert.deepStrictEqual(progress[0].progress, 1);
    assert.match(progress[0].message ?? '', /^grep: 0 files with matches so far, \d+ s$/);
    controller.abort('the user stopped it');
    await assert.rejects(call, /the user stopped it|abort/i);
    await server.log.waitFor(/^grep: cancelled after \d+ ms$/m);
    assert.ok(Date.now() - asked < 20_000, 'stopped long before the 30 s time limit');
    // The worker busy with the regex was terminated: the next call runs at once.
    assert.strictEqual(
      textOf(await server.client.callTool({ name: 'grep', arguments: { pattern: 'TODO', output_mode: 'count' } })),
      cliAnswer('grep', { pattern: 'TODO', output_mode: 'count' }, ws),
    );
  });

  it("searches the client's roots instead of the --workspace folders, and follows a change of roots", async () => {
    let roots = [other];
    const rooted = await connect(['--workspace', ws, '--index-dir', fx.path('index-roots')], { roots: () => roots });
    try {
      const inOther = parseAnswer(textOf(await rooted.client.callTool({ name: 'grep', arguments: { pattern: 'TODO', output_mode: 'files_with_matches' } })));
      assert.deepStrictEqual(inOther.files, [`${other}/x.ts`]);
      const refused = await rooted.client.callTool({ name: 'grep', arguments: { pattern: 'TODO', path: ws } });
      assert.strictEqual(refused.isError, true);
      assert.match(textOf(refused), new RegExp(`outside every workspace folder \\(${other}\\)`));
      roots = [ws, other];
      await rooted.client.sendRootsListChanged();
      const both = parseAnswer(textOf(await rooted.client.callTool({ name: 'grep', arguments: { pattern: 'TODO', output_mode: 'files_with_matches' } })));
      assert.deepStrictEqual(both.files, [`${ws}/README.md`, `${ws}/src/app.ts`, `${other}/x.ts`]);
    } finally {
      await rooted.client.close();
    }
  });

  it('answers a line that is not JSON-RPC with a parse or invalid-request error, and goes on serving', async () => {
    const raw = rawServer(['--workspace', ws, '--index-dir', fx.path('index-raw')]);
    raw.send('this is not json');
    assert.deepStrictEqual(await raw.next(), {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32700,
        message: `Parse error: a line on stdin is not JSON (Unexpected token 'h', "this is not json" is not valid JSON). Send one JSON-RPC 2.0 message per line.`,
      },
    });
    raw.send('{"hello": "world"}');
    assert.deepStrictEqual(((await raw.next()) as { error: { code: number } }).error.code, -32600);
    raw.send(INITIALIZE);
    assert.strictEqual(((await raw.next()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name, 'grep-tools');
    raw.send(INITIALIZED);
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/unknown' }));
    assert.deepStrictEqual(((await raw.next()) as { error: { code: number } }).error.code, -32601);
    raw.child.stdin.end();
    assert.strictEqual(await raw.exited, 0);
  });

  it('exits cleanly (code 0, workers and watcher ended) when the client closes stdin in the middle of a call', async () => {
    const raw = rawServer(['--workspace', ws, '--index-dir', fx.path('index-gone')]);
    raw.send(INITIALIZE);
    await raw.next();
    raw.send(INITIALIZED);
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'grep', arguments: SLOW } }));
    await raw.log.waitFor(/^workspace: /m);
    raw.child.stdin.end();
    assert.strictEqual(await raw.exited, 0);
    assert.match(raw.log.text, /^mcp: stopping: stdin closed$/m);
    assert.match(raw.log.text, /^grep: cancelled after \d+ ms$/m);
  });

  it('refuses an --index-dir inside the workspace before serving, naming the fix', () => {
    const run = spawnSync(process.execPath, [distCli, 'mcp', '--workspace', ws, '--index-dir', nodePath.join(ws, '.index')], { encoding: 'utf8', input: '' });
    assert.strictEqual(run.status, 1);
    assert.match(
      run.stderr,
      /The index directory .*\/ws\/\.index is inside the workspace folder .*\/ws, and nothing is written in the workspace\. Pass an --index-dir outside it/,
    );
    assert.strictEqual(run.stdout, '', 'stdout carries the protocol only');
  });

  describe('the grep-tools-mcp bin (npx)', () => {
    it('is dist/mcp.js, a node script that serves the same tools', async () => {
      assert.deepStrictEqual(manifest.bin, { 'grep-tools-mcp': 'dist/mcp.js' });
      const bin = nodePath.join(repoRoot, manifest.bin['grep-tools-mcp']);
      assert.ok(fs.readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n'));
      const direct = await connect(['--workspace', ws, '--index-dir', fx.path('index-bin')], { entry: [bin] });
      try {
        assert.deepStrictEqual(
          (await direct.client.listTools()).tools.map((tool) => tool.name),
          ['grep', 'glob'],
        );
        assert.strictEqual(
          textOf(await direct.client.callTool({ name: 'glob', arguments: { pattern: '**/*.md' } })),
          cliAnswer('glob', { pattern: '**/*.md' }, ws),
        );
      } finally {
        await direct.client.close();
      }
    });

    it('is in the npm package with the workers it starts, and nothing of the sources', () => {
      const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8' });
      assert.strictEqual(packed.status, 0, packed.stderr);
      const files = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0].files.map((file) => file.path).sort();
      assert.deepStrictEqual(files, [
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
        'dist/cli.js',
        'dist/cliEngine.js',
        'dist/indexProcess.js',
        'dist/indexWorker.js',
        'dist/mcp.js',
        'dist/worker.js',
        'package.json',
      ]);
    });
  });
});
