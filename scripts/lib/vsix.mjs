// The extension installed the way users install it: `npm run package` builds the .vsix with
// @vscode/vsce, `vsce ls` must list only what ships, and a fresh code-server installs it with
// --install-extension (no development path). A small test extension (test/fixtures/vsix-client,
// loaded as the development extension) then calls both tools through vscode.lm.invokeTool, in a
// workspace nobody trusted (restricted mode).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { collectLogs, launchBrowser, startServer, workbenchUrl } from './host.mjs';
import { installerEnv } from './installEnv.mjs';

/** What the VSIX may hold besides vsce's own manifest files. */
const SHIPPED = [
  /^dist\/(extension|worker|indexWorker|indexProcess|cli|cliEngine)\.js$/,
  /^dist\/wasm\/tree-sitter(-[a-z-]+)?\.wasm$/,
  /^media\/[^/]+$/,
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
];

function npm(repo, args) {
  const result = spawnSync('npm', args, { cwd: repo, encoding: 'utf8', timeout: 300_000, env: installerEnv(process.env) });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** Resolves to { ok, vsix, size, files }; prints each step. */
export async function runVsixTest({ repo, timeoutMs = 180_000 }) {
  const vsix = join(repo, 'grep-tools.vsix');
  rmSync(vsix, { force: true });
  npm(repo, ['run', 'package']);
  if (!existsSync(vsix)) throw new Error(`npm run package did not write ${vsix}`);
  const size = statSync(vsix).size;
  const files = npm(repo, ['exec', '--', 'vsce', 'ls', '--no-dependencies'])
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('npm '));
  process.stdout.write(`${vsix}: ${size} bytes\nvsce ls:\n${files.map((file) => `  ${file}`).join('\n')}\n`);
  const unexpected = files.filter((file) => !SHIPPED.some((allowed) => allowed.test(file)));
  const missing = [
    'dist/extension.js',
    'dist/worker.js',
    'dist/indexWorker.js',
    'dist/indexProcess.js',
    'dist/wasm/tree-sitter.wasm',
    'dist/wasm/tree-sitter-typescript.wasm',
    'package.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
  ].filter((file) => !files.includes(file));
  if (unexpected.length || missing.length) {
    process.stdout.write(`The VSIX holds files it should not (${unexpected.join(', ') || 'none'}) or lacks ${missing.join(', ') || 'nothing'}.\n`);
    return { ok: false, vsix, size, files };
  }

  const report = join(repo, '.test-artifacts', 'vsix', 'suite.log');
  rmSync(report, { force: true });
  // Workspace trust stays on and nobody trusts the folder: the tools must work in restricted mode.
  const server = await startServer({ installExtensions: [vsix], workspaceTrust: true });
  const { browser, close } = await launchBrowser();
  try {
    const page = await browser.newPage();
    const exitCode = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (code) => resolve(code)));
    const client = join(repo, 'test', 'fixtures', 'vsix-client');
    await page.goto(workbenchUrl(server, { workspace: join(repo, 'test', 'fixtures', 'single'), extensionPath: client, testsPath: join(client, 'suite.js') }));
    let timer;
    const code = await Promise.race([exitCode, new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))]);
    clearTimeout(timer);
    if (existsSync(report)) process.stdout.write(readFileSync(report, 'utf8'));
    if (code !== 0)
      process.stdout.write(
        `The installed-VSIX suite ${code === 'timeout' ? `did not report within ${timeoutMs / 1000} s` : `exited with ${code}`}.\n${collectLogs(server)}\n`,
      );
    return { ok: code === 0, vsix, size, files };
  } finally {
    close();
    server.stop();
  }
}
