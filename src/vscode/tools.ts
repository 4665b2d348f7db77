/** The two language-model tools: thin adapters from `vscode.lm` to the engine, with a log line per call. */
import * as vscode from 'vscode';
import { runGlob } from '../engine/glob';
import { CancelledError, runGrep, type SearchEnvironment } from '../engine/grep';
import { printGlob, printGrep } from '../engine/printer';
import { readFileCapped } from '../engine/reader';
import type { GlobInput, GrepInput } from '../engine/types';
import { FindFilesSource } from './findFilesSource';
import { readEngineConfig } from './settings';

function environment(token: vscode.CancellationToken): SearchEnvironment {
  return {
    folders: (vscode.workspace.workspaceFolders ?? [])
      .filter((folder) => folder.uri.scheme === 'file')
      .map((folder) => ({ name: folder.name, path: folder.uri.fsPath })),
    source: new FindFilesSource(token),
    config: readEngineConfig(),
    readFile: readFileCapped,
    allowOutside: false,
    isCancelled: () => token.isCancellationRequested,
  };
}

interface Summary {
  base_path: unknown;
  elapsed_ms: number;
  files_searched?: number;
  files_matched?: number;
  total?: number;
  skipped: unknown;
}

/** Runs one invocation: engine, printer, log; errors reach the model as an Error with the engine's message. */
async function invokeEngine<T>(
  tool: string,
  input: T,
  token: vscode.CancellationToken,
  log: vscode.LogOutputChannel,
  run: (input: unknown, env: SearchEnvironment) => Promise<string>,
): Promise<vscode.LanguageModelToolResult> {
  log.info(`${tool} ${JSON.stringify(input)}`);
  try {
    const text = await run(input, environment(token));
    const summary = JSON.parse(text) as Summary;
    log.info(
      `${tool} done: base ${JSON.stringify(summary.base_path)}, ${summary.files_searched ?? summary.total} files, ` +
        `${summary.files_matched ?? summary.total} matched, skipped ${JSON.stringify(summary.skipped)}, ${summary.elapsed_ms} ms`,
    );
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  } catch (error) {
    if (error instanceof CancelledError) {
      log.info(`${tool} cancelled`);
      throw new vscode.CancellationError();
    }
    log.warn(`${tool} failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error instanceof Error ? new Error(error.message) : new Error(String(error));
  }
}

function where(path: string | undefined): string {
  return path ? ` in ${path}` : '';
}

export class GrepTool implements vscode.LanguageModelTool<GrepInput> {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<GrepInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Searching for \`${String(options.input?.pattern)}\`${where(options.input?.path)}` };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<GrepInput>, token: vscode.CancellationToken) {
    return invokeEngine('grep', options.input, token, this.log, async (input, env) => printGrep(await runGrep(input, env)));
  }
}

export class GlobTool implements vscode.LanguageModelTool<GlobInput> {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<GlobInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Finding files matching \`${String(options.input?.pattern)}\`${where(options.input?.path)}` };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<GlobInput>, token: vscode.CancellationToken) {
    return invokeEngine('glob', options.input, token, this.log, async (input, env) => printGlob(await runGlob(input, env)));
  }
}
