/**
 * A real agent no one here wrote, end to end: OpenAI's Codex CLI (`codex exec`, installed into the tool
 * cache by `npm test`: GREP_TOOLS_CODEX) with our MCP server in its config and a scripted model on
 * 127.0.0.1 that speaks the Responses API. The model calls our `grep` through Codex; the answer it
 * receives is our JSON, with the defining line and without the denied file.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import * as nodePath from 'path';
import { age } from '../../unit/engine/index/age';
import { Fixture } from '../../unit/fixture';

const repoRoot = nodePath.resolve(__dirname, '../../../..');
const distCli = nodePath.join(repoRoot, 'dist', 'cli.js');

/** What the scripted model saw: the tools Codex offered, and the output of the call it made. */
interface Seen {
  requests: number;
  tools: unknown[];
  outputs: unknown[];
}

/**
 * A Responses API model (`POST /v1/responses`, streamed): asked without a tool output, it calls `grep` in
 * Codex's namespace for our server; asked with one, it answers in a sentence.
 */
function scriptedModel(seen: Seen): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.requests++;
      const json = (body ? JSON.parse(body) : {}) as { tools?: unknown[]; input?: Array<{ type?: string; output?: unknown }> };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (type: string, data: object) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      const id = `resp_${seen.requests}`;
      send('response.created', { response: { id } });
      const output = (json.input ?? []).find((item) => item.type === 'function_call_output');
      let item: object;
      if (output) {
        seen.outputs.push(output.output);
        item = { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'authenticate is defined in src/auth.py.' }] };
      } else {
        seen.tools = json.tools ?? [];
        item = {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          namespace: 'mcp__greptools',
          name: 'grep',
          arguments: JSON.stringify({ pattern: 'def authenticate' }),
        };
      }
      send('response.output_item.added', { output_index: 0, item });
      send('response.output_item.done', { output_index: 0, item });
      send('response.completed', { response: { id, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } });
      response.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs a command to its end (the scripted model answers from this process meanwhile): its exit code and output. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('mcp: a real agent (the Codex CLI) calls our grep through the MCP server', function () {
  this.timeout(120_000);
  let fx: Fixture;
  let model: Server;
  const seen: Seen = { requests: 0, tools: [], outputs: [] };

  before(async () => {
    assert.ok(
      process.env.GREP_TOOLS_CODEX,
      'GREP_TOOLS_CODEX names the Codex CLI (`npm test` installs it into the tool cache: scripts/lib/install.mjs, ensureCodex)',
    );
    fx = new Fixture('grep-tools-codex-');
    fx.files({
      'ws/src/auth.py': 'class Client:\n    def authenticate(self, user):\n        return True\n',
      'ws/src/app.py': 'from auth import Client\nClient().authenticate("me")\n',
      'ws/.env': 'def authenticate = secret\n',
    });
    age(fx.path('ws'));
    model = await scriptedModel(seen);
    const port = (model.address() as AddressInfo).port;
    fs.mkdirSync(fx.path('codex-home'));
    fs.writeFileSync(
      fx.path('codex-home/config.toml'),
      [
        'model = "scripted-model"',
        'model_provider = "scripted"',
        '',
        '[model_providers.scripted]',
        'name = "Scripted"',
        `base_url = "http://127.0.0.1:${port}/v1"`,
        'wire_api = "responses"',
        '',
        '[mcp_servers.greptools]',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = ${JSON.stringify([distCli, 'mcp', '--workspace', fx.path('ws'), '--index-dir', fx.path('index')])}`,
        '',
      ].join('\n'),
    );
  });

  after(() => {
    model?.close();
    fx?.remove();
  });

  it('offers grep and glob to the model, and the model receives our answer to its grep call', async () => {
    const codex = await run(
      process.execPath,
      [process.env.GREP_TOOLS_CODEX!, 'exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'Where is authenticate defined?'],
      { cwd: fx.path('ws'), env: { ...process.env, CODEX_HOME: fx.path('codex-home') }, timeoutMs: 100_000 },
    );
    assert.strictEqual(codex.code, 0, `codex exec failed:\n${codex.output}`);
    assert.match(codex.output, /authenticate is defined in src\/auth\.py/, "the model's last message is the agent's answer");
    const ours = JSON.stringify(seen.tools.find((tool) => JSON.stringify(tool).includes('mcp__greptools')));
    assert.ok(ours, `Codex offered our server's tools (${JSON.stringify(seen.tools).slice(0, 400)})`);
    assert.match(ours, /"name":"grep"/);
    assert.match(ours, /"name":"glob"/);
    assert.strictEqual(seen.outputs.length, 1, 'one tool output reached the model');
    // Codex wraps the tool's text (a line with its wall time first); inside it is our answer, as the CLI prints it.
    const parts = seen.outputs[0] as Array<{ type: string; text: string }>;
    const answer = parts.find((part) => part.text.startsWith('root: '));
    assert.ok(answer, `our answer reached the model: ${JSON.stringify(parts)}`);
    // the defining line, under the class it is in; the denied .env neither read nor named
    assert.strictEqual(
      answer.text,
      `root: ${fx.path('ws')}\nfiles_searched: 2\nskipped: denied 1\n\nsrc/auth.py\nClient\n2 def:     def authenticate(self, user):`,
    );
  });
});
