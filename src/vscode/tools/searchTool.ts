/**
 * The adapter from `vscode.lm` to the engine, one class for both tools: `prepareInvocation` shows the
 * guard's decision (and VS Code's confirmation for a path outside the workspace), `invoke` runs the
 * tool's engine call in the environment, renders the answer within the output budget and logs a line.
 */
import * as vscode from 'vscode';
import type { OutputBudget } from '../../engine/answer/budget';
import { CancelledError } from '../../engine/api/errors';
import { prepareMessages, type ToolName } from '../../engine/guard/invocation';
import { guardContext, onceEach, type SearchEnvironment } from '../../engine/run/environment';
import { environment } from '../environment';
import type { Services } from '../services';
import { outputBudget } from './outputBudget';

/**
 * Why an outside path is refused when `invoke` runs without a chat request: VS Code shows the
 * confirmation of `prepareInvocation` only inside a chat request (one with a toolInvocationToken).
 */
const NO_CHAT_CONFIRMATION =
  "Searching outside the workspace needs the user's confirmation, which VS Code asks for only when the tool is called from a chat request; " +
  'this call has none (toolInvocationToken is undefined), so nobody could confirm. Search inside the workspace, or ask the user to open that folder or to run the search from chat.';

/** Why an outside path is refused in a chat request whose confirmation did not name it (it led elsewhere when prepared). */
const NOT_CONFIRMED =
  'No confirmation was shown for this location when the call was prepared (the path led elsewhere then, e.g. a symlink changed since); nothing was searched. ' +
  'Call the tool again so the user can confirm it.';

/** One tool's engine call: the answer's text for the model, and what the log line says of it. */
export type ToolRun = (
  input: unknown,
  env: SearchEnvironment,
  budget: OutputBudget,
  log: vscode.LogOutputChannel,
) => Promise<{ text: string; summary: string }>;

export class SearchTool<T> implements vscode.LanguageModelTool<T> {
  constructor(
    private readonly tool: ToolName,
    private readonly log: vscode.LogOutputChannel,
    private readonly services: Services,
    private readonly run: ToolRun,
  ) {}

  /**
   * The guard's decision shown before a call runs: a progress line, and for a path outside every
   * workspace folder `confirmationMessages`, so VS Code asks the person. Side-effect free and fast: it
   * stats the path and resolves symlinks, and opens, lists and searches nothing.
   */
  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<T>,
    token: vscode.CancellationToken,
  ): Promise<vscode.PreparedToolInvocation> {
    const { tool, log, services } = this;
    const prepared = await prepareMessages(tool, options.input, guardContext(environment(services, token)));
    services.confirmations.record(tool, options.input, prepared);
    if (prepared.decision === 'pending') log.info(`${tool} asks for confirmation: ${JSON.stringify(options.input)} is outside the workspace`);
    return {
      invocationMessage: prepared.invocationMessage,
      ...(prepared.confirmation
        ? { confirmationMessages: { title: prepared.confirmation.title, message: new vscode.MarkdownString(prepared.confirmation.message) } }
        : {}),
    };
  }

  /** Runs one invocation: engine, printer, log; errors reach the model as an Error with the engine's message. */
  async invoke(options: vscode.LanguageModelToolInvocationOptions<T>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const { tool, log, services } = this;
    const input = options.input;
    log.info(`${tool} ${JSON.stringify(input)}`);
    try {
      // Inside a chat request VS Code called prepareInvocation first and, for a path outside the workspace,
      // showed its confirmation: reaching invoke means the person allowed it. Without a chat request
      // (another extension's vscode.lm.invokeTool) nobody was asked, so an outside path is refused.
      // The engine checks the path again either way, and a denied path is refused whatever was confirmed.
      // Only where the confirmation pointed: the path must still resolve there (a symlink may have flipped).
      const inChat = options.toolInvocationToken !== undefined;
      const confirmed = inChat ? services.confirmations.take(tool, input) : { allowOutside: false };
      const env: SearchEnvironment = {
        ...environment(services, token, confirmed.allowOutside),
        confirmedTarget: confirmed.target,
        outsideHint: inChat ? NOT_CONFIRMED : NO_CHAT_CONFIRMATION,
        warn: onceEach((message) => log.warn(`${tool}: ${message}`)),
      };
      const budget = outputBudget(options, env.config.maxOutputBytes, token);
      const listings = services.residentListings().counts;
      const before = { ...listings };
      const { text, summary } = await this.run(input, env, budget, log);
      // The workspace's listings the call (and its checks) replayed or made; calls at the same time count each other's.
      const listed = `listings ${listings.replayed - before.replayed} replayed (${listings.vouched - before.vouched} without a stat), ${listings.listed - before.listed} made (${listings.inParts - before.inParts} in parts), ${listings.restored - before.restored} restored from the last window, ${listings.changed - before.changed} found changed, ${listings.evicted - before.evicted} let go for room, all dropped by file events ${listings.dropped - before.dropped} times`;
      log.info(`${tool} done: ${summary}, ${listed}, ${Buffer.byteLength(text, 'utf8')} bytes (budget ${budget.limit} ${budget.kind})`);
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
}
