/** The two language-model tools: thin adapters from `vscode.lm` to the engine, with a log line per call. */
import * as vscode from 'vscode';
import type { OutputBudget } from '../../engine/answer/budget';
import { answerGlob } from '../../engine/answer/globAnswer';
import { CancelledError } from '../../engine/api/errors';
import { guardContext, onceEach, type SearchEnvironment } from '../../engine/run/environment';
import { answerGrep } from '../../engine/answer/grepAnswer';
import { Confirmations } from '../../engine/guard/confirmations';
import { prepareMessages, type ToolName } from '../../engine/guard/invocation';
import { logSummary, renderGlob, renderGrep } from '../../engine/answer/printer';
import { readFileCapped } from '../../engine/searcher/reader';
import type { GlobInput, GrepInput } from '../../engine/api/types';
import { FindFilesSource } from '../sources/findFilesSource';
import { dirtyDocuments, untitledDocuments } from '../sources/openDocuments';
import { residentListings } from '../sources/residentListing';
import { sharedPool } from '../searchPool';
import { virtualPath } from '../sources/virtualFolders';
import { readEngineConfig } from '../settings';
import { counted, currentIndex, noteIndexUse } from '../index/workspaceIndexer';

/** The engine's view of VS Code for one search; `allowOutside` when the person confirmed an outside path. */
export function environment(token: vscode.CancellationToken, allowOutside = false): SearchEnvironment {
  // Unsaved editors first; the source adds readers of the files it lists in virtual folders.
  const overrides = new Map<string, string | (() => Promise<Uint8Array | undefined>)>(dirtyDocuments());
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
      name: folder.name,
      path: folder.uri.scheme === 'file' ? folder.uri.fsPath : virtualPath(folder.uri),
    })),
    source: new FindFilesSource(token, overrides, residentListings()),
    config: readEngineConfig(),
    readFile: readFileCapped,
    allowOutside,
    isCancelled: () => token.isCancellationRequested,
    onCancelled: (listener) => token.onCancellationRequested(listener),
    pool: sharedPool(),
    overrides,
    untitled: untitledDocuments(),
    index: currentIndex(),
  };
}

/**
 * Why an outside path is refused when `invoke` runs without a chat request: VS Code shows the
 * confirmation of `prepareInvocation` only inside a chat request (one with a toolInvocationToken).
 */
const NO_CHAT_CONFIRMATION =
  'Searching outside the workspace needs the user\'s confirmation, which VS Code asks for only when the tool is called from a chat request; ' +
  'this call has none (toolInvocationToken is undefined), so nobody could confirm. Search inside the workspace, or ask the user to open that folder or to run the search from chat.';

/** Why an outside path is refused in a chat request whose confirmation did not name it (it led elsewhere when prepared). */
const NOT_CONFIRMED =
  'No confirmation was shown for this location when the call was prepared (the path led elsewhere then, e.g. a symlink changed since); nothing was searched. ' +
  'Call the tool again so the user can confirm it.';

/** What the person confirmed per call (prepareInvocation → invoke), shared by both tools. */
const confirmations = new Confirmations();

/** Bytes kept free below Copilot's threshold for what Copilot wraps around a tool result. */
const CHAT_MARGIN_BYTES = 512;

/**
 * Copilot Chat writes a tool result larger than `github.copilot.chat.agent.largeToolResultsToDisk.
 * thresholdBytes` (8192 by default) to a file, and the model then sees only a pointer to it; an answer
 * meant for the model must stay below that. Undefined when Copilot does not do so.
 */
function chatInlineLimit(): number | undefined {
  const section = vscode.workspace.getConfiguration('github.copilot.chat.agent.largeToolResultsToDisk');
  if (section.get<unknown>('enabled') === false) return undefined;
  const threshold = section.get<unknown>('thresholdBytes');
  return Math.max(1024, (typeof threshold === 'number' && threshold > 0 ? threshold : 8192) - CHAT_MARGIN_BYTES);
}

/**
 * The output budget of one call (docs/tools.md, "Notes"): the model's token budget, counted with its tokenizer, when
 * VS Code gives one (`tokenizationOptions`); otherwise `grepTools.maxOutputBytes`. Inside a chat request
 * the answer also stays below the size Copilot would move out of the model's sight.
 */
export function outputBudget(options: vscode.LanguageModelToolInvocationOptions<unknown>, configuredBytes: number, token: vscode.CancellationToken): OutputBudget {
  const inline = options.toolInvocationToken !== undefined ? chatInlineLimit() : undefined;
  const maxOutputBytes = inline === undefined ? configuredBytes : Math.min(configuredBytes, inline);
  const tokenization = options.tokenizationOptions;
  // A token is 3 bytes of JSON or more: a token budget below that many bytes is the stricter limit.
  const tokensStricter = tokenization !== undefined && tokenization.tokenBudget > 0 && (inline === undefined || tokenization.tokenBudget * 3 < inline);
  if (!tokenization || !tokensStricter) return { kind: 'bytes', limit: maxOutputBytes };
  return {
    kind: 'tokens',
    limit: tokenization.tokenBudget,
    count: async (text) => tokenization.countTokens(text, token),
    fallbackBytes: maxOutputBytes,
  };
}

/** Runs one invocation: engine, printer, log; errors reach the model as an Error with the engine's message. */
async function invokeEngine<T>(
  tool: ToolName,
  options: vscode.LanguageModelToolInvocationOptions<T>,
  token: vscode.CancellationToken,
  log: vscode.LogOutputChannel,
  run: (input: unknown, env: SearchEnvironment, budget: OutputBudget) => Promise<{ text: string; summary: string }>,
): Promise<vscode.LanguageModelToolResult> {
  const input = options.input;
  log.info(`${tool} ${JSON.stringify(input)}`);
  try {
    // Inside a chat request VS Code called prepareInvocation first and, for a path outside the workspace,
    // showed its confirmation: reaching invoke means the person allowed it. Without a chat request
    // (another extension's vscode.lm.invokeTool) nobody was asked, so an outside path is refused.
    // The engine checks the path again either way, and a denied path is refused whatever was confirmed.
    // Only where the confirmation pointed: the path must still resolve there (a symlink may have flipped).
    const inChat = options.toolInvocationToken !== undefined;
    const confirmed = inChat ? confirmations.take(tool, input) : { allowOutside: false };
    const env: SearchEnvironment = {
      ...environment(token, confirmed.allowOutside),
      confirmedTarget: confirmed.target,
      outsideHint: inChat ? NOT_CONFIRMED : NO_CHAT_CONFIRMATION,
      warn: onceEach((message) => log.warn(`${tool}: ${message}`)),
    };
    const budget = outputBudget(options, env.config.maxOutputBytes, token);
    const { text, summary } = await run(input, env, budget);
    log.info(`${tool} done: ${summary}, ${Buffer.byteLength(text, 'utf8')} bytes (budget ${budget.limit} ${budget.kind})`);
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

/**
 * The guard's decision shown before a call runs: a progress line, and for a path outside every
 * workspace folder `confirmationMessages`, so VS Code asks the person. Side-effect free and fast: it
 * stats the path and resolves symlinks, and opens, lists and searches nothing.
 */
async function prepare(tool: ToolName, input: unknown, token: vscode.CancellationToken, log: vscode.LogOutputChannel): Promise<vscode.PreparedToolInvocation> {
  const env = environment(token);
  const prepared = await prepareMessages(tool, input, guardContext(env));
  confirmations.record(tool, input, prepared);
  if (prepared.decision === 'pending') log.info(`${tool} asks for confirmation: ${JSON.stringify(input)} is outside the workspace`);
  return {
    invocationMessage: prepared.invocationMessage,
    ...(prepared.confirmation
      ? { confirmationMessages: { title: prepared.confirmation.title, message: new vscode.MarkdownString(prepared.confirmation.message) } }
      : {}),
  };
}

/** The log line telling whether the content index answered a grep, and how many files it settled and read. */
function indexLine(env: SearchEnvironment, indexed: { settled: number; read: number } | undefined): string {
  if (indexed) return `grep index: ${indexed.settled} files settled by the index, ${indexed.read} read`;
  return env.index ? 'grep index: not used (nothing in the pattern narrows the files, or invert_match)' : 'grep index: none yet (off, or still building): every file read';
}

export class GrepTool implements vscode.LanguageModelTool<GrepInput> {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<GrepInput>, token: vscode.CancellationToken) {
    return prepare('grep', options.input, token, this.log);
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<GrepInput>, token: vscode.CancellationToken) {
    return invokeEngine('grep', options, token, this.log, async (input, env, budget) => {
      const report = await counted(() => answerGrep(input, env));
      this.log.info(indexLine(env, report.indexed));
      noteIndexUse(report.indexed);
      return { text: await renderGrep(report, budget), summary: logSummary(report) };
    });
  }
}

export class GlobTool implements vscode.LanguageModelTool<GlobInput> {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<GlobInput>, token: vscode.CancellationToken) {
    return prepare('glob', options.input, token, this.log);
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<GlobInput>, token: vscode.CancellationToken) {
    return invokeEngine('glob', options, token, this.log, async (input, env, budget) => {
      const report = await answerGlob(input, env);
      return { text: await renderGlob(report, budget), summary: logSummary(report) };
    });
  }
}
