// Runs the UI tests (test/ui/*.test.mjs): a real VS Code (code-server) with the extension loaded on a
// copy of the fixture workspace test/fixtures/single, driven through its workbench in Debian's chromium
// by Playwright, as a person would use it. The tests run here, in Node, with mocha; screenshots go to
// .test-artifacts/ui/.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Mocha from 'mocha';
import { collectLogs, firstLine, launchBrowser, startServer, workbenchUrl } from './host.mjs';

/**
 * Resolves to { passed, failed, failures, failure }: failures names each failed test with its error's first
 * line; failure holds the extension host logs when a test failed.
 */
export async function runUiTests({ repo, timeoutMs = 60_000 }) {
  const artifacts = join(repo, '.test-artifacts', 'ui');
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  // A copy, so a keystroke that reaches an editor can never change the fixture the integration suites assert on.
  const workspace = mkdtempSync(join(tmpdir(), 'grep-tools-ui-workspace-'));
  cpSync(join(repo, 'test', 'fixtures', 'single'), workspace, { recursive: true });

  const server = await startServer({
    settings: {
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
      'git.openRepositoryInParentFolders': 'never',
    },
  });
  const { browser, close } = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(workbenchUrl(server, { workspace, extensionPath: repo }));
    await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: 60_000 });

    const harnessUrl = pathToFileURL(join(repo, 'test', 'ui', 'harness.mjs')).href;
    const { ui } = await import(harnessUrl);
    Object.assign(ui, { page, server, workspace, artifacts, repo });

    const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: timeoutMs, color: false });
    const dir = join(repo, 'test', 'ui');
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith('.test.mjs'))
      .sort())
      mocha.addFile(join(dir, file));
    if (process.env.GREP_TOOLS_UI_GREP) mocha.grep(process.env.GREP_TOOLS_UI_GREP);
    await mocha.loadFilesAsync();
    const failures = [];
    const stats = await new Promise((resolve) => {
      const runner = mocha.run(() => resolve(runner.stats));
      runner.on('fail', (test, error) => failures.push(`${test.fullTitle()}: ${firstLine(error)}`));
    });
    const passed = stats.passes;
    const failed = stats.failures;
    process.stdout.write(`\nUI tests: ${passed} passed, ${failed} failed (screenshots in ${artifacts})\n`);
    return { passed, failed, failures, failure: failed > 0 ? collectLogs(server) : undefined };
  } finally {
    close();
    server.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}
