/**
 * What the index tells a search before it reads anything: for each listed file whose size, times and
 * inode are those it had when indexed, the outcome reading it would give when that is already known
 * (too large, binary, or text without the trigrams every match needs: no match). Every other file is
 * read and searched as without an index, so the answer is the same.
 */
import type { Candidate } from '../api/types';
import type { Matcher } from '../matcher/matcher';
import type { FileOutcome } from '../pool/pool';
import { statStamp, type FileStamp } from '../source/fileStamp';
import { finishSteps, finishStepsInSlices, type Steps } from '../source/timeSlices';
import type { ContentIndex } from './contentIndex';
import { planRegex } from './planner';
import { eventsDelivered, type Vouching, type WatchWord } from './treeWatcher';

export interface PrejudgeRequest {
  matcher: Matcher;
  invert: boolean;
  maxFileSize: number;
  /**
   * The search's whole spec (pattern, options, size limit, scope), when the outcomes of the files it
   * reads may be remembered for later searches of the same spec (a repeated question, the next page):
   * kept by file id while a watcher vouches for the file (RecentResults).
   */
  resultsKey?: string;
}

/**
 * Whether a known outcome answers for its file on a page with room for `pageRoom` more lines: one
 * remembered with fewer lines than the page would show of it does not (the file is read again).
 */
export function servesPage(outcome: FileOutcome, pageRoom: number): boolean {
  return typeof outcome !== 'object' || outcome.lines.length >= Math.min(outcome.count, pageRoom);
}

/** A search's view of a candidate: its known outcome, or undefined when it must be read. */
export type Prejudge = (path: string) => FileOutcome | undefined;

/**
 * Prejudge for the candidate at this position of the list the search was planned for (prejudgeListed):
 * an outcome remembered from an earlier search may hold fewer lines than it counts (servesPage);
 * `remember` keeps the outcome of a file the search read, for the next search of the same spec, when
 * the request allowed it.
 */
export type ListedPrejudge = ((at: number) => FileOutcome | undefined) & {
  remember?(at: number, outcome: FileOutcome): void;
  /**
   * How many candidates from position `at` on (at most `limit`) hold no match by the index and a
   * watcher's word: a search counts them as searched without judging them one by one. Only where a
   * watcher vouches for files.
   */
  quiet?(at: number, limit: number): number;
};

/** Takes the stamps of many files at once, in order, off the caller's thread (the search workers: SearchPool.stamps). */
export type StampMany = (paths: string[]) => Promise<Array<FileStamp | undefined>>;

/** An index a search can consult (Corpus.index, run/environment.ts). */
export interface SearchIndex {
  /** Undefined when the index cannot narrow this search (invert_match, or nothing usable in the pattern). */
  prejudge(request: PrejudgeRequest): Prejudge | undefined;
  /**
   * prejudge, for a search of a list of files, each judged by its position: their ids are looked up
   * once per list (ContentIndex.idsOf), not once per search. In a long-running process the stamps the
   * search will need are taken first by `stampMany`, side by side, so judging takes none on this thread.
   */
  prejudgeListed(request: PrejudgeRequest, listed: readonly Candidate[], stampMany: StampMany): Promise<ListedPrejudge | undefined>;
}

/** What the index knows for one search, by file id. */
interface SearchPlan {
  /** Whether a held file's stamp decides its outcome: false for a file read whatever its stamp (a candidate, one the index could not read). */
  settles(id: number): boolean;
  /** The outcome of a file it settles, given its stamp now ('indexed': the one it was indexed with, as a watcher vouches); undefined when the file is read. */
  outcome(id: number, now: FileStamp | 'indexed' | undefined): FileOutcome | undefined;
  /** The ids of the files that may hold a match: read whatever their stamp. */
  candidates: readonly number[];
  /** Whether a file holds no match, by the index, unless it is a candidate: a text file within the size limit. */
  plain(id: number): boolean;
  /** The size limit, all that `plain` depends on besides the index. */
  maxFileSize: number;
}

function planSearch(index: ContentIndex, { matcher, invert, maxFileSize }: PrejudgeRequest): SearchPlan | undefined {
  if (invert) return undefined;
  const ids = index.candidates(planRegex(matcher.regex));
  if (ids === undefined) return undefined;
  const candidate = new Uint8Array(index.idLimit);
  for (const id of ids) candidate[id] = 1;
  const plain = (id: number) => index.kindOf(id) === 'text' && index.sizeOf(id) <= maxFileSize;
  return {
    candidates: ids,
    plain,
    maxFileSize,
    settles: (id) => {
      const kind = index.kindOf(id);
      return kind !== 'unread' && kind !== 'linked' && !(plain(id) && candidate[id] === 1);
    },
    outcome: (id, now) => {
      if (now === undefined || (now !== 'indexed' && !index.stamped(id, now))) return undefined;
      if (index.sizeOf(id) > maxFileSize) return 'too_large';
      const kind = index.kindOf(id);
      if (kind === 'large') return undefined;
      if (kind === 'binary') return 'binary';
      return candidate[id] === 1 ? undefined : 0;
    },
  };
}

/** Below this many stamps to take, a search takes them itself: sending them to the workers would cost more. */
const STAMPS_SENT_AT_LEAST = 512;

export interface CurrentIndexOptions {
  vouching?: Vouching;
  /**
   * Resolves once the events that vouching relies on have been delivered (treeWatcher.ts,
   * eventsDelivered): awaited by a listed search before it takes a watcher's word for a file.
   */
  fence?: () => Promise<void>;
  /**
   * Where the outcomes of files read are kept for later searches of the same spec (while `vouching`
   * vouches for them): one per long-running index, shared by its calls.
   */
  recent?: RecentResults;
  /**
   * Whether a search of listed files has the stamps it needs taken by the search workers first
   * (prejudgeListed): for a long-running process, whose workers are warm. A one-off command line call
   * takes them itself while its workers start.
   */
  stampsInWorkers?: boolean;
}

/**
 * The stamps one call took of one index's files, by id (null: none, the file is gone or not a regular
 * file), and the ids the workers are taking. The table is made on the first stamp: a search whose
 * watcher vouches for its files takes few or none, and a table of 500,000 is milliseconds a call.
 */
class CallStamps {
  private byId?: Array<FileStamp | null | undefined>;
  readonly taking = new Set<number>();

  constructor(private readonly idLimit: number) {}

  taken(id: number): FileStamp | null | undefined {
    return this.byId?.[id];
  }

  take(id: number, stamp: FileStamp | null): void {
    (this.byId ??= new Array<FileStamp | null | undefined>(this.idLimit))[id] = stamp;
  }
}

/**
 * A search's index when the index can be replaced while the search runs (a background build finished):
 * the index open at the moment the search asks (`prejudge` reads the posting lists it needs there and
 * then, synchronously), never the one open when the call began, which may have been closed since. Each
 * file's stamp is read once per call (its search and the checks of an empty answer share them), unless
 * a watcher vouches for it.
 */
export function currentIndexPrejudge(current: () => ContentIndex | undefined, options: CurrentIndexOptions = {}): SearchIndex {
  return new CurrentIndex(current, options);
}

/**
 * currentIndexPrejudge in a long-running process whose watcher vouches for files (VS Code's indexer,
 * `serve`, `mcp`): a listed search waits for the file events queued before it (eventsDelivered), takes a
 * vouched file's word for its stamp, reuses the outcomes kept in `recent`, and has the workers take stamps.
 */
export function watchedIndexPrejudge(current: () => ContentIndex | undefined, vouching: Vouching, recent: RecentResults): SearchIndex {
  return currentIndexPrejudge(current, { vouching, fence: eventsDelivered, recent, stampsInWorkers: true });
}

class CurrentIndex implements SearchIndex {
  private readonly calls = new WeakMap<ContentIndex, CallStamps>();
  /** Stamps being taken by the workers: two searches of one call (the checks of an empty answer run side by side) never take one twice. */
  private readonly takenSoon = new Set<Promise<void>>();

  constructor(
    private readonly current: () => ContentIndex | undefined,
    private readonly options: CurrentIndexOptions,
  ) {}

  prejudge(request: PrejudgeRequest): Prejudge | undefined {
    const index = this.current();
    const plan = index && planSearch(index, request);
    if (!plan) return undefined;
    const byId = this.judge(index, plan);
    return (path) => byId(index.idOf(path) ?? -1);
  }

  async prejudgeListed(request: PrejudgeRequest, listed: readonly Candidate[], stampMany: StampMany): Promise<ListedPrejudge | undefined> {
    const { fence, vouching, recent, stampsInWorkers = false } = this.options;
    await fence?.();
    const index = this.current();
    if (!index) return undefined;
    let plan = planSearch(index, request);
    // Outcomes remembered from earlier searches of the same spec: only where a watcher vouches for files.
    const results = vouching && recent && request.resultsKey !== undefined ? recent.of(index, request.resultsKey) : undefined;
    if (!plan && !results) return undefined;
    const planned = index.idVersion;
    let ids = await index.idsOfInSlices(listed);
    // What the watcher's word says of the list, when not kept from an earlier search: worked out a slice at a time.
    const word = plan && this.options.vouching?.word(index);
    if (plan && word && !keptListedQuiet(index, ids, word, plan)) {
      await finishStepsInSlices(listedQuietSteps(index, ids, word, plan));
      ids = index.idsOf(listed); // (the same unless the index changed meanwhile: then worked out now, at once)
    }
    // (the index changed while the ids were worked out: planned again, for the ids it has now)
    if (index.idVersion !== planned) plan = planSearch(index, request);
    const surveyed = plan && this.survey(index, plan, ids, stampsInWorkers);
    if (surveyed) this.sendStamps(index, surveyed.wanted, stampMany);
    await Promise.all(this.takenSoon);
    const byId = plan && this.judge(index, plan);
    const idAt = (at: number) => (at < ids.length ? ids[at] : -1);
    // Never for a file reached through a symlink: a change of its target is no event in its directory.
    const remembers = (id: number) => id >= 0 && index.kindOf(id) !== 'linked' && vouching!.vouches(index, id);
    const listedJudge: ListedPrejudge = (at) => {
      const id = idAt(at);
      return byId?.(id) ?? (results && remembers(id) ? results.get(id) : undefined);
    };
    const quiet = surveyed?.quiet;
    if (quiet) {
      listedJudge.quiet = (at, limit) => {
        const end = Math.min(quiet.length, at + limit);
        let next = at;
        while (next < end && quiet[next] === 1) next++;
        return next - at;
      };
    }
    if (results) {
      listedJudge.remember = (at, outcome) => {
        const id = idAt(at);
        if (remembers(id)) results.set(id, outcome);
      };
    }
    return listedJudge;
  }

  /** The stamps this call took of an index's files. */
  private stampsOf(index: ContentIndex): CallStamps {
    let stamps = this.calls.get(index);
    if (!stamps) this.calls.set(index, (stamps = new CallStamps(index.idLimit)));
    return stamps;
  }

  /** The known outcome of the file of an id (-1: not held), its stamp taken once per call. */
  private judge(index: ContentIndex, plan: SearchPlan): (id: number) => FileOutcome | undefined {
    const stamps = this.stampsOf(index);
    const { vouching } = this.options;
    return (id) => {
      if (id < 0 || !plan.settles(id)) return undefined;
      if (vouching?.vouches(index, id)) return plan.outcome(id, 'indexed');
      let stamp = stamps.taken(id);
      if (stamp === undefined) stamps.take(id, (stamp = statStamp(index.pathOf(id)) ?? null));
      return plan.outcome(id, stamp ?? undefined);
    };
  }

  /**
   * What a search of a list needs before it begins, from the index and a watcher's word then (so a file
   * changed while it runs is judged as before or after the change, as a file read then would be): the
   * positions of the files that hold no match by the index and that the watcher vouches for (`quiet`,
   * when the index is watched), and the files whose stamps the search will need (`wanted`, in a
   * long-running process), marked as taken. With a watcher's word this costs the candidates and the
   * files it does not vouch for, not the list (ListedQuiet, worked out once for the list).
   */
  private survey(index: ContentIndex, plan: SearchPlan, ids: Int32Array, stampsInWorkers: boolean): { quiet?: Uint8Array; wanted: number[] } {
    const stamps = this.stampsOf(index);
    const { taking } = stamps;
    const wanted: number[] = [];
    const want = (id: number) => {
      if (!stampsInWorkers || !plan.settles(id) || stamps.taken(id) !== undefined || taking.has(id)) return;
      taking.add(id); // (a file listed twice is wanted once)
      wanted.push(id);
    };
    const word = this.options.vouching?.word(index);
    if (!word) {
      for (const id of ids) if (id >= 0) want(id);
      return { wanted };
    }
    const listed = keptListedQuiet(index, ids, word, plan) ?? finishSteps(listedQuietSteps(index, ids, word, plan));
    const quiet = listed.quiet.slice();
    for (const id of plan.candidates) forEachAt(listed, id, (at) => (quiet[at] = 0));
    for (const path of word.named()) {
      const id = index.idOf(path);
      if (id === undefined) continue;
      forEachAt(listed, id, (at) => {
        quiet[at] = 0;
        want(id);
      });
    }
    for (const at of listed.unwatched) want(ids[at]);
    return { quiet, wanted };
  }

  /** Has the workers take the stamps of `wanted` (marked as being taken), when there are enough of them to be worth sending. */
  private sendStamps(index: ContentIndex, wanted: readonly number[], stampMany: StampMany): void {
    const stamps = this.stampsOf(index);
    const { taking } = stamps;
    if (wanted.length < STAMPS_SENT_AT_LEAST) {
      for (const id of wanted) taking.delete(id);
      return;
    }
    // Stamps that could not be taken there (the pool was stopped) are taken here, one at a time, as without it.
    const stamped: Promise<void> = stampMany(wanted.map((id) => index.pathOf(id)))
      .then(
        (found) => wanted.forEach((id, i) => stamps.take(id, found[i] ?? null)),
        () => undefined,
      )
      .finally(() => {
        for (const id of wanted) taking.delete(id);
        this.takenSoon.delete(stamped);
      });
    this.takenSoon.add(stamped);
  }
}

/**
 * What a watcher's word and the index say of each position of a list, whatever the pattern: the files
 * that hold no match unless they are candidates and whose directories are watched (`quiet`), the
 * positions of the files whose directories are not (`unwatched`), and where each id is listed. Worked out
 * in one pass over the list (listedQuietSteps), kept while the list's ids, the watches and the size
 * limit stay (one per list: an index is watched by one watcher).
 */
interface ListedQuiet {
  idVersion: number;
  mark: number;
  maxFileSize: number;
  quiet: Uint8Array;
  unwatched: number[];
  /** The first position of each id (-1: not listed), and the others of an id listed more than once. */
  first: Int32Array;
  more: Map<number, number[]>;
}

/** Ids between two steps of listedQuietSteps. */
const IDS_PER_STEP = 256;

function* listedQuietSteps(index: ContentIndex, ids: Int32Array, word: WatchWord, plan: SearchPlan): Steps<ListedQuiet> {
  const listed: ListedQuiet = {
    idVersion: index.idVersion,
    mark: word.mark,
    maxFileSize: plan.maxFileSize,
    quiet: new Uint8Array(ids.length),
    unwatched: [],
    first: new Int32Array(index.idLimit).fill(-1),
    more: new Map(),
  };
  const { quiet, unwatched, first, more } = listed;
  for (let at = 0; at < ids.length; at++) {
    const id = ids[at];
    if (at % IDS_PER_STEP === IDS_PER_STEP - 1) yield IDS_PER_STEP;
    if (id < 0) continue;
    if (first[id] < 0) first[id] = at;
    else {
      let others = more.get(id);
      if (!others) more.set(id, (others = []));
      others.push(at);
    }
    if (!word.watched(id)) unwatched.push(at);
    else if (plan.plain(id)) quiet[at] = 1;
  }
  listedQuiets.set(ids, listed);
  return listed;
}

/** Calls `each` with every position of this id in the list (none when it is not listed). */
function forEachAt(listed: ListedQuiet, id: number, each: (at: number) => void): void {
  if (id >= listed.first.length || listed.first[id] < 0) return;
  each(listed.first[id]);
  for (const at of listed.more.get(id) ?? []) each(at);
}

/** The ListedQuiet of each list's ids (ContentIndex.idsOf keeps one array per list and index version). */
const listedQuiets = new WeakMap<Int32Array, ListedQuiet>();

/** The ListedQuiet kept for these ids, when it holds under this word and plan. */
function keptListedQuiet(index: ContentIndex, ids: Int32Array, word: WatchWord, plan: SearchPlan): ListedQuiet | undefined {
  const kept = listedQuiets.get(ids);
  return kept && kept.idVersion === index.idVersion && kept.mark === word.mark && kept.maxFileSize === plan.maxFileSize ? kept : undefined;
}

/** Specs whose outcomes are kept per index, the least recently searched dropped first. */
const RESULT_SPECS = 16;
/** Reported lines kept in all (of a file, its count and at most its first LINES_PER_FILE lines). */
const RESULT_LINES = 100_000;
const LINES_PER_FILE = 200;

/** The outcomes of one spec's files, by id. */
interface SpecResults {
  get(id: number): FileOutcome | undefined;
  set(id: number, outcome: FileOutcome): void;
}

/** The lines an outcome keeps. */
const linesOf = (outcome: FileOutcome | undefined) => (typeof outcome === 'object' ? outcome.lines.length : 0);

/** What one spec's searches read, and how many lines it keeps. */
interface KeptSpec {
  outcomes: Map<number, FileOutcome>;
  lines: number;
}

/**
 * The outcomes of the files recent searches read, per index (a new index starts empty) and spec: a
 * file's outcome as it was read (0, binary, too large, or its count with the lines collected, at most
 * LINES_PER_FILE, and what a cut page's order learned of it: more lines, whether it defines the name). Whoever asks checks that a watcher still vouches for
 * the file (a file changed since is read again). Bounded in specs (the least recently searched goes)
 * and in lines: over RESULT_LINES, the least recently searched specs keep their files' counts without
 * their lines, so asked again they read only the files whose lines a page shows.
 */
export class RecentResults {
  private readonly byIndex = new WeakMap<ContentIndex, { specs: Map<string, KeptSpec>; lines: number }>();

  constructor(private readonly limits = { specs: RESULT_SPECS, lines: RESULT_LINES }) {}

  of(index: ContentIndex, key: string): SpecResults {
    let kept = this.byIndex.get(index);
    if (!kept) this.byIndex.set(index, (kept = { specs: new Map(), lines: 0 }));
    const all = kept;
    const { limits } = this;
    let spec = all.specs.get(key);
    if (spec)
      all.specs.delete(key); // most recently searched last
    else spec = { outcomes: new Map(), lines: 0 };
    all.specs.set(key, spec);
    const current = spec;
    const evict = () => {
      for (const [oldest, dropped] of all.specs) {
        if (all.specs.size <= limits.specs || dropped === current) break;
        all.lines -= dropped.lines;
        all.specs.delete(oldest);
      }
      for (const older of all.specs.values()) {
        if (all.lines <= limits.lines || older === current) break;
        if (older.lines === 0) continue;
        for (const [id, outcome] of older.outcomes) {
          if (typeof outcome !== 'object' || outcome.lines.length === 0) continue;
          const [line] = outcome.lines;
          older.outcomes.set(id, { ...outcome, lines: [], first: { line: line.line, text: line.text } });
        }
        all.lines -= older.lines;
        older.lines = 0;
      }
    };
    evict();
    const mine = current.outcomes;
    return {
      get: (id) => mine.get(id),
      set(id, outcome) {
        if (outcome === 'unreadable' || outcome === 'denied' || outcome === 'outside_workspace') return;
        let kept: FileOutcome = outcome;
        if (typeof outcome === 'object' && outcome.lines.length > LINES_PER_FILE) {
          // Its first lines only (a page rarely shows more of one file).
          kept = { ...outcome, lines: outcome.lines.slice(0, LINES_PER_FILE) };
        }
        const added = linesOf(kept) - linesOf(mine.get(id));
        all.lines += added;
        current.lines += added;
        mine.set(id, kept);
        evict();
      },
    };
  }
}
