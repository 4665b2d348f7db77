/**
 * `Grep Tools: Search Text in Workspace…`: the grep engine for people. One quick pick in three modes:
 * the pattern (toggles for match case, whole word and regex, recent searches), the files to include, and
 * the results, which appear as files are searched and highlight each match; picking one opens the file
 * with the match selected.
 */
import * as vscode from 'vscode';
import { CancelledError, runGrep, type GrepFileEntry, type GrepReport } from '../../engine/grep';
import { compileMatcher, escapeRegExp } from '../../engine/matcher';
import { grepNotes, printGrep } from '../../engine/printer';
import type { GrepInput, LineResult } from '../../engine/types';
import { environment } from '../tools';
import {
  confirmOutside,
  copyJson,
  COPY_JSON,
  errorText,
  HIGHLIGHT_QUERY,
  History,
  keepOrder,
  labelText,
  MARK,
  OPEN_TO_SIDE,
  outsideBases,
  plural,
  quote,
  REMOVE_FROM_HISTORY,
  requireFolder,
  type ResourceItem,
  type ToggleButton,
} from './shared';

export const SEARCH_TEXT_COMMAND = 'grepTools.searchText';

export interface SearchOptions {
  matchCase: boolean;
  wholeWord: boolean;
  regex: boolean;
  /** A glob ('*.ts', 'src/**'), a path ('./src', '/abs/dir'), or a path followed by a glob; '' = everything. */
  include: string;
}

interface RecentSearch extends SearchOptions {
  pattern: string;
}

interface Item extends ResourceItem {
  recent?: RecentSearch;
  include?: string;
  match?: { file: string; line: number };
}

/** Progress appears only for searches that take longer than this, so quick ones do not flash a notification. */
const PROGRESS_DELAY_MS = 300;
/** Results reach the quick pick at most this often (the first one at once). */
const RESULTS_REFRESH_MS = 80;

const DEFAULT_OPTIONS: SearchOptions = { matchCase: false, wholeWord: false, regex: false, include: '' };

function sameSearch(a: RecentSearch, b: RecentSearch): boolean {
  return a.pattern === b.pattern && a.matchCase === b.matchCase && a.wholeWord === b.wholeWord && a.regex === b.regex && a.include === b.include;
}

export function describeOptions(options: SearchOptions): string {
  const parts = [options.matchCase && 'Match Case', options.wholeWord && 'Whole Word', options.regex && 'Regex'].filter(Boolean) as string[];
  if (options.include) parts.push(`in ${options.include}`);
  return parts.join(' · ');
}

/**
 * The "files to include" field as the engine's input: a glob, or a path (absolute, `~/…`, `./…`,
 * `../…`) optionally followed by a glob. `*.ts, *.md` (VS Code's comma list) becomes `{*.ts,*.md}`.
 */
export function parseInclude(text: string): { path?: string; include?: string } {
  let value = text.trim();
  if (!value) return {};
  if (value.includes(',') && !/[{}]/.test(value)) {
    const parts = value.split(',').map((part) => part.trim()).filter(Boolean);
    value = parts.length > 1 ? `{${parts.join(',')}}` : (parts[0] ?? '');
  }
  const isPath = /^(\/|~(\/|$)|\.\.?(\/|$))/.test(value);
  if (!isPath) return { include: value };
  const segments = value.split('/');
  const firstGlob = segments.findIndex((segment) => /[*?[\]{}]/.test(segment));
  if (firstGlob === -1) return { path: value };
  return { path: segments.slice(0, firstGlob).join('/') || '/', include: segments.slice(firstGlob).join('/') };
}

/** The engine input for a search from the Command Palette: up to grepTools.maxResultsCap lines. */
export function grepInput(search: RecentSearch, maxResults: number): GrepInput {
  const scope = parseInclude(search.include);
  return {
    pattern: search.pattern,
    ...(scope.path !== undefined ? { path: scope.path } : {}),
    ...(scope.include !== undefined ? { include: scope.include } : {}),
    ...(search.matchCase ? {} : { case_insensitive: true }),
    ...(search.regex ? {} : { fixed_strings: true }),
    ...(search.wholeWord ? { word: true } : {}),
    max_results: maxResults,
  };
}

/** The first match in a line, as [start, end), or undefined. */
function firstMatch(text: string, regex: RegExp): [number, number] | undefined {
  regex.lastIndex = 0;
  const found = regex.exec(text);
  return found ? [found.index, found.index + found[0].length] : undefined;
}

/** Characters shown before the match at most, so a match far into a long line stays visible. */
const LEAD = 40;

/** A result's label: the line, trimmed, with its first match between MARKs (see HIGHLIGHT_QUERY). */
export function resultLabel(text: string, regex: RegExp): string {
  let line = text.replace(/\u2063/g, '');
  let span = firstMatch(line, regex);
  const indent = line.length - line.trimStart().length;
  if (!span || span[0] >= indent) {
    line = line.slice(indent);
    if (span) span = [span[0] - indent, span[1] - indent];
  }
  if (span && span[0] > LEAD) {
    let cut = span[0] - Math.floor(LEAD / 2);
    if (/[\udc00-\udfff]/.test(line[cut] ?? '')) cut--; // never split a surrogate pair
    line = `…${line.slice(cut)}`;
    span = [span[0] - cut + 1, span[1] - cut + 1];
  }
  if (!span || span[1] === span[0]) return labelText(line);
  return `${labelText(line.slice(0, span[0]))}${MARK}${labelText(line.slice(span[0], span[1]))}${MARK}${labelText(line.slice(span[1]))}`;
}

interface Run {
  search: RecentSearch;
  input: GrepInput;
  regex: RegExp;
  source: vscode.CancellationTokenSource;
  started: number;
  firstResultMs?: number;
  items: Item[];
  files: number;
  results: number;
  state: 'running' | 'done' | 'cancelled' | 'failed';
  report?: GrepReport;
  finished: Promise<void>;
  finish(): void;
}

class SearchTextSession {
  private readonly pick = vscode.window.createQuickPick<Item>();
  private readonly disposables: vscode.Disposable[] = [this.pick];
  private mode: 'pattern' | 'include' | 'results' = 'pattern';
  private options: SearchOptions;
  private pattern = '';
  private run: Run | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly history: History<RecentSearch>,
    private readonly includeHistory: History<string>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...state.get<Partial<SearchOptions>>(OPTIONS_KEY, {}) };
    keepOrder(this.pick);
    this.pick.matchOnDescription = false;
    this.pick.matchOnDetail = false;
    this.disposables.push(
      this.pick.onDidChangeValue((value) => this.onValue(value)),
      this.pick.onDidAccept(() => void this.onAccept()),
      this.pick.onDidTriggerButton((button) => void this.onButton(button)),
      this.pick.onDidTriggerItemButton((event) => void this.onItemButton(event.item, event.button)),
      this.pick.onDidHide(() => this.dispose()),
    );
  }

  start(seed: string): void {
    this.showPattern(seed);
    this.pick.show();
  }

  private dispose(): void {
    this.cancelRun();
    clearTimeout(this.refreshTimer);
    for (const disposable of this.disposables) disposable.dispose();
  }

  private cancelRun(): void {
    if (this.run?.state === 'running') this.run.source.cancel();
  }

  // ----- pattern mode

  private toggles(): ToggleButton[] {
    const toggle = (icon: string, tooltip: string, checked: boolean): ToggleButton => ({
      iconPath: new vscode.ThemeIcon(icon),
      tooltip,
      toggle: { checked },
      location: 3,
    });
    const include = this.options.include;
    return [
      toggle('case-sensitive', 'Match Case', this.options.matchCase),
      toggle('whole-word', 'Match Whole Word', this.options.wholeWord),
      toggle('regex', 'Use Regular Expression', this.options.regex),
      { ...toggle('filter', include ? `Files to Include: ${include}` : 'Files to Include…', include !== ''), location: 1 },
    ];
  }

  private showPattern(value: string): void {
    this.mode = 'pattern';
    this.pick.title = this.options.include ? `Search Text in Workspace: files to include ${labelText(this.options.include)}` : 'Search Text in Workspace';
    this.pick.placeholder = 'Text to search for (Enter to search, ↑↓ for recent searches)';
    this.pick.buttons = this.toggles();
    this.pick.busy = false;
    this.pick.keepScrollPosition = false;
    this.pick.ignoreFocusOut = false;
    this.pattern = value;
    this.pick.value = value;
    this.pick.items = this.patternItems(value);
  }

  private patternItems(value: string): Item[] {
    const items: Item[] = [];
    if (value) {
      items.push({
        label: labelText(value),
        description: describeOptions(this.options) || undefined,
        iconPath: new vscode.ThemeIcon('search'),
        alwaysShow: true,
      });
    }
    const recent = this.history.entries;
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

  // ----- include mode

  private showInclude(): void {
    this.pattern = this.pick.value;
    this.mode = 'include';
    this.pick.title = 'Files to Include';
    this.pick.placeholder = 'A glob (*.ts, src/**/*.py) or a folder (./src, /abs/dir); empty for all files';
    this.pick.buttons = [vscode.QuickInputButtons.Back];
    this.pick.value = this.options.include;
    this.pick.items = this.includeItems(this.options.include);
  }

  private includeItems(value: string): Item[] {
    const items: Item[] = [
      value
        ? { label: labelText(value), description: 'Search these files', iconPath: new vscode.ThemeIcon('filter'), alwaysShow: true, include: value }
        : { label: 'All files', description: 'No filter', iconPath: new vscode.ThemeIcon('files'), alwaysShow: true, include: '' },
    ];
    const recent = this.includeHistory.entries.filter((include) => include !== value);
    if (recent.length) items.push({ label: 'recent', kind: vscode.QuickPickItemKind.Separator });
    for (const include of recent) {
      items.push({ label: labelText(include), iconPath: new vscode.ThemeIcon('history'), buttons: [REMOVE_FROM_HISTORY], include });
    }
    return items;
  }

  private async setInclude(include: string): Promise<void> {
    this.options = { ...this.options, include: include.trim() };
    await this.state.update(OPTIONS_KEY, this.options);
    if (this.options.include) await this.includeHistory.add(this.options.include);
    this.showPattern(this.pattern);
  }

  // ----- events

  private onValue(value: string): void {
    if (this.mode === 'pattern') {
      this.pattern = value;
      this.pick.items = this.patternItems(value);
    } else if (this.mode === 'include') {
      this.pick.items = this.includeItems(value);
    } else if (value !== HIGHLIGHT_QUERY) {
      // Typing in the results edits the search.
      this.cancelRun();
      const typed = value.startsWith(HIGHLIGHT_QUERY) ? value.slice(HIGHLIGHT_QUERY.length) : '';
      this.showPattern(this.pattern + typed);
    }
  }

  private async onAccept(): Promise<void> {
    const item = this.pick.selectedItems[0] ?? this.pick.activeItems[0];
    if (this.mode === 'include') {
      await this.setInclude(item?.include ?? this.pick.value);
    } else if (this.mode === 'pattern') {
      if (item?.recent) {
        const { pattern, ...options } = item.recent;
        this.options = options;
        await this.search({ pattern, ...options });
      } else if (this.pick.value) {
        await this.search({ pattern: this.pick.value, ...this.options });
      }
    } else if (item?.match) {
      this.pick.hide();
      await openMatch(item.match.file, item.match.line, this.run?.regex, false);
    }
  }

  private async onButton(button: vscode.QuickInputButton): Promise<void> {
    if (button === vscode.QuickInputButtons.Back) {
      this.cancelRun();
      if (this.mode === 'include') this.showPattern(this.pattern);
      else this.showPattern(this.run?.search.pattern ?? this.pattern);
      return;
    }
    if (button === COPY_JSON && this.run?.report) {
      await copyJson(printGrep(this.run.report), plural(this.run.report.totalResults, 'matching line'));
      return;
    }
    if (this.mode !== 'pattern') return;
    const tooltip = button.tooltip ?? '';
    if (tooltip.startsWith('Files to Include')) {
      this.showInclude();
      return;
    }
    const key = tooltip === 'Match Case' ? 'matchCase' : tooltip === 'Match Whole Word' ? 'wholeWord' : tooltip === 'Use Regular Expression' ? 'regex' : undefined;
    if (!key) return;
    this.options = { ...this.options, [key]: !this.options[key] };
    await this.state.update(OPTIONS_KEY, this.options);
    this.pick.buttons = this.toggles();
    this.pick.items = this.patternItems(this.pick.value);
  }

  private async onItemButton(item: Item, button: vscode.QuickInputButton): Promise<void> {
    if (button === OPEN_TO_SIDE && item.match) {
      await openMatch(item.match.file, item.match.line, this.run?.regex, true);
    } else if (button === REMOVE_FROM_HISTORY && item.recent) {
      await this.history.remove(item.recent);
      this.pick.items = this.patternItems(this.pick.value);
    } else if (button === REMOVE_FROM_HISTORY && item.include !== undefined) {
      await this.includeHistory.remove(item.include);
      this.pick.items = this.includeItems(this.pick.value);
    }
  }

  // ----- searching

  private async search(search: RecentSearch): Promise<void> {
    let regex: RegExp;
    try {
      const matcher = compileMatcher(search.pattern, { case_insensitive: !search.matchCase, fixed_strings: !search.regex, word: search.wholeWord });
      regex = new RegExp(matcher.regex.source, matcher.regex.flags.replace('g', ''));
    } catch (error) {
      this.log.warn(`command grep ${JSON.stringify(search.pattern)}: ${errorText(error)}`);
      void vscode.window.showErrorMessage(
        `${errorText(error)} Escape special characters with a backslash, or turn off Use Regular Expression to search for the text as typed.`,
      );
      return;
    }
    const input = grepInput(search, readMaxResults());
    const source = new vscode.CancellationTokenSource();
    const env = environment(source.token);
    const what = `Search for ${quote(search.pattern)}`;
    const outside = await outsideBases(input.path, env);
    if (outside.length) {
      this.pick.ignoreFocusOut = true; // the modal must not close the quick pick
      const confirmed = await confirmOutside(outside, what, env, this.log);
      this.pick.ignoreFocusOut = false;
      if (!confirmed) {
        source.dispose();
        return;
      }
      env.allowOutside = true;
    }
    if (this.mode !== 'pattern') return; // closed or changed meanwhile
    await this.history.add(search);
    await this.state.update(OPTIONS_KEY, this.options);

    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const run: Run = { search, input, regex, source, started: Date.now(), items: [], files: 0, results: 0, state: 'running', finished, finish };
    this.run = run;
    this.pattern = search.pattern;
    this.mode = 'results';
    this.pick.title = `Searching for ${labelText(quote(search.pattern))}…`;
    this.pick.buttons = [vscode.QuickInputButtons.Back];
    this.pick.items = [];
    this.pick.value = HIGHLIGHT_QUERY;
    this.pick.keepScrollPosition = true;
    this.pick.ignoreFocusOut = true; // clicking Cancel in the progress notification must not close the results
    this.pick.busy = true;
    this.showProgress(run, what);
    this.log.info(`command grep ${JSON.stringify(input)}${env.allowOutside ? ' (outside the workspace, confirmed)' : ''}`);

    try {
      const report = await runGrep(input, env, { onFile: (entry) => this.addResults(run, entry) });
      run.report = report;
      run.state = 'done';
      this.log.info(
        `command grep done: base ${JSON.stringify(report.basePaths)}, ${report.filesSearched} files searched, ${report.filesMatched} matched, ` +
          `${report.totalResults} matching lines (${report.returnedResults} shown), skipped ${JSON.stringify(report.skipped)}, ` +
          `first result after ${run.firstResultMs ?? '-'} ms, ${report.elapsedMs} ms${report.timedOut ? ', timed out' : ''}`,
      );
    } catch (error) {
      if (error instanceof CancelledError || source.token.isCancellationRequested) {
        run.state = 'cancelled';
        this.log.info(`command grep cancelled after ${Date.now() - run.started} ms: ${plural(run.results, 'matching line')} in ${plural(run.files, 'file')} so far`);
      } else {
        run.state = 'failed';
        this.log.warn(`command grep failed: ${errorText(error)}`);
        if (this.run === run) this.showPattern(search.pattern);
        void vscode.window.showErrorMessage(errorText(error));
      }
    } finally {
      run.finish();
      source.dispose();
    }
    if (this.run === run && this.mode === 'results') this.showResults(run);
  }

  private showProgress(run: Run, title: string): void {
    const timer = setTimeout(() => {
      if (run.state !== 'running') return;
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
        token.onCancellationRequested(() => run.source.cancel());
        const report = () => progress.report({ message: `${plural(run.results, 'result')} in ${plural(run.files, 'file')}` });
        report();
        const interval = setInterval(report, 250);
        return run.finished.then(() => clearInterval(interval));
      });
    }, PROGRESS_DELAY_MS);
    void run.finished.then(() => clearTimeout(timer));
  }

  private addResults(run: Run, entry: GrepFileEntry): void {
    if (typeof entry === 'string' || !('matches' in entry)) return;
    run.firstResultMs ??= Date.now() - run.started;
    const uri = vscode.Uri.file(entry.file);
    const where = vscode.workspace.asRelativePath(uri);
    if (run.items.length) run.items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    for (const match of entry.matches as LineResult[]) {
      run.items.push({
        label: resultLabel(match.text, run.regex),
        description: `${where}:${match.line}`,
        iconPath: vscode.ThemeIcon.File,
        resourceUri: uri,
        alwaysShow: true,
        buttons: [OPEN_TO_SIDE],
        match: { file: entry.file, line: match.line },
      });
    }
    run.files++;
    run.results += entry.matches.length;
    if (this.run !== run) return;
    if (run.results === entry.matches.length) this.showResults(run); // the first results at once
    else this.refreshTimer ??= setTimeout(() => {
      this.refreshTimer = undefined;
      if (this.run === run && this.mode === 'results') this.showResults(run);
    }, RESULTS_REFRESH_MS);
  }

  private showResults(run: Run): void {
    const pattern = labelText(quote(run.search.pattern));
    const found = `${plural(run.results, 'result')} in ${plural(run.files, 'file')}`;
    const notes: string[] = [];
    if (run.state === 'running') {
      this.pick.title = `Searching for ${pattern}… ${found}`;
    } else if (run.state === 'cancelled') {
      this.pick.title = `Search for ${pattern} cancelled: ${found} so far`;
      notes.push(`The search was cancelled after ${Date.now() - run.started} ms; these are the results found until then.`);
    } else if (run.report) {
      const report = run.report;
      this.pick.title = `${pattern}: ${found} (${plural(report.filesSearched, 'file')} searched, ${report.elapsedMs} ms)`;
      if (report.totalResults === 0 || report.timedOut) notes.push(...grepNotes(report));
      if (report.nextOffset !== undefined) {
        notes.push(
          `Showing the first ${report.returnedResults} of ${report.totalResults} matching lines (grepTools.maxResultsCap). Narrow the search with Files to Include.`,
        );
      }
    }
    const noteItems: Item[] = notes.map((note) => ({ label: labelText(note), iconPath: new vscode.ThemeIcon('info'), alwaysShow: true }));
    if (noteItems.length && run.items.length) noteItems.unshift({ label: '', kind: vscode.QuickPickItemKind.Separator });
    const active = this.pick.activeItems[0];
    this.pick.items = [...run.items, ...noteItems];
    if (active && run.items.includes(active)) this.pick.activeItems = [active];
    if (run.state !== 'running') {
      clearTimeout(this.refreshTimer);
      this.refreshTimer = undefined;
      this.pick.busy = false;
      this.pick.ignoreFocusOut = false;
      this.pick.buttons = run.report ? [vscode.QuickInputButtons.Back, COPY_JSON] : [vscode.QuickInputButtons.Back];
    }
  }
}

const OPTIONS_KEY = 'grepTools.searchText.options';

function readMaxResults(): number {
  const cap = vscode.workspace.getConfiguration('grepTools').get<unknown>('maxResultsCap');
  return typeof cap === 'number' && Number.isSafeInteger(cap) && cap >= 1 ? cap : 1000;
}

/** Opens a result with its first match on the line selected (the line start when the file changed since). */
export async function openMatch(file: string, line: number, regex: RegExp | undefined, toSide: boolean): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const index = Math.min(Math.max(line - 1, 0), document.lineCount - 1);
  const text = document.lineAt(index).text;
  const span = regex ? firstMatch(text, regex) : undefined;
  const selection = span ? new vscode.Selection(index, span[0], index, span[1]) : new vscode.Selection(index, 0, index, 0);
  return vscode.window.showTextDocument(document, {
    selection,
    preview: !toSide,
    preserveFocus: toSide,
    viewColumn: toSide ? vscode.ViewColumn.Beside : undefined,
  });
}

export function registerSearchText(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable {
  const history = new History<RecentSearch>(context.workspaceState, 'grepTools.searchText.history', sameSearch);
  const includeHistory = new History<string>(context.workspaceState, 'grepTools.searchText.includeHistory', (a, b) => a === b);
  return vscode.commands.registerCommand(SEARCH_TEXT_COMMAND, async () => {
    if (!(await requireFolder())) return;
    const session = new SearchTextSession(context.workspaceState, history, includeHistory, log);
    // Like VS Code's find: a selection on one line seeds the pattern.
    const editor = vscode.window.activeTextEditor;
    let seed = '';
    if (editor && !editor.selection.isEmpty && editor.selection.isSingleLine) {
      seed = editor.document.getText(editor.selection);
      if (context.workspaceState.get<Partial<SearchOptions>>(OPTIONS_KEY, {}).regex) seed = escapeRegExp(seed);
    }
    session.start(seed);
  });
}
