// Runs an extension test module inside a real VS Code extension host: code-server + chromium, or
// @vscode/test-electron (VS Code desktop) when GREP_TOOLS_TEST_HOST=electron.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { failedTests } from './failures.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectLogs, firstLine, launchBrowser, startServer, workbenchUrl } from './host.mjs';

/** Prints what the suite appends to its report file while it runs. */
function follow(reportFile) {
  let printed = 0;
  const flush = () => {
    if (!existsSync(reportFile)) return;
    const text = readFileSync(reportFile, 'utf8');
    if (text.length > printed) {
      process.stdout.write(text.slice(printed));
      printed = text.length;
    }
  };
  const timer = setInterval(flush, 250);
  return () => {
    clearInterval(timer);
    flush();
  };
}

async function runInCodeServer({ workspace, extensionPath, testsPath, reopenTestsPath, betweenWindows, timeoutMs, descriptorLimit }) {
  // Tells the first window's suite that the folder is reopened next (its last tests prepare that window's).
  const server = await startServer({ env: { GREP_TOOLS_REOPEN: reopenTestsPath ? '1' : '' }, descriptorLimit });
  const { browser, close } = await launchBrowser();
  try {
    const first = await runWindow(server, browser, { workspace, extensionPath, testsPath, timeoutMs });
    if (first.code !== 0 || !reopenTestsPath) return first;
    // What changes while no window is open, then the same workspace reopened in a new window of the same
    // session (same user data, same extension storage).
    betweenWindows?.();
    return await runWindow(server, browser, { workspace, extensionPath, testsPath: reopenTestsPath, timeoutMs });
  } finally {
    close();
    server.stop();
  }
}

/** Opens the workspace in a new window running the suite at testsPath; resolves when it reports, and closes the window. */
async function runWindow(server, browser, { workspace, extensionPath, testsPath, timeoutMs }) {
  const page = await browser.newPage();
  try {
    const pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    const exitCode = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (code) => resolve(code)));
    await page.goto(workbenchUrl(server, { workspace, extensionPath, testsPath }));
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const code = await Promise.race([exitCode, timeout]);
    clearTimeout(timer);
    if (code === 'timeout') {
      return {
        code: 1,
        reason: `the suite did not report within ${timeoutMs / 1000} s`,
        failure: `The suite did not report within ${timeoutMs / 1000} s (the extension host may not have started).\n${pageErrors.join('\n')}\n${collectLogs(server)}`,
      };
    }
    return { code, failure: code === 0 ? undefined : collectLogs(server) };
  } finally {
    await page.close().catch(() => {});
  }
}

async function runInElectron({ workspace, extensionPath, testsPath }) {
  const { runTests } = await import('@vscode/test-electron');
  const userDataDir = mkdtempSync(join(tmpdir(), 'grep-tools-electron-'));
  try {
    await runTests({
      version: process.env.GREP_TOOLS_VSCODE_VERSION || 'stable',
      extensionDevelopmentPath: extensionPath,
      extensionTestsPath: testsPath,
      // A fresh profile each run, as code-server's: no index stored by an earlier run.
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${userDataDir}`],
    });
    return { code: 0 };
  } catch (error) {
    return { code: 1, reason: firstLine(error), failure: String(error) };
  } finally {
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

/**
 * Runs the suite; resolves to { code, failure, failures }. reportFile is where the suite writes mocha's report
 * (printed live); failures names each failed test with its error's first line (the suite writes them to
 * <suite>.failed beside its report: test/integration/index.ts), or why it failed naming none (`reason`:
 * it did not report in time, or VS Code's test run threw). reopenTestsPath (code-server only): a suite run next in a new window of the same
 * session on the same workspace, as after a window reload; betweenWindows runs after the first window
 * closed and before that one opens.
 */
export async function runExtensionTests({
  workspace,
  extensionPath,
  testsPath,
  reopenTestsPath,
  betweenWindows,
  reportFile,
  timeoutMs = 300_000,
  descriptorLimit,
}) {
  const failedFile = reportFile.replace(/\.log$/, '.failed');
  rmSync(reportFile, { force: true });
  rmSync(failedFile, { force: true });
  const stopFollowing = follow(reportFile);
  try {
    const host = process.env.GREP_TOOLS_TEST_HOST || 'code-server';
    if (host !== 'code-server' && host !== 'electron') throw new Error(`GREP_TOOLS_TEST_HOST must be "code-server" or "electron", not "${host}".`);
    const result = await (host === 'electron' ? runInElectron : runInCodeServer)({
      workspace,
      extensionPath,
      testsPath,
      reopenTestsPath,
      betweenWindows,
      timeoutMs,
      descriptorLimit,
    });
    const why = result.reason ?? `the suite ended with exit code ${result.code}, naming no failed test`;
    return { ...result, failures: failedTests(failedFile, result.code !== 0, why) };
  } finally {
    stopFollowing();
  }
}
