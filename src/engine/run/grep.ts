/**
 * The grep tool's run: a validated input (input/schema.ts, at the caller's edge) → the guard's access → candidate files → searched in order
 * (the index settles what it can, the pool reads and searches the rest, a few files ahead) → the
 * collector's page and totals → one report in stable order. The notes of an answer (diagnostics) sit
 * above this module and call it; it never formats.
 */
import { CancelledError } from '../api/errors';
import { emptySkips, type Candidate, type GrepInput, type LineResult, type OutputMode, type SkipCounts } from '../api/types';
import { compileMatcher, type Matcher } from '../matcher/matcher';
import type { FileOutcome, OutlineItem, OutlineOutcome, PoolSearch, SearchSpec } from '../pool/pool';
import type { PrejudgeRequest } from '../index/prejudge';
import { grammarOf, outlineFile } from '../searcher/outline';
import { compilePrefilter, decodeText, pageOptions, searchBytes, searchText } from '../searcher/searcher';
import { searchTarget, type SearchTarget } from './candidates';
import type { FileContent } from '../source/fileSource';
import { stampKey } from '../source/fileStamp';
import { authorizeSearch, type Cancellation, type Corpus, type RunOptions, type SearchEnvironment, type Settings } from './environment';
import { GrepCollector, resultLimit, type GrepFileEntry, type MatchedFile } from './grepCollector';
import { ReadAhead } from './readAhead';
import { stopWatch } from './stop';

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
  /** The search took only the first RunOptions.maxListed candidates: more were listed. */
  listingCut: boolean;
  elapsedMs: number;
  include?: string;
  /** The validated input, for notes that give the exact call to make next. */
  input?: GrepInput;
  /** With an index that could narrow the search: files it settled without reading them, and files read. */
  indexed?: { settled: number; read: number };
  /** Every matching file with its count, in report order (bounded: grepCollector.ts). */
  matched: MatchedFile[];
  /** The first files skipped as over grepTools.maxFileSize (bounded: grepCollector.ts). */
  largeFiles: string[];
  /** Files whose lines were given their definitions: parsed for this search, known from a parse before, and the time it took (summed over the workers). */
  outlined?: { parsed: number; cached: number; ms: number };
}

/** Optional progress of runGrep: the Command Palette search shows results as they are found. */
export interface GrepProgress {
  /** Called with each entry as it is added to the report's files (in report order). */
  onFile?(entry: GrepFileEntry): void;
}

/** How many files are being read and searched ahead of the one the report is waiting for. */
const READ_AHEAD_INLINE = 16;
const READ_AHEAD_POOL = 384;
/** Files per batch sent to a worker: enough to amortise the messages, few enough to keep both workers busy to the end. */
const BATCH_SIZE = 48;

/**
 * Runs one grep of a validated input until `options.deadline`; a cancelled one rejects with
 * CancelledError once it notices (answerGrep returns at once when the environment signals it).
 */
export async function runGrep(input: GrepInput, env: SearchEnvironment, options: RunOptions, progress?: GrepProgress): Promise<GrepReport> {
  const started = Date.now();
  const { deadline } = options;
  const matcher = compileMatcher(input.pattern, input);
  const mode: OutputMode = input.output_mode ?? 'content';
  const offset = input.offset ?? 0;
  const collector = new GrepCollector(mode, offset, resultLimit(input, env.config), emptySkips(), progress?.onFile);

  const access = await authorizeSearch(input.path, env);
  // Testing include / exclude against the listed names shares the time limit (fileSource.ts).
  const filterDeadline = { at: deadline, expired: false };
  const filter = { include: input.include, exclude: input.exclude, includeIgnored: input.include_ignored === true, deadline: filterDeadline };
  const target = await searchTarget(access, filter, env, collector.skipped);
  const spec = searchSpec(input, mode, target.granted, env.config);
  // Outcomes the index already knows (never for an untitled editor, nor for an override's content).
  const prejudge = access.kind === 'untitled' ? undefined : await indexPrejudge({ matcher, invert: spec.search.invert, maxFileSize: spec.maxFileSize, resultsKey: JSON.stringify(spec) }, target, env, deadline);
  const scanned = await scan(target, { spec, matcher, prejudge, deadline, filterDeadline, maxListed: options.maxListed }, env, collector);
  if (env.isCancelled()) throw new CancelledError();
  // The definitions enclosing the page's lines (docs/tools.md, "Definitions"), unless turned off or the lines do not match.
  if (mode === 'content' && env.config.definitions && input.invert_match !== true && !scanned.timedOut) {
    await outlinePage(collector.files, spec, matcher, target, env, collector.outlined);
    if (env.isCancelled()) throw new CancelledError();
  }

  const returnedResults = collector.returnedResults;
  const end = offset + returnedResults;
  return {
    pattern: input.pattern,
    basePaths: target.basePaths,
    outputMode: mode,
    files: collector.files,
    totalResults: collector.totalResults,
    returnedResults,
    totalMatches: collector.totalMatches,
    filesSearched: collector.filesSearched,
    filesMatched: collector.filesMatched,
    candidates: scanned.listed,
    offset,
    nextOffset: end < collector.totalResults ? end : undefined,
    skipped: collector.skipped,
    timedOut: scanned.timedOut,
    listingCut: scanned.listingCut,
    elapsedMs: Date.now() - started,
    include: input.include,
    input,
    indexed: scanned.indexed,
    matched: collector.matched,
    largeFiles: collector.largeFiles,
    outlined: collector.outlined,
  };
}

/** What the workers (or this thread) are told to do with each file. */
function searchSpec(input: GrepInput, mode: OutputMode, granted: string[], config: Settings['config']): SearchSpec {
  return {
    pattern: input.pattern,
    // The matcher's options alone: with the rest below, the spec is what decides a file's outcome (and keys what is remembered of it).
    matcher: { case_insensitive: input.case_insensitive, fixed_strings: input.fixed_strings, word: input.word, multiline: input.multiline },
    maxFileSize: config.maxFileSize,
    scope: { granted, denied: config.deniedPaths, allowed: config.allowedPaths },
    search: {
      invert: input.invert_match === true,
      before: input.before_lines ?? input.context_lines ?? 0,
      after: input.after_lines ?? input.context_lines ?? 0,
      // files_with_matches needs one hit per file; the others need exact counts.
      maxPerFile: mode === 'files_with_matches' ? 1 : (input.max_matches_per_file ?? Number.MAX_SAFE_INTEGER),
      maxLineLength: config.maxLineLength,
      collect: mode === 'content',
      first: mode === 'content',
    },
  };
}

/**
 * What the index knows of a candidate, the one at position `at` of the search's candidates (in the order
 * they are scanned), with room for `pageRoom` more lines on the page; `remember` keeps what reading one
 * gave, for a later search of the same spec (prejudge.ts, RecentResults).
 */
type IndexJudge = ((path: string, at: number, pageRoom: number) => FileOutcome | undefined) & { remember?(at: number, outcome: FileOutcome): void };

/**
 * What the index knows of a search's candidates: when they were listed (not streamed) and there is a
 * pool, each is judged by its position in the list (its id looked up once per list), and in a
 * long-running process the stamps the index needs are taken by the workers first, off this thread.
 */
async function indexPrejudge(request: PrejudgeRequest, target: SearchTarget, corpus: Pick<Corpus, 'index' | 'pool'>, deadline: number): Promise<IndexJudge | undefined> {
  const { index, pool } = corpus;
  if (!index) return undefined;
  const listed = target.candidates;
  if (!pool || !Array.isArray(listed)) return index.prejudge(request);
  // Taking the stamps stops at the time limit; the scan then stops at once, having judged nothing.
  const judgeAt = await index.prejudgeListed(request, listed as Candidate[], (paths) => pool.stamps(paths, deadline));
  if (!judgeAt) return undefined;
  const judge: IndexJudge = (_path, at, pageRoom) => judgeAt(at, pageRoom);
  judge.remember = judgeAt.remember;
  return judge;
}

interface ScanPlan {
  spec: SearchSpec;
  matcher: Matcher;
  prejudge?: IndexJudge;
  deadline: number;
  filterDeadline: { at: number; expired: boolean };
  /** RunOptions.maxListed. */
  maxListed?: number;
}

/** What scanning the candidates takes: the pool or the reader, the size limit, the cancellation. */
type ScanRoles = Cancellation & Pick<Corpus, 'pool' | 'readFile'> & Pick<Settings, 'config'>;

/**
 * Searches the target's candidates in order, each outcome to the collector, until they run out, the
 * time limit passes, plan.maxListed is reached or the caller cancels: how many were listed, whether it
 * timed out or stopped at maxListed, what the index settled.
 */
async function scan(target: SearchTarget, plan: ScanPlan, env: ScanRoles, collector: GrepCollector) {
  // In the pool's workers when there is one, a batch at a time; otherwise here, through env.readFile.
  const poolSearch = env.pool?.search(plan.spec);
  const searchOne = fileSearcher(plan, poolSearch, env);
  const ahead = new ReadAhead(poolSearch ? READ_AHEAD_POOL : READ_AHEAD_INLINE, BATCH_SIZE, poolSearch && ((files, pageRoom) => poolSearch.batch(files, pageRoom)));
  const indexed = plan.prejudge ? { settled: 0, read: 0 } : undefined;
  const stop = stopWatch(plan.deadline, env, () => poolSearch?.abort());
  const next = target.candidates[Symbol.iterator]();
  // The positions of the files read, when their outcomes are remembered for the next search of the same spec.
  const remember = plan.prejudge?.remember;
  const readAt = new Map<string, number>();
  let listed = 0;
  let exhausted = false;
  let timedOut = false;
  let listingCut = false;
  try {
    for (;;) {
      if (env.isCancelled() || stop.reason()) break;
      if (Date.now() > plan.deadline) {
        timedOut = true;
        break;
      }
      ahead.pageRoom = collector.pageRoom;
      while (!exhausted && ahead.hasRoom) {
        const item = next.next();
        if (item.done || listed === plan.maxListed) {
          exhausted = true;
          listingCut = !item.done;
          break;
        }
        listed++;
        const { path } = item.value;
        const content = target.contentOf(path);
        // A count or a list of files needs no lines: a remembered count serves a file on the page too.
        const known = plan.prejudge && content === undefined ? plan.prejudge(path, listed - 1, plan.spec.search.collect ? ahead.pageRoom : 0) : undefined;
        if (known !== undefined) {
          ahead.settled(path, known);
          indexed!.settled++;
          continue;
        }
        if (indexed) indexed.read++;
        if (remember && content === undefined) readAt.set(path, listed - 1);
        if (poolSearch && content === undefined) ahead.batched(path);
        else ahead.one(path, searchOne(item.value, content, ahead.pageRoom));
      }
      ahead.flush();
      const chunk = ahead.peek();
      if (!chunk) break;
      let outcomes: FileOutcome[];
      try {
        outcomes = await chunk.outcomes;
      } catch (error) {
        if (stop.reason()) break; // the pool stopped this search
        throw error;
      }
      if (stop.reason() === 'cancelled') break; // nothing more is reported once the caller has been told
      ahead.take();
      chunk.files.forEach((file, i) => {
        collector.add(file, outcomes[i]);
        const at = remember ? readAt.get(file) : undefined;
        if (at !== undefined) remember!(at, outcomes[i]);
      });
    }
  } finally {
    if (stop.reason() === 'timeout' || plan.filterDeadline.expired) timedOut = true;
    stop.dispose();
    poolSearch?.abort(); // frees the workers from whatever this search still had queued or running
    await ahead.drain();
  }
  return { listed, timedOut, listingCut, indexed };
}

/**
 * How one file is searched on its own: an override's content (read here, searched in the pool when
 * there is one, so the time limit can stop the regex) or, without a pool, a file read and searched here.
 */
function fileSearcher(plan: ScanPlan, poolSearch: PoolSearch | undefined, env: Pick<Corpus, 'readFile'> & Pick<Settings, 'config'>) {
  const { spec, matcher } = plan;
  const prefilter = poolSearch ? undefined : compilePrefilter(matcher);
  return async (candidate: Candidate, override: FileContent | undefined, pageRoom: number): Promise<FileOutcome> => {
    const options = pageOptions(spec.search, pageRoom);
    if (override !== undefined) {
      const content = typeof override === 'string' ? override : await override();
      if (content === undefined) return 'unreadable';
      if ((typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength) > env.config.maxFileSize) return 'too_large';
      if (poolSearch) return (await poolSearch.batch([{ path: candidate.path, content }], pageRoom))[0];
      return typeof content === 'string' ? searchText(content, matcher, options) : searchBytes(content, matcher, undefined, options);
    }
    const read = await env.readFile(candidate.path, env.config.maxFileSize, spec.scope);
    if (read.kind !== 'bytes') return read.kind;
    return searchBytes(read.bytes, matcher, prefilter, options);
  };
}

/** Files of a page outlined in one batch: a few, so both workers share a page. */
const OUTLINE_BATCH = 4;

/**
 * Gives the page's lines their definitions (searcher/outline.ts), once the page is known: only its
 * files in a language with a grammar are read again and parsed, in the pool's workers when there is
 * one (a file's definitions are kept there by its stamp), else here. Counts what it cost in `outlined`.
 */
async function outlinePage(files: GrepFileEntry[], spec: SearchSpec, matcher: Matcher, target: SearchTarget, corpus: Pick<Corpus, 'pool' | 'readFile'>, outlined: { parsed: number; cached: number; ms: number }): Promise<void> {
  const page: Array<{ file: string; matches: LineResult[] }> = [];
  for (const entry of files) if (typeof entry === 'object' && 'matches' in entry && entry.matches.length > 0 && grammarOf(entry.file)) page.push(entry);
  if (page.length === 0) return;
  const items: OutlineItem[] = [];
  for (const entry of page) {
    const override = target.contentOf(entry.file);
    const content = override === undefined ? undefined : typeof override === 'string' ? override : await override();
    const text = content === undefined || typeof content === 'string' ? content : decodeText(content);
    if (override !== undefined && text === undefined) continue;
    items.push({ path: entry.file, lines: entry.matches.map((match) => match.line), ...(text !== undefined ? { content: text } : {}) });
  }
  const outlineSpec = { outline: { pattern: spec.pattern, matcher: spec.matcher, maxFileSize: spec.maxFileSize, scope: spec.scope } };
  let outcomes: OutlineOutcome[];
  if (corpus.pool) {
    const job = corpus.pool.outline(outlineSpec);
    const batches: Array<Promise<OutlineOutcome[]>> = [];
    for (let at = 0; at < items.length; at += OUTLINE_BATCH) batches.push(job.batch(items.slice(at, at + OUTLINE_BATCH)));
    outcomes = (await Promise.all(batches)).flat();
  } else {
    outcomes = [];
    for (const item of items) {
      let source = item.content;
      if (source === undefined) {
        const read = await corpus.readFile(item.path, spec.maxFileSize, spec.scope);
        source = read.kind === 'bytes' ? decodeText(read.bytes) : undefined;
      }
      outcomes.push(source === undefined ? undefined : await outlineFile(item.path, source, item.lines, matcher, item.content === undefined ? stampKey(item.path) : undefined));
    }
  }
  const byFile = new Map(items.map((item, i) => [item.path, outcomes[i]]));
  for (const entry of page) {
    const outcome = byFile.get(entry.file);
    if (!outcome) continue;
    outlined[outcome.cost.parsed ? 'parsed' : 'cached']++;
    outlined.ms += outcome.cost.ms;
    entry.matches.forEach((match, i) => {
      const mark = outcome.marks[i];
      if (mark?.in !== undefined) match.in = mark.in;
      if (mark?.defines) match.defines = true;
    });
  }
}
