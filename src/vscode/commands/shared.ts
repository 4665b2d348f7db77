/**
 * What the two Command Palette commands share in VS Code: the outside-the-workspace guard, the message
 * when no folder is open, recent-input history, copying the JSON answer, and quick input buttons.
 */
import * as vscode from 'vscode';
import { guardContext, type GuardRoles, type Permission } from '../../engine/run/environment';
import { decide } from '../../engine/guard/guard';
import { isUntitledUri } from '../../engine/guard/untitled';
import { virtualFolders, virtualUri } from '../sources/virtualFolders';

/**
 * The URI of a path the engine reported: an untitled editor's own URI; in a virtual workspace folder,
 * that folder's scheme; else a file.
 */
export function uriOf(path: string): vscode.Uri {
  if (isUntitledUri(path)) return vscode.Uri.parse(path);
  return virtualUri(path, virtualFolders()) ?? vscode.Uri.file(path);
}

/** Where a search would go outside every workspace folder: the guard's "pending" decision, else nothing. */
export async function outsideBases(path: string | undefined, env: GuardRoles): Promise<string[]> {
  // Denied and invalid paths are left to the search, which reports the same decision as an error.
  const decision = await decide(path, guardContext(env));
  return decision.kind === 'pending' ? [decision.resolved] : [];
}

/**
 * The guard (docs/security.md) for people: a path outside the workspace is searched only after a modal
 * confirmation. Returns true when the search may run (with allowOutside when it is outside).
 */
export async function confirmOutside(outside: string[], what: string, env: Pick<Permission, 'folders'>, log: vscode.LogOutputChannel): Promise<boolean> {
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

/**
 * Lets a quick pick step aside for a moment (a modal, another quick pick) and come back with the focus
 * in its input whatever the answer; while it is away its hide is not the end of the session.
 */
export class StepAside {
  private away = false;

  constructor(private readonly pick: { hide(): void; show(): void }) {}

  /** The pick is hidden on purpose, and will be back. */
  get isAway(): boolean {
    return this.away;
  }

  async during<T>(ask: () => Promise<T>): Promise<T> {
    this.away = true;
    this.pick.hide();
    try {
      return await ask();
    } finally {
      this.away = false;
      this.pick.show();
    }
  }
}

/** Stops here, with a message, when no folder is open. */
export async function requireFolder(): Promise<boolean> {
  if ((vscode.workspace.workspaceFolders ?? []).length > 0) return true;
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
    await this.memento.update(
      this.key,
      this.entries.filter((e) => !this.same(e, entry)),
    );
  }
}

/** Copies the answer as JSON (the fields a model receives, with the pattern and absolute paths), and says so in the status bar. */
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
  valueSelection?: readonly [number, number];
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
