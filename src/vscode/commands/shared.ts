/**
 * What the two Command Palette commands share: the outside-the-workspace guard, messages written for
 * people, recent-input history, labels safe to show in a quick pick, and the log line of a search.
 */
import { promises as fs } from 'fs';
import * as vscode from 'vscode';
import type { SearchEnvironment } from '../../engine/grep';
import { isInside, resolveBases } from '../../engine/roots';
import type { SkipCounts } from '../../engine/types';

/**
 * A quick pick highlights, in each label, what its value matches (VS Code turns the value into a
 * case-insensitive regex in which `*` means "anything"). Results mark their match with this invisible
 * character on both sides and set the value to MARK*MARK, so exactly the match is highlighted, whatever
 * the pattern (regex, case, whole word).
 */
export const MARK = '\u2063';
export const HIGHLIGHT_QUERY = `${MARK}*${MARK}`;

/** Text shown in a quick pick label: `$(name)` would render as an icon, MARK would confuse highlights. */
export function labelText(text: string): string {
  return text
    .replace(/[\u2063\r\n\u2028\u2029]/g, (c) => (c === MARK ? '' : ' '))
    .replace(/\$\(/g, '$\u200b(');
}

export function quote(text: string): string {
  return `"${text}"`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The absolute bases of a search that lie outside every workspace folder (also through a symlink). */
export async function outsideBases(path: string | undefined, env: SearchEnvironment): Promise<string[]> {
  let bases;
  try {
    bases = await resolveBases(path, env.folders, async (p) => (await env.source.kind(p)) !== undefined);
  } catch {
    return []; // the search reports the same error
  }
  const realFolders = await Promise.all(env.folders.map((folder) => fs.realpath(folder.path).catch(() => folder.path)));
  const outside: string[] = [];
  for (const base of bases) {
    if (base.folderIndex === -1) {
      outside.push(base.base);
      continue;
    }
    const real = await fs.realpath(base.base).catch(() => base.base);
    if (!realFolders.some((folder) => isInside(real, folder))) outside.push(real);
  }
  return outside;
}

/**
 * The guard of SPEC §5 for people: a path outside the workspace is searched only after a modal
 * confirmation. Returns true when the search may run (with allowOutside when it is outside).
 */
export async function confirmOutside(
  outside: string[],
  what: string,
  env: SearchEnvironment,
  log: vscode.LogOutputChannel,
): Promise<boolean> {
  if (outside.length === 0) return true;
  const folders = env.folders.map((folder) => folder.path).join(', ') || 'no folder is open';
  const choice = await vscode.window.showWarningMessage(
    'Search outside the workspace?',
    {
      modal: true,
      detail: `${what} in ${outside.join(', ')}, which is outside every workspace folder (${folders}). Denied paths (grepTools.deniedPaths) stay hidden.`,
    },
    'Search',
  );
  if (choice !== 'Search') {
    log.info(`${what}: not run, searching outside the workspace (${outside.join(', ')}) was declined`);
    return false;
  }
  log.info(`${what}: searching outside the workspace (${outside.join(', ')}) was confirmed`);
  return true;
}

/** An engine error as a person should read it: its message, without the advice written for a model. */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*Hint: .*$/s, '');
}

/** Stops here, with a message, when no folder is open. */
export async function requireFolder(): Promise<boolean> {
  if ((vscode.workspace.workspaceFolders ?? []).some((folder) => folder.uri.scheme === 'file')) return true;
  const open = 'Open Folder…';
  const choice = await vscode.window.showErrorMessage('Grep Tools: no folder is open. Open a folder or workspace to search it.', open);
  if (choice === open) await vscode.commands.executeCommand('workbench.action.files.openFolder');
  return false;
}

/** Recent inputs, newest first, kept per workspace. */
export class History<T> {
  constructor(
    private readonly memento: vscode.Memento,
    private readonly key: string,
    private readonly same: (a: T, b: T) => boolean,
    private readonly max = 30,
  ) {}

  get entries(): T[] {
    return this.memento.get<T[]>(this.key, []);
  }

  async add(entry: T): Promise<void> {
    await this.memento.update(this.key, [entry, ...this.entries.filter((e) => !this.same(e, entry))].slice(0, this.max));
  }

  async remove(entry: T): Promise<void> {
    await this.memento.update(this.key, this.entries.filter((e) => !this.same(e, entry)));
  }
}

export function describeSkipped(skipped: SkipCounts): string {
  return JSON.stringify(skipped);
}

/** Copies the JSON a model would receive, and says so in the status bar. */
export async function copyJson(json: string, summary: string): Promise<void> {
  await vscode.env.clipboard.writeText(json);
  vscode.window.setStatusBarMessage(`$(check) Copied the JSON answer (${summary}) to the clipboard`, 5000);
}

/** Fields of newer VS Code quick input APIs; older versions ignore them. */
export interface ToggleButton extends vscode.QuickInputButton {
  toggle?: { checked: boolean };
  /** QuickInputButtonLocation: 1 title bar, 2 inline, 3 inside the input box (like the find widget's toggles). */
  location?: number;
}

export interface NewerQuickPick {
  sortByLabel?: boolean;
  prompt?: string;
}

/** An item's file icon from the icon theme (newer VS Code), a plain file icon otherwise. */
export interface ResourceItem extends vscode.QuickPickItem {
  resourceUri?: vscode.Uri;
}

export const OPEN_TO_SIDE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('split-horizontal'), tooltip: 'Open to the Side' };
export const REMOVE_FROM_HISTORY: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('close'), tooltip: 'Remove from History' };
export const COPY_JSON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('copy'),
  tooltip: 'Copy Results as JSON (the answer a language model receives)',
};

/** Quick pick settings the results lists need: keep the engine's order, highlight, filter on labels only. */
export function keepOrder(pick: vscode.QuickPick<vscode.QuickPickItem>): void {
  try {
    (pick as unknown as NewerQuickPick).sortByLabel = false;
  } catch {
    // VS Code < 1.1xx wants a proposed API for sortByLabel; results are then sorted by label.
  }
}
