/** What the Command Palette search asks for: the pattern (with the recent searches) and the files to include (their own quick pick). */
import * as vscode from 'vscode';
import { REMOVE_FROM_HISTORY, type History } from '../shared';
import { describeOptions, labelText, patternProblem, type RecentSearch, type SearchToggles } from '../text';
import type { Item } from './results';

/**
 * The first item stands for what is typed (or says what is wrong with it); recent searches follow.
 * Items keep their positions while typing, so an Enter pressed before the list caught up with the
 * input still means "search what is typed".
 */
export function patternItems(value: string, options: SearchToggles, history: History<RecentSearch>): Item[] {
  const problem = value ? patternProblem(value, options) : undefined;
  const description = describeOptions(options) || undefined;
  const items: Item[] = [
    problem
      ? { label: labelText(problem), iconPath: new vscode.ThemeIcon('error'), alwaysShow: true, typed: true }
      : value
        ? { label: labelText(value), description, iconPath: new vscode.ThemeIcon('search'), alwaysShow: true, typed: true }
        : { label: 'Type the text to search for', description, iconPath: new vscode.ThemeIcon('search'), alwaysShow: true, typed: true },
  ];
  const recent = history.entries;
  if (recent.length) items.push({ label: 'recent searches', kind: vscode.QuickPickItemKind.Separator });
  for (const search of recent) {
    items.push({
      label: labelText(search.pattern),
      description: describeOptions(search) || undefined,
      iconPath: new vscode.ThemeIcon('history'),
      buttons: [REMOVE_FROM_HISTORY],
      recent: search,
    });
  }
  return items;
}

interface IncludeItem extends vscode.QuickPickItem {
  include?: string;
  /** The item for what is typed: accepting it takes the input's current value. */
  typed?: boolean;
}

/** Asks for the files to include, offering recent ones; undefined when dismissed. */
export function pickInclude(current: string, history: History<string>): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<IncludeItem>();
  const items = (value: string): IncludeItem[] => {
    const list: IncludeItem[] = [
      value
        ? { label: labelText(value), description: 'Search these files', iconPath: new vscode.ThemeIcon('filter'), alwaysShow: true, typed: true }
        : { label: 'All files', description: 'No filter', iconPath: new vscode.ThemeIcon('files'), alwaysShow: true, typed: true },
    ];
    const recent = history.entries;
    if (recent.length) list.push({ label: 'recent', kind: vscode.QuickPickItemKind.Separator });
    for (const include of recent) list.push({ label: labelText(include), iconPath: new vscode.ThemeIcon('history'), buttons: [REMOVE_FROM_HISTORY], include });
    return list;
  };
  pick.title = 'Files to Include';
  pick.placeholder = 'A glob (*.ts, src/**/*.py), a folder (./src, /abs/dir) or both (./src/**/*.ts); empty for all files';
  pick.buttons = [vscode.QuickInputButtons.Back];
  pick.value = current;
  pick.items = items(current);
  return new Promise((resolve) => {
    let result: string | undefined;
    pick.onDidChangeValue((value) => (pick.items = items(value)));
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      result = item && !item.typed && item.include !== undefined ? item.include : pick.value;
      pick.hide();
    });
    pick.onDidTriggerButton(() => pick.hide());
    pick.onDidTriggerItemButton(async ({ item }) => {
      if (item.include === undefined) return;
      await history.remove(item.include);
      pick.items = items(pick.value);
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(result);
    });
    pick.show();
  });
}
