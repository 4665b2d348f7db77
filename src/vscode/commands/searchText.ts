/**
 * `Grep Tools: Search Text in Workspace…`: the grep engine for people. One quick pick in three modes:
 * the pattern (toggles for match case, whole word and regex, recent searches), the files to include, and
 * the results, which appear as files are searched and highlight each match; picking one opens the file
 * with the match selected. As in VS Code's Quick Search, the results keep the search text in the input:
 * typing there searches again as the person types. Alt+C, Alt+W and Alt+R flip the toggles.
 *
 * This module is the session, which switches the modes and runs the searches; its parts, each with one
 * job, are in searchText/: input.ts (the pattern's items, the files-to-include picker), toggles.ts,
 * results.ts (a run's items, title and notes) and opening.ts (a picked result opened with its match selected).
 */
import * as vscode from 'vscode';
import { CancelledError } from '../../engine/api/errors';
import { type GrepFileEntry } from '../../engine/run/grepCollector';
import { answerGrep } from '../../engine/answer/grepAnswer';
import { parseGrepInput } from '../../engine/input/schema';
import { escapeRegExp } from '../../engine/matcher/matcher';
import { printGrep } from '../../engine/answer/printer';
import type { GrepInput } from '../../engine/api/types';
import type { SearchEnvironment } from '../../engine/run/environment';
import { environment } from '../environment';
import type { Services } from '../services';
import {
  confirmOutside,
  StepAside,
  copyJson,
  COPY_JSON,
  History,
  keepOrder,
  OPEN_TO_SIDE,
  outsideBases,
  REMOVE_FROM_HISTORY,
  requireFolder,
  type NewerQuickPick,
} from './shared';
import {
  errorText,
  grepInput,
  labelText,
  lineRegex,
  patternProblem,
  plural,
  quote,
  REGEX_ADVICE,
  sameSearch,
  type RecentSearch,
  type SearchToggles,
} from './text';

import { patternItems, pickInclude } from './searchText/input';
import { openMatch } from './searchText/opening';
import { addResultItems, resultDescription, resultsHeading, type Item, type Run } from './searchText/results';
import { OPTIONS_KEY, readToggles, SEARCH_TEXT_CONTEXT, toggleButtons, TOGGLE_COMMANDS, type OptionButton, type ToggleOption } from './searchText/toggles';

export const SEARCH_TEXT_COMMAND = 'grepTools.searchText';

/** Progress appears only for searches that take longer than this, so quick ones do not flash a notification. */
const PROGRESS_DELAY_MS = 300;
/** Results reach the quick pick at most this often (the first one at once). */
const RESULTS_REFRESH_MS = 80;
/** Typing in the results searches again once the keys pause this long. */
const REFINE_DELAY_MS = 300;

class SearchTextSession {
  private readonly pick = vscode.window.createQuickPick<Item>();
  private readonly disposables: vscode.Disposable[] = [this.pick];
  private mode: 'pattern' | 'results' = 'pattern';
  /** The pick steps aside for files to include and for a modal. */
  private readonly aside = new StepAside(this.pick);
  private options: SearchToggles;
  private pattern = '';
  private run: Run | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private refineTimer: NodeJS.Timeout | undefined;
  /** Counts the searches started, so one that waited for a confirmation knows when a newer one took its place. */
  private generation = 0;
  /** Folders outside the workspace the person agreed to search in this session: searching again there asks no more. */
  private readonly confirmed = new Set<string>();
  private disposed = false;

  constructor(
    private readonly state: vscode.Memento,
    private readonly history: History<RecentSearch>,
    private readonly includeHistory: History<string>,
    private readonly log: vscode.LogOutputChannel,
    private readonly services: Services,
  ) {
    this.options = readToggles(state);
    keepOrder(this.pick);
    this.pick.matchOnDescription = false;
    this.pick.matchOnDetail = false;
    this.disposables.push(
      this.pick.onDidChangeValue((value) => this.onValue(value)),
      this.pick.onDidAccept(() => void this.onAccept()),
      this.pick.onDidTriggerButton((button) => void this.onButton(button)),
      this.pick.onDidTriggerItemButton((event) => void this.onItemButton(event.item, event.button)),
      this.pick.onDidHide(() => {
        if (!this.aside.isAway) this.dispose();
      }),
    );
  }

  start(seed: string): void {
    this.showPattern(seed);
    // Selected, so typing replaces a seed taken from the editor's selection.
    (this.pick as NewerQuickPick).valueSelection = [0, seed.length];
    this.pick.show();
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the session the toggle keybindings reach
    active = this;
    void vscode.commands.executeCommand('setContext', SEARCH_TEXT_CONTEXT, true);
  }

  private dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cancelRun();
    clearTimeout(this.refreshTimer);
    clearTimeout(this.refineTimer);
    for (const disposable of this.disposables) disposable.dispose();
    if (active === this) {
      active = undefined;
      void vscode.commands.executeCommand('setContext', SEARCH_TEXT_CONTEXT, false);
    }
  }

  /** Alt+C, Alt+W, Alt+R: flips a toggle as its button does; in the results, searches again at once. */
  async toggle(option: ToggleOption): Promise<void> {
    if (this.disposed || this.aside.isAway) return;
    this.options = { ...this.options, [option]: !this.options[option] };
    await this.state.update(OPTIONS_KEY, this.options);
    this.pick.buttons = this.buttons();
    if (this.mode === 'pattern') this.pick.items = patternItems(this.pick.value, this.options, this.history);
    else this.refine(this.pick.value, 0);
  }

  private cancelRun(): void {
    if (this.run?.state === 'running') this.run.source.cancel();
  }

  // ----- pattern mode

  /** The toggles in both modes, so their state shows; the results add Back and, once done, Copy. */
  private buttons(): vscode.QuickInputButton[] {
    if (this.mode === 'pattern') return toggleButtons(this.options);
    const copy = this.run && this.run.state !== 'running' && this.run.report ? [COPY_JSON] : [];
    return [vscode.QuickInputButtons.Back, ...toggleButtons(this.options), ...copy];
  }

  private showPattern(value: string): void {
    this.mode = 'pattern';
    this.pick.title = this.options.include ? `Search Text in Workspace: files to include ${labelText(this.options.include)}` : 'Search Text in Workspace';
    this.pick.placeholder = 'Text to search for (Enter to search, ↑↓ for recent searches, Alt+C/W/R toggle the options)';
    clearTimeout(this.refineTimer);
    this.pick.buttons = toggleButtons(this.options);
    this.pick.busy = false;
    this.pick.keepScrollPosition = false;
    this.pick.ignoreFocusOut = false;
    this.pattern = value;
    this.pick.value = value;
    this.pick.items = patternItems(value, this.options, this.history);
  }

  // ----- files to include: its own quick pick, so its input has the focus

  private async editInclude(): Promise<void> {
    this.pattern = this.pick.value;
    const include = await this.aside.during(() => pickInclude(this.options.include, this.includeHistory));
    if (include !== undefined) {
      this.options = { ...this.options, include: include.trim() };
      await this.state.update(OPTIONS_KEY, this.options);
      if (this.options.include) await this.includeHistory.add(this.options.include);
    }
    this.showPattern(this.pattern);
  }

  // ----- events

  private onValue(value: string): void {
    if (this.mode === 'pattern') {
      this.pattern = value;
      this.pick.items = patternItems(value, this.options, this.history);
    } else if (value === '') {
      // An emptied input is back at the start: recent searches.
      this.cancelRun();
      this.showPattern('');
    } else if (value === this.run?.search.pattern) {
      clearTimeout(this.refineTimer); // typed back to what is shown
    } else {
      this.refine(value);
    }
  }

  /** Typing in the results searches for what is typed, with the same options, once the keys pause. */
  private refine(value: string, delay = REFINE_DELAY_MS): void {
    clearTimeout(this.refineTimer);
    this.refineTimer = setTimeout(() => {
      this.refineTimer = undefined;
      if (this.disposed || this.mode !== 'results') return;
      const problem = patternProblem(value, this.options);
      if (problem) this.pick.title = labelText(problem);
      else void this.search({ pattern: value, ...this.options }, false);
    }, delay);
  }

  private async onAccept(): Promise<void> {
    const item = this.pick.selectedItems[0] ?? this.pick.activeItems[0];
    if (this.mode === 'pattern') {
      if (item?.recent) {
        const { pattern, ...options } = item.recent;
        this.options = options;
        await this.search({ pattern, ...options });
      } else if (this.pick.value) {
        await this.search({ pattern: this.pick.value, ...this.options });
      }
    } else if (this.refineTimer || this.pick.value !== this.run?.search.pattern) {
      clearTimeout(this.refineTimer);
      this.refineTimer = undefined;
      await this.search({ pattern: this.pick.value, ...this.options });
    } else if (item?.match) {
      if (this.run) await this.history.add(this.run.search);
      this.pick.hide();
      await openMatch(item.match.file, item.match.line, this.run?.regex, false);
    }
  }

  private async onButton(button: vscode.QuickInputButton): Promise<void> {
    if (button === vscode.QuickInputButtons.Back) {
      this.cancelRun();
      this.showPattern(this.run?.search.pattern ?? this.pattern);
      return;
    }
    if (button === COPY_JSON && this.run?.report) {
      await copyJson(printGrep(this.run.report), plural(this.run.report.totalResults, 'matching line'));
      return;
    }
    const option = (button as OptionButton).option;
    if (option === 'include') {
      this.cancelRun();
      await this.editInclude();
    } else if (option) {
      await this.toggle(option);
    }
  }

  private async onItemButton(item: Item, button: vscode.QuickInputButton): Promise<void> {
    if (button === OPEN_TO_SIDE && item.match) {
      await openMatch(item.match.file, item.match.line, this.run?.regex, true);
    } else if (button === REMOVE_FROM_HISTORY && item.recent) {
      await this.history.remove(item.recent);
      this.pick.items = patternItems(this.pick.value, this.options, this.history);
    }
  }

  // ----- searching

  /** Runs a search and lists its results; `record` keeps it in the recent searches (Enter, not typing). */
  private async search(search: RecentSearch, record = true): Promise<void> {
    const generation = ++this.generation;
    const regex = this.regexOf(search);
    if (!regex) return;
    const input = grepInput(search, readMaxResults());
    const source = new vscode.CancellationTokenSource();
    const env = environment(this.services, source.token);
    const what = `Search for ${quote(search.pattern)}`;
    if (!(await this.allowOutside(input, env, what)) || generation !== this.generation || this.disposed) {
      source.dispose(); // refused, closed, or another search started meanwhile
      return;
    }
    if (record) await this.history.add(search);
    await this.state.update(OPTIONS_KEY, this.options);
    this.cancelRun(); // the search it refines
    const run = this.startRun(search, input, regex, source, what);
    this.log.info(`command grep ${JSON.stringify(input)}${env.allowOutside ? ' (outside the workspace, confirmed)' : ''}`);
    try {
      await this.execute(run, env);
    } finally {
      run.finish();
      source.dispose();
    }
    if (this.run === run && this.mode === 'results') this.showResults(run);
  }

  /** The search's line regex (to highlight and open matches), or undefined after telling the person why it is invalid. */
  private regexOf(search: RecentSearch): RegExp | undefined {
    try {
      return lineRegex(search.pattern, search);
    } catch (error) {
      const message = `${errorText(error)} ${REGEX_ADVICE}`;
      this.log.warn(`command grep ${JSON.stringify(search.pattern)}: ${message}`);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
  }

  /** A base outside the workspace is searched once the person confirmed it (once per base while the picker is open). */
  private async allowOutside(input: GrepInput, env: SearchEnvironment, what: string): Promise<boolean> {
    const outside = await outsideBases(input.path, env);
    if (!outside.length) return true;
    const asked = outside.some((base) => !this.confirmed.has(base));
    if (asked && !(await this.aside.during(() => confirmOutside(outside, what, env, this.log)))) return false;
    for (const base of outside) this.confirmed.add(base);
    env.allowOutside = true;
    return true;
  }

  /** The run's record, and the picker switched to its (still empty) results. */
  private startRun(search: RecentSearch, input: GrepInput, regex: RegExp, source: vscode.CancellationTokenSource, what: string): Run {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const run: Run = { search, input, regex, source, started: Date.now(), items: [], files: 0, results: 0, state: 'running', finished, finish };
    this.run = run;
    this.pattern = search.pattern;
    if (this.mode === 'pattern') this.pick.value = search.pattern; // a recent search; in the results it is what is typed
    this.mode = 'results';
    this.pick.title = `Searching for ${labelText(quote(search.pattern))}…`;
    this.pick.buttons = this.buttons();
    this.pick.items = [];
    this.pick.keepScrollPosition = true;
    this.pick.ignoreFocusOut = true; // clicking Cancel in the progress notification must not close the results
    this.pick.busy = true;
    this.showProgress(run, what);
    return run;
  }

  /** Searches, adding results to the picker as they come; the run ends done, cancelled or failed (said in the log). */
  private async execute(run: Run, env: SearchEnvironment): Promise<void> {
    try {
      const report = await this.services.runSearch(() =>
        answerGrep(parseGrepInput(run.input), env, { onFile: (entry) => this.addResults(run, entry), pathOrder: true }),
      );
      run.report = report;
      run.state = 'done';
      // The definitions of the page's lines arrive with the report (engine/run/grep.ts, outlinePage).
      for (const item of run.items) if (item.result) item.description = resultDescription(item.result.where, item.result.line);
      this.log.info(
        `command grep done: base ${JSON.stringify(report.basePaths)}, ${report.filesSearched} files searched, ${report.filesMatched} matched, ` +
          `${report.totalResults} matching lines (${report.returnedResults} shown), skipped ${JSON.stringify(report.skipped)}, ` +
          `first result after ${run.firstResultMs ?? '-'} ms, ${report.elapsedMs} ms${report.timedOut ? ', timed out' : ''}`,
      );
    } catch (error) {
      if (error instanceof CancelledError || run.source.token.isCancellationRequested) {
        run.state = 'cancelled';
        this.log.info(
          `command grep cancelled after ${Date.now() - run.started} ms: ${plural(run.results, 'matching line')} in ${plural(run.files, 'file')} so far`,
        );
      } else {
        run.state = 'failed';
        this.log.warn(`command grep failed: ${errorText(error)}`);
        if (this.run === run) this.showPattern(run.search.pattern);
        void vscode.window.showErrorMessage(errorText(error));
      }
    }
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
    const added = addResultItems(run, entry);
    if (added === undefined || this.run !== run) return;
    if (run.results === added)
      this.showResults(run); // the first results at once
    else
      this.refreshTimer ??= setTimeout(() => {
        this.refreshTimer = undefined;
        if (this.run === run && this.mode === 'results') this.showResults(run);
      }, RESULTS_REFRESH_MS);
  }

  private showResults(run: Run): void {
    const { title, notes } = resultsHeading(run);
    if (title !== undefined) this.pick.title = title;
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
      this.pick.buttons = this.buttons();
    }
  }
}

/** The search whose quick pick is shown, for the toggle keys. */
let active: SearchTextSession | undefined;

function readMaxResults(): number {
  const cap = vscode.workspace.getConfiguration('grepTools').get<unknown>('maxResultsCap');
  return typeof cap === 'number' && Number.isSafeInteger(cap) && cap >= 1 ? cap : 1000;
}

export function registerSearchText(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, services: Services): vscode.Disposable {
  const history = new History<RecentSearch>(context.workspaceState, 'grepTools.searchText.history', sameSearch);
  const includeHistory = new History<string>(context.workspaceState, 'grepTools.searchText.includeHistory', (a, b) => a === b);
  const toggles = (Object.keys(TOGGLE_COMMANDS) as ToggleOption[]).map((option) =>
    vscode.commands.registerCommand(TOGGLE_COMMANDS[option], () => active?.toggle(option)),
  );
  const search = vscode.commands.registerCommand(SEARCH_TEXT_COMMAND, async () => {
    if (!(await requireFolder())) return;
    const session = new SearchTextSession(context.workspaceState, history, includeHistory, log, services);
    // Like VS Code's find: a selection on one line seeds the pattern.
    const editor = vscode.window.activeTextEditor;
    let seed = '';
    if (editor && !editor.selection.isEmpty && editor.selection.isSingleLine) {
      seed = editor.document.getText(editor.selection);
      if (context.workspaceState.get<Partial<SearchToggles>>(OPTIONS_KEY, {}).regex) seed = escapeRegExp(seed);
    }
    session.start(seed);
  });
  return vscode.Disposable.from(search, ...toggles);
}
