/**
 * The scripted model server of the agent suite (test/agent/model-server.mjs), in plain Node: OpenAI Chat
 * Completions answers (streaming and not), step selection by prompt, previous tool result and what already
 * ran in the turn, the request log, and its bounded lifetime.
 */
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SERVER = path.resolve(__dirname, '..', '..', '..', 'test', 'agent', 'model-server.mjs');

interface Started {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

function start(dir: string, script: object, env: Record<string, string> = {}): Promise<Started> {
  fs.writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
  const child = spawn(process.execPath, [SERVER, '--exit-on-stdin-close'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, GREP_TOOLS_MODEL_SCRIPT: path.join(dir, 'script.json'), GREP_TOOLS_MODEL_LOG: path.join(dir, 'log.jsonl'), ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(output);
      if (match) resolve({ child, url: match[1], exited });
    });
    child.once('exit', (code) => reject(new Error(`the model server exited with ${code}: ${output}`)));
  });
}

async function complete(url: string, body: object): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

const tools = [
  {
    type: 'function',
    function: { name: 'grep', description: 'search', parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } } } },
  },
];
const script = {
  steps: [
    { id: 'call', prompt: '[t1]', tool: 'grep', arguments: { pattern: 'x' } },
    { id: 'skipped', prompt: '[t1]', toolResult: 'chose to skip', text: 'You skipped it.' },
    { id: 'done', prompt: '[t1]', text: 'Done.' },
  ],
  utilityText: 'A title',
};

describe('the scripted model server (test/agent/model-server.mjs)', function () {
  this.timeout(15_000);
  let dir: string;
  let server: Started;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grep-tools-model-test-'));
    server = await start(dir, script);
  });

  afterEach(async () => {
    server.child.kill();
    await server.exited;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only and lists its model', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: Array<{ id: string }> };
    assert.deepStrictEqual(
      models.data.map((m) => m.id),
      ['mock-model'],
    );
  });

  it('streams a scripted tool call as chat.completion.chunk events ending with [DONE]', async () => {
    const { status, text } = await complete(server.url, { stream: true, tools, messages: [{ role: 'user', content: 'please [t1]' }] });
    assert.strictEqual(status, 200);
    const events = text.split('\n\n').filter(Boolean);
    assert.strictEqual(events.at(-1), 'data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')));
    const call = chunks[0].choices[0].delta.tool_calls[0];
    assert.strictEqual(call.function.name, 'grep');
    assert.match(call.id, /^call__call__\d+$/);
    assert.strictEqual(chunks[1].choices[0].delta.tool_calls[0].function.arguments, '{"pattern":"x"}');
    assert.strictEqual(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, 'tool_calls');
  });

  it('answers plain JSON when not streaming, and picks the next step from the conversation and the previous tool result', async () => {
    const asked = { role: 'user', content: [{ type: 'text', text: 'please [t1]' }] };
    const called = { role: 'assistant', content: null, tool_calls: [{ id: 'call__call__1', type: 'function', function: { name: 'grep', arguments: '{}' } }] };
    const skipped = JSON.parse(
      (
        await complete(server.url, {
          tools,
          messages: [asked, called, { role: 'tool', tool_call_id: 'call__call__1', content: 'The user chose to skip the tool call' }],
        })
      ).text,
    );
    assert.strictEqual(skipped.object, 'chat.completion');
    assert.deepStrictEqual(skipped.choices[0].message, { role: 'assistant', content: 'You skipped it.' });
    assert.strictEqual(skipped.choices[0].finish_reason, 'stop');
    const ran = JSON.parse(
      (await complete(server.url, { tools, messages: [asked, called, { role: 'tool', tool_call_id: 'call__call__1', content: '{"files":[]}' }] })).text,
    );
    assert.strictEqual(ran.choices[0].message.content, 'Done.');
  });

  it('logs every request: tools offered with their arguments, prompt, tool results, the step answered', async () => {
    await complete(server.url, { stream: true, tools, messages: [{ role: 'user', content: 'please [t1]' }] });
    await complete(server.url, { messages: [{ role: 'user', content: 'Write a title' }] });
    await complete(server.url, { tools, messages: [{ role: 'user', content: 'unknown prompt' }] });
    const log = fs
      .readFileSync(path.join(dir, 'log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.strictEqual(log.length, 3);
    assert.deepStrictEqual(log[0].tools, ['grep']);
    assert.deepStrictEqual(log[0].toolParameters, { grep: ['pattern', 'path'] });
    assert.strictEqual(log[0].newToolDefinitions[0].name, 'grep');
    assert.strictEqual(log[0].prompt, 'please [t1]');
    assert.strictEqual(log[0].step, 'call');
    assert.ok(log[0].respondedAt >= log[0].receivedAt);
    assert.strictEqual(log[1].utility, true, 'a request without tools is a utility request');
    assert.strictEqual(log[1].response.text, 'A title');
    assert.strictEqual(log[2].unmatched, true);
  });

  it('exits by itself when its lifetime is over, and when its stdin closes', async () => {
    const short = await start(dir, script, { GREP_TOOLS_MODEL_LIFETIME: '1' });
    assert.strictEqual(await short.exited, 0);
    const orphan = await start(dir, script);
    orphan.child.stdin!.end();
    assert.strictEqual(await orphan.exited, 0);
  });
});
