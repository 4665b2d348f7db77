/** The results of a Command Palette search: one run's items, added as files are searched, and the title and notes that sum it up. */
import * as vscode from 'vscode';
import { grepNotes } from '../../../engine/answer/printer';
import type { GrepInput, LineResult } from '../../../engine/api/types';
import type { GrepReport } from '../../../engine/run/grep';
import type { GrepFileEntry } from '../../../engine/run/grepCollector';
import { OPEN_TO_SIDE, uriOf, type ResourceItem } from '../shared';
import { labelText, plural, quote, resultLabel, type RecentSearch } from '../text';

export interface Item extends ResourceItem {
  /** The pattern mode's first item: what is typed. */
  typed?: boolean;
  recent?: RecentSearch;
  match?: { file: string; line: number };
  /** A result's line and file, described again once the page's definitions are known (resultDescription). */
  result?: { line: LineResult; where: string };
}

/** One search of the session: what it searches, its results so far and how it ended. */
export interface Run {
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

/** Adds a file's matching lines to the run's items (one per line, a separator between files): how many, or undefined for an entry without lines. */
export function addResultItems(run: Run, entry: GrepFileEntry): number | undefined {
  if (typeof entry === 'string' || !('matches' in entry)) return undefined;
  run.firstResultMs ??= Date.now() - run.started;
  const uri = uriOf(entry.file);
  const where = vscode.workspace.asRelativePath(uri);
  if (run.items.length) run.items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  for (const match of entry.matches as LineResult[]) {
    run.items.push({
      label: resultLabel(match.text, run.regex, run.search.pattern),
      description: resultDescription(where, match),
      iconPath: vscode.ThemeIcon.File,
      resourceUri: uri,
      alwaysShow: true,
      buttons: [OPEN_TO_SIDE],
      match: { file: entry.file, line: match.line },
      result: { line: match, where },
    });
  }
  run.files++;
  run.results += entry.matches.length;
  return entry.matches.length;
}

/** The title of the results (undefined: leave it) and the notes below them, for the run as it stands. */
export function resultsHeading(run: Run): { title?: string; notes: string[] } {
  let title: string | undefined;
  const pattern = labelText(quote(run.search.pattern));
  const found = `${plural(run.results, 'result')} in ${plural(run.files, 'file')}`;
  const notes: string[] = [];
  if (run.state === 'running') {
    title = `Searching for ${pattern}… ${found}`;
  } else if (run.state === 'cancelled') {
    title = `Search for ${pattern} cancelled: ${found} so far`;
    notes.push(`The search was cancelled after ${Date.now() - run.started} ms; these are the results found until then.`);
  } else if (run.report) {
    const report = run.report;
    const shown = report.nextOffset !== undefined ? `, first ${report.returnedResults} shown` : '';
    title =
      `${pattern}: ${plural(report.totalResults, 'result')} in ${plural(report.filesMatched, 'file')}${shown} ` +
      `(${plural(report.filesSearched, 'file')} searched, ${report.elapsedMs} ms)`;
    if (report.totalResults === 0 || report.timedOut) notes.push(...grepNotes(report));
    if (report.nextOffset !== undefined) {
      notes.push(
        `Showing the first ${report.returnedResults} of ${report.totalResults} matching lines (grepTools.maxResultsCap). Narrow the search with Files to Include.`,
      );
    }
  }
  return { title, notes };
}

/** Where a result is: its file and line, the definitions it is in and whether it defines the name (searcher/outline.ts). */
export function resultDescription(where: string, match: LineResult): string {
  return `${where}:${match.line}${match.in ? ` · ${match.in}` : ''}${match.defines ? ' · definition' : ''}`;
}
