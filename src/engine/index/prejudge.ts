/**
 * What the index tells a search before it reads anything: for each listed file whose size, times and
 * inode are those it had when indexed, the outcome reading it would give when that is already known
 * (too large, binary, or text without the trigrams every match needs: no match). Every other file is
 * read and searched as without an index, so the answer is the same.
 */
import { statSync } from 'fs';
import type { Matcher } from '../matcher/matcher';
import type { FileOutcome } from '../pool/pool';
import type { ContentIndex, FileStamp } from './contentIndex';
import { planRegex } from './planner';

export interface PrejudgeRequest {
  matcher: Matcher;
  invert: boolean;
  maxFileSize: number;
}

/** A search's view of a candidate: its known outcome, or undefined when it must be read. */
export type Prejudge = (path: string) => FileOutcome | undefined;

/** An index a search can consult (SearchEnvironment.index). */
export interface SearchIndex {
  /** Undefined when the index cannot narrow this search (invert_match, or nothing usable in the pattern). */
  prejudge(request: PrejudgeRequest): Prejudge | undefined;
}

/** The file's stamp now, or undefined when it is not a regular file (or is gone). */
export function statStamp(path: string): FileStamp | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino } : undefined;
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** A file's stamp now, given the one the index has for it (a watcher may vouch that they are the same). */
export type StampOf = (path: string, indexed: FileStamp) => FileStamp | undefined;

export function indexPrejudge(index: ContentIndex, stamp: StampOf = statStamp): SearchIndex {
  return {
    prejudge({ matcher, invert, maxFileSize }) {
      if (invert) return undefined;
      const ids = index.evaluate(planRegex(matcher.regex));
      if (ids === undefined) return undefined;
      const candidates = new Set(ids);
      return (path) => {
        const found = index.entry(path);
        if (!found || found.file.kind === 'unread') return undefined;
        const { id, file } = found;
        // A candidate is read whatever its stamp: only a file the index would settle needs one.
        if (file.kind === 'text' && file.size <= maxFileSize && candidates.has(id)) return undefined;
        const now = stamp(path, file);
        if (!now || !sameStamp(now, file)) return undefined;
        if (file.size > maxFileSize) return 'too_large';
        if (file.kind === 'large') return undefined;
        if (file.kind === 'binary') return 'binary';
        return candidates.has(id) ? undefined : 0;
      };
    },
  };
}

/**
 * A search's index when the index can be replaced while the search runs (a background build finished):
 * the index open at the moment the search asks (`prejudge` reads the posting lists it needs there and
 * then, synchronously), never the one open when the call began, which may have been closed since. Each
 * file's stamp is read once per search, unless `vouched` says it is the index's (a watcher saw no
 * change of the file since the index read it).
 */
export function currentIndexPrejudge(current: () => ContentIndex | undefined, vouched?: (path: string) => boolean): SearchIndex {
  const stamps = new Map<string, FileStamp | undefined>();
  const stampOnce: StampOf = (path, indexed) => {
    if (vouched?.(path)) return indexed;
    if (!stamps.has(path)) stamps.set(path, statStamp(path));
    return stamps.get(path);
  };
  return {
    prejudge(request) {
      const index = current();
      return index && indexPrejudge(index, stampOnce).prejudge(request);
    },
  };
}
