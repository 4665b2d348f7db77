/**
 * The grep tool's run: a validated input (input/schema.ts, at the caller's edge) → the guard's access → candidate files → searched in order
 * (the index settles what it can, the pool reads and searches the rest, a few files ahead) → the
 * collector's page and totals → one report in stable order. The notes of an answer (diagnostics) sit
 * above this module and call it; it never formats.
 */
import { CancelledError } from '../api/errors';
import { emptySkips, type Candidate, type GrepInput, type LineResult, type OutputMode, type SkipCounts } from '../api/types';
import { compileMatcher, type Matcher } from '../matcher/matcher';
import type { FileOutcome, OutlineItem, OutlineOutcome, OutlineSpec, PoolSearch, SearchSpec } from '../pool/pool';
import { servesPage, type ListedPrejudge, type PrejudgeRequest } from '../index/prejudge';
import { grammarOf, outlineItem, OUTLINE_MAX_BYTES, sourceOfRead, type SourceText } from '../searcher/outline';
import { compilePattern, decodeText, pageOptions, searchWithFallbacks, type CompiledPattern, type FileMatches } from '../searcher/searcher';
import { searchTarget, type SearchTarget } from './candidates';
import { ArrivingCandidates } from '../source/arriving';
import type { FileContent } from '../source/fileSource';
import { stampKey } from '../source/fileStamp';
import { authorizeSearch, type Cancellation, type Corpus, type RunOptions, type SearchEnvironment, type Settings } from './environment';
import { GrepCollector, resultLimit, type FallbackFound, type GrepFileEntry, type MatchedFile } from './grepCollector';
import { byGroup, concat, firstOf, KINDS, namedAfter, pathGroup } from './pageOrder';
import { EarlyOutlines } from './earlyOutlines';
import { ReadAhead } from './readAhead';
import { stopWatch } from './stop';

export interface GrepReport {
  pattern: string;
  basePaths: string[];
  /** The workspace folders: the model's answer names paths relative to the directory they share (printer.ts, answerRoot). */
  folders?: string[];
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
  /**
   * What each of RunOptions.fallbacks finds, in their order: known when the search read every file it
   * counted and searched each one without a match for them too (SearchSpec.fallbacks), else absent.
   */
  fallbacks?: FallbackFound[];
  /** With an index that could narrow the search: files it settled without reading them, and files read. */
  indexed?: { settled: number; read: number };
  /** Every matching file with its count, in report order (bounded: grepCollector.ts). */
  matched: MatchedFile[];
  /** The first files skipped as over grepTools.maxFileSize (bounded: grepCollector.ts). */
  largeFiles: string[];
  /** Files whose lines were given their definitions: parsed for this search, known from a parse before, and the time it took (summed over the workers). */
  outlined?: { parsed: number; cached: number; ms: number };
  /** A cut page's order (pageOrder.ts): files parsed to learn whether they define the name, known from before, found defining, and the time. */
  ordered?: OrderCost;
}

/** What ordering a cut page cost: files whose definitions were parsed or known, those found defining the name, the time (summed over the workers). */
export interface OrderCost {
  parsed: number;
  cached: number;
  defining: number;
  ms: number;
}

/** Optional progress of runGrep: the Command Palette search shows results as they are found. */
export interface GrepProgress {
  /** Called with each entry as it is added to the report's files (in report order). */
  onFile?(entry: GrepFileEntry): void;
  /**
   * Keep the results in path order, each given to onFile as soon as it is found (the Command Palette),
   * rather than ordering a cut page once the search is over (docs/tools.md, "Order of the results").
   */
  pathOrder?: boolean;
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
  const limit = resultLimit(input, env.config);
  // When more lines match than a page holds, they are ordered once the search is over (pageOrder.ts);
  // the search keeps the page's lines in path order, which is the answer when they all fit.
  const definitions = mode === 'content' && env.config.definitions && options.definitions !== false && input.invert_match !== true;
  const ordered = definitions && progress?.pathOrder !== true;
  // The page's files start being parsed for their definitions as they are found, while the page is the
  // path order's: once more lines match than a page holds, the page is cut (and ordered) after the search.
  let outlineFound: ((entry: GrepFileEntry) => void) | undefined;
  const collector: GrepCollector = new GrepCollector(
    mode,
    offset,
    limit,
    emptySkips(),
    ordered ? (entry) => collector.totalResults <= limit && outlineFound?.(entry) : progress?.onFile,
  );
  if (ordered) collector.all = [];

  const access = await authorizeSearch(input.path, env);
  // Testing include / exclude against the listed names shares the time limit (fileSource.ts).
  const filterDeadline = { at: deadline, expired: false };
  const filter = {
    include: input.include,
    exclude: input.exclude,
    includeIgnored: input.include_ignored === true,
    onlyIgnored: options.onlyIgnored,
    deadline: filterDeadline,
  };
  const target = await searchTarget(access, filter, env, collector.skipped);
  const spec = { ...searchSpec(input, mode, target.granted, env.config, ordered), fallbacks: fallbackSpec(input, options.fallbacks, env.config) };
  if (spec.fallbacks) collector.fallbacks = spec.fallbacks.readings.map(() => ({ lines: 0, files: 0 }));
  const earlyOutlines = ordered && env.pool ? new EarlyOutlines(outlineSpec(spec), env.pool) : undefined;
  // The entry just added to the page is the last matching file (collector.all).
  if (earlyOutlines) outlineFound = (entry) => outlineEarly(entry, collector.all!.at(-1)?.outcome, target, earlyOutlines);
  // Outcomes the index already knows (never for an untitled editor, nor for an override's content).
  const prejudge =
    access.kind === 'untitled'
      ? undefined
      : await indexPrejudge(
          { matcher, invert: spec.search.invert, maxFileSize: spec.maxFileSize, resultsKey: JSON.stringify({ ...spec, fallbacks: undefined }) },
          target,
          env,
          deadline,
        );
  const plan: ScanPlan = { spec, matcher, prejudge, deadline, filterDeadline, maxListed: options.maxListed };
  const scanned = await scan(target, plan, env, collector);
  earlyOutlines?.flush();
  if (env.isCancelled()) throw new CancelledError();
  const { files, order } = await finishPage(collector, { ...plan, early: earlyOutlines }, target, { offset, limit, ordered, definitions }, scanned, env);
  if (ordered && progress?.onFile) for (const entry of files) progress.onFile(entry);
  const where = { basePaths: target.basePaths, folders: env.folders.map((folder) => folder.path) };
  return grepReport(input, { mode, offset, files, ordered, started }, where, scanned, collector, order);
}

/**
 * The page once the search is over: cut and ordered when more lines matched than it holds (the order is
 * the question's, not the page's: a page whose lines the output budget cut keeps path order on the next),
 * its lines given their definitions (docs/tools.md, "Definitions") unless turned off; what that learned of
 * the matching files is kept with their remembered outcomes, so a repeated question asks nothing again.
 */
async function finishPage(
  collector: GrepCollector,
  plan: ScanPlan & { early?: EarlyOutlines },
  target: SearchTarget,
  page: { offset: number; limit: number; ordered: boolean; definitions: boolean },
  scanned: Scanned,
  env: SearchEnvironment,
): Promise<{ files: GrepFileEntry[]; order?: OrderCost }> {
  const cut = page.ordered && collector.totalResults > page.limit;
  const order: OrderCost = { parsed: 0, cached: 0, defining: 0, ms: 0 };
  const learned = new Map<string, FileMatches>();
  const remember = (outcomes: Map<string, FileMatches>) => {
    for (const [file, outcome] of outcomes) {
      const at = scanned.positions?.get(file);
      if (at !== undefined) plan.prejudge!.remember!(at, outcome);
    }
  };
  let files = collector.files;
  let next: string[] = [];
  if (cut) {
    ({ files, next } = await cutPage(collector, plan, target, { ...page, timedOut: scanned.timedOut }, env, order, learned));
    if (env.isCancelled()) throw new CancelledError();
  }
  if (page.definitions && !scanned.timedOut) {
    const outcomes = new Map(collector.all?.map((file) => [file.file, file.outcome]));
    const known = { outlined: collector.outlined, learned, outcomeOf: (file: string) => learned.get(file) ?? outcomes.get(file) };
    await outlinePage(files, plan, target, env, known);
    if (env.isCancelled()) throw new CancelledError();
    if (cut && plan.early) rememberEarly(plan.early, known, remember);
    outlineAhead(next, plan, target, env, known);
  }
  remember(learned);
  return { files, ...(cut ? { order } : {}) };
}

/** The report of a run: its page (`files`, from `offset`) and the collector's totals, skip counts and what the index did. */
function grepReport(
  input: GrepInput,
  page: { mode: OutputMode; offset: number; files: GrepFileEntry[]; ordered: boolean; started: number },
  target: Pick<SearchTarget, 'basePaths'> & { folders: string[] },
  scanned: Scanned,
  collector: GrepCollector,
  ordered: OrderCost | undefined,
): GrepReport {
  const { mode, offset, files } = page;
  // An ordered page counts its lines once cut; a page in path order, as the collector added them.
  const returnedResults = page.ordered
    ? files.reduce((n, entry) => n + (typeof entry === 'object' && 'matches' in entry ? entry.matches.length : 0), 0)
    : collector.returnedResults;
  const end = offset + returnedResults;
  return {
    pattern: input.pattern,
    basePaths: target.basePaths,
    folders: target.folders,
    outputMode: mode,
    files,
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
    elapsedMs: Date.now() - page.started,
    include: input.include,
    input,
    ...(scanned.fallbacksSearched && collector.fallbacks ? { fallbacks: collector.fallbacks } : {}),
    indexed: scanned.indexed,
    matched: collector.matched,
    largeFiles: collector.largeFiles,
    outlined: collector.outlined,
    ...(ordered ? { ordered } : {}),
  };
}

/** What the workers (or this thread) are told to do with each file. */
function searchSpec(input: GrepInput, mode: OutputMode, granted: string[], config: Settings['config'], ordered: boolean): SearchSpec {
  return {
    pattern: input.pattern,
    // The matcher's options alone: with the rest below, the spec is what decides a file's outcome (and keys what is remembered of it).
    matcher: matcherOptions(input),
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
      // A cut page's order parses only the files whose matching lines look like declarations.
      ...(ordered && input.multiline !== true ? { declarations: true } : {}),
    },
  };
}

/**
 * The readings of RunOptions.fallbacks, counted (every reported line) with the first line of each file:
 * undefined when there are none, or the search is inverted.
 */
function fallbackSpec(input: GrepInput, changes: RunOptions['fallbacks'], config: Settings['config']): SearchSpec['fallbacks'] {
  if (!changes?.length || input.invert_match === true) return undefined;
  const readings = changes.map((change) => {
    const changed = { ...input, ...change };
    return { pattern: changed.pattern, matcher: matcherOptions(changed) };
  });
  // A reading that is not a valid pattern is left to its own search (diagnostics.ts), as are all of them then.
  try {
    for (const reading of readings) compileMatcher(reading.pattern, reading.matcher);
  } catch {
    return undefined;
  }
  const search = {
    invert: false,
    before: 0,
    after: 0,
    maxPerFile: input.max_matches_per_file ?? Number.MAX_SAFE_INTEGER,
    maxLineLength: config.maxLineLength,
    collect: false,
    first: true,
  };
  return { readings, search };
}

function matcherOptions(input: GrepInput): SearchSpec['matcher'] {
  return { case_insensitive: input.case_insensitive, fixed_strings: input.fixed_strings, word: input.word, multiline: input.multiline };
}

/**
 * What the index knows of a candidate, the one at position `at` of the search's candidates (in the order
 * they are scanned), which may lack the lines a page shows (servesPage); `remember` keeps what reading one
 * gave, for a later search of the same spec (prejudge.ts, RecentResults).
 */
type IndexJudge = ((path: string, at: number) => FileOutcome | undefined) & Pick<ListedPrejudge, 'remember' | 'quiet'>;

/**
 * What the index knows of a search's candidates: when they were listed (not streamed) and there is a
 * pool, each is judged by its position in the list (its id looked up once per list), and in a
 * long-running process the stamps the index needs are taken by the workers first, off this thread.
 */
async function indexPrejudge(
  request: PrejudgeRequest,
  target: SearchTarget,
  corpus: Pick<Corpus, 'index' | 'pool'>,
  deadline: number,
): Promise<IndexJudge | undefined> {
  const { index, pool } = corpus;
  if (!index) return undefined;
  const listed = target.candidates;
  if (!pool || !Array.isArray(listed)) return index.prejudge(request);
  // Taking the stamps stops at the time limit; the scan then stops at once, having judged nothing.
  const judgeAt = await index.prejudgeListed(request, listed as Candidate[], (paths) => pool.stamps(paths, deadline));
  if (!judgeAt) return undefined;
  const judge: IndexJudge = (_path, at) => judgeAt(at);
  judge.remember = judgeAt.remember;
  judge.quiet = judgeAt.quiet;
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

/** What a scan did: the candidates it listed, whether it timed out or stopped at maxListed, what the index settled. */
interface Scanned {
  listed: number;
  timedOut: boolean;
  listingCut: boolean;
  /** Every file counted as searched was read here and, holding no match, searched for the spec's fallbacks. */
  fallbacksSearched: boolean;
  /** With outcomes remembered (prejudge.remember): the position of each matching file among the candidates. */
  positions?: Map<string, number>;
  indexed?: { settled: number; read: number };
}

/** What scanning the candidates takes: the pool or the reader, the size limit, the cancellation. */
type ScanRoles = Cancellation & Pick<Corpus, 'pool' | 'readFile'> & Pick<Settings, 'config'>;

/**
 * Searches the target's candidates in order, each outcome to the collector, until they run out, the
 * time limit passes, plan.maxListed is reached or the caller cancels: how many were listed, whether it
 * timed out or stopped at maxListed, what the index settled.
 */
async function scan(target: SearchTarget, plan: ScanPlan, env: ScanRoles, collector: GrepCollector): Promise<Scanned> {
  // In the pool's workers when there is one, a batch at a time; otherwise here, through env.readFile.
  const poolSearch = env.pool?.search(plan.spec);
  const ahead = new ReadAhead(
    poolSearch ? READ_AHEAD_POOL : READ_AHEAD_INLINE,
    BATCH_SIZE,
    poolSearch && ((files, pageRoom, fallbacks) => poolSearch.batch(files, pageRoom, undefined, fallbacks)),
  );
  const feed = new CandidateFeed(target, plan, ahead, poolSearch, fileSearcher(plan, poolSearch, env), collector);
  const stop = stopWatch(plan.deadline, env, () => poolSearch?.abort());
  let timedOut = false;
  try {
    for (;;) {
      if (env.isCancelled() || stop.reason()) break;
      if (Date.now() > plan.deadline) {
        timedOut = true;
        break;
      }
      ahead.pageRoom = collector.pageRoom;
      // Only while nothing matched: a search that matches needs no fallback, and one that ends empty has them all.
      ahead.fallbacks = plan.spec.fallbacks !== undefined && collector.totalResults === 0;
      feed.fill();
      ahead.flush();
      const chunk = ahead.peek();
      if (!chunk) {
        // Nothing ahead and more candidates still to arrive: waited for, until the time limit.
        if (feed.arriving) {
          await feed.arriving.arrival(plan.deadline - Date.now());
          continue;
        }
        break;
      }
      let outcomes: FileOutcome[];
      try {
        outcomes = await chunk.outcomes;
      } catch (error) {
        if (stop.reason()) break; // the pool stopped this search
        throw error;
      }
      if (stop.reason() === 'cancelled') break; // nothing more is reported once the caller has been told
      ahead.take();
      feed.deliver(chunk.files, outcomes);
    }
  } finally {
    if (stop.reason() === 'timeout' || plan.filterDeadline.expired) timedOut = true;
    stop.dispose();
    poolSearch?.abort(); // frees the workers from whatever this search still had queued or running
    await ahead.drain();
  }
  const fallbacksSearched = plan.spec.fallbacks !== undefined && feed.unchecked === 0 && !timedOut && !feed.listingCut;
  return { listed: feed.listed, timedOut, listingCut: feed.listingCut, fallbacksSearched, indexed: feed.indexed, positions: feed.positions };
}

/**
 * The target's candidates, taken in order into the read-ahead as it has room: each one settled by the
 * index, batched for the pool, or searched on its own (an override's content, or without a pool).
 */
class CandidateFeed {
  listed = 0;
  /** The list was cut at plan.maxListed: more candidates followed. */
  listingCut = false;
  readonly indexed?: { settled: number; read: number };
  /** Files not searched for the spec's fallbacks: settled by the index, or searched once something matched. */
  unchecked = 0;
  private exhausted = false;
  /** The candidates taken in order: listed, or as they arrive (`arriving`). */
  private readonly next: () => IteratorResult<Candidate> | undefined;
  /** Passes over this many listed candidates (those the index counted as searched: IndexJudge.quiet). */
  private readonly skip?: (count: number) => void;
  /**
   * When outcomes are remembered for the next search of the same spec: the position of each file read, and
   * of each settled with matches, kept for those that match (a cut page remembers what it learns of them).
   */
  readonly positions?: Map<string, number>;
  /** The files read, of those. */
  private readonly read = new Set<string>();

  constructor(
    private readonly target: SearchTarget,
    private readonly plan: ScanPlan,
    private readonly ahead: ReadAhead,
    private readonly poolSearch: PoolSearch | undefined,
    private readonly searchOne: ReturnType<typeof fileSearcher>,
    private readonly collector: Pick<GrepCollector, 'addEmpty' | 'add'>,
  ) {
    const { candidates } = target;
    if (candidates instanceof ArrivingCandidates) this.next = candidates.cursor();
    else if (Array.isArray(candidates)) {
      const listed = candidates as readonly Candidate[];
      let at = 0;
      this.next = () => (at < listed.length ? { done: false, value: listed[at++] } : { done: true, value: undefined });
      this.skip = (count) => (at += count);
    } else {
      const iterator = candidates[Symbol.iterator]();
      this.next = () => iterator.next();
    }
    if (plan.prejudge) this.indexed = { settled: 0, read: 0 };
    if (plan.prejudge?.remember) this.positions = new Map();
  }

  /** The candidates still arriving, while more may come and the feed has taken all so far. */
  get arriving(): ArrivingCandidates | undefined {
    const { candidates } = this.target;
    return !this.exhausted && candidates instanceof ArrivingCandidates && !candidates.done ? candidates : undefined;
  }

  /** Takes candidates until the read-ahead is full or they run out (or reach plan.maxListed). */
  fill(): void {
    const { plan, ahead, indexed } = this;
    // Runs of files the index counts as searched (no match, by a watcher's word): counted at once, while no file's content is given instead of its disk's.
    const quiet = this.skip && !this.target.overridden ? plan.prejudge?.quiet : undefined;
    // The room left on the page for the next file, at most: less each line a known outcome counts. (A count
    // or a list of files needs no lines: a remembered count serves a file on the page too.)
    let room = plan.spec.search.collect ? ahead.pageRoom : 0;
    while (!this.exhausted && ahead.hasRoom) {
      const run = quiet?.(this.listed, (plan.maxListed ?? Infinity) - this.listed) ?? 0;
      if (run > 0) {
        this.skip!(run);
        this.listed += run;
        this.collector.addEmpty(run);
        indexed!.settled += run;
        this.unchecked += run;
      }
      const item = this.next();
      if (item === undefined) return; // more to arrive
      if (item.done || this.listed === plan.maxListed) {
        this.exhausted = true;
        this.listingCut = !item.done;
        return;
      }
      const at = this.listed++;
      const { path } = item.value;
      const content = this.target.contentOf(path);
      const judged = plan.prejudge && content === undefined ? plan.prejudge(path, at) : undefined;
      const known = judged !== undefined && servesPage(judged, room) ? judged : undefined;
      // A remembered count is the file's (a watcher vouches for it), even when it must be read again for its lines.
      if (typeof judged === 'object') room -= judged.count;
      if (known !== undefined) {
        // Settled as holding no match, a file is only counted: it takes no place in the order of the outcomes.
        if (known === 0) this.collector.addEmpty();
        else {
          ahead.settled(path, known);
          this.positions?.set(path, at);
        }
        indexed!.settled++;
        this.unchecked++;
        continue;
      }
      if (indexed) indexed.read++;
      if (this.positions && content === undefined) {
        this.positions.set(path, at);
        this.read.add(path);
      }
      if (this.poolSearch && content === undefined) ahead.batched(path);
      else ahead.one(path, this.searchOne(item.value, content, ahead.pageRoom, ahead.fallbacks));
      if (!ahead.fallbacks) this.unchecked++;
    }
  }

  /** A chunk's outcomes, in order: added to the answer, and remembered where read (reported). */
  deliver(files: readonly string[], outcomes: readonly FileOutcome[]): void {
    files.forEach((file, i) => {
      this.collector.add(file, outcomes[i]);
      this.reported(file, outcomes[i]);
    });
  }

  /** A file's outcome, once reported: remembered for the next search of the same spec when it was read from disk. */
  reported(file: string, outcome: FileOutcome): void {
    const at = this.positions?.get(file);
    if (at === undefined) return;
    const matches = typeof outcome === 'object' && outcome.count > 0;
    // What the fallbacks found belongs to this search: the next one of the same spec may have none.
    if (this.read.delete(file)) this.plan.prejudge!.remember!(at, matches || typeof outcome !== 'object' ? outcome : 0);
    if (!matches) this.positions!.delete(file);
  }
}

/**
 * How one file is searched on its own: an override's content (read here, searched in the pool when
 * there is one, so the time limit can stop the regex) or, without a pool, a file read and searched here.
 */
function fileSearcher(plan: ScanPlan, poolSearch: PoolSearch | undefined, env: Pick<Corpus, 'readFile'> & Pick<Settings, 'config'>) {
  const { spec } = plan;
  // Searched here (no pool): the pattern and its fallbacks compiled once, when first needed.
  let here: { pattern: CompiledPattern; fallbacks: CompiledPattern[] } | undefined;
  const compiled = () =>
    (here ??= {
      pattern: compilePattern(spec.pattern, spec.matcher),
      fallbacks: (spec.fallbacks?.readings ?? []).map((r) => compilePattern(r.pattern, r.matcher)),
    });
  return async (candidate: Candidate, override: FileContent | undefined, pageRoom: number, fallbacks: boolean): Promise<FileOutcome> => {
    let content: string | Uint8Array;
    if (override !== undefined) {
      const given = typeof override === 'string' ? override : await override();
      if (given === undefined) return 'unreadable';
      if ((typeof given === 'string' ? Buffer.byteLength(given, 'utf8') : given.byteLength) > env.config.maxFileSize) return 'too_large';
      if (poolSearch) return (await poolSearch.batch([{ path: candidate.path, content: given }], pageRoom, undefined, fallbacks))[0];
      content = given;
    } else {
      const read = await env.readFile(candidate.path, env.config.maxFileSize, spec.scope);
      if (read.kind !== 'bytes') return read.kind;
      content = read.bytes;
    }
    const { pattern, fallbacks: readings } = compiled();
    const others = fallbacks && spec.fallbacks ? { readings, options: spec.fallbacks.search } : undefined;
    return searchWithFallbacks(content, pattern, pageOptions(spec.search, pageRoom), others);
  };
}

/**
 * Gives the page's lines their definitions (searcher/outline.ts), once the page is known: only its
 * files in a language with a grammar are read again and parsed, in the pool's workers when there is
 * one (a file's definitions are kept there by its stamp), else here. Counts what it cost in `outlined`.
 */
async function outlinePage(
  files: readonly GrepFileEntry[],
  plan: { spec: SearchSpec; matcher: Matcher; early?: EarlyOutlines },
  target: SearchTarget,
  corpus: Pick<Corpus, 'pool' | 'readFile'>,
  known: {
    outlined: { parsed: number; cached: number; ms: number };
    /** A matching file's outcome (remembered ones carry what an earlier page's outline learned), and what this one learns. */
    outcomeOf(file: string): FileMatches | undefined;
    learned: Map<string, FileMatches>;
  },
): Promise<void> {
  const { outlined } = known;
  const page: Array<{ file: string; matches: LineResult[] }> = [];
  for (const entry of files) {
    if (typeof entry !== 'object' || !('matches' in entry) || entry.matches.length === 0 || !grammarOf(entry.file)) continue;
    // Its lines were copied with the definitions an earlier page's outline gave them.
    if (outlinedBefore(entry.matches, known.outcomeOf(entry.file))) outlined.cached++;
    else page.push(entry);
  }
  if (page.length === 0) return;
  const byFile = new Map<string, OutlineOutcome>();
  // A file outlined as the search found it, for the same lines, is not asked again (one that failed is).
  const asked = page.map((entry) => {
    const lines = entry.matches.map((match) => match.line);
    return { file: entry.file, lines, earlier: plan.early?.outcomeOf(entry.file, lines) };
  });
  const items: OutlineItem[] = [];
  for (const { file, lines, earlier } of asked) {
    const outcome = earlier && (await earlier);
    if (outcome) {
      byFile.set(file, outcome);
      continue;
    }
    const text = await overrideText(target, file);
    if (text === null) continue;
    items.push({ path: file, lines, ...(text !== undefined ? { content: text } : {}) });
  }
  const outcomes = await outlineItems(items, plan, corpus);
  items.forEach((item, i) => byFile.set(item.path, outcomes[i]));
  for (const entry of page) {
    const outcome = byFile.get(entry.file);
    if (!outcome) continue;
    outlined[outcome.cost.parsed ? 'parsed' : 'cached']++;
    outlined.ms += outcome.cost.ms;
    markLines(entry.matches, outcome);
    learnOutline(entry, known);
  }
}

/** Gives lines the definitions an outline found for them (one mark a line, in order). */
function markLines(lines: LineResult[], outcome: NonNullable<OutlineOutcome>): void {
  lines.forEach((line, i) => {
    const mark = outcome.marks[i];
    if (mark?.in !== undefined) line.in = mark.in;
    if (mark?.defines) line.defines = true;
  });
}

/**
 * The definitions found early (while the page was still the path order's) of matching files a cut page
 * left out, kept with their outcomes like the page's once every one is in (the call does not wait for
 * them): a later call (the same question again, another page) then sends those files to no worker.
 */
function rememberEarly(
  early: EarlyOutlines,
  known: Pick<Parameters<typeof outlinePage>[4], 'outcomeOf'>,
  remember: (outcomes: Map<string, FileMatches>) => void,
): void {
  void early
    .all()
    .then((outlined) => {
      const learned = new Map<string, FileMatches>();
      learnEarly(outlined, { outcomeOf: (file) => learned.get(file) ?? known.outcomeOf(file), learned });
      remember(learned);
    })
    // (only what a later call would have saved is lost)
    .catch(() => undefined);
}

function learnEarly(outlined: Awaited<ReturnType<EarlyOutlines['all']>>, known: Pick<Parameters<typeof outlinePage>[4], 'outcomeOf' | 'learned'>): void {
  for (const { path, lines, outcome } of outlined) {
    const was = known.outcomeOf(path);
    // (unless the page's outline, or an earlier one, reached as far)
    if (!was || (was.outlinedThrough !== undefined && was.outlinedThrough >= lines[lines.length - 1])) continue;
    const first = was.lines.slice(0, lines.length);
    if (first.length !== lines.length || first.some((line, i) => line.line !== lines[i])) continue;
    const matches = first.map((line) => ({ ...line }));
    markLines(matches, outcome);
    learnOutline({ file: path, matches }, known);
  }
}

/** Whether a page's lines of a file already carry their definitions: its outcome was outlined through the last of them. */
function outlinedBefore(lines: readonly LineResult[], outcome: FileMatches | undefined): boolean {
  return outcome?.outlinedThrough !== undefined && lines.length > 0 && lines[lines.length - 1].line <= outcome.outlinedThrough;
}

/** A page's lines with their definitions, kept in the file's outcome when they are its first lines (from its first match on). */
function learnOutline(entry: { file: string; matches: LineResult[] }, known: Pick<Parameters<typeof outlinePage>[4], 'outcomeOf' | 'learned'>): void {
  const outcome = known.outcomeOf(entry.file);
  const lines = entry.matches;
  if (!outcome || lines.length > outcome.lines.length || lines.some((line, i) => line.line !== outcome.lines[i].line)) return;
  known.learned.set(entry.file, {
    ...outcome,
    lines: [...lines.map((line) => ({ ...line })), ...outcome.lines.slice(lines.length)],
    outlinedThrough: lines[lines.length - 1].line,
  });
}

/** What the workers are told to outline a page's files with. */
function outlineSpec(spec: SearchSpec): OutlineSpec {
  return { outline: { pattern: spec.pattern, matcher: spec.matcher, maxFileSize: spec.maxFileSize, scope: spec.scope } };
}

/**
 * Starts parsing a file of the page for its definitions as soon as the search finds it (earlyOutlines.ts):
 * one read from disk, in a language with a grammar, with matching lines.
 */
function outlineEarly(entry: GrepFileEntry, outcome: FileMatches | undefined, target: SearchTarget, early: EarlyOutlines): void {
  if (typeof entry !== 'object' || !('matches' in entry) || entry.matches.length === 0 || !grammarOf(entry.file)) return;
  if (target.contentOf(entry.file) !== undefined || outlinedBefore(entry.matches, outcome)) return;
  early.add(
    entry.file,
    entry.matches.map((match) => match.line),
  );
}

/** Files parsed at most per call to learn whether they define the searched name (their definitions are then kept by stamp). */
const DEFINITION_FILES = 32;

/**
 * The page of an ordered search with more matching lines than a page holds (docs/tools.md, "Order of
 * the results"): every matching file in its group (pageOrder.ts), in path order within it, and the
 * lines [offset, offset + limit) of that order. The lines the search kept (the first page in path
 * order) are used where they cover a file's part of the page; the other files of the page are searched again.
 */
async function cutPage(
  collector: GrepCollector,
  plan: ScanPlan,
  target: SearchTarget,
  page: { offset: number; limit: number; timedOut: boolean },
  env: SearchEnvironment,
  cost: OrderCost,
  /** Outcomes of the matching files with what the order learned (their lines searched again, whether they define the name), by file. */
  learned: Map<string, FileMatches>,
): Promise<{ files: GrepFileEntry[]; next: string[] }> {
  const all = collector.all!;
  const defining = page.timedOut ? new Set<string>() : await definingFiles(all, plan, target, env, cost, learned);
  // The files that define the name, then the rest, each by kind; a file's kind is worked out only as far
  // as this page and the next reach.
  const kind = (file: { file: string }) => pathGroup(file.file, target.basePaths);
  const definers = all.filter((file) => defining.has(file.file));
  const others = all.filter((file) => !defining.has(file.file));
  const order = takeLines(concat(byGroup(definers, kind, KINDS), byGroup(others, kind, KINDS)), page.offset + 2 * page.limit);
  const wanted = linesOfOrder(order, page.offset, page.offset + page.limit);
  // The lines each file's outcome holds (from its first: as many as the page had room for when it was
  // searched); a file with too few is searched again, and what it gave is learned with the verdicts.
  const outcomes = new Map(all.map((file) => [file.file, file.outcome]));
  const missing = wanted.filter((want) => outcomes.get(want.file)!.lines.length < want.to);
  // Lines searched again carry no definitions yet (outlinedThrough: none).
  for (const [file, lines] of await searchAgain(missing, plan, target, env))
    learned.set(file, { ...(learned.get(file) ?? outcomes.get(file)!), lines, outlinedThrough: undefined });
  const linesOf = (file: string) => (learned.get(file) ?? outcomes.get(file)!).lines;
  return {
    files: wanted.map((want) => ({
      file: want.file,
      matches: linesOf(want.file)
        .slice(want.from, want.to)
        .map((line) => ({ ...line })),
    })),
    next: linesOfOrder(order, page.offset + page.limit, page.offset + 2 * page.limit).map(({ file }) => file),
  };
}

/** The files of an order up to the one that holds its line `lines` (counted from 0), or all of them. */
function takeLines<T extends { outcome: FileMatches }>(order: Iterable<T>, lines: number): T[] {
  const taken: T[] = [];
  let at = 0;
  for (const file of order) {
    if (at >= lines) break;
    taken.push(file);
    at += file.outcome.count;
  }
  return taken;
}

/** Each file's part of the lines [start, end) of a cut page's order: the lines from..to of the file's matching lines. */
function linesOfOrder(
  order: ReadonlyArray<{ file: string; outcome: FileMatches }>,
  start: number,
  end: number,
): Array<{ file: string; from: number; to: number }> {
  const parts: Array<{ file: string; from: number; to: number }> = [];
  let at = 0;
  for (const file of order) {
    if (at >= end) break;
    const from = Math.max(0, start - at);
    const to = Math.min(file.outcome.count, end - at);
    if (from < to) parts.push({ file: file.file, from, to });
    at += file.outcome.count;
  }
  return parts;
}

/**
 * Which matching files define the searched name: those in a language with a grammar with a matching line
 * that looks like a declaration (searcher.ts, looksLikeDeclaration), at most DEFINITION_FILES of them
 * (files named after a word of the pattern first, then source, tests, generated, each in path order), parsed
 * in the pool's workers (or here) as a page's files are (outline.ts, definesMatch).
 */
async function definingFiles(
  all: ReadonlyArray<{ file: string; outcome: FileMatches }>,
  plan: ScanPlan,
  target: SearchTarget,
  env: SearchEnvironment,
  cost: OrderCost,
  learned: Map<string, FileMatches>,
): Promise<Set<string>> {
  const named = namedAfter(plan.spec.pattern);
  const declaring = all.filter((file) => file.outcome.declares && grammarOf(file.file));
  // Files named after a word of the pattern first, then the others by kind (worked out only as far as needed).
  const kind = (file: { file: string }) => pathGroup(file.file, target.basePaths);
  const unnamed = declaring.filter((file) => !named(file.file));
  const candidates = firstOf(
    concat(
      declaring.filter((file) => named(file.file)),
      byGroup(unnamed, kind, KINDS),
    ),
    DEFINITION_FILES,
  );
  const defining = new Set<string>();
  const items: OutlineItem[] = [];
  const asked: FileMatches[] = [];
  for (const { file, outcome } of candidates) {
    // Known from an earlier order of the same search (a remembered outcome): not asked again.
    if (outcome.defines !== undefined) {
      cost.cached++;
      if (outcome.defines) defining.add(file);
      continue;
    }
    const text = await overrideText(target, file);
    if (text === null) continue;
    items.push({ path: file, lines: [], find: true, ...(text !== undefined ? { content: text } : {}) });
    asked.push(outcome);
  }
  const outlines = await outlineItems(items, plan, env);
  items.forEach((item, i) => {
    const outline = outlines[i];
    if (!outline) return;
    cost[outline.cost.parsed ? 'parsed' : 'cached']++;
    cost.ms += outline.cost.ms;
    learned.set(item.path, { ...asked[i], defines: outline.defines === true });
    if (outline.defines) defining.add(item.path);
  });
  cost.defining = defining.size;
  return defining;
}

/** The text of an editor's content standing in for a file: undefined when the file is read from disk, null when the content cannot be read. */
async function overrideText(target: SearchTarget, file: string): Promise<string | undefined | null> {
  const override = target.contentOf(file);
  if (override === undefined) return undefined;
  const content = typeof override === 'string' ? override : await override();
  const text = content === undefined || typeof content === 'string' ? content : decodeText(content);
  return text ?? null;
}

/** Files of the next page parsed ahead at most (outlineAhead). */
const AHEAD_FILES = 32;

/**
 * The next page's files parsed for their definitions while the model reads this page, in the workers that
 * keep them, a file a spare batch (SearchPool: a call's own batches go first): the next page, asked for,
 * finds them known. Only with a pool, and only files read from disk.
 */
function outlineAhead(
  files: readonly string[],
  plan: Pick<ScanPlan, 'spec'>,
  target: SearchTarget,
  env: Pick<Corpus, 'pool'>,
  known: Pick<Parameters<typeof outlinePage>[4], 'outcomeOf' | 'learned'>,
): void {
  const { pool } = env;
  // (a file sent ahead before, unchanged since (its outcome is still remembered), is not sent again)
  const ahead = files.slice(0, AHEAD_FILES).filter((file) => grammarOf(file) && target.contentOf(file) === undefined && !known.outcomeOf(file)?.parsedAhead);
  if (!pool || ahead.length === 0) return;
  const job = pool.outline(outlineSpec(plan.spec));
  for (const file of ahead) {
    // Its first line stands for the page's: the worker keeps the file's definitions, not the lines'.
    job.spare([{ path: file, lines: [1] }], pool.workerOf(file));
    const was = known.outcomeOf(file);
    if (was) known.learned.set(file, { ...was, parsedAhead: true });
  }
}

/** Files of a page outlined in one batch: a few (a batch's time is bounded, worker.ts). */
const OUTLINE_BATCH = 4;

/**
 * Outlines items in the pool's workers, a few files a batch, or here without a pool. A file always goes
 * to the same worker (SearchPool.workerOf), which keeps its definitions: asked again, or paged through,
 * it is parsed once.
 */
async function outlineItems(items: OutlineItem[], plan: Pick<ScanPlan, 'spec' | 'matcher'>, env: Pick<Corpus, 'pool' | 'readFile'>): Promise<OutlineOutcome[]> {
  const { spec, matcher } = plan;
  const { pool } = env;
  // (nothing to ask: no job, whose spec would be sent to every worker)
  if (items.length === 0) return [];
  if (pool) {
    const job = pool.outline(outlineSpec(spec));
    const byWorker = new Map<number, number[]>();
    items.forEach((item, i) => {
      const worker = pool.workerOf(item.path);
      const indexes = byWorker.get(worker);
      if (indexes) indexes.push(i);
      else byWorker.set(worker, [i]);
    });
    const outcomes: OutlineOutcome[] = new Array<OutlineOutcome>(items.length);
    const batches: Array<Promise<void>> = [];
    for (const [worker, indexes] of byWorker) {
      for (const chunk of chunks(indexes, OUTLINE_BATCH)) {
        batches.push(
          job
            .batch(
              chunk.map((i) => items[i]),
              0,
              worker,
            )
            .then((found) => chunk.forEach((i, k) => (outcomes[i] = found[k]))),
        );
      }
    }
    await Promise.all(batches);
    return outcomes;
  }
  const outcomes: OutlineOutcome[] = [];
  for (const item of items) {
    let source: SourceText | undefined = item.content;
    source ??= sourceOfRead(await env.readFile(item.path, Math.min(spec.maxFileSize, OUTLINE_MAX_BYTES), spec.scope));
    outcomes.push(source === undefined ? undefined : await outlineItem(item, source, matcher, item.content === undefined ? stampKey(item.path) : undefined));
  }
  return outcomes;
}

/** Files of a cut page searched again for their lines, up to `to` each, in the pool's workers when there is one (a file that no longer matches gives none). */
async function searchAgain(
  files: ReadonlyArray<{ file: string; to: number }>,
  plan: ScanPlan,
  target: SearchTarget,
  env: SearchEnvironment,
): Promise<Map<string, LineResult[]>> {
  const found = new Map<string, LineResult[]>();
  if (files.length === 0) return found;
  const spec: SearchSpec = { ...plan.spec, search: { ...plan.spec.search, declarations: undefined }, fallbacks: undefined };
  const poolSearch = env.pool?.search(spec);
  const searchOne = fileSearcher({ ...plan, spec }, poolSearch, env);
  const linesOf = (outcome: FileOutcome) => (typeof outcome === 'object' ? outcome.lines : []);
  const onDisk = files.filter((file) => target.contentOf(file.file) === undefined);
  await Promise.all([
    ...files
      .filter((file) => target.contentOf(file.file) !== undefined)
      .map(async (file) =>
        found.set(file.file, linesOf(await searchOne({ path: file.file, relative: file.file }, target.contentOf(file.file), file.to, false))),
      ),
    ...(poolSearch
      ? chunks(onDisk, 8).map(async (chunk) => {
          const outcomes = await poolSearch.batch(
            chunk.map((file) => file.file),
            Math.max(...chunk.map((file) => file.to)),
          );
          chunk.forEach((file, i) => found.set(file.file, linesOf(outcomes[i])));
        })
      : onDisk.map(async (file) => found.set(file.file, linesOf(await searchOne({ path: file.file, relative: file.file }, undefined, file.to, false))))),
  ]);
  return found;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}
