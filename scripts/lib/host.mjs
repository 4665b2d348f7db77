// Starts a real VS Code (code-server, on 127.0.0.1 only) and drives its workbench in Debian's chromium.
// Every process started here is stopped by stop(), also on Ctrl-C and on errors.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ensureChromium, ensureCodeServer } from './install.mjs';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const cleanups = new Set();
function onSignal(signal) {
  for (const cleanup of [...cleanups]) cleanup();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
process.once('SIGHUP', onSignal);
// A signal sent to a parent that does not pass it on (the `sh -c` of an npm script, an npm killed with
// SIGKILL) leaves this process behind with a new parent: stop everything then too, so no VS Code outlives
// the command that started it.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) onSignal('SIGTERM');
}, 500).unref();
process.once('exit', () => {
  for (const cleanup of [...cleanups]) cleanup();
});

/**
 * Starts code-server with a fresh user-data dir. Returns { url, port, userDataDir, stop, output }.
 * `settings` are written as the user's settings.json; `chatLanguageModels`, when given, as the user's
 * chatLanguageModels.json (the chat models VS Code offers, e.g. a Custom Endpoint model on 127.0.0.1).
 * `installExtensions`: .vsix files installed into the fresh extensions dir first, as a user installs them
 * (`--install-extension`). `workspaceTrust`: keep VS Code's workspace trust on (a folder opened for the
 * first time is then in restricted mode until someone trusts it).
 */
export async function startServer({
  settings = {},
  env = {},
  timeoutMs = 60_000,
  chatLanguageModels,
  installExtensions = [],
  workspaceTrust = false,
  descriptorLimit,
} = {}) {
  const { node, entry } = await ensureCodeServer();
  const dir = mkdtempSync(join(tmpdir(), 'grep-tools-vscode-'));
  const userDataDir = join(dir, 'user-data');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'update.mode': 'none', ...settings }, null, 2),
  );
  if (chatLanguageModels) writeFileSync(join(userDataDir, 'User', 'chatLanguageModels.json'), JSON.stringify(chatLanguageModels, null, 2));
  for (const vsix of installExtensions) {
    const installed = spawnSync(node, [entry, '--install-extension', vsix, '--extensions-dir', join(dir, 'extensions'), '--user-data-dir', userDataDir], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (installed.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`code-server --install-extension ${vsix} failed (exit ${installed.status}):\n${installed.stdout}${installed.stderr}`);
    }
  }
  const args = [
    entry,
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--config',
    join(dir, 'config.yaml'),
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    join(dir, 'extensions'),
    '--vscode-option',
    'enable-smoke-test-driver',
  ];
  // descriptorLimit: the server, its extension hosts and their workers may hold at most this many open files (prlimit, util-linux).
  const [command, commandArgs] = descriptorLimit ? ['prlimit', [`--nofile=${descriptorLimit}:${descriptorLimit}`, '--', node, ...args]] : [node, args];
  const child = spawn(command, commandArgs, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cleanups.delete(stop);
    try {
      process.kill(-child.pid, 'SIGKILL'); // the whole group: server, extension hosts, watchers
    } catch {}
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  cleanups.add(stop);
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with code ${code} before listening:\n${output}`));
    });
  }).catch((error) => {
    stop();
    throw error;
  });
  return { port, url: `http://127.0.0.1:${port}/`, userDataDir, stop, output: () => output };
}

/** The workbench URL for a folder or a .code-workspace file, with optional development payload. */
export function workbenchUrl(server, { workspace, extensionPath, testsPath }) {
  const params = new URLSearchParams();
  params.set(workspace.endsWith('.code-workspace') ? 'workspace' : 'folder', workspace);
  const payload = [];
  if (extensionPath) payload.push(['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${extensionPath}`]);
  if (testsPath) payload.push(['extensionTestsPath', `vscode-remote://127.0.0.1:${server.port}${testsPath}`]);
  payload.push(['skipWelcome', 'true']);
  params.set('payload', JSON.stringify(payload));
  return `${server.url}?${params.toString()}`;
}

export async function launchBrowser() {
  const browser = await chromium.launch({ executablePath: ensureChromium(), headless: true, args: CHROMIUM_ARGS });
  const close = () => {
    cleanups.delete(close);
    browser.close().catch(() => {});
  };
  cleanups.add(close);
  return { browser, close };
}

/** Every extension host log (with the extension's own output channel) and the server's own output, for a failure report. */
export function collectLogs(server) {
  const files = [];
  const walk = (dir) => {
    let entries = [];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/exthost|remoteagent|server|Grep Tools/i.test(name) && name.endsWith('.log')) files.push(path);
    }
  };
  walk(join(server.userDataDir, 'logs'));
  // The extension's own log whole (a few hundred lines), the others' last 80 lines.
  const parts = files.map(
    (file) =>
      `----- ${file}\n${readFileSync(file, 'utf8')
        .split('\n')
        .slice(/Grep Tools/.test(file) ? -600 : -80)
        .join('\n')}`,
  );
  return `----- code-server output\n${server.output().split('\n').slice(-40).join('\n')}\n${parts.join('\n')}`;
}

/** An error's first line: what a suite's summary repeats of each failure (CI keeps only the output's end). */
export function firstLine(error) {
  return String(error instanceof Error ? error.message : error).split('\n')[0];
}
