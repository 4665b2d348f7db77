/**
 * Entry of the integration suites, loaded by the VS Code extension host (`extensionTestsPath`).
 * Runs the suite for the open workspace (single folder or multi-root) plus the common one, and writes
 * mocha's report to .test-artifacts/integration/<suite>.log, which the runner prints.
 */
import * as fs from 'fs';
import Mocha from 'mocha';
import * as path from 'path';
import { format } from 'util';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../src/extension';
import { waitUntil } from '../support/waitUntil';

/** The folder name of the wide workspace (scripts/test.mjs). */
const WIDE_WORKSPACE = 'wide-workspace';

export function suiteName(): 'single' | 'multi' | 'vfs' | 'wide' {
  const first = vscode.workspace.workspaceFolders?.[0];
  if (first?.uri.scheme === 'memfs') return 'vfs';
  // The wide workspace the runner generates (scripts/test.mjs) runs its own suite alone.
  if (first && path.basename(first.uri.fsPath) === WIDE_WORKSPACE) return 'wide';
  return vscode.workspace.workspaceFile ? 'multi' : 'single';
}

/**
 * Waits until the extension has activated and the listing it makes as the window opens has ended
 * (WorkspaceIndexer.listOnOpen): tests count the listings their searches make.
 */
async function openListingEnded(): Promise<void> {
  const extension = vscode.extensions.getExtension<GrepToolsApi>('grep-tools.vscode-grep-tools');
  await waitUntil(
    () => extension?.isActive === true && extension.exports.index.openListing.phase !== 'listing',
    () =>
      `the extension activated (${String(extension?.isActive)}) and its listing made as the window opened ended (${extension?.isActive ? extension.exports.index.openListing.phase : 'not active'})`,
    120_000,
  );
}

export async function run(): Promise<void> {
  await openListingEnded();
  const suite = suiteName();
  // Where the runner reopens the single folder next (GREP_TOOLS_REOPEN, code-server), its last tests prepare that window's.
  if (suite === 'wide') return runSuites(['wide']);
  await runSuites(['common', suite, ...(suite === 'single' && process.env.GREP_TOOLS_REOPEN === '1' ? ['beforeReopen'] : [])]);
}

/** Runs the tests of these folders (below this one), reporting into the open workspace's report file. */
export async function runSuites(dirs: readonly string[]): Promise<void> {
  const suite = suiteName();
  const repo = path.resolve(__dirname, '..', '..', '..');
  const reportDir = path.join(repo, '.test-artifacts', 'integration');
  fs.mkdirSync(reportDir, { recursive: true });
  const reportFile = path.join(reportDir, `${suite}.log`);
  const write = (...args: unknown[]) => fs.appendFileSync(reportFile, format(...args) + '\n');
  Mocha.reporters.Base.consoleLog = write;
  write(`Integration suite "${suite}" in VS Code ${vscode.version} (${vscode.env.appName}), extension host Node ${process.version}`);

  // GREP_TOOLS_TEST_GREP (a mocha --grep), when set in the environment of the test run, picks tests by title.
  const grep = process.env.GREP_TOOLS_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 30_000, color: false, ...(grep ? { grep } : {}) });
  for (const dir of dirs) {
    const full = path.join(__dirname, dir);
    for (const file of fs
      .readdirSync(full)
      .filter((name) => name.endsWith('.test.js'))
      .sort())
      mocha.addFile(path.join(full, file));
  }
  // Each failed test (or hook), a line each, beside the report: the runner names them in its summary.
  const failedFile = path.join(reportDir, `${suite}.failed`);
  await new Promise<void>((resolve, reject) => {
    try {
      mocha
        .run((failures) => (failures > 0 ? reject(new Error(`${failures} integration tests failed`)) : resolve()))
        .on('fail', (test, error: unknown) => fs.appendFileSync(failedFile, `${test.fullTitle()}: ${firstLine(error)}\n`));
    } catch (error) {
      write(String(error));
      reject(error);
    }
  });
}

/** An error's first line, as the summary names it. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0];
}
