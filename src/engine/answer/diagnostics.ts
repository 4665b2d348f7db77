/**
 * The checks behind notes (docs/tools.md, "Notes"), each a search run again with one thing changed,
 * through the same environment (file source, pool, guard) and within what is left of the time limit;
 * the printer turns the findings into notes with the exact call to make.
 *
 * Empty answers: grep: ignoring case; the pattern's literal reading; include_ignored; an include glob
 * anchored at the search path that would match deeper as '**\/include'. glob: ignoring case;
 * include_ignored; without max_depth (glob's '**\/pattern' count is computed by glob.ts itself).
 * Also: an invalid regex's literal reading, the first lines of the files a cut page hides, and the files
 * over the size limit of an empty or cut answer.
 */
import { keepNewest } from '../api/kept';
import { caseInsensitiveGlob } from '../source/audit';
import { runGlob, type GlobReport } from '../run/glob';
import type { RunOptions, SearchEnvironment } from '../run/environment';
import { runGrep, type GrepReport } from '../run/grep';
import { contentOverride } from '../run/candidates';
import { stampText, statStampAsync } from '../source/fileStamp';
import { IGNORED_LISTED_AT_MOST_SEARCHED } from '../index/limits';
import { globRequest } from '../guard/globInput';
import { compileMatcher } from '../matcher/matcher';
import { checkedFileSize, LARGE_FILE_CHECK_MAX_BYTES } from '../api/config';
import { CancelledError, InputError } from '../api/errors';
import { clipLine } from '../searcher/searcher';
import { rankFiles } from './relevance';
import type { GlobInput, GrepInput } from '../api/types';

/** What a changed search finds. */
export interface GrepFinding {
  /** The call that finds it: the original input with the one change (and no offset). */
  call: GrepInput;
  /** Matching lines, and the files holding them. */
  lines: number;
  files: number;
  first?: { file: string; line: number; text: string };
  /**
   * The re-run hit the time limit, or took only the first candidates (the check of files left out by
   * .gitignore and the excludes): the counts are a lower bound, and may be 0.
   */
  partial: boolean;
  /** Not run: the check of the files left out after a search of this many files (over IGNORED_LISTED_AT_MOST_SEARCHED: the note gives the call instead). */
  unchecked?: { searched: number };
}

export interface GrepDiagnostics {
  caseInsensitive?: GrepFinding;
  fixedStrings?: GrepFinding;
  includeIgnored?: GrepFinding;
  deeperInclude?: GrepFinding;
}

export interface GlobFinding {
  call: GlobInput;
  /** Files found, and the first few of them. */
  total: number;
  first: string[];
}

export interface GlobDiagnostics {
  caseInsensitive?: GlobFinding;
  includeIgnored?: GlobFinding;
  withoutMaxDepth?: GlobFinding;
}

/**
 * Re-runs (side by side, so each is slower than the search alone) get a few times what the search itself
 * took, at least 2 s, and never more than what is left of the time limit. One that runs out reports what
 * it found as a lower bound ("at least"), or nothing.
 */
function probeDeadline(deadline: number, started: number): number {
  const now = Date.now();
  return Math.min(deadline, now + Math.max(2000, 4 * (now - started)));
}

/** Runs the probes side by side; a probe that fails (other than by cancellation) just suggests nothing. */
async function allFound<T>(probes: Record<string, Promise<T | undefined> | undefined>): Promise<Record<string, T>> {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([key, promise]) => {
      try {
        return [key, await promise] as const;
      } catch (error) {
        if (error instanceof CancelledError) throw error;
        return [key, undefined] as const;
      }
    }),
  );
  return Object.fromEntries(entries.filter((entry): entry is readonly [string, Awaited<T>] => entry[1] !== undefined));
}

function withoutOffset<T extends { offset?: number }>(input: T): T {
  const { offset: _offset, ...rest } = input;
  return rest as T;
}

const LEADING_FLAGS = /^\(\?[a-zA-Z]+\)/;
const REGEX_SPECIAL = /[()[\]{}|^$*+?\\]/;

/** What the search finds with one change (the call without offset or context, for its first line). */
async function findWith(input: GrepInput, change: Partial<GrepInput>, env: SearchEnvironment, options: RunOptions): Promise<GrepFinding | undefined> {
  const call: GrepInput = withoutOffset({ ...input, ...change });
  const { context_lines: _c, before_lines: _b, after_lines: _a, ...plain } = call;
  // Its first match in path order: a check does not pay for ordering a cut page, nor for definitions (docs/tools.md).
  const found = await runGrep({ ...plain, output_mode: 'content', max_results: 1, offset: 0 }, env, { ...options, definitions: false }, { pathOrder: true });
  // A re-run that took only the first candidates says so even when they hold no match.
  if (found.totalResults === 0 && !found.listingCut) return undefined;
  const entry = found.files[0];
  const first =
    typeof entry === 'object' && 'matches' in entry && entry.matches[0]
      ? { file: entry.file, line: entry.matches[0].line, text: entry.matches[0].text }
      : undefined;
  return { call, lines: found.totalResults, files: found.filesMatched, first, partial: found.timedOut || found.listingCut };
}

/**
 * The check of the files left out by .gitignore and the excludes takes at most this many candidates, or
 * twice the search's own: a large excluded tree (node_modules) is not read on every empty answer.
 */
const EXCLUDED_CHECK_MIN = 1000;

/** The literal text a pattern most likely meant: its escapes of punctuation undone (`$state\(` → `$state(`). */
export function literalReading(pattern: string): string {
  return pattern.replace(/\\([^\w\s])/g, '$1');
}

/** "3 lines in 2 files (first: /ws/a.ts:4 "text")"; "at least" when the check ran out of time. */
export function describeGrepFinding(finding: GrepFinding): string {
  const lines = `${finding.partial ? 'at least ' : ''}${finding.lines} line${finding.lines === 1 ? '' : 's'}`;
  const files = `${finding.files} file${finding.files === 1 ? '' : 's'}`;
  const first = finding.first ? ` (first: ${finding.first.file}:${finding.first.line} ${JSON.stringify(clipLine(finding.first.text.trim(), 100))})` : '';
  return `${lines} in ${files}${first}`;
}

/**
 * An invalid regular expression that is valid literal text: the error, with what the literal finds and
 * the exact call (checked through the same guard and pool), or the error as it was.
 */
export async function explainInvalidPattern(error: InputError, input: GrepInput, env: SearchEnvironment, deadline: number): Promise<InputError> {
  if (input.fixed_strings === true || input.invert_match === true || env.isCancelled()) return error;
  try {
    const finding = await findWith(input, { pattern: literalReading(input.pattern), fixed_strings: true }, env, {
      deadline: probeDeadline(deadline, Date.now()),
    });
    if (!finding) return error;
    return new InputError(
      `${error.message} As literal text the pattern matches ${describeGrepFinding(finding)}. Call again with ${JSON.stringify(finding.call)}.`,
    );
  } catch (failure) {
    if (failure instanceof CancelledError) throw failure;
    return error;
  }
}

/** The changed readings of a grep's pattern an empty answer's notes ask about: ignoring case, and as literal text. */
export function readingChanges(input: GrepInput): { caseInsensitive?: Partial<GrepInput>; fixedStrings?: Partial<GrepInput> } {
  const pattern = input.pattern;
  if (input.invert_match === true) return {};
  const ignoresCase = compileMatcher(pattern, input).ignoreCase;
  const hasCase = pattern.toLowerCase() !== pattern.toUpperCase();
  return {
    ...(!ignoresCase && hasCase ? { caseInsensitive: { case_insensitive: true } } : {}),
    ...(input.fixed_strings !== true && REGEX_SPECIAL.test(pattern) && !LEADING_FLAGS.test(pattern)
      ? { fixedStrings: { pattern: literalReading(pattern), fixed_strings: true } }
      : {}),
  };
}

/**
 * Why a grep found nothing, checked: called by answerGrep (grepAnswer.ts) with the validated input and
 * the zero-result report; each check is a plain runGrep, which never diagnoses itself. A changed reading
 * the search itself counted (its RunOptions.fallbacks: `readingChanges` in that order) is not searched again.
 */
export async function diagnoseGrep(input: GrepInput, report: GrepReport, env: SearchEnvironment, deadline: number): Promise<GrepDiagnostics | undefined> {
  if (report.totalResults !== 0 || report.timedOut || env.isCancelled()) return undefined;
  const started = Date.now() - report.elapsedMs;
  const probe = { deadline: probeDeadline(deadline, started) };
  const readings = readingChanges(input);
  const counted = new Map(Object.values(readings).map((change, i) => [change, report.fallbacks?.[i]]));
  const find = async (change: Partial<GrepInput> | undefined): Promise<GrepFinding | undefined> => {
    if (!change) return undefined;
    const found = counted.get(change);
    if (!found) return findWith(input, change, env, probe);
    return found.lines === 0
      ? undefined
      : { call: withoutOffset({ ...input, ...change }), lines: found.lines, files: found.files, first: found.first, partial: false };
  };

  const include = input.include?.replace(/^\.\//, '');
  const anchoredInclude = include !== undefined && report.candidates === 0 && include.includes('/') && !include.startsWith('**/');
  const found = await allFound<GrepFinding>({
    caseInsensitive: find(readings.caseInsensitive),
    fixedStrings: find(readings.fixedStrings),
    includeIgnored: input.include_ignored === true ? undefined : ignoredFinding(input, report, env, probe),
    deeperInclude: anchoredInclude ? find({ include: `**/${include}` }) : undefined,
  });
  report.elapsedMs = Date.now() - started;
  return Object.keys(found).length > 0 ? (found as GrepDiagnostics) : undefined;
}

/** What the files left out by .gitignore and the excludes hold: only those are read, at most EXCLUDED_CHECK_MIN or twice the search's candidates. */
async function ignoredFinding(input: GrepInput, report: GrepReport, env: SearchEnvironment, probe: RunOptions): Promise<GrepFinding | undefined> {
  if (report.candidates > IGNORED_LISTED_AT_MOST_SEARCHED)
    return { call: withoutOffset({ ...input, include_ignored: true }), lines: 0, files: 0, partial: true, unchecked: { searched: report.candidates } };
  return findWith(input, { include_ignored: true }, env, { ...probe, maxListed: Math.max(EXCLUDED_CHECK_MIN, 2 * report.candidates), onlyIgnored: true });
}

/** A page whose text passes this many bytes may be cut by the output budget inside a chat (about 7.7 KB). */
const PAGE_MAY_BE_CUT_BYTES = 6000;
/** Files whose first matching line a cut page's note gives. */
const FIRST_LINES = 2;

/** Roughly the bytes of a page's results: its lines and paths. */
function pageBytes(report: GrepReport): number {
  let bytes = 0;
  for (const entry of report.files) {
    if (typeof entry !== 'object' || !('matches' in entry)) continue;
    bytes += entry.file.length + 20;
    for (const match of entry.matches)
      bytes += match.text.length + 8 + [...(match.before ?? []), ...(match.after ?? [])].reduce((n, line) => n + line.length + 8, 0);
  }
  return bytes;
}

/**
 * The first matching line of the files a cut first page's note names first (relevance.ts), when the page
 * is cut by max_results or may be cut by the output budget: as the search met it (MatchedFile.first, kept
 * for every matching file in mode content), so nothing is searched again.
 */
export function firstLinesOfHidden(input: GrepInput, report: GrepReport): Map<string, { line: number; text: string }> | undefined {
  // The first page only: a model paging on has seen them.
  if (report.outputMode !== 'content' || report.offset > 0 || report.timedOut || report.matched.length < 2) return undefined;
  if (report.nextOffset === undefined && pageBytes(report) <= PAGE_MAY_BE_CUT_BYTES) return undefined;
  const top = rankFiles(report.matched, input.pattern, FIRST_LINES);
  return new Map(top.flatMap(({ file, first }) => (first ? [[file, first] as const] : [])));
}

/** What the check of a file over grepTools.maxFileSize found. */
export interface LargeFileFinding {
  file: string;
  /** Its size in bytes, when it could be read. */
  size?: number;
  /** Whether it was searched (false: over the check's own size limit). */
  checked: boolean;
  /** Its first matching line, when it was searched and holds the pattern. */
  first?: { line: number; text: string };
}

/** Large-file findings kept, by question, file and stamp (LARGE_FINDINGS_KEPT at most, the oldest let go first). */
const largeFindings = new Map<string, LargeFileFinding>();
const LARGE_FINDINGS_KEPT = 256;

function keepFinding(key: string, finding: LargeFileFinding): void {
  keepNewest(largeFindings, key, finding, LARGE_FINDINGS_KEPT);
}

export interface LargeFilesCheck {
  /** grepTools.maxFileSize, the limit the files are over. */
  limit: number;
  /** Files skipped as too large, in all. */
  skipped: number;
  checked: LargeFileFinding[];
}

/** The size of all the large files checked, at most (each is read whole by a search worker, unless the index settles it)... */
const LARGE_FILES_CHECK_TOTAL_BYTES = 128 * 1024 * 1024;
/**
 * ...for a cut page, which already holds more results than it shows: the note is a hint there, and the
 * check runs after the search, before the answer (128 MB took 0.5 s of a window's first call at 100,000 files).
 */
const LARGE_FILES_CHECK_CUT_BYTES = 32 * 1024 * 1024;

/**
 * When an answer is empty or cut and files were skipped as over grepTools.maxFileSize: whether the
 * pattern occurs in the first few of them, each searched alone in the search workers up to 32 MB (same
 * guard, same time limit), so a definition in a large generated file is not invisible. Each search stops
 * at the file's first matching line, the only one that comes back, never the content. A file the index
 * settles as holding no match is not searched.
 */
export async function checkLargeFiles(input: GrepInput, report: GrepReport, env: SearchEnvironment, deadline: number): Promise<LargeFilesCheck | undefined> {
  const wanted = report.totalResults === 0 || report.nextOffset !== undefined;
  if (!wanted || report.largeFiles.length === 0 || report.offset > 0 || report.timedOut || env.isCancelled()) return undefined;
  // The same search with the check's own size limit (a setting of its own, not the person's).
  const probe: SearchEnvironment = { ...env, config: { ...env.config, maxFileSize: checkedFileSize(env.config.maxFileSize) } };
  const options: RunOptions = { deadline: probeDeadline(deadline, Date.now() - report.elapsedMs), definitions: false };
  const { include: _i, exclude: _e, context_lines: _c, before_lines: _b, after_lines: _a, offset: _o, ...plain } = input;
  const stamps = await Promise.all(report.largeFiles.map((file) => statStampAsync(file)));
  const sizes = stamps.map((stamp) => stamp?.size);
  // The files checked: in report order, while their sizes add up to at most the check's budget.
  let budget = report.totalResults === 0 ? LARGE_FILES_CHECK_TOTAL_BYTES : LARGE_FILES_CHECK_CUT_BYTES;
  const files = report.largeFiles.filter((_, i) => (budget -= Math.min(sizes[i] ?? LARGE_FILE_CHECK_MAX_BYTES, LARGE_FILE_CHECK_MAX_BYTES)) >= 0);
  // What this check found in a file unchanged since, for the same question, is not searched again.
  const question = JSON.stringify([plain, probe.config.maxFileSize]);
  // What the index knows of them (it holds files up to the check's size): one it settles as holding no
  // match is checked without a search of its own (which would authorize, list and judge it again).
  const known = env.index?.prejudge({
    matcher: compileMatcher(input.pattern, input),
    invert: input.invert_match === true,
    maxFileSize: probe.config.maxFileSize,
  });
  const check = async (file: string): Promise<LargeFileFinding> => {
    const stamp = stamps[report.largeFiles.indexOf(file)];
    const size = stamp?.size;
    const onDisk = contentOverride(env, file) === undefined;
    if (known && onDisk && known(file) === 0) return { file, size, checked: true };
    const key = stamp && onDisk ? `${question}\n${file}\n${stampText(stamp)}` : undefined;
    const kept = key === undefined ? undefined : largeFindings.get(key);
    if (kept) return kept;
    const found = await runGrep({ ...plain, path: file, output_mode: 'content', max_results: 1, max_matches_per_file: 1 }, probe, options, { pathOrder: true });
    if (found.filesSearched === 0) return { file, size, checked: false };
    const entry = found.files[0];
    const first = typeof entry === 'object' && 'matches' in entry ? entry.matches[0] : undefined;
    const finding: LargeFileFinding = { file, size, checked: true, first: first && { line: first.line, text: first.text } };
    // (a search cut short by the time limit found nothing for sure: not kept)
    if (key !== undefined && !found.timedOut) keepFinding(key, finding);
    return finding;
  };
  const found = await allFound<LargeFileFinding>(Object.fromEntries(files.map((file) => [file, check(file)])));
  return { limit: env.config.maxFileSize, skipped: report.skipped.too_large, checked: files.filter((file) => found[file]).map((file) => found[file]) };
}

/** Why a glob found nothing, checked: called by answerGlob (globAnswer.ts) with the validated input and zero-result report. */
export async function diagnoseGlob(input: GlobInput, report: GlobReport, env: SearchEnvironment, deadline: number): Promise<GlobDiagnostics | undefined> {
  if (report.total !== 0 || report.timedOut || env.isCancelled()) return undefined;
  const started = Date.now() - report.elapsedMs;
  const probe = { deadline: probeDeadline(deadline, started) };
  const find = async (change: Partial<GlobInput>): Promise<GlobFinding | undefined> => {
    const call: GlobInput = withoutOffset({ ...input, ...change });
    const found = await runGlob({ ...call, max_results: 3, offset: 0 }, env, probe);
    return found.total === 0 ? undefined : { call, total: found.total, first: found.files };
  };
  const mode = input.mode ?? 'glob';
  // An absolute glob's base stays as it is; only the part matched below it ignores case.
  const { pattern, path } = globRequest(input.pattern, input.path, mode);
  const folded = caseInsensitiveGlob(pattern);
  const found = await allFound<GlobFinding>({
    caseInsensitive: mode === 'glob' && folded !== pattern ? find({ pattern: folded, path }) : undefined,
    includeIgnored: input.include_ignored !== true ? find({ include_ignored: true }) : undefined,
    withoutMaxDepth: (input.max_depth ?? 0) > 0 ? find({ max_depth: 0 }) : undefined,
  });
  report.elapsedMs = Date.now() - started;
  return Object.keys(found).length > 0 ? (found as GlobDiagnostics) : undefined;
}
