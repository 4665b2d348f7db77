/** The glob tool's engine: a validated input (input/schema.ts, at the caller's edge) → files below the base whose relative path matches. */
import { keepNewest } from '../api/kept';
import { filterCandidates, globMayMatchBelow, type PrunedEntry } from '../source/fileSource';
import { comparePaths, globMayMatch, relativeGlobTest } from '../globset/globs';
import { checkSearchGlob, globRequest } from '../guard/globInput';
import { CancelledError, InputError } from '../api/errors';
import type { SearchBase } from '../guard/roots';
import { authorizeSearch, type Cancellation, type Corpus, type RunOptions, type SearchEnvironment, type Settings } from './environment';
import { stopWatch, untilDeadline } from './stop';
import { SearchAbortedError, type NameTestSpec } from '../pool/pool';
import { emptySkips, type Candidate, type GlobInput, type SkipCounts } from '../api/types';
import { filterInSlices, sortInSlices, TimeSlices } from '../source/timeSlices';
import type { UntitledDocument } from '../guard/untitled';

export interface GlobReport {
  pattern: string;
  mode: 'glob' | 'regex';
  basePaths: string[];
  /** The workspace folders: the model's answer names paths relative to the directory they share (printer.ts, answerRoot). */
  folders?: string[];
  files: string[];
  total: number;
  offset: number;
  nextOffset?: number;
  skipped: SkipCounts;
  /** The call ran past the time limit: the names not tested by then are not listed. */
  timedOut: boolean;
  /** The listing itself had not finished by the time limit (timedOut too): no name was tested. */
  listingTimedOut?: boolean;
  /** No search thread was free to test the names before the time limit (timedOut too; a regex of mode "regex" waits for one): no name was tested. */
  namesWaited?: boolean;
  elapsedMs: number;
  /** With zero results for a pattern without '/': how many files '**\/pattern' would find. */
  deeperMatches?: number;
  /** The validated input, for notes that give the exact call to make next. */
  input?: GlobInput;
  /** Directories the pattern matches (glob lists files only), with the files each holds, shallow first. */
  directories?: MatchedDirectory[];
  /** sort "mtime": each listed file's modification time (ms since the epoch). */
  mtimes?: ReadonlyMap<string, number>;
}

export interface MatchedDirectory {
  /** Absolute path, and the path relative to its base. */
  path: string;
  relative: string;
  files: number;
}

/**
 * The directories a glob pattern matches, from the files below them (listed with `pattern/**`, so
 * through the same filters and guard): each with the number of files it holds, shallow first, then by
 * path. Asked when the pattern matched no file, or lists one level (no `**`), whose subdirectories the
 * answer then names.
 */
function matchedDirectories(inside: Candidate[], matches: (relative: string) => boolean): MatchedDirectory[] {
  const directories = new Map<string, MatchedDirectory>();
  for (const candidate of inside) {
    const parts = candidate.relative.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const relative = parts.slice(0, depth).join('/');
      if (!matches(relative)) continue;
      const path = candidate.path.slice(0, candidate.path.length - (candidate.relative.length - relative.length));
      const entry = directories.get(path) ?? { path, relative, files: 0 };
      entry.files++;
      directories.set(path, entry);
    }
  }
  return [...directories.values()].sort((a, b) => a.relative.split('/').length - b.relative.split('/').length || comparePaths(a.relative, b.relative));
}

/** glob was given an untitled editor as its base: what it is, and the grep call that searches it. */
export function untitledGlobMessage(path: string, document: UntitledDocument): string {
  const call = JSON.stringify({ pattern: '<text to find>', path: document.uri });
  return (
    `glob lists files on disk, and ${JSON.stringify(path)} is an untitled (unsaved) editor, ${document.uri}, with no file on disk. ` +
    `To search its text, call grep with this path: ${call}. To list files, give glob a directory as "path".`
  );
}

function compileNameRegex(pattern: string): RegExp {
  try {
    const regex = new RegExp(pattern, 'u');
    // V8 compiles on first use and may fail then ("Regular expression too large"): use it here once.
    regex.test('');
    return regex;
  } catch (error) {
    throw new InputError(
      `Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}. Hint: in mode "regex" the pattern is a JavaScript regex tested against the base-relative path, e.g. "\\\\.test\\\\.ts$".`,
    );
  }
}

/** Files whose modification time is asked for at once (sort "mtime"). */
const MTIME_CONCURRENCY = 128;

/** Names (base-relative paths) per worker message. */
const NAME_BATCH_SIZE = 2000;

/**
 * The names glob's pattern matches (a regex or a glob). The model's pattern runs in the pool's workers
 * when there is a pool, so the time limit and cancellation stop a catastrophic one (`(a+)+$` on a long
 * name) instead of it holding the caller's thread; the names not tested by then count as not matching.
 * A glob's names do not wait for workers held by other calls (a catastrophic grep holds one until its
 * limit): the pool hands them back and they are tested here, a slice at a time, to the limit. A glob is
 * bounded (GLOB_LIMITS: a name in well under 100 ms); a regex is not, and waits for a worker.
 */
async function matchNames(
  spec: NameTestSpec,
  local: (name: string) => boolean,
  names: string[],
  env: Cancellation & Pick<Corpus, 'pool'>,
  deadline: number,
): Promise<{ matching: Set<string>; timedOut: boolean; waited: boolean }> {
  if (!env.pool) return { matching: new Set(names.filter(local)), timedOut: false, waited: false };
  const job = env.pool.nameTest(spec);
  const stop = stopWatch(deadline, env, () => job.abort());
  /** Tests names on this thread, giving the event loop a turn every few milliseconds, until the call stops. */
  const here = async (slice: string[]) => {
    const turns = new TimeSlices();
    const outcomes: boolean[] = [];
    for (const name of slice) {
      if (stop.reason() || Date.now() >= deadline || env.isCancelled()) throw new SearchAbortedError();
      outcomes.push(local(name));
      if (turns.dueNow()) await turns.pause();
    }
    return outcomes;
  };
  try {
    const slices: string[][] = [];
    for (let i = 0; i < names.length; i += NAME_BATCH_SIZE) slices.push(names.slice(i, i + NAME_BATCH_SIZE));
    const inWorker = (slice: string[]) => job.batch(slice);
    const outcomes = 'nameGlob' in spec ? env.pool.inWorkersOrHere(job, slices, inWorker, here) : slices.map(inWorker);
    const settled = await Promise.allSettled(outcomes);
    if (stop.reason() === 'cancelled' || env.isCancelled()) throw new CancelledError();
    const timedOut = stop.reason() === 'timeout' || Date.now() >= deadline;
    const matching = new Set<string>();
    settled.forEach((result, i) => {
      if (result.status === 'rejected') {
        if (!timedOut) throw result.reason;
        return;
      }
      result.value.forEach((matches, j) => matches && matching.add(slices[i][j]));
    });
    const untested = settled.filter((result) => result.status === 'rejected').length;
    const stopped = timedOut && untested > 0;
    // No worker ever took a batch: every name waited for threads held by other calls, none was tested.
    return { matching, timedOut: stopped, waited: stopped && untested === settled.length && job.taken === 0 };
  } finally {
    stop.dispose();
    job.abort();
  }
}

/**
 * sort "mtime": the files newest first (ties by path), with their modification times. MTIME_CONCURRENCY
 * stats at a time: 100,000 at once would hold the thread while they are issued.
 */
async function newestFirst(
  found: Candidate[],
  env: Cancellation & Pick<Corpus, 'source'>,
  slices: TimeSlices,
): Promise<{ ordered: string[]; mtimes: Map<string, number> }> {
  const mtimes = new Map<string, number>();
  for (let i = 0; i < found.length; i += MTIME_CONCURRENCY) {
    if (env.isCancelled()) throw new CancelledError();
    await Promise.all(found.slice(i, i + MTIME_CONCURRENCY).map(async (c) => mtimes.set(c.path, await env.source.mtime(c.path))));
  }
  const sorted = await sortInSlices([...found], (a, b) => mtimes.get(b.path)! - mtimes.get(a.path)! || comparePaths(a.relative, b.relative), slices);
  return { ordered: sorted.map((c) => c.path), mtimes };
}

/**
 * Runs one glob of a validated input until `options.deadline`; a cancelled one rejects with
 * CancelledError once it notices (answerGlob returns at once when the environment signals it).
 */
export async function runGlob(input: GlobInput, env: SearchEnvironment, options: RunOptions): Promise<GlobReport> {
  const started = Date.now();
  const mode = input.mode ?? 'glob';
  // An absolute glob names its base, which the guard judges like "path"; the rest cannot climb out ('..').
  const { pattern, path } = globRequest(input.pattern, input.path, mode);
  if (mode === 'glob') checkSearchGlob(pattern, 'glob');
  const regex = mode === 'regex' ? compileNameRegex(pattern) : undefined;
  const offset = input.offset ?? 0;
  // glob lists paths, which are small: its default and cap are 1000 whatever grep's cap is.
  const limit = Math.min(input.max_results ?? 1000, Math.max(env.config.maxResultsCap, 1000));
  const skipped = emptySkips();
  const access = await authorizeSearch(path, env);
  if (access.kind === 'untitled') throw new InputError(untitledGlobMessage(path ?? access.document.uri, access.document));

  const lister = new GlobLister(input, access, env, options.deadline);
  const patternTest = regex ? lister.namesMatching({ nameRegex: regex.source }, (name) => regex.test(name)) : lister.globMatching(pattern);
  const found = await lister.list(mode === 'glob' ? pattern : '**', patternTest, skipped);
  const { ordered, mtimes } = input.sort === 'mtime' ? await newestFirst(found, env, lister.slices) : { ordered: found.map((c) => c.path), mtimes: undefined };
  const { timedOut, listingTimedOut, namesWaited } = lister;
  // The checks behind the notes share what is left of the time limit: one it stopped is left out, and the
  // answer, whose files are all there, does not say it timed out.
  let around = mode === 'glob' && !timedOut ? await aroundGlob(pattern, found.length, lister) : {};
  if (lister.timedOut && !timedOut) around = {};
  const files = ordered.slice(offset, offset + limit);
  const end = offset + files.length;
  return {
    pattern: input.pattern,
    mode,
    basePaths: access.bases.map((b) => b.base),
    folders: env.folders.map((folder) => folder.path),
    files,
    total: ordered.length,
    offset,
    nextOffset: end < ordered.length ? end : undefined,
    skipped,
    timedOut,
    listingTimedOut,
    namesWaited,
    elapsedMs: Date.now() - started,
    ...around,
    input,
    mtimes,
  };
}

/**
 * What a glob pattern's answer says beside its files: with no file found and no '/', how many
 * '**\/pattern' would find; the directories it matches, when it matched no file or lists one level
 * (its subdirectories). Each listing has its own skip counts: what it passes over was counted already.
 */
async function aroundGlob(pattern: string, found: number, lister: GlobLister): Promise<{ deeperMatches?: number; directories?: MatchedDirectory[] }> {
  const around: { deeperMatches?: number; directories?: MatchedDirectory[] } = {};
  if (found === 0 && !pattern.includes('/')) {
    const deeper = `**/${pattern}`;
    around.deeperMatches = (await lister.list(deeper, lister.globMatching(deeper), emptySkips())).length;
  }
  if (!/\*\*\/?$/.test(pattern) && (found === 0 || !pattern.includes('**'))) {
    const inside = `${pattern.replace(/\/+$/, '')}/**`;
    around.directories = matchedDirectories(await lister.list(inside, lister.globMatching(inside), emptySkips()), relativeGlobTest(pattern));
  }
  return around;
}

/**
 * Which listed names (base-relative paths) a pattern matches: `may`, a quick test every name it matches
 * passes (`glob`: the glob it is of; none: every name passes), and `matching`, the full test of the names
 * that pass it.
 */
interface NameTest {
  glob?: string;
  may(relative: string): boolean;
  matching(names: string[]): Promise<(relative: string) => boolean>;
}

/**
 * The files of a listed array a glob's quick test keeps, per array and glob (a resident listing hands back
 * the same arrays while it is unchanged, never changed): a glob asked again, and the globs an empty
 * answer's checks ask, do not test every name of a whole folder's listing again.
 */
const narrowedLists = new WeakMap<readonly Candidate[], Map<string, Candidate[]>>();
/** Globs whose files are kept per listed array, the oldest dropped first. */
const NARROWED_KEPT = 16;

/** Lists the granted bases for one glob call, and tests the names off this thread (the pool), every name at once. */
class GlobLister {
  timedOut = false;
  listingTimedOut = false;
  namesWaited = false;
  /** Long loops over a listing give the event loop a turn every few milliseconds (timeSlices.ts). */
  readonly slices = new TimeSlices();

  constructor(
    private readonly input: GlobInput,
    private readonly access: { bases: SearchBase[]; granted: string[] },
    private readonly env: Cancellation & Settings & Pick<Corpus, 'source' | 'pool'>,
    private readonly deadline: number,
  ) {}

  /** `glob`: the glob the names are tested against, whose quick test (globMayMatch) narrows them first. */
  namesMatching(spec: NameTestSpec, local: (name: string) => boolean, glob?: string): NameTest {
    return {
      glob,
      may: glob === undefined ? () => true : globMayMatch(glob),
      matching: async (names) => {
        const result = await matchNames(spec, local, names, this.env, this.deadline);
        this.timedOut ||= result.timedOut;
        this.namesWaited ||= result.waited;
        return (relative) => result.matching.has(relative);
      },
    };
  }

  globMatching(glob: string): NameTest {
    return this.namesMatching({ nameGlob: glob }, relativeGlobTest(glob), glob);
  }

  /** The files of a listed array the name test's quick test keeps (narrowedLists). */
  private async narrowed(files: Candidate[], test: NameTest): Promise<Candidate[]> {
    if (test.glob === undefined) return files;
    let kept = narrowedLists.get(files);
    const found = kept?.get(test.glob);
    if (found) return found;
    const narrowed = await filterInSlices(files, (c) => test.may(c.relative), this.slices);
    if (!kept) narrowedLists.set(files, (kept = new Map()));
    return keepNewest(kept, test.glob, narrowed, NARROWED_KEPT);
  }

  /** The files below the bases that `sourceGlob` lists and `nameTest` matches, within max_depth, filtered as every search is. */
  async list(sourceGlob: string, nameTest: NameTest, skipped: SkipCounts): Promise<Candidate[]> {
    const { input, env } = this;
    const { bases, granted } = this.access;
    const pruned: PrunedEntry[] = [];
    const includeIgnored = input.include_ignored === true;
    const query = {
      bases,
      include: sourceGlob,
      includeIgnored,
      respectGitignore: env.config.respectGitignore && !includeIgnored,
      granted,
      allowed: env.config.allowedPaths,
      warn: env.warn,
    };
    const listed = await untilDeadline(env.source.list(query, env.config.deniedPaths, pruned, env.isCancelled), { at: this.deadline });
    if (env.isCancelled()) throw new CancelledError();
    if (!listed) {
      this.timedOut = this.listingTimedOut = true;
      return [];
    }
    // Only the names the pattern may match go further (a listing of the whole folder holds every name).
    const perBase: Candidate[][] = [];
    for (const files of listed) perBase.push(await this.narrowed(files, nameTest));
    const prunedNames = pruned.filter((entry) => !entry.directory && nameTest.may(entry.relative)).map((entry) => entry.relative);
    const matches = await nameTest.matching([...perBase.flatMap((files) => files.map((c) => c.relative)), ...prunedNames]);
    const depth = input.max_depth ?? 0;
    const withinDepth = (relative: string, directory: boolean) => depth === 0 || relative.split('/').length + (directory ? 1 : 0) <= depth;
    // Match first, so only files the pattern would have listed count as denied.
    const matching: Candidate[][] = [];
    for (const files of perBase) matching.push(await filterInSlices(files, (c) => matches(c.relative) && withinDepth(c.relative, false), this.slices));
    // A pruned entry counts when the pattern could have listed it, or files inside it (a regex: any).
    const below = input.mode === 'regex' ? () => true : globMayMatchBelow(sourceGlob, false);
    const selects = (relative: string, directory: boolean) => withinDepth(relative, directory) && (directory ? below(relative) : matches(relative));
    return filterCandidates(bases, matching, { denied: env.config.deniedPaths, allowed: env.config.allowedPaths, pruned, selects }, skipped);
  }
}
