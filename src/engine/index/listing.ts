/**
 * A recorded listing: what a file source listed for a search of the whole workspace (the files, in
 * order, and what it pruned), with the stamps of every directory it listed and of the .gitignore files
 * in them. While none of those changed, no entry can have appeared, gone or changed its ignored state,
 * so the listing is replayed instead of walking the tree again. An index keeps one for the search with
 * ignored files left out, and may keep one with them (include_ignored: an empty answer's check). Any
 * other search, or any change, walks.
 */
import { readdirSync, statSync } from 'fs';
import * as nodePath from 'path';
import { resolveLinkSync } from '../guard/links';
import { below } from '../guard/paths';
import type { FileQuery, FileSource, PrunedEntry } from '../source/fileSource';
import type { Candidate } from '../api/types';
import { RECENT_WRITE_MS } from './builder';
import { sameStamp, statStamp, type FileStamp } from '../source/fileStamp';

export type StreamingSource = FileSource & Required<Pick<FileSource, 'stream'>>;

export interface RecordedListing {
  folders: string[];
  denied: string[];
  granted: string[];
  /** Whether files.exclude / search.exclude were left unapplied (include_ignored); .gitignore too then. */
  includeIgnored: boolean;
  respectGitignore: boolean;
  /**
   * Whether its .gitignore rules matched names ignoring case (the source's `gitignoreIgnoresCase`); absent
   * in a listing recorded before the rule followed the platform (when it ignored case everywhere), so such
   * a listing is never replayed.
   */
  gitignoreIgnoresCase?: boolean;
  /** The files as the source streamed them: the base index and the path relative to it ('/'-separated). */
  bases: number[];
  relatives: string[];
  pruned: PrunedEntry[];
  /** Directories listed, and the .gitignore files in them: absent ones have no stamp. */
  watched: Array<{ path: string; stamp?: FileStamp }>;
  /** Symlinks in those directories, with where they led (their target can change with nothing above changing). */
  links: Array<{ path: string; target?: string }>;
}

/**
 * Whether a path the listing watches is the .gitignore of a listed directory (spelled by `below`, with
 * this platform's separator: on Windows `C:\ws\.gitignore`), not the directory itself.
 */
const isRulesFile = (path: string) => nodePath.basename(path) === '.gitignore';

/** Where a symlink leads, as a listing records it: its target's kind and real path, or undefined when it leads nowhere. */
function linkTarget(path: string): string | undefined {
  const target = resolveLinkSync(path);
  return target && `${target.directory ? 'd' : target.file ? 'f' : 'o'}:${target.real}`;
}

function directoryStamp(path: string): FileStamp | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat?.isDirectory() ? { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino } : undefined;
}

/** Whether two lists hold the same strings in the same order. */
export const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * Whether `query` is the search the listing was recorded for: every folder as a base, ignored files left
 * out or not alike, by a source matching .gitignore names by the same case rule (`ignoreCase`).
 */
function replays(listing: RecordedListing, query: FileQuery, denied: readonly string[], ignoreCase: boolean | undefined): boolean {
  return (
    query.includeIgnored === listing.includeIgnored &&
    query.respectGitignore === listing.respectGitignore &&
    (!query.respectGitignore || listing.gitignoreIgnoresCase === ignoreCase) &&
    query.bases.length === listing.folders.length &&
    query.bases.every((base, i) => base.base === listing.folders[i] && base.root === base.base) &&
    sameList(denied, listing.denied) &&
    sameList(query.granted ?? [], listing.granted)
  );
}

/**
 * Lists a whole-workspace query through the source, recording it. Undefined (nothing recorded) when the
 * source cannot stream, or a directory or .gitignore changed too recently to be relied on. Past
 * `maxFiles` it stops: `over`, no files and nothing recorded.
 */
export function recordListing(
  source: FileSource,
  query: FileQuery,
  denied: readonly string[],
  isCancelled: () => boolean,
  now = Date.now(),
  maxFiles = Infinity,
): { listing?: RecordedListing; files: Array<[number, Candidate]>; pruned: PrunedEntry[]; over?: true } {
  const pruned: PrunedEntry[] = [];
  const watched: RecordedListing['watched'] = [];
  const links: RecordedListing['links'] = [];
  const files: Array<[number, Candidate]> = [];
  if (!source.stream) return { files: [], pruned };
  let unchangedLately = true;
  const onDirectory = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) links.push({ path: below(dir, entry.name), target: linkTarget(below(dir, entry.name)) });
    }
    const stamp = directoryStamp(dir);
    const gitignore = below(dir, '.gitignore');
    const rules = statStamp(gitignore);
    if (!stamp || now - stamp.mtimeMs < RECENT_WRITE_MS || (rules && now - rules.mtimeMs < RECENT_WRITE_MS)) unchangedLately = false;
    watched.push({ path: dir, stamp }, { path: gitignore, stamp: rules });
  };
  for (const entry of source.stream({ ...query, onDirectory }, denied, pruned, isCancelled)) {
    if (files.length === maxFiles) return { files: [], pruned: [], over: true };
    files.push(entry);
  }
  const folders = query.bases.map((base) => base.base);
  const direct = files.every(([base, candidate]) => candidate.path === below(folders[base], candidate.relative));
  if (!unchangedLately || !direct || isCancelled()) return { files, pruned };
  const listing: RecordedListing = {
    folders,
    denied: [...denied],
    granted: [...(query.granted ?? [])],
    includeIgnored: query.includeIgnored,
    respectGitignore: query.respectGitignore,
    gitignoreIgnoresCase: source.gitignoreIgnoresCase,
    bases: files.map(([base]) => base),
    relatives: files.map(([, candidate]) => candidate.relative),
    pruned: pruned.slice(),
    watched,
    links,
  };
  return replays(listing, query, denied, source.gitignoreIgnoresCase) ? { listing, files, pruned } : { files, pruned };
}

/** Whether every symlink the listing saw still leads where it led. */
export function linksFresh(listing: RecordedListing): boolean {
  return listing.links.every(({ path, target }) => linkTarget(path) === target);
}

/** Whether every directory, .gitignore and symlink the listing saw is as it was. */
export function listingFresh(listing: RecordedListing): boolean {
  const same = listing.watched.every(({ path, stamp }) => {
    const now = isRulesFile(path) ? statStamp(path) : directoryStamp(path);
    return now === undefined || stamp === undefined ? now === stamp : sameStamp(now, stamp);
  });
  return same && linksFresh(listing);
}

/** The directories a watcher of the listings watches: each listed directory, and the one of each .gitignore. */
export function watchedDirectories(listings: readonly RecordedListing[]): Set<string> {
  return new Set(listings.flatMap((listing) => listing.watched.map(({ path }) => (isRulesFile(path) ? nodePath.dirname(path) : path))));
}

/** A replayed listing's files per base, made once per listing (so a search's filter of them is remembered, candidates.ts). */
const replayedLists = new WeakMap<RecordedListing, Candidate[][]>();

function listsOf(listing: RecordedListing): Candidate[][] {
  let perBase = replayedLists.get(listing);
  if (!perBase) {
    const lists: Candidate[][] = listing.folders.map(() => []);
    for (let i = 0; i < listing.relatives.length; i++) {
      const base = listing.bases[i];
      const relative = listing.relatives[i];
      lists[base].push({ path: below(listing.folders[base], relative), relative });
    }
    replayedLists.set(listing, (perBase = lists));
  }
  return perBase;
}

/**
 * What decides a walk of the Node source (walker.ts): its bases, rules and scope, not `include` (it walks
 * everything and the search filters); undefined for a walk whose directories someone is told of.
 */
function walkKey(query: FileQuery, denied: readonly string[]): string | undefined {
  if (query.onDirectory) return undefined;
  const { bases, includeIgnored, respectGitignore, granted, allowed } = query;
  return JSON.stringify([bases.map((base) => [base.root, base.base]), includeIgnored, respectGitignore, granted ?? [], allowed ?? [], denied]);
}

/** A walk this source finished: its files per base and what it pruned. */
interface Walked {
  perBase: Candidate[][];
  pruned: PrunedEntry[];
}

/**
 * The file source of one call (a command line call, or one call to `serve` or the MCP server): replays a
 * fresh recorded listing for the search it was recorded for, and asks the source it wraps for everything
 * else, each walk once: a walk asked again during the call (an empty answer's checks ask the same tree
 * up to six times) is handed back, the tree taken as it was a moment ago. Freshness is checked once per
 * listing, by `isFresh` when given (a watcher's view of the tree), else by statting what the listing saw.
 * A replayed listing is handed to `list` as the same arrays each time (`holds`), so a process that keeps
 * it (`serve`) filters it once per filter, not once per call.
 */
export class ListingSource implements FileSource {
  private readonly fresh = new Map<RecordedListing, boolean>();
  /** The walks finished through the wrapped source, by walkKey. */
  private readonly walked = new Map<string, Walked>();
  /** Searches that replayed the listing. */
  replayed = 0;

  constructor(
    private readonly inner: StreamingSource,
    private readonly listings: readonly RecordedListing[],
    private readonly isFresh: (listing: RecordedListing) => boolean = listingFresh,
  ) {}

  kind(absolute: string) {
    return this.inner.kind(absolute);
  }

  mtime(absolute: string) {
    return this.inner.mtime(absolute);
  }

  get gitignoreIgnoresCase(): boolean | undefined {
    return this.inner.gitignoreIgnoresCase;
  }

  private usable(query: FileQuery, denied: readonly string[]): RecordedListing | undefined {
    const ignoreCase = this.inner.gitignoreIgnoresCase;
    const listing = query.onDirectory ? undefined : this.listings.find((recorded) => replays(recorded, query, denied, ignoreCase));
    if (!listing) return undefined;
    let fresh = this.fresh.get(listing);
    if (fresh === undefined) this.fresh.set(listing, (fresh = this.isFresh(listing)));
    return fresh ? listing : undefined;
  }

  holds(query: FileQuery, denied: readonly string[]): boolean {
    return this.usable(query, denied) !== undefined || this.walkedFor(query, denied) !== undefined;
  }

  /** The replayed listing's files per base (the same arrays each time), its pruned entries added to `pruned`. */
  private replay(listing: RecordedListing, pruned: PrunedEntry[]): Candidate[][] {
    this.replayed++;
    pruned.push(...listing.pruned);
    return listsOf(listing);
  }

  private walkedFor(query: FileQuery, denied: readonly string[]): Walked | undefined {
    const key = walkKey(query, denied);
    return key === undefined ? undefined : this.walked.get(key);
  }

  /** The files per base of a fresh recorded listing, or of a walk this call finished, for `query` (their pruned entries added to `pruned`); undefined when it must walk. */
  private handBack(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[]): Candidate[][] | undefined {
    const listing = this.usable(query, denied);
    if (listing) return this.replay(listing, pruned);
    const walked = this.walkedFor(query, denied);
    if (!walked) return undefined;
    pruned.push(...walked.pruned);
    return walked.perBase;
  }

  async list(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Promise<Candidate[][]> {
    const known = this.handBack(query, denied, pruned);
    if (known) return known;
    const key = walkKey(query, denied);
    const from = pruned.length;
    const perBase = await this.inner.list(query, denied, pruned, isCancelled);
    // Kept when it ran to its end (not cancelled).
    if (key !== undefined && !isCancelled()) this.walked.set(key, { perBase, pruned: pruned.slice(from) });
    return perBase;
  }

  *stream(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Generator<[number, Candidate]> {
    const known = this.handBack(query, denied, pruned);
    if (known) {
      // In the stream's order: bases in order, each base's files sorted.
      for (const [base, files] of known.entries()) for (const file of files) yield [base, file];
      return;
    }
    const key = walkKey(query, denied);
    if (key === undefined) return yield* this.inner.stream(query, denied, pruned, isCancelled);
    const from = pruned.length;
    const perBase: Candidate[][] = query.bases.map(() => []);
    for (const item of this.inner.stream(query, denied, pruned, isCancelled)) {
      perBase[item[0]].push(item[1]);
      yield item;
    }
    // Kept when the caller took it to its end and it was not cancelled.
    if (!isCancelled()) this.walked.set(key, { perBase, pruned: pruned.slice(from) });
  }
}
