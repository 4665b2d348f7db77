/**
 * What to search: the contract between the tools and a file source (VS Code's findFiles, or the
 * Node walker of the CLI), and the filter both apply so they agree on every path.
 */
import { keepNewest } from '../api/kept';
import * as nodePath from 'path';
import { Minimatch } from 'minimatch';
import { allowList, policyRoot } from '../guard/scope';
import { comparePaths, compileGlob, deniedRule, GLOB_OPTIONS, isNameGlob } from '../globset/globs';
import type { SearchBase } from '../guard/roots';
import { relativePosix } from '../guard/paths';
import { filterInSlices, sortInSlices, TimeSlices } from './timeSlices';
import type { Candidate, SkipCounts } from '../api/types';

export interface FileQuery {
  bases: SearchBase[];
  /** Glob relative to each base; a glob without '/' matches the file name at any depth. Default: all files. */
  include?: string;
  /** Skip files.exclude / search.exclude (not denied paths). */
  includeIgnored: boolean;
  /** Leave out what .gitignore files ignore. */
  respectGitignore: boolean;
  /**
   * Real paths a symlink met on the way may lead to (`Access.granted`: the workspace folders, a confirmed
   * outside base); the real path of each base's root is always granted.
   */
  granted?: readonly string[];
  /** `grepTools.allowedPaths`: a symlink (or what a directory really is) must lead to an allowed place too. */
  allowed?: readonly string[];
  /** Receives a line for the log: an ignore file that was skipped (ignoreFile.ts), and why. */
  warn?(message: string): void;
  /** Called with each directory the source lists (the index records them, to tell when a listing is stale). */
  onDirectory?: (absolute: string) => void;
}

/**
 * An entry a source did not enter or list: a denied directory (or a link to a denied place), a symlink
 * whose real path leaves the granted roots, a directory it could not read. Counted by `filterCandidates`.
 */
export interface PrunedEntry {
  /** Index of the base in `FileQuery.bases`. */
  base: number;
  /** '/'-separated path relative to the base ('' for the base itself). */
  relative: string;
  reason: 'denied' | 'outside_workspace' | 'unreadable';
  /** A directory, or a link to one: counted when the search could have found files inside it. */
  directory: boolean;
}

export interface FileSource {
  /** 'file', 'directory', or undefined when nothing is there. */
  kind(absolute: string): Promise<'file' | 'directory' | undefined>;
  /** Last modification time in ms (0 when unknown). */
  mtime(absolute: string): Promise<number>;
  /**
   * Files below each base (or the base itself when it is a file), matching `query.include` when the
   * source can apply it cheaply, excluding what VS Code excludes unless `includeIgnored`; never a file
   * in a directory that `denied` prunes, nor one whose real path leaves `query.granted` (the entry
   * policy, entryPolicy.ts). What it prunes for those reasons goes to `pruned`. Order does not matter.
   */
  list(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Promise<Candidate[][]>;
  /**
   * Optional: the same files as `list`, each with its base's index, in the final order (bases in
   * order, each base's files by comparePaths), produced as they are found so a search can start on the
   * first files while the rest are still being listed.
   */
  stream?(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Iterable<[number, Candidate]>;
  /**
   * Optional: the same files as `list`, handed to `onFiles` in the final order (bases in order, each
   * base's files by comparePaths) a run at a time as they are listed, so a search can start on the first
   * while the rest are listed. Resolves once all were handed over (false: cancelled). Taken where the
   * source does not hold a listing for the query (`holds`).
   */
  listInOrder?(
    query: FileQuery,
    denied: readonly string[],
    pruned: PrunedEntry[],
    isCancelled: () => boolean,
    onFiles: (base: number, files: readonly Candidate[]) => void,
  ): Promise<boolean>;
  /**
   * Optional: how to read a file this source listed when it is not on disk (a virtual file system's
   * `workspace.fs`), by absolute path; undefined for a file read from disk as usual.
   */
  reader?(absolute: string): (() => Promise<Uint8Array | undefined>) | undefined;
  /**
   * Optional: whether `list` hands back, for this query, the lists of a listing the source holds (a
   * recorded listing it replays): the very same arrays on every call while the listing is unchanged, so
   * a search filters them once per filter (candidates.ts) rather than streaming them each time.
   */
  holds?(query: FileQuery, denied: readonly string[]): boolean;
  /**
   * Optional: whether the .gitignore rules this source applies match names ignoring case (gitignore.ts
   * `gitignoreIgnoresCase`); a recorded listing is replayed only under the rule it was made with.
   */
  readonly gitignoreIgnoresCase?: boolean;
}

/** A listing as a search replays it: its files, what it pruned (both relative to its base), the lines it logged. */
export interface ListedPart {
  files: Candidate[];
  pruned: readonly PrunedEntry[];
  warnings: readonly string[];
}

/** The parts below a listing's directories made so far, per listing, and its directories to look them up in. */
const partsBelow = new WeakMap<object, { directories: Set<string>; parts: Map<string, ListedPart> }>();
/** Parts kept per listing (the folders a few searches ask about), the least recently asked dropped first. */
const PARTS_KEPT = 8;

/**
 * The part of a listing of `root` below its directory `base`, as that folder's own listing would give it:
 * the files and pruned entries below it, relative to it. Undefined when `base`, as spelled, is no directory
 * of the listing (`directories`: each one that held a listed file, and those above it). The same arrays
 * again while the listing is the same (a search filters a list once per filter, candidates.ts).
 */
export async function listingBelow(
  listing: ListedPart & { directories: readonly string[] },
  root: string,
  base: string,
  slices = new TimeSlices(),
): Promise<ListedPart | undefined> {
  let kept = partsBelow.get(listing);
  if (!kept) partsBelow.set(listing, (kept = { directories: new Set(listing.directories), parts: new Map() }));
  const found = kept.parts.get(base);
  // (the most recently asked last)
  if (found) return keepNewest(kept.parts, base, found, PARTS_KEPT);
  if (!kept.directories.has(base)) return undefined;
  const prefix = `${relativePosix(root, base)}/`;
  const files: Candidate[] = [];
  for (const { path, relative } of listing.files) {
    if (relative.startsWith(prefix)) files.push({ path, relative: relative.slice(prefix.length) });
    if (slices.due()) await slices.pause();
  }
  const pruned = listing.pruned
    .filter((entry) => entry.relative.startsWith(prefix))
    .map((entry) => ({ ...entry, relative: entry.relative.slice(prefix.length) }));
  const part = { files, pruned, warnings: listing.warnings };
  return keepNewest(kept.parts, base, part, PARTS_KEPT);
}

/** Content searched instead of a file on disk: an editor's text, or a reader (undefined when it cannot be read). */
export type FileContent = string | (() => Promise<Uint8Array | undefined>);

/** The glob handed to a source for `include` ('*.ts' → '**\/*.ts'). */
export function includeToGlob(include: string | undefined): string {
  if (!include) return '**';
  const glob = include.replace(/^\.\//, '');
  return isNameGlob(glob) ? `**/${glob}` : glob;
}

export interface CandidateFilter {
  include?: string;
  exclude?: string;
  denied: readonly string[];
  /** `grepTools.allowedPaths`: when not empty, only files they match are kept (the others count as denied). */
  allowed?: readonly string[];
  /** What the sources pruned: counted in `skipped` when the search would have looked there (see below). */
  pruned?: readonly PrunedEntry[];
  /** Whether the search asks for a file, or may find files in a directory, at this base-relative path. Default: include. */
  selects?: (relative: string, directory: boolean) => boolean;
  /**
   * The search's time limit for testing `include` / `exclude` (a glob within the limits can still take
   * milliseconds per crafted name): once `at` has passed, every remaining candidate is refused and `expired`
   * is set, so the search answers `timed_out` with what it found instead of testing names past its limit.
   */
  deadline?: { at: number; expired: boolean };
}

/**
 * Whether a directory at a base-relative path may hold files a glob matches; a glob without '/' matches
 * names at any depth (include) unless `nameAtAnyDepth` is false (the glob tool's '*.ts').
 */
export function globMayMatchBelow(glob: string, nameAtAnyDepth = true): (relativeDir: string) => boolean {
  const pattern = glob.replace(/^\.\//, '');
  if (nameAtAnyDepth && isNameGlob(pattern)) return () => true;
  const matcher = new Minimatch(pattern, GLOB_OPTIONS);
  return (relativeDir) => matcher.match(relativeDir, true);
}

/** The directory of a '/'-separated relative path ('' at the top). */
export function parentOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash === -1 ? '' : relative.slice(0, slash);
}

/**
 * The filter as one pass over a source's candidates: `accept` each (include, exclude, denied paths and
 * the allow-list; denied files are counted), then `finish` counts what the sources pruned, the way
 * every source can see it, so the CLI's walker and VS Code's findFiles report the same numbers: an
 * entry counts when it sits directly in the base or in a directory that holds a file the search
 * selected, and the search could have found something there (a file it asks for, a directory where it
 * may find one). Its contents are never listed, so a pruned directory is 1. Memory grows with the
 * directories that hold selected files, not with the files.
 */
export class CandidateFilterPass {
  private readonly include?: (relative: string) => boolean;
  private readonly exclude?: (relative: string) => boolean;
  private readonly allowed: ReturnType<typeof allowList>;
  private readonly selects: (relative: string, directory: boolean) => boolean;
  /** Paths already accepted, when bases may overlap (several workspace folders). */
  private readonly seen?: Set<string>;
  /** Per base: directories (base-relative) holding a selected file, and their parents. */
  private readonly listed: Array<Set<string>>;
  private readonly rootPrefixes: string[];

  constructor(
    private readonly bases: SearchBase[],
    private readonly filter: CandidateFilter,
    private readonly skipped: SkipCounts,
  ) {
    const include = filter.include ? compileGlob(filter.include, 'include') : undefined;
    this.include = include;
    this.exclude = filter.exclude ? compileGlob(filter.exclude, 'exclude') : undefined;
    this.allowed = allowList(filter.allowed ?? []);
    const includeBelow = filter.include ? globMayMatchBelow(filter.include) : () => true;
    this.selects = filter.selects ?? ((relative: string, directory: boolean) => (directory ? includeBelow(relative) : !include || include(relative)));
    this.seen = bases.length > 1 ? new Set() : undefined;
    this.listed = bases.map(() => new Set(['']));
    // Denied rules are matched from the workspace folder (from '/' for a confirmed outside base).
    this.rootPrefixes = bases.map((base) => {
      const root = policyRoot(base);
      return root.endsWith('/') ? root : `${root}/`;
    });
  }

  accept(index: number, candidate: Candidate): boolean {
    if (this.seen) {
      if (this.seen.has(candidate.path)) return false;
      this.seen.add(candidate.path);
    }
    const deadline = this.filter.deadline;
    if (deadline && (deadline.expired || ((this.include || this.exclude) && Date.now() > deadline.at))) {
      deadline.expired = true;
      return false;
    }
    if (this.include && !this.include(candidate.relative)) return false;
    const listed = this.listed[index];
    for (let dir = parentOf(candidate.relative); dir !== '' && !listed.has(dir); dir = parentOf(dir)) listed.add(dir);
    if (this.exclude && this.exclude(candidate.relative)) return false;
    // Counted only among the files the search asked for, so every source reports the same number.
    const prefix = this.rootPrefixes[index];
    const fromRoot = candidate.path.startsWith(prefix)
      ? candidate.path.slice(prefix.length)
      : nodePath.relative(policyRoot(this.bases[index]), candidate.path).split(nodePath.sep).join('/') || nodePath.basename(candidate.path);
    if (deniedRule(fromRoot, this.filter.denied) || (this.allowed && !this.allowed.file(fromRoot))) {
      this.skipped.denied++;
      return false;
    }
    return true;
  }

  finish(): void {
    const counted = new Set<string>();
    for (const entry of this.filter.pruned ?? []) {
      const key = `${entry.base}:${entry.relative}`;
      if (counted.has(key)) continue;
      if (entry.relative !== '' && (!this.listed[entry.base].has(parentOf(entry.relative)) || !this.selects(entry.relative, entry.directory))) continue;
      counted.add(key);
      this.skipped[entry.reason]++;
    }
  }
}

/**
 * Applies the filter to each base's candidates and sorts each base's files by path. Returns one flat
 * list in base order.
 */
export async function filterCandidates(bases: SearchBase[], perBase: Candidate[][], filter: CandidateFilter, skipped: SkipCounts): Promise<Candidate[]> {
  const pass = new CandidateFilterPass(bases, filter, skipped);
  // A slice at a time: a listing of 100,000 files must not hold the extension host's thread.
  const slices = new TimeSlices();
  const sorted: Candidate[][] = [];
  for (let index = 0; index < bases.length; index++) {
    const kept = await filterInSlices(perBase[index] ?? [], (candidate) => pass.accept(index, candidate), slices);
    sorted.push(await sortInSlices(kept, (a, b) => comparePaths(a.relative, b.relative), slices));
  }
  pass.finish();
  return sorted.flat();
}

/**
 * The same filter over a source's stream, which is already in the final order; the pass finishes
 * (pruned entries are counted) when the stream ends.
 */
export function* filterStream(bases: SearchBase[], stream: Iterable<[number, Candidate]>, filter: CandidateFilter, skipped: SkipCounts): Generator<Candidate> {
  const pass = new CandidateFilterPass(bases, filter, skipped);
  for (const [index, candidate] of stream) if (pass.accept(index, candidate)) yield candidate;
  pass.finish();
}
