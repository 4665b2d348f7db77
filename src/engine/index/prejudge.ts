/**
 * What the index tells a search before it reads anything: for each listed file whose size, times and
 * inode are those it had when indexed, the outcome reading it would give when that is already known
 * (too large, binary, or text without the trigrams every match needs: no match). Every other file is
 * read and searched as without an index, so the answer is the same.
 */
import type { Matcher } from '../matcher/matcher';
import type { FileOutcome } from '../pool/pool';
import { sameStamp, statStamp, type FileStamp } from '../source/fileStamp';
import type { ContentIndex } from './contentIndex';
import { planRegex } from './planner';

export interface PrejudgeRequest {
  matcher: Matcher;
  invert: boolean;
  maxFileSize: number;
}

/** A search's view of a candidate: its known outcome, or undefined when it must be read. */
export type Prejudge = (path: string) => FileOutcome | undefined;

/** Takes the stamps of many files at once, in order, off the caller's thread (the search workers: SearchPool.stamps). */
export type StampMany = (paths: string[]) => Promise<Array<FileStamp | undefined>>;

/** An index a search can consult (SearchEnvironment.index). */
export interface SearchIndex {
  /** Undefined when the index cannot narrow this search (invert_match, or nothing usable in the pattern). */
  prejudge(request: PrejudgeRequest): Prejudge | undefined;
  /**
   * prejudge, for a search of these listed files: the stamps it will need are taken first by
   * `stampMany`, side by side, so judging them takes none on this thread.
   */
  prejudgeListed?(request: PrejudgeRequest, paths: readonly string[], stampMany: StampMany): Promise<Prejudge | undefined>;
}

/** A file's stamp now, given the one the index has for it (a watcher may vouch that they are the same). */
export type StampOf = (path: string, indexed: FileStamp) => FileStamp | undefined;

/** What the index knows for one search: which files it may settle, and their outcomes once their stamps are known. */
interface SearchPlan {
  /** The index's id of a file whose outcome its stamp decides; undefined for a file read whatever its stamp. */
  settleable(path: string): number | undefined;
  judge(stamp: StampOf): Prejudge;
}

function planSearch(index: ContentIndex, { matcher, invert, maxFileSize }: PrejudgeRequest): SearchPlan | undefined {
  if (invert) return undefined;
  const ids = index.evaluate(planRegex(matcher.regex));
  if (ids === undefined) return undefined;
  const candidates = new Set(ids);
  const settleable = (path: string) => {
    const id = index.idOf(path);
    if (id === undefined) return undefined;
    const file = index.fileOf(id);
    if (file.kind === 'unread') return undefined;
    // A candidate is read whatever its stamp: only a file the index would settle needs one.
    if (file.kind === 'text' && file.size <= maxFileSize && candidates.has(id)) return undefined;
    return id;
  };
  return {
    settleable,
    judge: (stamp) => (path) => {
      const id = settleable(path);
      if (id === undefined) return undefined;
      const file = index.fileOf(id);
      const now = stamp(path, file);
      if (!now || !sameStamp(now, file)) return undefined;
      if (file.size > maxFileSize) return 'too_large';
      if (file.kind === 'large') return undefined;
      if (file.kind === 'binary') return 'binary';
      return candidates.has(id) ? undefined : 0;
    },
  };
}

/** Below this many stamps to take, a search takes them itself: sending them to the workers would cost more. */
const STAMPS_SENT_AT_LEAST = 512;

export interface CurrentIndexOptions {
  /** Whether a watcher vouches that the file is as the index read it (it saw no change of the file since). */
  vouched?: (path: string) => boolean;
  /**
   * Whether a search of listed files has the stamps it needs taken by the search workers first
   * (prejudgeListed): for a long-running process, whose workers are warm. A one-off command line call
   * takes them itself while its workers start.
   */
  stampsInWorkers?: boolean;
}

/**
 * A search's index when the index can be replaced while the search runs (a background build finished):
 * the index open at the moment the search asks (`prejudge` reads the posting lists it needs there and
 * then, synchronously), never the one open when the call began, which may have been closed since. Each
 * file's stamp is read once per call (its search and the checks of an empty answer share them), unless
 * a watcher vouches for it.
 */
export function currentIndexPrejudge(current: () => ContentIndex | undefined, { vouched, stampsInWorkers = false }: CurrentIndexOptions = {}): SearchIndex {
  // null: the file has no stamp (gone, or not a regular file).
  const stamps = new Map<string, FileStamp | null>();
  const stampOnce: StampOf = (path, indexed) => {
    if (vouched?.(path)) return indexed;
    let stamp = stamps.get(path);
    if (stamp === undefined) stamps.set(path, (stamp = statStamp(path) ?? null));
    return stamp ?? undefined;
  };
  const prejudge = (request: PrejudgeRequest) => {
    const index = current();
    return index && planSearch(index, request)?.judge(stampOnce);
  };
  if (!stampsInWorkers) return { prejudge };
  // Stamps being taken by the workers: two searches of one call (the checks of an empty answer run side by side) never take one twice.
  const taking = new Set<string>();
  const takenSoon = new Set<Promise<void>>();
  return {
    prejudge,
    async prejudgeListed(request, paths, stampMany) {
      const index = current();
      const plan = index && planSearch(index, request);
      if (!plan) return undefined;
      const wanted: string[] = [];
      for (const path of paths) {
        if (stamps.has(path) || taking.has(path) || plan.settleable(path) === undefined || vouched?.(path)) continue;
        taking.add(path); // (a path listed twice is wanted once)
        wanted.push(path);
      }
      if (wanted.length < STAMPS_SENT_AT_LEAST) {
        for (const path of wanted) taking.delete(path);
      } else {
        // Stamps that could not be taken there (the pool was stopped) are taken here, one at a time, as without it.
        const taken: Promise<void> = stampMany(wanted)
          .then((found) => wanted.forEach((path, i) => stamps.set(path, found[i] ?? null)), () => undefined)
          .finally(() => {
            for (const path of wanted) taking.delete(path);
            takenSoon.delete(taken);
          });
        takenSoon.add(taken);
      }
      await Promise.all(takenSoon);
      return plan.judge(stampOnce);
    },
  };
}
