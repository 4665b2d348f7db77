/**
 * Printers: the text the model receives for each tool (docs/tools.md, "Answers"): plain text, its paths
 * relative to a root given once. `renderGrep` / `renderGlob` keep it within the output budget
 * (budget.ts); `printGrep` / `printGlob` print a report whole as JSON with absolute paths (a person's
 * "copy as JSON"). An answer carries no dead weight: zero skip counters, no notes, `truncated`, echoed
 * defaults and timing are left out (`logSummary` gives the log what the answer leaves out).
 */
import * as nodePath from 'path';
import { describeBudget, fitToBudget, type BudgetCut, type OutputBudget } from './budget';
import { describeGrepFinding, type GlobDiagnostics, type GlobFinding, type GrepDiagnostics, type LargeFilesCheck } from './diagnostics';
import type { GrepFileEntry } from '../run/grepCollector';
import type { GlobAnswer } from './globAnswer';
import type { GrepAnswer } from './grepAnswer';
import { rankFiles } from './relevance';
import { clipLine } from '../searcher/searcher';
import type { LineResult, SkipCounts } from '../api/types';

/**
 * A count with its thousands grouped by commas (446,805), as `toLocaleString('en-US')` writes it, without
 * loading ICU's number formats: that takes 86 ms the first time in a process (the extension host's thread).
 */
export function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function basePath(paths: string[]): string | string[] {
  return paths.length === 1 ? paths[0] : paths;
}

/**
 * base_path, unless it repeats the default: a call without `path` (and, for glob, without an absolute
 * pattern, which names its own base) searches all workspace folders.
 */
function baseField(report: GrepAnswer | GlobAnswer): { base_path?: string | string[] } {
  const input = report.input;
  const ownBase =
    input !== undefined && input.path === undefined && !('mode' in report && (input.pattern.startsWith('~') || nodePath.isAbsolute(input.pattern)));
  return ownBase ? {} : { base_path: basePath(report.basePaths) };
}

/** The non-zero skip counters, or nothing when every counter is zero. */
function skippedField(skipped: SkipCounts): { skipped?: Partial<SkipCounts> } {
  const nonZero = Object.fromEntries(Object.entries(skipped).filter(([, count]) => count > 0));
  return Object.keys(nonZero).length > 0 ? { skipped: nonZero } : {};
}

/** The fields every answer ends with: what was cut, skipped or timed out, and the notes, each only when it says something. */
function tail(nextOffset: number | undefined, skipped: SkipCounts, timedOut: boolean, notes: string[]): object {
  return {
    ...(nextOffset !== undefined ? { truncated: true, next_offset: nextOffset } : {}),
    ...skippedField(skipped),
    ...(timedOut ? { timed_out: true } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** The log line of a call: what the answer leaves out (zero counters, timing) stays here. */
export function logSummary(report: GrepAnswer | GlobAnswer): string {
  const searched =
    'filesSearched' in report ? `${report.filesSearched} files searched, ${report.filesMatched} matched${describeOutline(report)}` : `${report.total} files`;
  return `base ${JSON.stringify(basePath(report.basePaths))}, ${searched}, skipped ${JSON.stringify(report.skipped)}, ${report.elapsedMs} ms`;
}

/** What giving the page's lines their definitions, and ordering a cut page, cost, for the log (`, definitions: …` or nothing). */
export function describeOutline(report: GrepAnswer): string {
  const { parsed, cached, ms } = report.outlined ?? { parsed: 0, cached: 0, ms: 0 };
  const outline = parsed + cached > 0 ? `, definitions: ${parsed} files parsed, ${cached} known, ${ms} ms` : '';
  const order = report.ordered;
  return order
    ? `${outline}, cut page ordered: ${order.parsed} files parsed and ${order.cached} known for definitions, ${order.defining} defining, ${order.ms} ms`
    : outline;
}

/**
 * What the content index did for a grep, for the log: how many files it settled without reading them
 * and how many were read, or why every file was read (`hadIndex`: an index was there to consult).
 */
export function describeIndexUse(answer: GrepAnswer, hadIndex: boolean): string {
  const indexed = answer.indexed;
  if (indexed) return `index: ${indexed.settled} files settled, ${indexed.read} read`;
  return hadIndex
    ? 'index: not used, nothing in the pattern narrows the files or invert_match is set: every file read'
    : 'index: none yet, off or still building: every file read';
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

/** The exact input of a call, for a note: `{"pattern":"TODO","offset":50}`. */
function call(input: object): string {
  return JSON.stringify(input);
}

/** What an anchor inside a pattern means (`peg$compute`), said when its literal reading finds what the regex did not. */
function anchorWords(pattern: string): string {
  const words: string[] = [];
  if (/\$./.test(pattern.replace(/\\\$/g, ''))) words.push('$ is an end-of-line anchor');
  if (/.\^/.test(pattern.replace(/\\\^|\[\^/g, ''))) words.push('^ is a start-of-line anchor');
  return words.length ? ` (${words.join(', ')})` : '';
}

/** The checked suggestions for a grep that found nothing (diagnostics.ts), most likely fix first. */
function grepSuggestions(d: GrepDiagnostics, include: string | undefined, pattern: string): string[] {
  const notes: string[] = [];
  if (d.caseInsensitive)
    notes.push(
      `The search is case-sensitive; ignoring case it matches ${describeGrepFinding(d.caseInsensitive)}. Call again with ${call(d.caseInsensitive.call)}.`,
    );
  if (d.fixedStrings)
    notes.push(
      `As a regular expression the pattern matches nothing${anchorWords(pattern)}; as literal text it matches ${describeGrepFinding(d.fixedStrings)}. Call again with ${call(d.fixedStrings.call)}.`,
    );
  if (d.deeperInclude)
    notes.push(
      `The include glob ${JSON.stringify(include)} is matched from the search path; ${JSON.stringify(d.deeperInclude.call.include)} at any depth matches ${describeGrepFinding(d.deeperInclude)}. Call again with ${call(d.deeperInclude.call)}.`,
    );
  if (d.includeIgnored?.lines)
    notes.push(
      `Files left out by .gitignore, files.exclude or search.exclude hold matches: ${describeGrepFinding(d.includeIgnored)}. Call again with ${call(d.includeIgnored.call)} to search them.`,
    );
  else if (d.includeIgnored?.unchecked)
    notes.push(
      `Files left out by .gitignore, files.exclude or search.exclude were not checked: the search had ${thousands(d.includeIgnored.unchecked.searched)} files, too many to list again with them on an empty answer. Call again with ${call(d.includeIgnored.call)} to search them.`,
    );
  else if (d.includeIgnored)
    notes.push(
      `Files left out by .gitignore, files.exclude or search.exclude are too many to check here; the first ones hold no match. Call again with ${call(d.includeIgnored.call)} to search them all.`,
    );
  return notes;
}

/** The note of an answer the output budget cut: what is shown, and the exact call that continues. */
function budgetNote(cut: BudgetCut, unit: string, offset: number, total: number, input: object | undefined, tooBig: string): string {
  const next = offset + cut.shown;
  const again = input ? `Call again with ${call({ ...input, offset: next })}` : `Call again with offset ${next}`;
  if (cut.shown === 0) return `Output budget reached (${describeBudget(cut.budget)}): the next result alone is larger than the budget. ${again} and ${tooBig}.`;
  return `Output budget reached (${describeBudget(cut.budget)}): showing ${cut.shown} of ${total} ${unit} (${offset + 1}-${next}). ${again} to continue.`;
}

/** Matching files a cut page names at most. */
const HIDDEN_NAMED = 5;

/**
 * The note of a cut page that leaves matching files out: how many, the most relevant with their counts
 * (and the first matching line of those the search looked up), and the calls that list them all.
 */
function hiddenFilesNote(report: GrepAnswer, maxBytes: number): string | undefined {
  if (report.outputMode === 'files_with_matches') return undefined;
  const shown = new Set(report.files.map((entry) => (typeof entry === 'string' ? entry : entry.file)));
  const hidden = report.matched.filter((entry) => !shown.has(entry.file));
  const unknown = Math.max(0, report.filesMatched - report.matched.length);
  if (hidden.length === 0) return undefined;
  const total = hidden.length + unknown;
  const { offset: _offset, max_results: _max, context_lines: _c, before_lines: _b, after_lines: _a, ...plain } = report.input ?? { pattern: report.pattern };
  const all = `All of them: ${call({ ...plain, output_mode: 'files_with_matches' })}, or "count" for lines per file.`;
  // Named while the note stays within its share of the output budget: a tight budget keeps the results.
  const named: string[] = [];
  const note = () =>
    `${total} more matching file${total === 1 ? ' is' : 's are'} not on this page${named.length ? `: ${named.join(', ')}` : ''}${total > named.length && named.length ? ` and ${total - named.length} more` : ''}. ${all}`;
  for (const { file, count } of rankFiles(hidden, report.pattern, HIDDEN_NAMED)) {
    const first = report.firstLines?.get(file);
    named.push(`${file} (${count}${first ? `; ${first.line}: ${JSON.stringify(clipLine(first.text.trim(), 100))}` : ''})`);
    if (Buffer.byteLength(note()) > maxBytes) {
      named.pop();
      break;
    }
  }
  return Buffer.byteLength(note()) <= maxBytes ? note() : undefined;
}

/** The share of the output budget a cut page's hidden-files note may take (bytes; a token is about 3). */
function hiddenNoteBytes(cut: BudgetCut | undefined): number {
  if (!cut) return Number.POSITIVE_INFINITY;
  return Math.floor((cut.budget.kind === 'bytes' ? cut.budget.limit : cut.budget.limit * 3) / 4);
}

/** "8.9 MB", "512 KB": a size as a note gives it. */
function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The note of the check of the files over the size limit: which hold matches, where the first is. */
function largeFilesNote(check: LargeFilesCheck, empty: boolean): string | undefined {
  if (check.checked.length === 0) return undefined;
  const size = (bytes: number | undefined) => (bytes === undefined ? '' : `${describeSize(bytes)}, `);
  // A first line equal to the one named before it (a bundle and its copy) is not quoted twice.
  let previous: string | undefined;
  const matching = check.checked.flatMap(({ file, size: bytes, first }) => {
    if (!first) return [];
    const text = JSON.stringify(clipLine(first.text.trim(), 100));
    const quoted = text === previous ? 'the same text' : text;
    previous = text;
    return [`${file} (${size(bytes)}first at line ${first.line}: ${quoted})`];
  });
  const searched = check.checked.filter((finding) => finding.checked).length;
  const unchecked = check.checked.length - searched + (check.skipped - check.checked.length);
  const without = searched - matching.length;
  const skipped = `${check.skipped} file${check.skipped === 1 ? ' was' : 's were'} skipped as over grepTools.maxFileSize (${check.limit} bytes)`;
  const counts = [without > 0 ? `${without} without a match` : '', unchecked > 0 ? `${unchecked} not checked` : ''].filter(Boolean).join(', ');
  // A cut answer mentions them only when they hold the pattern; an empty one says they were checked.
  if (matching.length === 0) return empty ? `${skipped}; checked, ${counts}.` : undefined;
  return (
    `${skipped}; the pattern occurs in ${matching.join(', ')}${counts ? ` (${counts})` : ''}. ` +
    `Read ${matching.length === 1 ? 'it' : 'them'} there with your file-reading tool, or ask the user to raise grepTools.maxFileSize.`
  );
}

/**
 * The notes of a grep. In the model's answer (`inAnswer`) an empty answer's "No matches in N files
 * searched" is left out: `files`, `files_searched` and `skipped` say it; a person's list says it in words.
 */
export function grepNotes(report: GrepAnswer, cut?: BudgetCut, inAnswer = false): string[] {
  const notes: string[] = [];
  const unit = report.outputMode === 'content' ? 'matches' : 'files';
  if (report.timedOut) {
    notes.push(
      `The search timed out after ${Math.round(report.elapsedMs / 1000)} s; results and totals cover only the files searched before then. Narrow it with path or include.`,
    );
  }
  if (report.totalResults === 0) {
    if (report.candidates === 0 && report.include) {
      notes.push(`The include glob ${JSON.stringify(report.include)} matched no file under the search path${describeSkips(report.skipped)}.`);
    } else if (!inAnswer) {
      notes.push(`No matches in ${report.filesSearched} files searched${describeSkips(report.skipped)}.`);
    }
    if (report.diagnostics) notes.push(...grepSuggestions(report.diagnostics, report.include, report.pattern));
  } else if (cut) {
    const tooBig = report.outputMode === 'content' ? 'fewer context_lines, or output_mode "files_with_matches"' : 'a narrower path';
    notes.push(budgetNote(cut, unit, report.offset, report.totalResults, report.input, tooBig));
  } else if (report.returnedResults === 0) {
    notes.push(`offset ${report.offset} is past the last result: there are ${report.totalResults} ${unit}. Use an offset below that.`);
  } else if (report.nextOffset !== undefined) {
    notes.push(pageNote(unit, report.offset, report.returnedResults, report.totalResults, report.nextOffset));
  }
  const hidden = report.nextOffset !== undefined || cut ? hiddenFilesNote(report, hiddenNoteBytes(cut)) : undefined;
  if (hidden) notes.push(hidden);
  const large = report.largeFilesCheck && largeFilesNote(report.largeFilesCheck, report.totalResults === 0);
  if (large) notes.push(large);
  const unread = unreadableNote(report.skipped, 'searched', 'matches');
  if (unread) notes.push(unread);
  return notes;
}

/**
 * What an answer that could not read everything it should have says, so its totals are not taken as the
 * whole: files or directories that failed to open or read (no permission, gone while searching, the
 * system short of file descriptors for longer than the reads wait).
 */
function unreadableNote(skipped: SkipCounts, verb: string, totals: string): string | undefined {
  const count = skipped.unreadable;
  if (!count) return undefined;
  return `${count} ${count === 1 ? 'file or directory' : 'files or directories'} could not be read (no permission, removed meanwhile, or no file descriptor left), so what they hold was not ${verb} and the ${totals} cover only the rest.`;
}

/** The first `shown` results of a page (content: matching lines, possibly part of a file's; else files). */
function firstResults(report: GrepAnswer, shown: number): GrepFileEntry[] {
  if (report.outputMode !== 'content') return report.files.slice(0, shown);
  const files: GrepFileEntry[] = [];
  let left = shown;
  for (const entry of report.files) {
    if (left <= 0 || typeof entry !== 'object' || !('matches' in entry)) break;
    files.push(entry.matches.length <= left ? entry : { file: entry.file, matches: entry.matches.slice(0, left) });
    left -= entry.matches.length;
  }
  return files;
}

/**
 * A file's reported lines in the compact form: "42: text" for a result, "41- text" for a context line
 * (as grep and ripgrep print them), in line order; context windows are already merged by the searcher.
 * With definitions (searcher/outline.ts): a result that defines a name the pattern matches reads
 * "42 def: text", and a row "class A › method()" (not starting with a digit) names the definitions
 * enclosing the results after it, written when they change (once per run of lines in the same
 * definitions), "… > m()" when the outermost one is the row before's; "top level" when a result after
 * such a row is in none.
 */
export function compactLines(matches: readonly LineResult[]): string[] {
  const lines: string[] = [];
  let scope: string | undefined;
  let outermost: string | undefined;
  for (const match of matches) {
    if (match.in !== scope) {
      lines.push(match.in === undefined ? 'top level' : sharedOutermost(match.in, outermost));
      scope = match.in;
      outermost = match.in?.split(' > ')[0];
    }
    const before = match.before ?? [];
    before.forEach((text, i) => lines.push(`${match.line - before.length + i}- ${text}`));
    lines.push(`${match.line}${match.defines ? ' def' : ''}: ${match.text}`);
    (match.after ?? []).forEach((text, i) => lines.push(`${match.line + 1 + i}- ${text}`));
  }
  return lines;
}

/** A row of definitions in the same outermost one as the row before it: "… > seal()" after "Compilation > finish()". */
function sharedOutermost(chain: string, outermost: string | undefined): string {
  return outermost !== undefined && chain.startsWith(`${outermost} > `) ? `…${chain.slice(outermost.length)}` : chain;
}

/**
 * A page's entries as the answer prints them: `files_with_matches` a list of paths; `content` and `count`
 * an object from each path to its compact lines or its count, in the page's order. A path names a file
 * once on a page, and JSON keeps the order of an object's keys as written.
 */
function printedFiles(report: GrepAnswer): string[] | Record<string, string[] | number> {
  const files = report.files;
  if (report.outputMode === 'files_with_matches') return files.map((entry) => (typeof entry === 'string' ? entry : entry.file));
  const byFile: Record<string, string[] | number> = {};
  for (const entry of files) {
    if (typeof entry === 'object') byFile[entry.file] = 'matches' in entry ? compactLines(entry.matches) : entry.count;
  }
  return byFile;
}

/** The report as it reads when the budget let only `cut.shown` of its results through. */
function cutGrep(report: GrepAnswer, cut: BudgetCut | undefined): GrepAnswer {
  if (!cut) return report;
  return { ...report, files: firstResults(report, cut.shown), returnedResults: cut.shown, nextOffset: report.offset + cut.shown };
}

/**
 * The answer's fields. The model's answer (`echo` false) leaves out the pattern: it is the call's own
 * input, and the answer is tied to its call; its bytes pay for the definitions (docs/tools.md). A
 * person's copy (printGrep) names it.
 */
function grepFields(whole: GrepAnswer, cut: BudgetCut | undefined, echo = false): Record<string, unknown> {
  const report = cutGrep(whole, cut);
  const truncated = report.nextOffset !== undefined;
  // A whole answer (one page, not cut) shows every result: its line and file counts would repeat it.
  const partial = truncated || report.offset > 0;
  const totals =
    report.outputMode === 'content'
      ? partial
        ? { total_matches: report.totalResults, returned_matches: report.returnedResults }
        : {}
      : report.outputMode === 'count'
        ? { total_matches: report.totalMatches, ...(partial ? { returned_files: report.returnedResults } : {}) }
        : partial
          ? { returned_files: report.returnedResults }
          : {};
  return {
    ...(echo ? { pattern: report.pattern } : {}),
    ...baseField(report),
    ...(report.outputMode !== 'content' ? { output_mode: report.outputMode } : {}),
    files: printedFiles(report),
    ...totals,
    ...(partial ? { files_matched: report.filesMatched } : {}),
    files_searched: report.filesSearched,
    ...tail(report.nextOffset, report.skipped, report.timedOut, grepNotes(report, cut, true)),
  };
}

/** A path's separator as the path spells it: '/' for POSIX paths and a virtual file system's, else '\'. */
function separatorOf(path: string): string {
  return path.startsWith('/') || !path.includes('\\') ? '/' : '\\';
}

/**
 * The directory the model's answer names its paths relative to (docs/tools.md, "Answers"): the workspace
 * folder, or the deepest directory holding every folder of a multi-root workspace. None when they share
 * only the file system's root (or a drive's, or nothing): the answer's paths are then absolute.
 */
export function answerRoot(folders: readonly string[] | undefined): string | undefined {
  if (!folders || folders.length === 0) return undefined;
  const sep = separatorOf(folders[0]);
  const trim = (path: string) => (path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path);
  let root = trim(folders[0]);
  for (const folder of folders.slice(1).map(trim)) {
    while (folder !== root && !folder.startsWith(root + sep)) {
      const cut = root.lastIndexOf(sep);
      if (cut <= 0) return undefined;
      root = root.slice(0, cut);
    }
  }
  // "/", "C:" or "C:\": a file system's root names nothing shorter than the absolute paths.
  return root.lastIndexOf(sep) < 0 || root === sep || /^[A-Za-z]:\\?$/.test(root) ? undefined : root;
}

/** A path below `root` as the answer names it (`root` + separator + the result is the path); any other path whole. */
function belowRoot(root: string | undefined, path: string): string {
  if (root === undefined) return path;
  if (path === root) return '.';
  const prefix = root + separatorOf(root);
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** A path on a line of its own; one that holds a line break (or starts with a quote) is written as a JSON string. */
function pathLine(path: string): string {
  return /[\n\r]/.test(path) || path.startsWith('"') ? JSON.stringify(path) : path;
}

/** A note with the paths below `root` named from it; a path inside a call (after a quote) stays whole, as the call takes it. */
function noteBelowRoot(root: string | undefined, note: string): string {
  if (root === undefined) return note;
  const prefix = root + separatorOf(root);
  return note.replace(new RegExp(`(?<!")${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g'), '');
}

/** A result spanning lines (`multiline`) as one row a line: `2: first`, then `3+ second`, `4+ third`. */
function continuedLines(row: string): string[] {
  if (!row.includes('\n')) return [row];
  const first = Number(/^\d+/.exec(row)?.[0] ?? 0);
  return row.split('\n').map((text, i) => (i === 0 ? text : `${first + i}+ ${text}`));
}

/**
 * The model's answer as plain text (docs/tools.md, "Answers"): `root: /ws` and one `key: value` line per
 * field the answer carries; then, after an empty line, the files: in `content` mode each file as its
 * path and its lines, files apart by an empty line; `count` (and glob's `mtime`) a `path: value` line
 * each; otherwise a path a line. Last, after an empty line, each note as `note: …`. `truncated` is left
 * out: `next_offset` says it.
 */
function plainText(answer: Record<string, unknown>, root: string | undefined): string {
  const path = (p: string) => pathLine(belowRoot(root, p));
  const head = root === undefined ? [] : [`root: ${pathLine(root)}`];
  const body: string[] = [];
  let notes: string[] = [];
  for (const [key, value] of Object.entries(answer)) {
    if (key === 'files') {
      if (Array.isArray(value)) {
        if (value.length > 0) body.push('', ...(value as string[]).map(path));
        continue;
      }
      const entries = Object.entries(value as Record<string, string[] | number | string>);
      for (const [file, rows] of entries) {
        if (Array.isArray(rows)) body.push('', path(file), ...rows.flatMap(continuedLines));
        else body.push(...(body.length === 0 ? [''] : []), `${path(file)}: ${rows}`);
      }
    } else if (key === 'notes') notes = value as string[];
    else if (key === 'truncated') continue;
    else if (key === 'base_path') for (const base of [value as string | string[]].flat()) head.push(`base_path: ${path(base)}`);
    else if (key === 'skipped')
      head.push(
        `skipped: ${Object.entries(value as Record<string, number>)
          .map(([kind, count]) => `${kind} ${count}`)
          .join(', ')}`,
      );
    else head.push(`${key}: ${String(value)}`);
  }
  const noteLines = notes.map((note) => `note: ${noteBelowRoot(root, note)}`);
  return [...head, ...body, ...(noteLines.length > 0 ? ['', ...noteLines] : [])].join('\n');
}

/** The whole report as JSON, whatever its size (the Command Palette's "copy as JSON"). */
export function printGrep(report: GrepAnswer): string {
  return JSON.stringify(grepFields(report, undefined, true));
}

/** The text the model receives: the report within the output budget, its paths below the workspace's root. */
export async function renderGrep(report: GrepAnswer, budget: OutputBudget): Promise<string> {
  const root = answerRoot(report.folders);
  return (await fitToBudget(report.returnedResults, (shown, cut) => plainText(grepFields(report, cut), root), budget)).text;
}

function globFound(finding: GlobFinding): string {
  const more = finding.total > finding.first.length ? ', …' : '';
  return `${finding.total} file${finding.total === 1 ? '' : 's'} (${finding.first.join(', ')}${more})`;
}

/** The checked suggestions for a glob that found nothing (diagnostics.ts). */
function globSuggestions(d: GlobDiagnostics, maxDepth: number | undefined): string[] {
  const notes: string[] = [];
  if (d.caseInsensitive)
    notes.push(
      `Glob patterns are case-sensitive; ignoring case the pattern matches ${globFound(d.caseInsensitive)}. Use those paths, or spell the pattern as they are spelled.`,
    );
  if (d.withoutMaxDepth)
    notes.push(
      `max_depth ${maxDepth} stops above them; at any depth the pattern matches ${globFound(d.withoutMaxDepth)}. Call again with ${call(d.withoutMaxDepth.call)}.`,
    );
  if (d.includeIgnored)
    notes.push(
      `Files left out by .gitignore, files.exclude or search.exclude match: ${globFound(d.includeIgnored)}. Call again with ${call(d.includeIgnored.call)} to list them.`,
    );
  return notes;
}

/** Directories named at most in a note. */
const DIRECTORIES_NAMED = 12;

/**
 * What a glob answer says of the directories its pattern matches: with no file, that they are
 * directories and the call that lists their files; beside a one-level listing, its subdirectories.
 */
function directoriesNote(report: GlobAnswer): string | undefined {
  const directories = report.directories ?? [];
  if (directories.length === 0) return undefined;
  const input = report.input ?? { pattern: report.pattern };
  const listing = call({ ...input, pattern: `${input.pattern.replace(/\/+$/, '')}/**` });
  const more = directories.length > DIRECTORIES_NAMED ? `, and ${directories.length - DIRECTORIES_NAMED} more` : '';
  const count = `${directories.length} director${directories.length === 1 ? 'y' : 'ies'}`;
  if (report.total === 0) {
    const named = directories.slice(0, DIRECTORIES_NAMED).map((d) => `${d.path} (${d.files} file${d.files === 1 ? '' : 's'})`);
    return `${JSON.stringify(report.pattern)} matches ${count}, and glob lists files only: ${named.join(', ')}${more}. List their files with ${listing}.`;
  }
  const named = directories.slice(0, DIRECTORIES_NAMED).map((d) => `${d.relative}/ (${d.files})`);
  return `Not listed, as glob lists files only: ${count} (files in each): ${named.join(', ')}${more}. List their files with ${listing}.`;
}

export function globNotes(report: GlobAnswer, cut?: BudgetCut): string[] {
  const notes: string[] = [];
  if (report.listingTimedOut) {
    notes.push(
      `The call timed out after ${Math.round(report.elapsedMs / 1000)} s, before the listing of the paths under the base path had finished: no path was tested, so files and total are empty. Narrow it with path.`,
    );
  } else if (report.namesWaited) {
    notes.push(
      `The call timed out after ${Math.round(report.elapsedMs / 1000)} s before a search thread was free to test the pattern (other calls held every one): no path was tested, so files and total are empty. Ask again once those calls have finished.`,
    );
  } else if (report.timedOut && report.mode === 'regex') {
    notes.push(
      `The regex timed out after ${Math.round(report.elapsedMs / 1000)} s; files and total cover only the paths tested before then. Simplify it: nested quantifiers such as (a+)+ try exponentially many ways on a path that almost matches.`,
    );
  } else if (report.timedOut) {
    notes.push(
      `The call timed out after ${Math.round(report.elapsedMs / 1000)} s; files and total cover only the paths tested before then. Narrow it with path.`,
    );
  }
  if (report.total === 0 && !report.timedOut) {
    const directories = directoriesNote(report);
    if (directories) {
      notes.push(directories);
    } else if (report.deeperMatches) {
      notes.push(
        `${JSON.stringify(report.pattern)} matches only directly in the base directory and found nothing there; "**/${report.pattern}" finds ${report.deeperMatches} files at any depth.`,
      );
    } else {
      notes.push(`No file matches ${JSON.stringify(report.pattern)} under the base path${describeSkips(report.skipped)}.`);
    }
    if (report.diagnostics) notes.push(...globSuggestions(report.diagnostics, report.input?.max_depth));
  } else if (cut) {
    notes.push(budgetNote(cut, 'files', report.offset, report.total, report.input, 'a narrower path'));
  } else if (report.files.length === 0 && report.offset > 0) {
    notes.push(`offset ${report.offset} is past the last result: there are ${report.total} files. Use an offset below that.`);
  } else if (report.nextOffset !== undefined) {
    notes.push(pageNote('files', report.offset, report.files.length, report.total, report.nextOffset));
  }
  const directories = report.total > 0 ? directoriesNote(report) : undefined;
  if (directories) notes.push(directories);
  const unread = unreadableNote(report.skipped, 'listed', 'files');
  if (unread) notes.push(unread);
  return notes;
}

/** A modification time as the answer gives it: UTC, to the second ("2026-11-23T18:00:49Z"). */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The answer's fields; as grep's (grepFields), the model's answer leaves out the pattern, a person's copy names it. */
function globFields(whole: GlobAnswer, cut: BudgetCut | undefined, echo = false): Record<string, unknown> {
  const report = cut ? { ...whole, files: whole.files.slice(0, cut.shown), nextOffset: whole.offset + cut.shown } : whole;
  return {
    ...(echo ? { pattern: report.pattern } : {}),
    ...(report.mode !== 'glob' ? { mode: report.mode } : {}),
    ...baseField(report),
    files: report.mtimes ? Object.fromEntries(report.files.map((file) => [file, isoSeconds(report.mtimes!.get(file) ?? 0)])) : report.files,
    // A whole page lists every match: its total would repeat it.
    ...(report.nextOffset !== undefined || report.offset > 0 || report.files.length !== report.total ? { total: report.total } : {}),
    ...tail(report.nextOffset, report.skipped, report.timedOut, globNotes(report, cut)),
  };
}

/** The whole report as JSON, whatever its size. */
export function printGlob(report: GlobAnswer): string {
  return JSON.stringify(globFields(report, undefined, true));
}

/** The text the model receives: the report within the output budget, its paths below the workspace's root. */
export async function renderGlob(report: GlobAnswer, budget: OutputBudget): Promise<string> {
  const root = answerRoot(report.folders);
  return (await fitToBudget(report.files.length, (shown, cut) => plainText(globFields(report, cut), root), budget)).text;
}
