/** Printers: the JSON text the model receives for each tool (SPEC §3, §4). */
import type { GlobReport } from './glob';
import type { GrepReport } from './grep';
import type { SkipCounts } from './types';

function basePath(paths: string[]): string | string[] {
  return paths.length === 1 ? paths[0] : paths;
}

function describeSkips(skipped: SkipCounts): string {
  const parts: string[] = [];
  if (skipped.binary) parts.push(`${skipped.binary} binary`);
  if (skipped.too_large) parts.push(`${skipped.too_large} over the size limit`);
  if (skipped.denied) parts.push(`${skipped.denied} denied by policy`);
  if (skipped.unreadable) parts.push(`${skipped.unreadable} unreadable`);
  if (skipped.outside_workspace) parts.push(`${skipped.outside_workspace} outside the workspace (symlinks)`);
  return parts.length ? `; skipped ${parts.join(', ')}` : '';
}

function pageNote(what: string, offset: number, returned: number, total: number, next: number | undefined): string {
  return `Showing ${what} ${offset + 1}-${offset + returned} of ${total}. Call again with offset ${next} for more, or narrow the search.`;
}

export function grepNotes(report: GrepReport): string[] {
  const notes: string[] = [];
  const unit = report.outputMode === 'content' ? 'matches' : 'files';
  if (report.timedOut) {
    notes.push(`The search timed out after ${Math.round(report.elapsedMs / 1000)} s; results and totals cover only the files searched before then. Narrow it with path or include.`);
  }
  if (report.totalResults === 0) {
    if (report.candidates === 0 && report.include) {
      notes.push(`The include glob ${JSON.stringify(report.include)} matched no file under the search path${describeSkips(report.skipped)}.`);
    } else {
      notes.push(`No matches in ${report.filesSearched} files searched${describeSkips(report.skipped)}.`);
    }
  } else if (report.returnedResults === 0) {
    notes.push(`offset ${report.offset} is past the last result: there are ${report.totalResults} ${unit}. Use an offset below that.`);
  } else if (report.nextOffset !== undefined) {
    notes.push(pageNote(unit, report.offset, report.returnedResults, report.totalResults, report.nextOffset));
  }
  return notes;
}

export function printGrep(report: GrepReport): string {
  const totals =
    report.outputMode === 'content'
      ? { total_matches: report.totalResults, returned_matches: report.returnedResults }
      : report.outputMode === 'count'
        ? { total_matches: report.totalMatches, returned_files: report.returnedResults }
        : { returned_files: report.returnedResults };
  return JSON.stringify({
    pattern: report.pattern,
    base_path: basePath(report.basePaths),
    output_mode: report.outputMode,
    files: report.files,
    ...totals,
    files_searched: report.filesSearched,
    files_matched: report.filesMatched,
    truncated: report.nextOffset !== undefined,
    ...(report.nextOffset !== undefined ? { next_offset: report.nextOffset } : {}),
    skipped: report.skipped,
    ...(report.timedOut ? { timed_out: true } : {}),
    elapsed_ms: report.elapsedMs,
    notes: grepNotes(report),
  });
}

export function globNotes(report: GlobReport): string[] {
  const notes: string[] = [];
  if (report.total === 0) {
    if (report.deeperMatches) {
      notes.push(`${JSON.stringify(report.pattern)} matches only directly in the base directory and found nothing there; "**/${report.pattern}" finds ${report.deeperMatches} files at any depth.`);
    } else {
      notes.push(`No file matches ${JSON.stringify(report.pattern)} under the base path${describeSkips(report.skipped)}.`);
    }
  } else if (report.files.length === 0) {
    notes.push(`offset ${report.offset} is past the last result: there are ${report.total} files. Use an offset below that.`);
  } else if (report.nextOffset !== undefined) {
    notes.push(pageNote('files', report.offset, report.files.length, report.total, report.nextOffset));
  }
  return notes;
}

export function printGlob(report: GlobReport): string {
  return JSON.stringify({
    pattern: report.pattern,
    mode: report.mode,
    base_path: basePath(report.basePaths),
    files: report.files,
    count: report.files.length,
    total: report.total,
    truncated: report.nextOffset !== undefined,
    ...(report.nextOffset !== undefined ? { next_offset: report.nextOffset } : {}),
    skipped: report.skipped,
    elapsed_ms: report.elapsedMs,
    notes: globNotes(report),
  });
}
