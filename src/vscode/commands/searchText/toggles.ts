/** The Command Palette search's toggles: match case, whole word, regex (Alt+C/W/R) and the files to include, kept per workspace. */
import * as vscode from 'vscode';
import type { ToggleButton } from '../shared';
import type { SearchToggles } from '../text';

/** The context key true while the search's quick pick is shown: the toggle keys' `when` clause. */
export const SEARCH_TEXT_CONTEXT = 'grepTools.searchTextVisible';
export const TOGGLE_COMMANDS = {
  matchCase: 'grepTools.searchText.toggleMatchCase',
  wholeWord: 'grepTools.searchText.toggleWholeWord',
  regex: 'grepTools.searchText.toggleRegex',
} as const;
export type ToggleOption = keyof typeof TOGGLE_COMMANDS;

/** Where the toggles are kept (the workspace's state). */
export const OPTIONS_KEY = 'grepTools.searchText.options';
const DEFAULT_OPTIONS: SearchToggles = { matchCase: false, wholeWord: false, regex: false, include: '' };

/** The toggles as last left in this workspace. */
export function readToggles(state: vscode.Memento): SearchToggles {
  return { ...DEFAULT_OPTIONS, ...state.get<Partial<SearchToggles>>(OPTIONS_KEY, {}) };
}

export interface OptionButton extends ToggleButton {
  option: 'matchCase' | 'wholeWord' | 'regex' | 'include';
}

/** Toggles inside the input, as in VS Code's find widget, and the files to include in the title bar. */
export function toggleButtons(options: SearchToggles): OptionButton[] {
  const toggle = (option: OptionButton['option'], icon: string, tooltip: string, checked: boolean, location = 3): OptionButton => ({
    option,
    iconPath: new vscode.ThemeIcon(icon),
    tooltip,
    toggle: { checked },
    location,
  });
  const include = options.include;
  return [
    toggle('matchCase', 'case-sensitive', 'Match Case', options.matchCase),
    toggle('wholeWord', 'whole-word', 'Match Whole Word', options.wholeWord),
    toggle('regex', 'regex', 'Use Regular Expression', options.regex),
    toggle('include', 'filter', include ? `Files to Include: ${include}` : 'Files to Include…', include !== '', 1),
  ];
}
