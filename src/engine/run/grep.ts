/** The grep tool's engine: validated input → files from a source → searcher → one report in stable order. */
import type { EngineConfig } from '../api/config';
import { checkLargeFiles, diagnoseGrep, explainInvalidPattern, firstLinesOfHidden, type GrepDiagnostics, type LargeFilesCheck } from '../answer/diagnostics';
import { filterCandidates, filterStream, includeToGlob, type FileSource, type PrunedEntry } from '../source/fileSource';
import { authorize, type Access, type GuardContext } from '../guard/guard';
import { checkSearchGlob } from '../guard/globInput';
import type { ReadScope } from '../guard/scope';
import { compileGlob } from '../globset/globs';
import { compileMatcher, InvalidPatternError } from '../matcher/matcher';
import type { ReadOutcome } from '../searcher/reader';
import type { SearchBase, WorkspaceFolder } from '../guard/roots';
import { GREP_SCHEMA, validate } from '../input/schema';
import type { FileOutcome, SearchPool, SearchSpec } from '../pool/pool';
import { compilePrefilter, searchBytes, searchText } from '../searcher/searcher';
import type { MatchedFile } from './relevance';
import { emptySkips, type Candidate, type GrepInput, type LineResult, type OutputMode, type SkipCounts } from '../api/types';
import type { UntitledDocument } from '../guard/untitled';
import type { SearchIndex } from '../index/prejudge';

export class CancelledError extends Error {
  constructor() {
    super('The search was cancelled.');
    this.name = 'CancelledError';
  }
}

export interface SearchEnvironment {
  folders: readonly WorkspaceFolder[];
  source: FileSource;
  config: EngineConfig;
  readFile(path: string, maxSize: number, scope?: ReadScope): Promise<ReadOutcome>;
  /** A path outside every workspace folder may be searched (the person confirmed it). */
  allowOutside: boolean;
  /** With allowOutside: the real path the person confirmed; the call is refused if the path now leads elsewhere (guard.ts). */
  confirmedTarget?: string;
  /** How this caller gets the person's confirmation, told to the model when an outside path is refused. */
  outsideHint?: string;
  isCancelled(): boolean;
  /**
   * Subscribes to the cancellation (as a VS Code CancellationToken's onCancellationRequested): a search
   * then stops at once instead of at its next check of isCancelled().
   */
  onCancelled?(listener: () => void): { dispose(): void };
  /** Workers that read and search files off this thread; without it, files are read with readFile here. */
  pool?: SearchPool;
  /**
   * Content to search instead of reading the file, by absolute path: the text of open editors with
   * unsaved changes, or a reader of a file on a virtual file system (`workspace.fs`; undefined when it
   * cannot be read). Such a file is still listed and filtered as usual; only its read is replaced (its
   * content is then searched in the pool, like any file).
   */
  overrides?: ReadonlyMap<string, string | (() => Promise<Uint8Array | undefined>)>;
  /**
   * Open untitled editors (never saved): searched, from their text, only when `path` names one
   * (untitled.ts); a search of the workspace or a directory never includes them.
   */
  untitled?: readonly UntitledDocument[];
  /** Writes a line to the log (VS Code's output channel, the CLI's stderr): what a search skipped and why. */
  warn?(message: string): void;
  /**
   * A content index (index/prejudge.ts): files it knows to be unchanged and unable to match (or binary,
   * or too large) are counted as they would be without being read; the answer stays the same.
   */
  index?: SearchIndex;
}

/** A `warn` that writes each distinct line once (an empty answer's checks search again, and meet the same ignore files). */
export function onceEach(write: (message: string) => void): (message: string) => void {
  const seen = new Set<string>();
  return (message) => {
    if (!seen.has(message)) write(message);
    seen.add(message);
  };
}

export type GrepFileEntry =
  | { file: string; matches: LineResult[] }
  | { file: string; count: number }
  | string;

export interface GrepReport {
  pattern: string;
  basePaths: string[];
  outputMode: OutputMode;
  files: GrepFileEntry[];
  /** content: reported lines; count: sum of counts; files_with_matches: matching files. */
  totalResults: number;
  returnedResults: number;
  totalMatches: number;
  filesSearched: number;
  filesMatched: number;
  candidates: number;
  offset: number;
  nextOffset?: number;
  skipped: SkipCounts;
  timedOut: boolean;
  elapsedMs: number;
  include?: string;
  /** The validated input, for notes that give the exact call to make next. */
  input?: GrepInput;
  /** With zero results: what a changed search would find (diagnostics.ts). */
  diagnostics?: GrepDiagnostics;
  /** With an index that could narrow the search: files it settled without reading them, and files read. */
  indexed?: { settled: number; read: number };
  /** Every matching file with its matching lines, in report order (at most MAX_MATCHED_FILES). */
  matched: MatchedFile[];
  /** The first matching line of the files a cut page names first (diagnostics.ts). */
  firstLines?: ReadonlyMap<string, { line: number; text: string }>;
  /** The first files skipped as over grepTools.maxFileSize (at most MAX_LARGE_FILES). */
  largeFiles: string[];
  /** An empty or cut answer: whether the pattern occurs in the files over the size limit (diagnostics.ts). */
  largeFilesCheck?: LargeFilesCheck;
}

/** Matching files kept for a cut page's note, and large files kept for their check: enough, and bounded. */
const MAX_MATCHED_FILES = 10_000;
const MAX_LARGE_FILES = 20;

/** What the guard needs to know of this environment: folders, policy, the file source's stat, untitled editors. */
export function guardContext(env: SearchEnvironment): GuardContext {
  return { folders: env.folders, config: env.config, kind: (absolute) => env.source.kind(absolute), untitled: env.untitled };
}

/**
 * The guard's decision for `path` in this environment (guard.ts, docs/tools.md "Permissions and limits"): the bases to search and where
 * symlinks may lead, or the untitled editor it names, or an InputError (denied by policy, outside the
 * workspace without confirmation, not found). Nothing is opened or listed before it says yes.
 */
export function authorizeSearch(path: string | undefined, env: SearchEnvironment): Promise<Access> {
  return authorize(path, { ...guardContext(env), allowOutside: env.allowOutside, outsideHint: env.outsideHint, confirmedTarget: env.confirmedTarget });
}

export function resultLimit(requested: number | undefined, config: EngineConfig): number {
  return Math.min(requested ?? config.maxResults, config.maxResultsCap);
}

/** Checked before anything is listed or read: an include cannot climb out of the base ('../x', '/etc/*'). */
function checkFilterGlobs(filter: { include?: string; exclude?: string }): void {
  if (filter.include !== undefined) checkSearchGlob(filter.include, 'include');
  if (filter.exclude !== undefined) checkSearchGlob(filter.exclude, 'exclude');
}

/**
 * The candidate files of a search, in stable order: streamed from the source when it can (the CLI's
 * walker: searching starts while the walk goes on), else listed, filtered and sorted first.
 */
export async function openCandidates(
  bases: SearchBase[],
  filter: { include?: string; exclude?: string; includeIgnored: boolean; granted?: readonly string[]; deadline?: { at: number; expired: boolean } },
  env: SearchEnvironment,
  skipped: SkipCounts,
): Promise<Iterable<Candidate>> {
  checkFilterGlobs(filter);
  const pruned: PrunedEntry[] = [];
  const query = {
    bases,
    include: includeToGlob(filter.include),
    includeIgnored: filter.includeIgnored,
    respectGitignore: env.config.respectGitignore && !filter.includeIgnored,
    granted: filter.granted,
    allowed: env.config.allowedPaths,
    warn: env.warn,
  };
  const candidateFilter = { include: filter.include, exclude: filter.exclude, denied: env.config.deniedPaths, allowed: env.config.allowedPaths, pruned, deadline: filter.deadline };
  if (env.source.stream) return filterStream(bases, env.source.stream(query, env.config.deniedPaths, pruned, env.isCancelled), candidateFilter, skipped);
  const perBase = await env.source.list(query, env.config.deniedPaths, pruned, env.isCancelled);
  if (env.isCancelled()) throw new CancelledError();
  return filterCandidates(bases, perBase, candidateFilter, skipped);
}

/**
 * The one candidate of a search of an untitled editor: the document, named by its URI and matched by
 * its name against include and exclude (as a file base's own name is); none when they leave it out.
 */
function untitledCandidates(document: UntitledDocument, filter: { include?: string; exclude?: string }): Candidate[] {
  checkFilterGlobs(filter);
  const included = filter.include === undefined || compileGlob(filter.include, 'include')(document.name);
  const excluded = filter.exclude !== undefined && compileGlob(filter.exclude, 'exclude')(document.name);
  return included && !excluded ? [{ path: document.uri, relative: document.name }] : [];
}

/** What one search reads, once the guard said yes. */
interface SearchTarget {
  /** The answer's base_path: the bases, or the untitled editor's URI. */
  basePaths: string[];
  /** Where symlinks may lead (`Access.granted`); none for an untitled editor. */
  granted: string[];
  candidates: Iterable<Candidate>;
  /** Content searched instead of reading a candidate's path (`SearchEnvironment.overrides`). */
  overrides?: ReadonlyMap<string, string | (() => Promise<Uint8Array | undefined>)>;
}

/** The files below the granted bases, or the one untitled editor `path` named, searched from its text. */
async function searchTarget(
  access: Access,
  filter: { include?: string; exclude?: string; includeIgnored: boolean; deadline?: { at: number; expired: boolean } },
  env: SearchEnvironment,
  skipped: SkipCounts,
): Promise<SearchTarget> {
  if (access.kind === 'untitled') {
    const { document } = access;
    const candidates = untitledCandidates(document, filter);
    return { basePaths: [document.uri], granted: [], candidates, overrides: new Map(candidates.map((candidate) => [candidate.path, document.text()])) };
  }
  const candidates = await openCandidates(access.bases, { ...filter, granted: access.granted }, env, skipped);
  return { basePaths: access.bases.map((base) => base.base), granted: access.granted, candidates, overrides: env.overrides };
}

/** How many files are being read and searched ahead of the one the report is waiting for. */
const READ_AHEAD_INLINE = 16;
const READ_AHEAD_POOL = 384;
/** Files per batch sent to a worker: enough to amortise the messages, few enough to keep both workers busy to the end. */
const BATCH_SIZE = 48;

/** How often cancellation is checked when the environment cannot signal it (no onCancelled). */
const CANCEL_POLL_MS = 25;

/**
 * Watches the time limit and cancellation while a search runs: `onStop` is called once, at once, when
 * either comes (the pool then terminates the workers busy with this search).
 */
export function stopWatch(deadline: number, env: SearchEnvironment, onStop: () => void) {
  let reason: 'timeout' | 'cancelled' | undefined;
  const fire = (why: 'timeout' | 'cancelled') => {
    if (reason) return;
    reason = why;
    onStop();
  };
  const timer = setTimeout(() => fire('timeout'), Math.max(0, deadline - Date.now()));
  const cancellation = env.onCancelled
    ? env.onCancelled(() => fire('cancelled'))
    : setInterval(() => env.isCancelled() && fire('cancelled'), CANCEL_POLL_MS);
  return {
    reason: () => reason,
    dispose: () => {
      clearTimeout(timer);
      if ('dispose' in cancellation) cancellation.dispose();
      else clearInterval(cancellation);
    },
  };
}

/**
 * Settles as `work` does, or rejects with CancelledError as soon as the environment signals the
 * cancellation: the caller gets control back at once while `work` winds down in the background.
 */
export function unlessCancelled<T>(work: Promise<T>, env: SearchEnvironment): Promise<T> {
  if (!env.onCancelled) return work;
  return new Promise<T>((resolve, reject) => {
    const subscription = env.onCancelled!(() => reject(new CancelledError()));
    if (env.isCancelled()) reject(new CancelledError());
    work.then(resolve, reject).finally(() => subscription.dispose());
  });
}

/** Optional progress of runGrep: the Command Palette search shows results as they are found. */
export interface GrepProgress {
  /** Called with each entry as it is added to the report's files (in report order). */
  onFile?(entry: GrepFileEntry): void;
}

/** Runs one grep; a cancelled one rejects with CancelledError (at once when the environment signals it). */
export function runGrep(rawInput: unknown, env: SearchEnvironment, progress?: GrepProgress): Promise<GrepReport> {
  return unlessCancelled(searchGrep(rawInput, env, progress), env);
}

async function searchGrep(rawInput: unknown, env: SearchEnvironment, progress?: GrepProgress): Promise<GrepReport> {
  const started = Date.now();
  const input = validate<GrepInput>('grep', GREP_SCHEMA, rawInput);
  let matcher: ReturnType<typeof compileMatcher>;
  try {
    matcher = compileMatcher(input.pattern, input);
  } catch (error) {
    // An invalid regex that is valid literal text: the error says what the literal finds.
    throw error instanceof InvalidPatternError ? await explainInvalidPattern(error, input, env, started + env.config.timeoutSeconds * 1000, runGrep) : error;
  }
  const mode: OutputMode = input.output_mode ?? 'content';
  const offset = input.offset ?? 0;
  const limit = resultLimit(input.max_results, env.config);
  const deadline = started + env.config.timeoutSeconds * 1000;
  const skipped = emptySkips();

  const access = await authorizeSearch(input.path, env);
  // Testing include / exclude against the listed names shares the time limit (fileSource.ts).
  const filterDeadline = { at: deadline, expired: false };
  const { basePaths, granted, candidates, overrides } = await searchTarget(
    access,
    { include: input.include, exclude: input.exclude, includeIgnored: input.include_ignored === true, deadline: filterDeadline },
    env,
    skipped,
  );

  const spec: SearchSpec = {
    pattern: input.pattern,
    matcher: input,
    maxFileSize: env.config.maxFileSize,
    scope: { granted, denied: env.config.deniedPaths, allowed: env.config.allowedPaths },
    search: {
      invert: input.invert_match === true,
      before: input.before_lines ?? input.context_lines ?? 0,
      after: input.after_lines ?? input.context_lines ?? 0,
      // files_with_matches needs one hit per file; the others need exact counts.
      maxPerFile: mode === 'files_with_matches' ? 1 : (input.max_matches_per_file ?? Number.MAX_SAFE_INTEGER),
      maxLineLength: env.config.maxLineLength,
      collect: mode === 'content',
    },
  };
  // In the pool's workers when there is one, a batch at a time; otherwise here, through env.readFile.
  const poolSearch = env.pool?.search(spec);
  const prefilter = poolSearch ? undefined : compilePrefilter(matcher);
  // One file on its own: an override's content (read here, searched in the pool when there is one, so
  // the time limit can stop the regex) or, without a pool, a file read and searched here.
  const searchOne = async (candidate: Candidate, collect: boolean): Promise<FileOutcome> => {
    const options = { ...spec.search, collect: collect && spec.search.collect };
    const override = overrides?.get(candidate.path);
    if (override !== undefined) {
      const content = typeof override === 'string' ? override : await override();
      if (content === undefined) return 'unreadable';
      if ((typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength) > env.config.maxFileSize) return 'too_large';
      if (poolSearch) return (await poolSearch.batch([{ path: candidate.path, content }], collect))[0];
      return typeof content === 'string' ? searchText(content, matcher, options) : searchBytes(content, matcher, undefined, options);
    }
    const read = await env.readFile(candidate.path, env.config.maxFileSize, spec.scope);
    if (read.kind !== 'bytes') return read.kind;
    return searchBytes(read.bytes, matcher, prefilter, options);
  };
  const readAhead = poolSearch ? READ_AHEAD_POOL : READ_AHEAD_INLINE;
  // Outcomes the index already knows (never for an untitled editor, nor for an override's content).
  const prejudge = access.kind === 'untitled' ? undefined : env.index?.prejudge({ matcher, invert: spec.search.invert, maxFileSize: spec.maxFileSize });
  const indexed = prejudge ? { settled: 0, read: 0 } : undefined;

  const files: GrepFileEntry[] = [];
  let totalResults = 0;
  let totalMatches = 0;
  let filesSearched = 0;
  let filesMatched = 0;
  let timedOut = false;
  const matched: MatchedFile[] = [];
  const largeFiles: string[] = [];
  const stop = stopWatch(deadline, env, () => poolSearch?.abort());
  // Files being searched ahead of the one the report waits for, in order, as chunks: a batch in the
  // pool, or one file on its own (an override, or no pool). At most readAhead files.
  const pending: Array<{ files: string[]; outcomes: Promise<FileOutcome[]> }> = [];
  let head = 0;
  let ahead = 0;
  const next = candidates[Symbol.iterator]();
  let listed = 0;
  let exhausted = false;
  const queue = (chunk: { files: string[]; outcomes: Promise<FileOutcome[]> }) => {
    chunk.outcomes.catch(() => {}); // awaited below; a stopped search rejects the rest
    pending.push(chunk);
    ahead += chunk.files.length;
  };
  // Files for the pool, sent BATCH_SIZE at a time; all from one pass of the loop below, so one `collect`.
  let batch: string[] = [];
  let collect = true;
  // Files the index settled, queued as one chunk between reads; at most one of `batch` and `settled` holds files.
  let settled: { files: string[]; outcomes: FileOutcome[] } = { files: [], outcomes: [] };
  const flushSettled = () => {
    if (settled.files.length === 0) return;
    queue({ files: settled.files, outcomes: Promise.resolve(settled.outcomes) });
    settled = { files: [], outcomes: [] };
  };
  const flush = () => {
    flushSettled();
    if (batch.length === 0) return;
    queue({ files: batch, outcomes: poolSearch!.batch(batch, collect) });
    batch = [];
  };
  try {
    for (;;) {
      if (env.isCancelled() || stop.reason()) break;
      if (Date.now() > deadline) {
        timedOut = true;
        break;
      }
      collect = totalResults < offset + limit;
      while (!exhausted && ahead + batch.length + settled.files.length < readAhead) {
        const item = next.next();
        if (item.done) {
          exhausted = true;
          break;
        }
        listed++;
        const candidate = item.value;
        const known = prejudge && !overrides?.has(candidate.path) ? prejudge(candidate.path) : undefined;
        if (known !== undefined) {
          if (batch.length > 0) flush();
          settled.files.push(candidate.path);
          settled.outcomes.push(known);
          indexed!.settled++;
          continue;
        }
        if (indexed) indexed.read++;
        flushSettled();
        if (poolSearch && !overrides?.has(candidate.path)) {
          batch.push(candidate.path);
          if (batch.length === BATCH_SIZE) flush();
        } else {
          flush();
          queue({ files: [candidate.path], outcomes: searchOne(candidate, collect).then((outcome) => [outcome]) });
        }
      }
      flush();
      if (head === pending.length) break;
      const chunk = pending[head];
      let outcomes: FileOutcome[];
      try {
        outcomes = await chunk.outcomes;
      } catch (error) {
        if (stop.reason()) break; // the pool stopped this search
        throw error;
      }
      if (stop.reason() === 'cancelled') break; // nothing more is reported once the caller has been told
      ahead -= chunk.files.length;
      if (++head > 256) {
        pending.splice(0, head);
        head = 0;
      }
      chunk.files.forEach((file, i) => {
        const outcome = outcomes[i];
        if (typeof outcome === 'string') {
          skipped[outcome]++;
          if (outcome === 'too_large' && largeFiles.length < MAX_LARGE_FILES) largeFiles.push(file);
          return;
        }
        filesSearched++;
        if (outcome === 0 || outcome.count === 0) return;
        filesMatched++;
        if (matched.length < MAX_MATCHED_FILES) matched.push({ file, count: outcome.count });
        totalMatches += outcome.count;
        if (mode === 'content') {
          const from = Math.max(0, offset - totalResults);
          const to = Math.min(outcome.count, offset + limit - totalResults);
          if (from < to) {
            files.push({ file, matches: outcome.lines.slice(from, to) });
            progress?.onFile?.(files[files.length - 1]);
          }
          totalResults += outcome.count;
        } else {
          if (totalResults >= offset && totalResults < offset + limit) {
            files.push(mode === 'count' ? { file, count: outcome.count } : file);
            progress?.onFile?.(files[files.length - 1]);
          }
          totalResults++;
        }
      });
    }
  } finally {
    if (stop.reason() === 'timeout' || filterDeadline.expired) timedOut = true;
    stop.dispose();
    poolSearch?.abort(); // frees the workers from whatever this search still had queued or running
    await Promise.allSettled(pending.slice(head).map((chunk) => chunk.outcomes));
  }
  if (env.isCancelled()) throw new CancelledError();

  const returnedResults = mode === 'content' ? files.reduce((n, f) => n + (f as { matches: LineResult[] }).matches.length, 0) : files.length;
  const end = offset + returnedResults;
  const report: GrepReport = {
    pattern: input.pattern,
    basePaths,
    outputMode: mode,
    files,
    totalResults,
    returnedResults,
    totalMatches,
    filesSearched,
    filesMatched,
    candidates: listed,
    offset,
    nextOffset: end < totalResults ? end : undefined,
    skipped,
    timedOut,
    elapsedMs: Date.now() - started,
    include: input.include,
    input,
    indexed,
    matched,
    largeFiles,
  };
  // Zero results explain themselves: the likely fixes, checked by re-running (diagnostics.ts); a cut
  // page names the first lines of the files it hides first.
  report.diagnostics = await diagnoseGrep(input, report, env, deadline, runGrep);
  report.firstLines = await firstLinesOfHidden(input, report, env, deadline, runGrep);
  report.largeFilesCheck = await checkLargeFiles(input, report, env, deadline, runGrep);
  return report;
}
