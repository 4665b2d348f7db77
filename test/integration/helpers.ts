/** Helpers for integration tests: call a tool the way an extension would, and read the JSON answer. */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { readAnswer, type GlobAnswer, type GrepAnswer } from '../support/answers';
import type { GrepToolsApi } from '../../src/extension';

export type { GlobAnswer, GrepAnswer };

/** The extension's API (its tools, listings and index), activating it if need be. */
export async function extensionApi(): Promise<GrepToolsApi> {
  const extension = vscode.extensions.getExtension<GrepToolsApi>('grep-tools.vscode-grep-tools');
  assert.ok(extension, 'the extension is installed');
  return extension.activate();
}

/** Invokes a tool through `vscode.lm.invokeTool` and returns the text the model would receive. */
export async function invokeText(tool: 'grep' | 'glob', input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
  assert.strictEqual(result.content.length, 1, 'one text part');
  const part = result.content[0];
  assert.ok(part instanceof vscode.LanguageModelTextPart, 'a LanguageModelTextPart');
  return part.value;
}

/** Invokes a tool and parses its JSON answer. */
export async function invokeJson<T extends GrepAnswer | GlobAnswer>(tool: 'grep' | 'glob', input: object): Promise<T> {
  return readAnswer<T>(await invokeText(tool, input));
}

/** Invokes a tool that must fail and returns the error message the model would see. */
export async function invokeError(tool: 'grep' | 'glob', input: object): Promise<string> {
  try {
    await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  assert.fail(`${tool} ${JSON.stringify(input)} should have failed`);
}

export { waitUntil } from '../support/waitUntil';

export function folderPath(index = 0): string {
  const folder = vscode.workspace.workspaceFolders?.[index];
  assert.ok(folder, `workspace folder ${index} is open`);
  return folder.uri.fsPath;
}

/** Measures how long the extension host takes to answer a command, every 20 ms while `run` goes on. */
export async function whileProbing<T>(run: () => Promise<T>): Promise<{ result: T; probes: number; worstMs: number }> {
  const command = `grepToolsTest.ping.${Date.now()}`;
  const registration = vscode.commands.registerCommand(command, () => Date.now());
  let stop = false;
  let probes = 0;
  let worstMs = 0;
  const probing = (async () => {
    while (!stop) {
      const sent = Date.now();
      await vscode.commands.executeCommand(command);
      worstMs = Math.max(worstMs, Date.now() - sent);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const result = await run();
    return { result, probes, worstMs };
  } finally {
    stop = true;
    await probing;
    registration.dispose();
  }
}

/**
 * Runs `run` with the folders listed afresh and in parts from their first file on (a test workspace is
 * far below ResidentListings.partsFrom), and says how many listings were made in parts meanwhile.
 */
export async function listedInParts<T>(listings: Pick<GrepToolsApi, 'listings'>['listings'], run: () => Promise<T>): Promise<{ result: T; inParts: number }> {
  const partsFrom = listings.partsFrom;
  listings.partsFrom = 1;
  try {
    listings.invalidate();
    const before = listings.counts.inParts;
    const result = await run();
    return { result, inParts: listings.counts.inParts - before };
  } finally {
    listings.partsFrom = partsFrom;
    listings.invalidate();
  }
}

/**
 * Calls until a call replays the resident listing (files changed in the last two seconds are not
 * relied on, and the watcher reports changes a little later) and returns that call's answer.
 */
export async function untilReplayed<T>(listings: Pick<GrepToolsApi, 'listings'>['listings'], call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const before = listings.counts.replayed;
    const answer = await call();
    if (listings.counts.replayed > before) return answer;
    assert.ok(Date.now() < deadline, 'the listing became resident within 20 s of the last change');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
