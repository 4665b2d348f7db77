/** How much of an answer the model may receive in one call: its token budget, Copilot's inline limit, or the setting. */
import * as vscode from 'vscode';
import type { OutputBudget } from '../../engine/answer/budget';

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
export function outputBudget(
  options: vscode.LanguageModelToolInvocationOptions<unknown>,
  configuredBytes: number,
  token: vscode.CancellationToken,
): OutputBudget {
  const inline = options.toolInvocationToken !== undefined ? chatInlineLimit() : undefined;
  const maxOutputBytes = inline === undefined ? configuredBytes : Math.min(configuredBytes, inline);
  const tokenization = options.tokenizationOptions;
  // A token is 3 bytes of an answer or more: a token budget below that many bytes is the stricter limit.
  const tokensStricter = tokenization !== undefined && tokenization.tokenBudget > 0 && (inline === undefined || tokenization.tokenBudget * 3 < inline);
  if (!tokenization || !tokensStricter) return { kind: 'bytes', limit: maxOutputBytes };
  return {
    kind: 'tokens',
    limit: tokenization.tokenBudget,
    count: async (text) => tokenization.countTokens(text, token),
    fallbackBytes: maxOutputBytes,
  };
}
