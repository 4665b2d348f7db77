// Copilot Chat agent mode as a real client of the tools: the scripted model (test/agent/model-server.mjs)
// on 127.0.0.1, code-server with the real Copilot Chat extension pointed at it as a Custom Endpoint
// model, chromium driving the workbench, and a bridge to the extension host (test/agent/bridge.ts) for
// what only the extension API can do. Used by the agent suite (`npm test`) and `npm run compare`.
// Every process started here is stopped by session.close(), and also when this process exits.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectLogs, firstLine, launchBrowser, startServer, workbenchUrl } from './host.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MODEL = { vendor: 'customendpoint', id: 'mock-model', name: 'Mock Model' };

const cleanups = new Set();
process.once('exit', () => {
  for (const cleanup of [...cleanups]) cleanup();
});

/** Polls `check` (which returns a value or undefined) until it returns a value; fails after timeoutMs, naming what it waited for. */
export async function waitFor(check, { timeoutMs = 30_000, what = 'a condition', intervalMs = 100, details } = {}) {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false && value !== null) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}${details ? `\n${details()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Starts the scripted model server as a child process. Returns { url, stop, records, waitForRecord }.
 * records() parses the JSON-lines log written so far.
 */
export async function startModelServer({ scriptFile, logFile, lifetimeSeconds = 600 }) {
  rmSync(logFile, { force: true });
  writeFileSync(logFile, '');
  const child = spawn(process.execPath, [join(repo, 'test', 'agent', 'model-server.mjs'), '--exit-on-stdin-close'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, GREP_TOOLS_MODEL_SCRIPT: scriptFile, GREP_TOOLS_MODEL_LOG: logFile, GREP_TOOLS_MODEL_LIFETIME: String(lifetimeSeconds) },
  });
  let output = '';
  const stop = () => {
    cleanups.delete(stop);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  cleanups.add(stop);
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the scripted model did not start:\n${output}`)), 10_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the scripted model exited with code ${code}:\n${output}`));
    });
  }).catch((error) => {
    stop();
    throw error;
  });
  // Only whole lines: the model server appends a record and its newline while this reads (a partly written last line is read next time).
  const records = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
  const waitForRecord = (predicate, { timeoutMs = 60_000, what = 'a model request' } = {}) =>
    waitFor(() => records().find(predicate), {
      timeoutMs,
      what,
      details: () =>
        `Requests so far:\n${records()
          .map(
            (r) =>
              `  #${r.seq} step=${r.step} prompt=${JSON.stringify((r.prompt ?? '').slice(-120))} results=${JSON.stringify((r.toolResults ?? []).map((t) => t.content.slice(0, 200)))}`,
          )
          .join('\n')}`,
    });
  return { url, stop, records, waitForRecord, output: () => output };
}

/** The runner's side of test/agent/bridge.ts: an HTTP server on 127.0.0.1 that hands operations to the extension host. */
export async function createBridge() {
  const queue = [];
  const waiting = new Map();
  let nextId = 1;
  let poll; // the extension host's pending GET /next
  let onConnected;
  const connected = new Promise((resolve) => {
    onConnected = resolve;
  });
  const flush = () => {
    if (poll && queue.length > 0) {
      const { res, timer } = poll;
      poll = undefined;
      clearTimeout(timer);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(queue.shift()));
    }
  };
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/next') {
      onConnected();
      const timer = setTimeout(() => {
        if (poll?.res === res) poll = undefined;
        res.writeHead(204).end();
      }, 20_000);
      poll = { res, timer };
      flush();
      return;
    }
    if (req.method === 'POST' && req.url === '/result') {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const result = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        waiting.get(result.id)?.(result);
        waiting.delete(result.id);
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    cleanups.delete(close);
    if (poll) clearTimeout(poll.timer);
    server.closeAllConnections();
    server.close();
  };
  cleanups.add(close);
  /** Sends an operation to the extension host; resolves to its value, rejects with its error. */
  const call = (operation, { timeoutMs = 30_000 } = {}) => {
    const id = nextId++;
    queue.push({ id, ...operation });
    flush();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the extension host did not answer ${JSON.stringify(operation)} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      waiting.set(id, (result) => {
        clearTimeout(timer);
        if (result.ok) resolve(result.value);
        else reject(new Error(`${operation.op} ${operation.command ?? ''}: ${result.error}`));
      });
    });
  };
  return { url: `http://127.0.0.1:${server.address().port}`, connected, call, close };
}

/** Enables the built-in Copilot Chat on a fresh browser profile (see VSCODE_TEST_HOST.md): seeds the workbench's global state. */
async function enableCopilot(page, server) {
  await page.goto(`${server.url}healthz`);
  await page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('vscode-web-state-db-global', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('ItemTable');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const transaction = db.transaction('ItemTable', 'readwrite');
          const store = transaction.objectStore('ItemTable');
          store.put('true', 'builtinChatExtensionEnablementMigration');
          store.put('[]', 'extensionsIdentifiers/disabled');
          transaction.oncomplete = () => {
            db.close();
            resolve();
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
  );
}

/**
 * One code-server + one browser with Copilot Chat in agent mode on `workspace`, the extension under
 * development loaded, and the scripted model answering from `script`. Returns the session: page,
 * model (records, waitForRecord), setScript(), command(), ask(), screenshot(), close().
 * The model's script and request log live in a directory of this run only (runs in the same tree do not
 * mix their requests); close() copies them into artifactsDir, where screenshots go too.
 */
export async function openAgentSession({ workspace, extensionPath = repo, script, artifactsDir, settings = {}, lifetimeSeconds = 600 }) {
  mkdirSync(artifactsDir, { recursive: true });
  const runDir = mkdtempSync(join(tmpdir(), 'grep-tools-agent-run-'));
  const scriptFile = join(runDir, 'model-script.json');
  const logFile = join(runDir, 'model-requests.jsonl');
  const setScript = (value) => writeFileSync(scriptFile, JSON.stringify(value, null, 2));
  setScript(script);
  const saveRun = () => {
    cleanups.delete(saveRun);
    for (const file of [scriptFile, logFile]) if (existsSync(file)) copyFileSync(file, join(artifactsDir, file.slice(runDir.length + 1)));
    rmSync(runDir, { recursive: true, force: true });
  };
  cleanups.add(saveRun);
  const opened = [saveRun];
  const stopAll = () => {
    for (const stop of opened.reverse()) stop();
  };
  try {
    const model = await startModelServer({ scriptFile, logFile, lifetimeSeconds });
    opened.push(model.stop);
    const bridge = await createBridge();
    opened.push(bridge.close);
    const server = await startServer({
      settings: { 'chat.disableAIFeatures': false, 'workbench.startupEditor': 'none', ...settings },
      env: { GREP_TOOLS_AGENT_BRIDGE: bridge.url },
      chatLanguageModels: [
        {
          name: 'Mock',
          vendor: MODEL.vendor,
          models: [
            {
              id: MODEL.id,
              name: MODEL.name,
              url: `${model.url}/chat/completions`,
              toolCalling: true,
              vision: false,
              maxInputTokens: 128000,
              maxOutputTokens: 4096,
              streaming: true,
            },
          ],
        },
      ],
    });
    opened.push(server.stop);
    const { browser, close: closeBrowser } = await launchBrowser();
    opened.push(closeBrowser);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    let exitCode;
    await page.exposeFunction('codeAutomationExit', (code) => {
      exitCode = code;
    });
    await enableCopilot(page, server);
    await page.goto(workbenchUrl(server, { workspace, extensionPath, testsPath: join(repo, 'out', 'test', 'agent', 'bridge.js') }));
    await withTimeout(() => bridge.connected, 90_000, `the extension host's connection to the bridge (page errors: ${pageErrors.join('\n') || 'none'})`).catch(
      (error) => {
        throw new Error(`${error.message}\n${collectLogs(server)}`);
      },
    );
    const command = (name, ...args) => bridge.call({ op: 'command', command: name, args });
    const session = {
      page,
      model,
      server,
      bridge,
      pageErrors,
      command,
      /** Replaces the model's script (the server reads it at every request). */
      setScript,
      /** Starts a new chat and sends `query` in agent mode to the scripted model; does not wait for the turn. */
      async ask(query, { newChat = true } = {}) {
        if (newChat) await command('workbench.action.chat.newChat');
        await bridge.call({
          op: 'command',
          command: 'workbench.action.chat.open',
          args: [{ query, mode: 'agent', modelSelector: { vendor: MODEL.vendor, id: MODEL.id } }],
          wait: false,
        });
      },
      /**
       * Reloads the window, as a person does (Developer: Reload Window): resolves once the new extension host
       * answers (an operation sent meanwhile may reach the old one's pending poll, so this asks again until a new one answers).
       */
      async reload() {
        const old = await bridge.call({ op: 'host' });
        await page.reload();
        await waitFor(async () => (await bridge.call({ op: 'host' }, { timeoutMs: 5_000 }).catch(() => old)) !== old, {
          timeoutMs: 120_000,
          what: "the reloaded window's extension host to answer",
        });
      },
      async screenshot(name) {
        const file = join(artifactsDir, `${name}.png`);
        await page.screenshot({ path: file });
        return file;
      },
      logs: () => collectLogs(server),
      /** Lets the extension host's test module settle (reporting ok), then stops everything. */
      async close(ok = true) {
        try {
          await bridge.call({ op: 'exit', ok }, { timeoutMs: 5_000 });
          await waitFor(() => exitCode !== undefined, { timeoutMs: 5_000, what: 'the workbench to report the exit code' });
        } catch {
          // stopping anyway
        } finally {
          stopAll();
        }
        return exitCode;
      },
    };
    return session;
  } catch (error) {
    stopAll();
    throw error;
  }
}

/** Runs `body` but fails after timeoutMs. */
async function withTimeout(body, timeoutMs, what) {
  let timer;
  try {
    return await Promise.race([
      body(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs / 1000} s`)), timeoutMs))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The agent suite (test/agent/suite.mjs) in one code-server + one browser on test/fixtures/single.
 * Prints each test as it finishes and resolves to { passed, failed, failures, elapsedMs }: failures names
 * each failed test with its error's first line. Screenshots and the
 * scripted model's request log go to artifactsDir.
 */
export async function runAgentSuite({
  artifactsDir = join(repo, '.test-artifacts', 'agent'),
  write = (text) => process.stdout.write(text),
  testTimeoutMs = 90_000,
} = {}) {
  const started = Date.now();
  mkdirSync(artifactsDir, { recursive: true });
  for (const name of readdirSync(artifactsDir)) if (name.endsWith('-FAILED.png')) rmSync(join(artifactsDir, name), { force: true });
  const workspace = join(repo, 'test', 'fixtures', 'single');
  const outsideDir = realpathSync(mkdtempSync(join(tmpdir(), 'grep-tools-agent-outside-')));
  writeFileSync(join(outsideDir, 'notes.txt'), 'outside-skip-marker 1\noutside-allow-marker 2\n');
  // A large answer (~30 KB uncut) inside the workspace, removed at the end: Copilot moves tool results over 8 KB out of the model's sight.
  const largeDir = join(workspace, 'agent-large-tmp');
  mkdirSync(largeDir, { recursive: true });
  writeFileSync(join(largeDir, 'rows.txt'), Array.from({ length: 400 }, (_, i) => `large-row-marker ${i + 1}: ${'lorem ipsum '.repeat(5)}`).join('\n') + '\n');
  const { agentTests, modelScript } = await import('../../test/agent/suite.mjs');
  let passed = 0;
  let session;
  // Each failure's test and first line of error, repeated in the summary: CI keeps only the output's end.
  const failures = [];
  try {
    session = await openAgentSession({ workspace, script: modelScript({ workspace, outsideDir }), artifactsDir, lifetimeSeconds: 600 });
    write(
      `Copilot Chat agent mode (code-server, VS Code 1.139.1) with the scripted model, workspace ${workspace}; started in ${Math.round((Date.now() - started) / 1000)} s\n\n`,
    );
    for (const test of agentTests({ repo, workspace, outsideDir })) {
      const testStarted = Date.now();
      try {
        await withTimeout(() => test.run(session), testTimeoutMs, test.name);
        await session.screenshot(test.shot);
        passed++;
        write(`  ✔ ${test.name} (${Date.now() - testStarted} ms)\n`);
      } catch (error) {
        failures.push(`${test.name}: ${firstLine(error)}`);
        write(
          `  ✖ ${test.name} (${Date.now() - testStarted} ms)\n      ${String(error instanceof Error ? (error.stack ?? error.message) : error)
            .split('\n')
            .join('\n      ')}\n`,
        );
        await session.screenshot(`${test.shot}-FAILED`).catch(() => {});
      }
    }
    if (failures.length > 0) {
      write(
        `\nScreenshots and the model's request log: ${artifactsDir}\n${session.pageErrors.length ? `Page errors:\n${session.pageErrors.join('\n')}\n` : ''}`,
      );
      write(`Extension host logs:\n${session.logs()}\n`);
    }
  } catch (error) {
    failures.push(`the agent session could not start: ${firstLine(error)}`);
    write(`  ✖ the agent session could not start: ${error instanceof Error ? error.message : error}\n`);
  } finally {
    const expected = failures.length === 0 ? 0 : 1;
    const exitCode = await session?.close(expected === 0);
    if (session && exitCode !== expected) {
      failures.push(`the extension host's test module reported exit code ${exitCode}`);
      write(`  ✖ the extension host's test module reported exit code ${exitCode}\n`);
    }
    rmSync(outsideDir, { recursive: true, force: true });
    rmSync(largeDir, { recursive: true, force: true });
  }
  const elapsedMs = Date.now() - started;
  write(`\n  ${passed} passed, ${failures.length} failed (${(elapsedMs / 1000).toFixed(1)} s)\n`);
  return { passed, failed: failures.length, failures, elapsedMs };
}
