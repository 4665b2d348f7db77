// `npm start` as a person runs it: it prints the workbench URL, the server answers /healthz, and a SIGTERM
// sent to npm (or Ctrl-C) leaves no process behind that it started. Needs the VS Code host installed in the
// tool cache (npm test installs it before the unit tests run).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installerEnv } from '../../../scripts/lib/installEnv.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The pids of the processes whose environment carries the marker (every process `npm start` started inherits it). */
function processesWith(marker) {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(marker)) found.push(Number(name));
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return found;
}

async function until(condition, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm start (scripts/start.mjs)', function () {
  this.timeout(180_000);
  let workspace;
  const marker = `GREP_TOOLS_START_TEST=${randomUUID()}`;

  before(() => {
    workspace = mkdtempSync(join(tmpdir(), 'grep-tools-start-'));
    writeFileSync(join(workspace, 'hello.txt'), 'hello\n');
  });
  after(() => {
    for (const pid of processesWith(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    rmSync(workspace, { recursive: true, force: true });
  });

  // SIGTERM to npm alone (a process manager, `kill`), or SIGINT to the whole foreground group (Ctrl-C in a terminal).
  for (const [how, stop] of [
    ['SIGTERM sent to npm', (child) => child.kill('SIGTERM')],
    ['Ctrl-C (SIGINT to the process group)', (child) => process.kill(-child.pid, 'SIGINT')],
  ]) {
    it(`prints the URL, answers /healthz, and stops every process it started on ${how}`, async () => {
      let output = '';
      const [name, value] = marker.split('=');
      const npm = spawn('npm', ['start', '--', workspace], {
        cwd: repo,
        env: { ...installerEnv(process.env), [name]: value },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group, as a terminal's foreground job
      });
      npm.stdout.on('data', (chunk) => (output += chunk));
      npm.stderr.on('data', (chunk) => (output += chunk));
      const url = await until(
        () => /^\s*(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m.exec(output)?.[1],
        150_000,
        () => `the URL in the output of npm start:\n${output}`,
      );
      assert.ok(url.includes(encodeURIComponent(workspace)), `the URL opens the folder given: ${url}`);
      const health = await fetch(new URL('/healthz', url));
      assert.equal(health.status, 200);
      assert.ok(processesWith(marker).length >= 3, 'npm, the start script and code-server run');

      stop(npm);
      await until(
        () => processesWith(marker).length === 0,
        15_000,
        () => `every process of npm start to end (left: ${processesWith(marker).join(', ')})`,
      );
      await assert.rejects(fetch(new URL('/healthz', url)), 'the server no longer answers');
    });
  }
});
