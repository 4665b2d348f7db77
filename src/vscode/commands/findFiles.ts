/**
 * `Grep Tools: Find Files by Glob…`: the glob engine for people. A quick pick for the glob (with recent
 * globs), then the files it finds with their icons; picking one opens it.
 */
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { answerGlob } from '../../engine/answer/globAnswer';
import { parseGlobInput } from '../../engine/input/schema';
import { type GlobReport } from '../../engine/run/glob';
import { CancelledError } from '../../engine/api/errors';
import { globRequest } from '../../engine/guard/globInput';
import { globNotes, printGlob } from '../../engine/answer/printer';
import type { GlobInput } from '../../engine/api/types';
import { environment } from '../environment';
import type { Services } from '../services';
import {
  confirmOutside,
  copyJson,
  COPY_JSON,
  History,
  keepOrder,
  OPEN_TO_SIDE,
  outsideBases,
  REMOVE_FROM_HISTORY,
  requireFolder,
  StepAside,
  type ResourceItem,
  uriOf,
} from './shared';
import { errorText, labelText, plural, quote } from './text';

export const FIND_FILES_COMMAND = 'grepTools.findFiles';

/** The base an absolute glob names (its static prefix); undefined for a relative glob or one the search will refuse. */
function globBase(glob: string): string | undefined {
  try {
    return globRequest(glob, undefined, 'glob').path;
  } catch {
    return undefined;
  }
}

interface Item extends ResourceItem {
  /** The pattern mode's first item: what is typed. */
  typed?: boolean;
  glob?: string;
  file?: string;
  /** A note that proposes another glob (e.g. the recursive form). */
  retry?: string;
}

class FindFilesSession {
  private readonly pick = vscode.window.createQuickPick<Item>();
  private readonly disposables: vscode.Disposable[] = [this.pick];
  private mode: 'pattern' | 'results' = 'pattern';
  private pattern = '';
  private source: vscode.CancellationTokenSource | undefined;
  private report: GlobReport | undefined;
  private readonly aside = new StepAside(this.pick);

  constructor(
    private readonly history: History<string>,
    private readonly log: vscode.LogOutputChannel,
    private readonly services: Services,
  ) {
    keepOrder(this.pick);
    this.disposables.push(
      this.pick.onDidChangeValue((value) => {
        if (this.mode === 'pattern') this.pick.items = this.patternItems(value);
      }),
      this.pick.onDidAccept(() => void this.onAccept()),
      this.pick.onDidTriggerButton((button) => void this.onButton(button)),
      this.pick.onDidTriggerItemButton((event) => void this.onItemButton(event.item, event.button)),
      this.pick.onDidHide(() => {
        if (this.aside.isAway) return;
        this.source?.cancel();
        for (const disposable of this.disposables) disposable.dispose();
      }),
    );
  }

  start(): void {
    this.showPattern('');
    this.pick.show();
  }

  private showPattern(value: string): void {
    this.mode = 'pattern';
    this.report = undefined;
    this.pick.title = 'Find Files by Glob';
    this.pick.placeholder = 'Glob such as **/*.ts, src/**/*.{ts,tsx} or /abs/dir/**/*.md (↑↓ for recent globs)';
    this.pick.buttons = [];
    this.pick.busy = false;
    this.pick.matchOnDescription = false;
    this.pick.value = value;
    this.pick.items = this.patternItems(value);
  }

  private patternItems(value: string): Item[] {
    // The first item stands for what is typed and keeps its place, so an early Enter searches the input.
    const items: Item[] = [
      value
        ? { label: labelText(value), description: 'Find files', iconPath: new vscode.ThemeIcon('search'), alwaysShow: true, typed: true }
        : { label: 'Type a glob', iconPath: new vscode.ThemeIcon('search'), alwaysShow: true, typed: true },
    ];
    const recent = this.history.entries;
    if (recent.length) items.push({ label: 'recent globs', kind: vscode.QuickPickItemKind.Separator });
    for (const glob of recent) items.push({ label: labelText(glob), iconPath: new vscode.ThemeIcon('history'), buttons: [REMOVE_FROM_HISTORY], glob });
    return items;
  }

  private async onAccept(): Promise<void> {
    const item = this.pick.selectedItems[0] ?? this.pick.activeItems[0];
    if (this.mode === 'pattern') {
      const glob = item && !item.typed && item.glob ? item.glob : this.pick.value.trim();
      if (glob) await this.find(glob);
    } else if (item?.file) {
      this.pick.hide();
      await vscode.commands.executeCommand('vscode.open', uriOf(item.file));
    } else if (item?.retry) {
      await this.find(item.retry);
    }
  }

  private async onButton(button: vscode.QuickInputButton): Promise<void> {
    if (button === vscode.QuickInputButtons.Back) {
      this.source?.cancel();
      this.showPattern(this.pattern);
    } else if (button === COPY_JSON && this.report) {
      await copyJson(printGlob(this.report), plural(this.report.total, 'file'));
    }
  }

  private async onItemButton(item: Item, button: vscode.QuickInputButton): Promise<void> {
    if (button === OPEN_TO_SIDE && item.file) {
      await vscode.commands.executeCommand('vscode.open', uriOf(item.file), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
    } else if (button === REMOVE_FROM_HISTORY && item.glob) {
      await this.history.remove(item.glob);
      this.pick.items = this.patternItems(this.pick.value);
    }
  }

  private async find(glob: string): Promise<void> {
    this.source?.cancel();
    const source = new vscode.CancellationTokenSource();
    this.source = source;
    const env = environment(this.services, source.token);
    const input: GlobInput = { pattern: glob };
    const what = `Find files matching ${quote(glob)}`;
    const outside = await outsideBases(globBase(glob), env);
    if (outside.length) {
      const confirmed = await this.aside.during(() => confirmOutside(outside, what, env, this.log));
      if (!confirmed) return;
      env.allowOutside = true;
    }
    if (source.token.isCancellationRequested) return;
    await this.history.add(glob);
    this.pattern = glob;
    this.mode = 'results';
    this.pick.title = `Finding files matching ${labelText(quote(glob))}…`;
    this.pick.buttons = [vscode.QuickInputButtons.Back];
    this.pick.value = '';
    this.pick.placeholder = 'Type to filter the files';
    this.pick.matchOnDescription = true;
    this.pick.items = [];
    this.pick.busy = true;
    this.log.info(`command glob ${JSON.stringify(input)}${env.allowOutside ? ' (outside the workspace, confirmed)' : ''}`);
    let report: GlobReport;
    try {
      report = await answerGlob(parseGlobInput(input), env);
    } catch (error) {
      if (error instanceof CancelledError || source.token.isCancellationRequested) {
        this.log.info(`command glob cancelled`);
        return;
      }
      this.log.warn(`command glob failed: ${errorText(error)}`);
      if (this.source === source) this.showPattern(glob);
      void vscode.window.showErrorMessage(errorText(error));
      return;
    } finally {
      source.dispose();
    }
    this.log.info(
      `command glob done: base ${JSON.stringify(report.basePaths)}, ${report.total} files found (${report.files.length} shown), ` +
        `skipped ${JSON.stringify(report.skipped)}, ${report.elapsedMs} ms`,
    );
    if (this.source !== source || this.mode !== 'results') return;
    this.report = report;
    this.showFiles(report);
  }

  private showFiles(report: GlobReport): void {
    const items: Item[] = report.files.map((file) => {
      const uri = uriOf(file);
      const folder = nodePath.dirname(vscode.workspace.asRelativePath(uri));
      return {
        label: labelText(nodePath.basename(file)),
        description: folder === '.' ? '' : labelText(folder), // '' and not undefined: VS Code would fill in the file name
        iconPath: vscode.ThemeIcon.File,
        resourceUri: uri,
        buttons: [OPEN_TO_SIDE],
        file,
      };
    });
    const notes: Item[] = globNotes(report)
      .filter(() => report.total === 0)
      .map((note) => ({ label: labelText(note), iconPath: new vscode.ThemeIcon('info'), alwaysShow: true }));
    if (report.total === 0 && report.deeperMatches) {
      const deeper = `**/${report.pattern}`;
      notes.push({
        label: `Find ${labelText(deeper)} instead`,
        description: plural(report.deeperMatches, 'file'),
        iconPath: new vscode.ThemeIcon('search'),
        alwaysShow: true,
        retry: deeper,
      });
    }
    if (report.nextOffset !== undefined) {
      notes.push({
        label: `Showing the first ${report.files.length} of ${report.total} files. Narrow the glob to see the others.`,
        iconPath: new vscode.ThemeIcon('info'),
        alwaysShow: true,
      });
    }
    this.pick.title = `${labelText(quote(report.pattern))}: ${plural(report.total, 'file')} (${report.elapsedMs} ms)`;
    this.pick.items = [...items, ...(items.length && notes.length ? [{ label: '', kind: vscode.QuickPickItemKind.Separator }] : []), ...notes];
    this.pick.busy = false;
    this.pick.buttons = [vscode.QuickInputButtons.Back, COPY_JSON];
  }
}

export function registerFindFiles(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, services: Services): vscode.Disposable {
  const history = new History<string>(context.workspaceState, 'grepTools.findFiles.history', (a, b) => a === b);
  return vscode.commands.registerCommand(FIND_FILES_COMMAND, async () => {
    if (!(await requireFolder())) return;
    new FindFilesSession(history, log, services).start();
  });
}
