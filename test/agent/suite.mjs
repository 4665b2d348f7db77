// The agent suite: the real Copilot Chat extension in agent mode calls our tools, as the scripted model
// asks, in one code-server session on test/fixtures/single (scripts/lib/agent.mjs runs it). Each test
// sends a prompt carrying a unique tag; the model script below answers that tag with a tool call and then
// a final text. Assertions read what the model received (the scripted model's request log) and what the
// workbench shows. Each test saves a screenshot.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../../scripts/lib/agent.mjs';

// The answer's text read back as the fields of the JSON copy, absolute paths (test/support/answers.ts, built into out/).
const { parseAnswer } = createRequire(import.meta.url)(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'test', 'support', 'answers.js'));

// What a whole page answers (docs/tools.md): no default output_mode or mode, no zero counters, no timing.
// A whole answer's counts are what it shows: total_matches, files_matched and glob's total only on a cut page.
const GREP_KEYS = ['root', 'files', 'files_searched'];
const GLOB_KEYS = ['root', 'files'];
// (the answer does not echo the call's own pattern)
const NEVER_KEYS = [
  'pattern',
  'base_path',
  'output_mode',
  'mode',
  'count',
  'total',
  'total_matches',
  'files_matched',
  'returned_matches',
  'truncated',
  'elapsed_ms',
];
const SKIP_KEYS = ['binary', 'too_large', 'denied', 'unreadable', 'outside_workspace'];

const tag = (key) => `[agent:${key}]`;
const done = (key) => `Scripted answer for ${key} is complete.`;

/** The model script: per test, a tool call answered to the test's prompt, then a final text. */
export function modelScript({ workspace, outsideDir }) {
  const calls = {
    'grep-inside': ['grep', { pattern: 'def authenticate', include: '*.py' }],
    'glob-inside': ['glob', { pattern: '**/*.py' }],
    'outside-skip': ['grep', { pattern: 'outside-skip-marker', path: outsideDir }],
    'outside-allow': ['grep', { pattern: 'outside-allow-marker', path: outsideDir }],
    denied: ['grep', { pattern: 'fixture-secret', path: 'secrets' }],
    'bad-regex': ['grep', { pattern: 'def (authenticate' }],
    reference: ['grep', { pattern: 'def authenticate', path: join(workspace, 'src'), output_mode: 'files_with_matches' }],
    large: ['grep', { pattern: 'large-row-marker', path: 'agent-large-tmp', max_results: 400 }],
  };
  const steps = [];
  for (const [key, [tool, args]] of Object.entries(calls)) {
    steps.push({ id: `${key}-call`, prompt: tag(key), tool, arguments: args });
    steps.push({ id: `${key}-done`, prompt: tag(key), text: done(key) });
  }
  // grep, then Copilot's own read tool on the file the answer names: its root joined with its path (the tool descriptions say so).
  steps.push(
    { id: 'read-found-call', prompt: tag('read-found'), tool: 'grep', arguments: { pattern: 'def authenticate' } },
    {
      id: 'read-found-read',
      prompt: tag('read-found'),
      toolResult: '^root: ',
      tool: 'read_file',
      arguments: { filePath: join(workspace, 'src', 'auth', 'client.py'), startLine: 1, endLine: 12 },
    },
    { id: 'read-found-done', prompt: tag('read-found'), text: done('read-found') },
  );
  return { steps, fallbackText: 'The scripted model has no step for this request.', utilityText: 'Agent suite' };
}

/** The chat shows the final answer of a turn. */
async function answerShown(session, key) {
  await session.page.getByText(done(key)).filter({ visible: true }).first().waitFor({ timeout: 30_000 });
}

/** Sends the test's prompt in a new agent chat and waits for the model's final request of that turn; returns it. */
async function turn(session, key, { duringTurn } = {}) {
  await session.ask(`${tag(key)} Please use the tool as scripted.`);
  if (duringTurn) await duringTurn();
  const final = await session.model.waitForRecord((r) => r.step === `${key}-done`, { what: `the model's request after the tool call of ${key}` });
  await answerShown(session, key);
  return final;
}

/** The one tool result the model received in a request, checked to come from the expected tool. */
function onlyToolResult(record, tool) {
  assert.equal(record.toolResults.length, 1, `one tool message in the request, got ${JSON.stringify(record.toolResults)}`);
  const [result] = record.toolResults;
  assert.equal(result.name, tool, `the tool message answers the ${tool} call`);
  return result.content;
}

/** A pending confirmation: the widget with its buttons (a finished tool call uses the same container, collapsed, without buttons). */
const PENDING = '.chat-confirmation-widget-container:has(.chat-confirmation-widget-buttons)';

function noConfirmationShown(session) {
  return session.page
    .locator(PENDING)
    .filter({ visible: true })
    .count()
    .then((count) => assert.equal(count, 0, 'no confirmation widget is shown'));
}

/** The lines of our "Grep Tools" output channel (its log file in the server's logs). */
function extensionLog(session) {
  const found = [];
  const walk = (dir) => {
    let names = [];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'Grep Tools.log') found.push(...readFileSync(path, 'utf8').split('\n'));
    }
  };
  walk(join(session.server.userDataDir, 'logs'));
  return found;
}

/**
 * The log lines of invocations that mention `marker`: invoke logs every call's input, while
 * prepareInvocation's line for a pending path says it "asks for confirmation".
 */
function invocationsLogged(session, marker) {
  return extensionLog(session).filter((line) => line.includes(marker) && !/confirmation/i.test(line));
}

const visible = (locator) => locator.filter({ visible: true }).first();

/**
 * Waits for the confirmation widget of test `key`; returns it with its title and message text. Fails at
 * once if the turn ends without one (the tool ran or failed without asking).
 */
async function confirmation(session, key) {
  const widget = visible(session.page.locator(PENDING));
  const ended = await waitFor(
    async () => {
      if (await widget.isVisible()) return 'shown';
      const final = session.model.records().find((r) => r.step === `${key}-done`);
      return final ? final : undefined;
    },
    { timeoutMs: 30_000, what: `the confirmation widget of ${key}` },
  );
  if (ended !== 'shown') assert.fail(`no confirmation was shown; the model received: ${JSON.stringify(ended.toolResults?.map((r) => r.content))}`);
  const text = async (selector) => ((await widget.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
  const title = await text('.chat-confirmation-widget-title .rendered-markdown');
  const message = await text('.chat-confirmation-widget-message .message-wrapper');
  return { widget, title, message };
}

function assertOurConfirmation({ title, message }, { pattern, path }) {
  assert.match(title, /outside the workspace\?/i, `the confirmation title is ours: ${JSON.stringify(title)}`);
  assert.ok(message.includes('grep'), `the message names the tool: ${JSON.stringify(message)}`);
  assert.ok(message.includes(pattern), `the message names the pattern ${pattern}: ${JSON.stringify(message)}`);
  assert.ok(message.includes(path), `the message names the path ${path}: ${JSON.stringify(message)}`);
}

/** The chat input of the open chat, focused and empty. */
async function emptyChatInput(session) {
  const input = visible(session.page.locator('.interactive-input-part .interactive-input-editor'));
  await input.click({ force: true });
  await session.page.keyboard.press('ControlOrMeta+A');
  await session.page.keyboard.press('Backspace');
  return input;
}

async function suggestion(session, label) {
  const row = visible(session.page.locator(`.suggest-widget .monaco-list-row[aria-label^="${label},"]`));
  await row.waitFor({ timeout: 15_000 });
  return row;
}

/** The tests: { name, shot, run(session, context) }. */
export function agentTests({ repo, workspace, outsideDir }) {
  const grepSchema = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).contributes.languageModelTools.find(
    (tool) => tool.name === 'grep',
  ).inputSchema;
  const clientPy = join(workspace, 'src', 'auth', 'client.py');
  const outsideFile = join(outsideDir, 'notes.txt');
  return [
    {
      name: 'grep in the workspace runs with no confirmation; the model receives the answer of the contract (docs/tools.md) with src/auth/client.py line 9',
      shot: '1-grep-inside',
      async run(session) {
        const final = await turn(session, 'grep-inside');
        const first = session.model.records().find((r) => r.step === 'grep-inside-call');
        assert.ok(first.tools.includes('grep') && first.tools.includes('glob'), 'grep and glob are offered to the model');
        assert.deepEqual([...first.toolParameters.grep].sort(), Object.keys(grepSchema.properties).sort(), 'the model sees grep with our parameters');
        const answer = parseAnswer(onlyToolResult(final, 'grep'));
        for (const key of GREP_KEYS) assert.ok(key in answer, `the answer has "${key}": ${JSON.stringify(answer)}`);
        for (const key of NEVER_KEYS) assert.ok(!(key in answer), `the answer has no "${key}": ${JSON.stringify(answer)}`);
        for (const [key, count] of Object.entries(answer.skipped ?? {})) assert.ok(SKIP_KEYS.includes(key) && count > 0, `skipped.${key} is above zero`);
        // The line comes under the definition it is in, marked as the one defining what was searched.
        assert.deepEqual(answer.files, { [clientPy]: ['Client', '9 def:     def authenticate(self, username, password):'] });
        await noConfirmationShown(session);
      },
    },
    {
      name: "a path in grep's answer, joined to its root as the tool's description says, is one Copilot's read_file opens: the model reads the matching file",
      shot: '1b-read-found',
      async run(session) {
        const final = await turn(session, 'read-found');
        const asked = session.model.records().find((r) => r.step === 'read-found-read');
        const answer = onlyToolResult(asked, 'grep');
        const root = /^root: (.+)$/m.exec(answer)?.[1];
        const path = answer.split('\n').find((line) => line.endsWith('client.py'));
        assert.ok(root && path, `the answer gives a root and the file's path: ${JSON.stringify(answer)}`);
        assert.equal(join(root, path), asked.response.arguments.filePath, "the path the model reads is the root joined with the answer's path");
        const read = onlyToolResult(final, 'read_file');
        assert.match(read, /def authenticate\(self, username, password\)/, `read_file gave the file: ${JSON.stringify(read.slice(0, 300))}`);
        await noConfirmationShown(session);
      },
    },
    {
      name: 'glob in the workspace runs with no confirmation; the model receives the answer of the contract (docs/tools.md) listing src/auth/client.py',
      shot: '2-glob-inside',
      async run(session) {
        const final = await turn(session, 'glob-inside');
        const answer = parseAnswer(onlyToolResult(final, 'glob'));
        for (const key of GLOB_KEYS) assert.ok(key in answer, `the answer has "${key}": ${JSON.stringify(answer)}`);
        for (const key of NEVER_KEYS) assert.ok(!(key in answer), `the answer has no "${key}": ${JSON.stringify(answer)}`);
        assert.deepEqual(answer.files, [clientPy]);
        await noConfirmationShown(session);
      },
    },
    {
      name: 'grep outside the workspace shows our confirmation; Skip leaves the tool uninvoked and the model is told so',
      shot: '3a-outside-skip',
      async run(session) {
        let shown;
        const final = await turn(session, 'outside-skip', {
          duringTurn: async () => {
            shown = await confirmation(session, 'outside-skip');
            await session.screenshot('3a-outside-confirmation');
            await visible(shown.widget.locator('.chat-confirmation-widget-buttons a.monaco-button', { hasText: 'Skip' })).click();
          },
        });
        assertOurConfirmation(shown, { pattern: 'outside-skip-marker', path: outsideDir });
        const content = onlyToolResult(final, 'grep');
        assert.match(content, /skip/i, `the model is told the call was skipped: ${JSON.stringify(content)}`);
        assert.ok(!content.includes('outside-skip-marker 1'), 'nothing from the outside file reached the model');
        assert.deepEqual(invocationsLogged(session, 'outside-skip-marker'), [], 'grep was not invoked for the skipped call');
      },
    },
    {
      name: 'grep outside the workspace: Allow Once runs it and the result reaches the model',
      shot: '3b-outside-allow',
      async run(session) {
        let shown;
        const final = await turn(session, 'outside-allow', {
          duringTurn: async () => {
            shown = await confirmation(session, 'outside-allow');
            await visible(shown.widget.locator('.chat-confirmation-widget-buttons .monaco-dropdown-button')).click();
            await session.screenshot('3b-outside-allow-menu');
            await visible(session.page.locator('.monaco-menu .action-label', { hasText: 'Allow Once' })).click();
          },
        });
        assertOurConfirmation(shown, { pattern: 'outside-allow-marker', path: outsideDir });
        const answer = parseAnswer(onlyToolResult(final, 'grep'));
        assert.deepEqual(answer.files, { [outsideFile]: ['2: outside-allow-marker 2'] });
        // The allowed call's log line shows invocations are logged; the skipped call still has none.
        await waitFor(() => invocationsLogged(session, 'outside-allow-marker').length > 0, {
          timeoutMs: 10_000,
          what: 'the Grep Tools log to record the allowed call',
        });
        assert.deepEqual(invocationsLogged(session, 'outside-skip-marker'), [], 'the skipped call was never invoked');
      },
    },
    {
      name: "a large answer stays below Copilot's 8 KB threshold: the model receives the answer itself, cut at a whole result, with next_offset",
      shot: '7-large-answer',
      async run(session) {
        const final = await turn(session, 'large');
        const content = onlyToolResult(final, 'grep');
        assert.ok(Buffer.byteLength(content, 'utf8') < 8192, `under 8 KB: ${Buffer.byteLength(content, 'utf8')} bytes`);
        const answer = parseAnswer(content); // Copilot's "written to file" pointer would not parse
        assert.equal(answer.truncated, true);
        assert.equal(answer.total_matches, 400);
        // Results are the "42: text" lines (context lines read "41- text") of each path.
        const shown = Object.values(answer.files).reduce((n, lines) => n + lines.filter((row) => /^\d+: /.test(row)).length, 0);
        assert.equal(answer.returned_matches, shown);
        assert.ok(shown > 20 && shown < 400, `a whole number of results: ${shown}`);
        assert.equal(answer.next_offset, shown);
        assert.match(answer.notes.join(' '), new RegExp(`"offset":${shown}`), 'the note gives the exact call to continue');
      },
    },
    {
      name: 'a denied path: the model receives "permission denied by policy" naming the rule',
      shot: '4-denied',
      async run(session) {
        const final = await turn(session, 'denied');
        const content = onlyToolResult(final, 'grep');
        assert.match(content, /permission denied by policy/, `the error says why: ${JSON.stringify(content)}`);
        assert.ok(content.includes('**/secrets/**'), `the error names the rule **/secrets/**: ${JSON.stringify(content)}`);
        assert.ok(!content.includes('fixture-secret-token'), 'the secret did not reach the model');
      },
    },
    {
      name: 'an invalid regex: the model receives the regex problem and a hint',
      shot: '5-bad-regex',
      async run(session) {
        const final = await turn(session, 'bad-regex');
        const content = onlyToolResult(final, 'grep');
        assert.match(content, /invalid regular expression/i, `the error names the regex problem: ${JSON.stringify(content)}`);
        assert.match(content, /unterminated group/i, `the error carries the regex engine's message: ${JSON.stringify(content)}`);
        assert.match(content, /hint/i, `the error gives a hint: ${JSON.stringify(content)}`);
      },
    },
    {
      name: 'typing #gr in the chat input offers #grep, and #gl offers #glob',
      shot: '6a-completions',
      async run(session) {
        await session.command('workbench.action.chat.newChat');
        await emptyChatInput(session);
        await session.page.keyboard.type('#gr');
        const grep = await suggestion(session, '#grep');
        assert.match(await grep.innerText(), /Grep: search file contents/, 'the #grep suggestion shows our display name');
        await session.screenshot('6a-completion-grep');
        await session.page.keyboard.press('Escape');
        await emptyChatInput(session);
        await session.page.keyboard.type('#gl');
        const glob = await suggestion(session, '#glob');
        assert.match(await glob.innerText(), /Glob: find files by pattern/, 'the #glob suggestion shows our display name');
        await session.page.keyboard.press('Escape');
        await emptyChatInput(session);
      },
    },
    {
      name: 'a prompt with #grep sends our tool to the model in the request',
      shot: '6b-reference',
      async run(session) {
        await session.command('workbench.action.chat.newChat');
        await emptyChatInput(session);
        await session.page.keyboard.type('#gr');
        await (await suggestion(session, '#grep')).click();
        await session.page.keyboard.type(` ${tag('reference')} where is authenticate defined?`);
        await session.page.keyboard.press('Enter');
        const first = await session.model.waitForRecord((r) => r.step === 'reference-call', { what: 'the request of the #grep prompt' });
        assert.ok(first.tools.includes('grep'), "grep is in the request's tools");
        assert.match(
          first.prompt,
          /<toolReferences>[\s\S]*- grep\s/,
          `the user message lists grep as an attached tool: ${JSON.stringify(first.prompt.slice(0, 400))}`,
        );
        const final = await session.model.waitForRecord((r) => r.step === 'reference-done', { what: 'the request after the #grep call' });
        await answerShown(session, 'reference');
        assert.deepEqual(parseAnswer(onlyToolResult(final, 'grep')).files, [clientPy]);
      },
    },
  ];
}
