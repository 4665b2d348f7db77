#!/usr/bin/env node
// A scripted language model for tests: an OpenAI Chat Completions compatible server (streaming SSE and
// plain JSON) on 127.0.0.1 only, with a bounded lifetime. Copilot Chat talks to it as a "Custom
// Endpoint" model. It answers from a script and records every request.
//
// Environment:
//   GREP_TOOLS_MODEL_SCRIPT    path of the script (JSON, below); re-read at every request
//   GREP_TOOLS_MODEL_LOG       path of the JSON-lines request log (appended)
//   GREP_TOOLS_MODEL_PORT      port (default 0: any free port)
//   GREP_TOOLS_MODEL_LIFETIME  seconds before the server exits by itself (default 600)
// It prints `mock model listening on http://127.0.0.1:PORT/v1` once it listens. It exits by itself when
// its lifetime is over, on SIGTERM/SIGINT, and, with --exit-on-stdin-close, when its stdin closes (the
// parent that spawned it with a stdin pipe is gone).
//
// Script: { "steps": [Step...], "fallbackText"?: string, "utilityText"?: string }
//   Step = { "id": string,
//            "prompt"?: string,      substring the turn's prompt (last user message) must contain
//            "toolResult"?: string,  regex (flags "s") the previous tool result must match
//            "tool"?: string, "arguments"?: object   -> answer with this tool call
//            "text"?: string                         -> answer with this final text }
// A request is answered by the first step (in file order) whose conditions hold and which has not already
// run in the current turn. Tool call ids carry the step id (call__<id>__<n>), so "already ran in this
// turn" is read from the conversation itself: the server keeps no state between requests and a retried
// request gets the same answer. Requests that offer no tools (titles, summaries) get `utilityText`; a
// request that no step matches gets `fallbackText` and is logged with "unmatched": true.
//
// Log record (one JSON object a line): seq, receivedAt, respondedAt (ms since epoch), stream, model,
// tools (names offered), toolParameters ({name: [argument names]}), newToolDefinitions (full definitions
// of tools not seen in an earlier request), prompt, messages (role + text, tool_calls, tool_call_id),
// toolResults (tool messages after the last assistant message: tool_call_id, name, content, bytes),
// step (id answered), unmatched, response ({tool, arguments, id} or {text}).
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const scriptPath = process.env.GREP_TOOLS_MODEL_SCRIPT;
const logPath = process.env.GREP_TOOLS_MODEL_LOG;
const lifetimeSeconds = Number(process.env.GREP_TOOLS_MODEL_LIFETIME ?? 600);
if (!scriptPath || !logPath) {
  process.stderr.write('GREP_TOOLS_MODEL_SCRIPT and GREP_TOOLS_MODEL_LOG must be set.\n');
  process.exit(2);
}
if (!(lifetimeSeconds > 0)) {
  process.stderr.write('GREP_TOOLS_MODEL_LIFETIME must be a positive number of seconds.\n');
  process.exit(2);
}

const MODEL_ID = 'mock-model';
let seq = 0;
const seenTools = new Set();

function readScript() {
  const script = JSON.parse(readFileSync(scriptPath, 'utf8'));
  if (!Array.isArray(script.steps)) throw new Error(`${scriptPath}: "steps" must be an array`);
  for (const step of script.steps) {
    if (typeof step.id !== 'string' || step.id.includes('__')) throw new Error(`${scriptPath}: every step needs an "id" without "__"`);
    if ((step.tool === undefined) === (step.text === undefined)) throw new Error(`${scriptPath}: step ${step.id} needs exactly one of "tool" and "text"`);
  }
  return script;
}

/** The text of a message's content: a string, or an array of parts. */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : (part?.text ?? ''))).join('');
  return '';
}

function analyse(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let lastUser = -1;
  let lastAssistant = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
    if (message.role === 'assistant') lastAssistant = index;
  });
  const prompt = lastUser >= 0 ? textOf(messages[lastUser].content) : '';
  const callNames = new Map();
  const doneSteps = new Set();
  for (const message of messages.slice(lastUser + 1)) {
    for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
      callNames.set(call.id, call.function?.name);
      const match = /^call__(.+)__\d+$/.exec(call.id ?? '');
      if (match) doneSteps.add(match[1]);
    }
  }
  const toolResults =
    lastAssistant > lastUser
      ? messages
          .slice(lastAssistant + 1)
          .filter((message) => message.role === 'tool')
          .map((message) => {
            const content = textOf(message.content);
            return { tool_call_id: message.tool_call_id, name: callNames.get(message.tool_call_id), content, bytes: Buffer.byteLength(content) };
          })
      : [];
  return { messages, prompt, doneSteps, toolResults };
}

function choose(script, { prompt, doneSteps, toolResults }) {
  const previous = toolResults.length > 0 ? toolResults.map((result) => result.content).join('\n') : undefined;
  return script.steps.find((step) => {
    if (doneSteps.has(step.id)) return false;
    if (step.prompt !== undefined && !prompt.includes(step.prompt)) return false;
    if (step.toolResult !== undefined && (previous === undefined || !new RegExp(step.toolResult, 's').test(previous))) return false;
    return true;
  });
}

function summariseMessage(message) {
  const summary = { role: message.role, content: textOf(message.content) };
  if (message.tool_calls)
    summary.tool_calls = message.tool_calls.map((call) => ({ id: call.id, name: call.function?.name, arguments: call.function?.arguments }));
  if (message.tool_call_id) summary.tool_call_id = message.tool_call_id;
  return summary;
}

function log(record) {
  appendFileSync(logPath, JSON.stringify(record) + '\n');
}

function completionChunk(id, delta, finishReason = null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: MODEL_ID,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function send(res, body, answer) {
  const id = `chatcmpl-${seq}`;
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  const toolCall = answer.tool
    ? { id: answer.id, type: 'function', function: { name: answer.tool, arguments: JSON.stringify(answer.arguments ?? {}) } }
    : undefined;
  const finishReason = toolCall ? 'tool_calls' : 'stop';
  if (body.stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunks = toolCall
      ? [
          completionChunk(id, {
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: '' } }],
          }),
          completionChunk(id, { tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }),
        ]
      : [completionChunk(id, { role: 'assistant', content: answer.text })];
    chunks.push(completionChunk(id, {}, finishReason));
    chunks.push({ ...completionChunk(id, {}), choices: [], usage });
    for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end('data: [DONE]\n\n');
  } else {
    const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: answer.text };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: MODEL_ID,
        choices: [{ index: 0, message, finish_reason: finishReason }],
        usage,
      }),
    );
  }
}

function completions(body, receivedAt, res) {
  const number = ++seq;
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const names = tools.map((tool) => tool.function?.name ?? tool.name);
  const record = { seq: number, receivedAt, stream: Boolean(body.stream), model: body.model, tools: names, toolParameters: {}, newToolDefinitions: [] };
  for (const tool of tools) {
    const fn = tool.function ?? tool;
    record.toolParameters[fn.name] = Object.keys(fn.parameters?.properties ?? {});
    if (!seenTools.has(fn.name)) {
      seenTools.add(fn.name);
      record.newToolDefinitions.push(fn);
    }
  }
  let answer;
  try {
    const script = readScript();
    const analysis = analyse(body);
    Object.assign(record, {
      prompt: analysis.prompt,
      messages: analysis.messages.map(summariseMessage),
      toolResults: analysis.toolResults,
    });
    if (tools.length === 0) {
      answer = { text: script.utilityText ?? 'Mock answer.' };
      record.utility = true;
    } else {
      const step = choose(script, analysis);
      if (step?.tool) answer = { tool: step.tool, arguments: step.arguments ?? {}, id: `call__${step.id}__${number}` };
      else if (step) answer = { text: step.text };
      else answer = { text: script.fallbackText ?? 'The mock model has no scripted step for this request.' };
      record.step = step?.id ?? null;
      record.unmatched = !step;
    }
  } catch (error) {
    record.error = String(error instanceof Error ? error.message : error);
    answer = { text: `Mock model error: ${record.error}` };
  }
  record.response = answer;
  // Logged before the answer goes out, so whoever got the answer finds the request in the log.
  record.respondedAt = Date.now();
  log(record);
  send(res, body, answer);
}

const server = createServer((req, res) => {
  const receivedAt = Date.now();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
    if (req.method === 'GET' && /\/models$/.test(path)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'grep-tools-tests' }] }));
      return;
    }
    if (req.method === 'POST' && /\/chat\/completions$/.test(path)) {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'invalid JSON body' } }));
        return;
      }
      completions(body, receivedAt, res);
      return;
    }
    log({ seq: ++seq, receivedAt, unknownRoute: `${req.method} ${req.url}` });
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
  });
});

function shutdown(code) {
  server.close();
  server.closeAllConnections();
  process.exit(code);
}

const lifetime = setTimeout(() => {
  process.stderr.write(`mock model: lifetime of ${lifetimeSeconds} s is over, exiting\n`);
  shutdown(0);
}, lifetimeSeconds * 1000);
lifetime.unref();
process.on('SIGTERM', () => shutdown(0));
process.on('SIGINT', () => shutdown(0));
if (process.argv.includes('--exit-on-stdin-close')) {
  process.stdin.on('end', () => shutdown(0));
  process.stdin.on('error', () => shutdown(0));
  process.stdin.resume();
}

server.listen(Number(process.env.GREP_TOOLS_MODEL_PORT ?? 0), '127.0.0.1', () => {
  readScript(); // fail early on a bad script
  process.stdout.write(`mock model listening on http://127.0.0.1:${server.address().port}/v1\n`);
});
