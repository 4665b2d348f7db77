/**
 * Listings of workspace folders kept in the extension host between calls, so a search does not ask
 * `workspace.findFiles` for every file of the workspace each time. A listing is what FindFilesSource
 * produced for one base and one set of inputs (include, excludes, denied and granted paths, VS Code's
 * search settings): the audited files, what the audit pruned and the lines it logged. It is replayed
 * only for the same inputs, and only while nothing it depends on changed:
 * - a change of the workspace folders drops every listing;
 * - before a replay, every directory that held a listed file, and the `.gitignore` it held, is stat'ed (the
 *   watcher may report late, or not at all where `files.watcherExclude` applies): up to
 *   MAX_PATCHED_DIRECTORIES that changed since the listing began, with those holding an entry the file
 *   watcher reported created, deleted or (a `.gitignore`) changed, are read again and their entries judged
 *   as the listing judged its own; directories that went are dropped with their files, new ones walked,
 *   one whose `.gitignore` changed read again whole (`patch`, a whole folder's listing only); anything that
 *   cannot be judged so (a new link, more directories or entries) sends the call to findFiles again.
 * The excludes and settings are part of the inputs, so a settings change lists afresh by itself.
 * A whole workspace folder's listing is also stored for the next window (storedListing.ts), which
 * replays it when none of the folder's directories changed while no window watched it.
 */
import { promises as fsp, lstatSync, realpathSync, statSync } from 'fs';
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { parentOf, type PrunedEntry } from '../../engine/source/fileSource';
import { deniedRule } from '../../engine/globset/globs';
import { isInside, relativePosix } from '../../engine/guard/paths';
import { TimeSlices } from '../../engine/source/timeSlices';
import { eventsDelivered } from '../../engine/index/treeWatcher';
import { policySettings } from '../settings';
import type { Candidate } from '../../engine/api/types';
import { changedDirectories, CLOCK_MARGIN_MS, directoryMarks, unchangedSince, type ListingMarks, type ListingStore } from './storedListing';

/** What one base's listing produced, as FindFilesSource returns it. */
export interface BaseListing {
  files: Candidate[];
  /** Pruned entries (their `base` is rewritten to the base's index in the replaying query). */
  pruned: PrunedEntry[];
  /** Lines the listing wrote to the log (skipped ignore files): written again by each replay. */
  warnings: string[];
  /** Absolute directories that held a listed file (the base among them). */
  directories: string[];
  /**
   * Set on the listing of a whole workspace folder, which is kept on disk for the next window
   * (storedListing.ts): the folder, and every directory below it where the listing could find a file.
   */
  storable?: { base: string; directoriesBelow(): Promise<string[] | undefined> };
  /** How many findFiles listings it was made of, when more than one (listed in parts, FindFilesSource.listInParts). */
  parts?: number;
  /** How an entry that appears in it is judged, as the listing judged its files: without, any change makes it again. */
  rejudge?: Rejudge;
}

/** What a listing does with a file: lists it, leaves it out (an exclude, a .gitignore), or prunes it as denied (counted). */
export type Verdict = 'kept' | 'out' | 'denied';

/** How a listing judges a file that appears after it was made (FindFilesSource: the same excludes, denied paths and .gitignore rules). */
export interface Rejudge {
  /** The folder listed (the files' `relative` paths start there) and its workspace folder (judged paths start there). */
  base: string;
  root: string;
  /** Whether .gitignore files judge its entries: a change of one then changes what the directories below it hold. */
  gitignore: boolean;
  /** The verdict on a regular file (or a directory) below the workspace folder (a '/'-separated path from it), for entries of `dir` (the same, of their directory). */
  judging(dir: string): Promise<(fromRoot: string, isDirectory?: boolean) => Verdict>;
}

/**
 * A watcher of the listed directories (the watched content index's, WorkspaceIndexer.listingWatch):
 * `shapeMark` changes whenever an entry appears, goes or is renamed in a watched directory, a .gitignore
 * changes, or events may have been dropped.
 */
export interface ListingWatch {
  shapeMark(): number;
  watches(dir: string): boolean;
}

interface Resident extends BaseListing, ListingMarks {
  /** When each directory read again (patched) was read, by its index in `directories`: it is changed when changed after that. */
  since: Map<number, number>;
  /** How many of the file events reported since activation it has taken (ResidentListings.eventLog). */
  seen: number;
  /**
   * The watcher's shape mark when the directories were last found unchanged, all watched and none a
   * symlink: while the mark stays, the listing is current without statting them again.
   */
  vouchedAt?: number;
  /** Calls that took it: made, then each replay (the most used one stays, makeRoom). */
  uses: number;
}

/**
 * Listings kept at once (different includes, paths, or the searches an empty answer's checks make): as
 * many as hold at most MAX_KEPT_FILES files besides the most used, and at most MAX_LISTINGS; the least recently used
 * goes first. An agent's questions use a dozen or so listings: fewer would list again on every call.
 */
const MAX_LISTINGS = 32;
const MAX_KEPT_FILES = 250_000;
/** A folder is listed in parts when findFiles finds this many files in it (and whole, by that first call, below: FindFilesSource.listInParts). */
export const PARTS_FROM = 20_000;
/** How long after a whole folder's listing is made it is stored: the calls that wait for it are answered first. */
const STORE_DELAY_MS = 5_000;
/**
 * At most this many directories of a resident listing changed since it was made are read again in its
 * place (a few files created, deleted or renamed); more list the folder again.
 */
const MAX_PATCHED_DIRECTORIES = 64;
/** At most this many of its directories gone (a tree deleted or renamed) are dropped from a resident listing with their files; more list the folder again. */
const MAX_GONE_DIRECTORIES = 10_000;
/** Reported entries a resident listing takes at once (a branch switch reports thousands): more make it again. */
const MAX_EVENTS = 1_000;

/**
 * Whether every directory of a listing is watched and none is a symlink (a link retargeted where no
 * watched directory changes leaves the listing's directories as they were, but elsewhere); a slice at a time.
 */
async function watchedWhole(listing: Resident, watch: ListingWatch): Promise<boolean> {
  const slices = new TimeSlices();
  for (const dir of listing.directories) {
    if (slices.due()) await slices.pause();
    if (!watch.watches(dir) || lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) return false;
  }
  return true;
}

/** The directories holding these absolute paths, up to `base` (included), a slice at a time (100,000 paths are tens of milliseconds). */
export async function directoriesOf(base: string, paths: Iterable<string>, slices = new TimeSlices()): Promise<string[]> {
  const dirs = new Set<string>([base]);
  const prefix = base.endsWith('/') ? base : `${base}/`;
  for (const path of paths) {
    if (slices.due()) await slices.pause();
    if (!path.startsWith(prefix)) continue;
    for (let dir = parentOf(path.slice(prefix.length)); dir !== '' && !dirs.has(`${prefix}${dir}`); dir = parentOf(dir)) dirs.add(`${prefix}${dir}`);
  }
  return [...dirs];
}

/**
 * Whether an event's path lies where no search ever lists (a denied path such as `.git/`, which git
 * touches on every status): such an event does not drop the listings. The directory check before each
 * replay still sees any change in a listed directory.
 */
export function isDenied(uri: vscode.Uri): boolean {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder || uri.scheme !== 'file') return false;
  const fromRoot = relativePosix(folder.uri.fsPath, uri.fsPath);
  return deniedRule(fromRoot, deniedPaths()) !== undefined;
}

/** The denied paths as settings give them, kept until a setting changes (events come in thousands). */
let denied: readonly string[] | undefined;
function deniedPaths(): readonly string[] {
  denied ??= policySettings(vscode.workspace.getConfiguration('grepTools')).deniedPaths;
  return denied;
}

/** Entries read below the new directories a patch walks (patch, walkNew): past them the listing is made again. */
const MAX_WALKED_ENTRIES = 5_000;

/** What a patch reads with: the listing's verdicts (by directory, each reading the .gitignore files above it once) and the entries it may still walk. */
interface Reading {
  rejudge: Rejudge;
  judging(dir: string): Promise<(fromRoot: string, isDirectory?: boolean) => Verdict>;
  inBase(path: string): boolean;
  fromRoot(path: string): string;
  /** Entries left to read below new directories. */
  budget: { entries: number };
}

/** Whether a path is one of `dirs` or below one (each of its directories looked up, not each of `dirs` compared). */
function belowAny(dirs: readonly string[]): (path: string) => boolean {
  const set = new Set(dirs);
  return (path) => {
    for (let at = path; ; at = nodePath.dirname(at)) {
      if (set.has(at)) return true;
      if (nodePath.dirname(at) === at) return false;
    }
  };
}

/** How a patch reads with `rejudge`, each directory's verdicts made once. */
function readingOf(rejudge: Rejudge): Reading {
  const judges = new Map<string, ReturnType<Rejudge['judging']>>();
  return {
    rejudge,
    judging: (dir) => {
      let judge = judges.get(dir);
      if (!judge) judges.set(dir, (judge = rejudge.judging(dir)));
      return judge;
    },
    inBase: (path) => isInside(path, rejudge.base),
    fromRoot: (path) => relativePosix(rejudge.root, path),
    budget: { entries: MAX_WALKED_ENTRIES },
  };
}

/**
 * Drops a listing's directories at or below those gone, with their files. Why the listing is made again
 * instead, when one of them is the folder itself or held a pruned entry (its count would be off).
 */
function dropGone(resident: Resident, rejudge: Rejudge, gone: readonly number[], pruned: ReadonlySet<string>): string | undefined {
  if (gone.length === 0) return undefined;
  const goneDirs = gone.map((i) => resident.directories[i]);
  // One there still is another directory now (replaced, or a link on its way retargeted): its files are not known.
  const replaced = goneDirs.find((dir) => statSync(dir, { throwIfNoEntry: false }) !== undefined);
  if (replaced) return `${replaced} is another directory now`;
  const under = belowAny(goneDirs);
  if (under(rejudge.base)) return `the folder went or was replaced (${rejudge.base})`;
  const prunedGone = [...pruned].find(under);
  if (prunedGone) return `an entry it left out went (${prunedGone})`;
  dropBelow(resident, under);
  return undefined;
}

/** Drops from a listing the directories `under` holds and the files below them. */
function dropBelow(resident: Resident, under: (path: string) => boolean): void {
  const kept = resident.directories.map((dir) => !under(dir));
  const renumbered = new Map<number, number>();
  for (let i = 0, to = 0; i < kept.length; i++) if (kept[i]) renumbered.set(i, to++);
  resident.since = new Map([...resident.since].filter(([i]) => kept[i]).map(([i, at]) => [renumbered.get(i)!, at]));
  resident.directories = resident.directories.filter((_, i) => kept[i]);
  resident.identities = resident.identities.filter((_, i) => kept[i]);
  resident.gitignores = resident.gitignores.filter((_, i) => kept[i]);
  resident.files = resident.files.filter((file) => !under(file.path));
}

/**
 * Reads again, whole, the directories whose .gitignore changed, went or appeared (`ruled`; its rules judge
 * every entry below): their files and directories dropped from the listing, then walked as new ones are
 * (walkNew). Why the listing is made again instead: the folder's own rules changed where the walk would be
 * too long, an entry the listing left out (pruned, or named in its log) lies below one.
 */
async function rewalkRuled(
  resident: Resident,
  ruled: readonly string[],
  pruned: ReadonlySet<string>,
  reading: Reading,
): Promise<{ files: Candidate[]; dirs: string[] } | string> {
  const walked = { files: [] as Candidate[], dirs: [] as string[] };
  if (ruled.length === 0) return walked;
  const under = belowAny(ruled);
  const prunedBelow = [...pruned].find(under);
  if (prunedBelow) return `a .gitignore changed above an entry it left out (${prunedBelow})`;
  const logged = ruled.find((dir) => resident.warnings.some((line) => line.includes(`${dir}/`)));
  if (logged) return `a .gitignore changed where its log names a file (${logged})`;
  dropBelow(resident, under);
  for (const dir of ruled) {
    const found = await walkNew(dir, reading);
    if (typeof found === 'string') return found;
    walked.files.push(...found.files);
    walked.dirs.push(...found.dirs);
  }
  return walked;
}

/**
 * The directories whose .gitignore changed or went (`changed`), and those of the directories a patch reads
 * where one appeared, the topmost: each is read whole, with what is below it (rewalkRuled). None where
 * no .gitignore judges the entries.
 */
function ruledDirectories(
  resident: Resident,
  rejudge: Rejudge,
  dirs: { changed: readonly string[]; read: readonly string[] },
  indexOf: ReadonlyMap<string, number>,
): string[] {
  if (!rejudge.gitignore) return [];
  const appeared = dirs.read.filter((dir) => !resident.gitignores[indexOf.get(dir)!] && statSync(`${dir}/.gitignore`, { throwIfNoEntry: false }) !== undefined);
  return topmost([...dirs.changed.filter((dir) => indexOf.has(dir)), ...appeared]);
}

/** The directories of `dirs` that are below none of the others. */
function topmost(dirs: readonly string[]): string[] {
  const unique = [...new Set(dirs)];
  return unique.filter((dir) => !unique.some((other) => other !== dir && isInside(dir, other)));
}

/**
 * Reads again the directories of a listing that changed or went (`found`, indexes in `directories`) or
 * hold an entry reported created or deleted (`reported`), and judges their entries as the listing judged
 * its own (`rejudge`): a file that appeared is listed unless left out, one that went is dropped, a
 * directory that went is dropped with its files, a new directory is walked (walkNew), one whose .gitignore
 * changed, went or appeared is read again whole (rewalkRuled). Undefined once done; else why the listing
 * is made again instead, where this cannot tell: a new link, a denied entry appearing or a pruned entry
 * gone, an entry reported where the listing holds nothing that it would list, too many directories or entries.
 */
async function patch(
  resident: Resident,
  rejudge: Rejudge,
  found: { changed: readonly number[]; gone: readonly number[]; ruled: readonly number[] },
  reported: readonly string[],
): Promise<string | undefined> {
  const changed = found.changed.map((i) => resident.directories[i]);
  const went = found.gone.map((i) => resident.directories[i]);
  const wentFrom = went.map((dir) => nodePath.dirname(dir));
  const rulesChanged = found.ruled.map((i) => resident.directories[i]);
  const pruned = new Set(resident.pruned.map((entry) => nodePath.join(rejudge.base, entry.relative)));
  const dropped = dropGone(resident, rejudge, found.gone, pruned);
  if (dropped) return dropped;
  const reading = readingOf(rejudge);
  let indexOf = new Map(resident.directories.map((dir, i) => [dir, i]));
  // The directories read: those changed, those a directory that went was in, those holding a reported entry.
  // (where no .gitignore judges the entries, one that changed changes only its directory)
  const readAlone = rejudge.gitignore ? [] : rulesChanged;
  let read = [...new Set([...changed, ...wentFrom, ...reported.map((path) => nodePath.dirname(path)), ...readAlone])].filter((dir) => indexOf.has(dir));
  const count = read.length + rulesChanged.length - readAlone.length;
  if (count > MAX_PATCHED_DIRECTORIES) return `${count} directories changed`;
  // Taken before the directories are read: a change made while they are read is seen by the next check.
  const readAt = Date.now();
  // Those whose .gitignore changed, went, or appeared are read whole, and no longer one by one.
  const ruled = ruledDirectories(resident, rejudge, { changed: rulesChanged, read }, indexOf);
  const rewalked = await rewalkRuled(resident, ruled, pruned, reading);
  if (typeof rewalked === 'string') return rewalked;
  const belowRuled = belowAny(ruled);
  read = read.filter((dir) => !belowRuled(dir));
  const now = await readAgain(resident, read, rewalked.dirs, { pruned, reported, reading });
  if (typeof now === 'string') return now;
  const newDirs = [...rewalked.dirs, ...now.newDirs];
  // (an entry reported below a directory that went went with it; one below a directory read whole was read)
  const below = belowAny([...went, ...ruled]);
  const why = await unheldReported(
    reported.filter((path) => !below(path)),
    new Set(newDirs),
    now.indexOf,
    reading,
  );
  if (why) return why;
  const added = [...rewalked.files, ...now.added];
  if (added.length > 0 || now.gone.size > 0) resident.files = [...resident.files.filter((file) => !now.gone.has(file)), ...added];
  const marks = await directoryMarks(newDirs);
  resident.directories = [...resident.directories, ...newDirs];
  resident.identities = [...resident.identities, ...marks.identities];
  resident.gitignores = [...resident.gitignores, ...marks.gitignores];
  indexOf = new Map(resident.directories.map((dir, i) => [dir, i]));
  for (const dir of [...read, ...newDirs]) resident.since.set(indexOf.get(dir)!, readAt);
  resident.vouchedAt = undefined;
  return undefined;
}

/**
 * The directories of a listing in `read`, each read again (directoryNow): the files that appeared and went,
 * the new directories walked, and the directories held by path (the listing's, and `walked`: those a
 * patch walked already, by index -1).
 */
async function readAgain(
  resident: Resident,
  read: readonly string[],
  walked: readonly string[],
  known: { pruned: ReadonlySet<string>; reported: readonly string[]; reading: Reading },
): Promise<{ added: Candidate[]; gone: Set<Candidate>; newDirs: string[]; indexOf: Map<string, number> } | string> {
  const indexOf = new Map([...resident.directories.map((dir, i): [string, number] => [dir, i]), ...walked.map((dir): [string, number] => [dir, -1])]);
  const listed = new Map<string, Map<string, Candidate>>(read.map((dir) => [dir, new Map()]));
  for (const file of resident.files) listed.get(nodePath.dirname(file.path))?.set(nodePath.basename(file.path), file);
  const found = { added: [] as Candidate[], gone: new Set<Candidate>(), newDirs: [] as string[], indexOf };
  const reported = new Set(known.reported);
  for (const dir of read) {
    const now = await directoryNow(resident, indexOf.get(dir)!, { ...known, held: indexOf, listed: listed.get(dir)!, reported });
    if (typeof now === 'string') return now;
    found.added.push(...now.added);
    found.newDirs.push(...now.newDirs);
    for (const file of now.gone) found.gone.add(file);
  }
  return found;
}

/**
 * Why an entry reported created or deleted where the listing holds no directory (nor walked a new one)
 * makes it again: one there that it would list. Undefined when each is outside the folder, gone, left
 * out, or an empty directory.
 */
async function unheldReported(
  reported: readonly string[],
  walked: ReadonlySet<string>,
  held: ReadonlyMap<string, number>,
  reading: Reading,
): Promise<string | undefined> {
  for (const path of reported) {
    const parent = nodePath.dirname(path);
    if (!reading.inBase(path) || held.has(parent) || held.has(path) || walked.has(parent) || walked.has(path)) continue;
    // (one no longer there went from where the listing holds nothing: an event late for a change already read)
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    const judged = (await reading.judging(reading.fromRoot(parent)))(reading.fromRoot(path), stat.isDirectory());
    if (judged === 'out' || (stat.isDirectory() && (await fsp.readdir(path).catch(() => [''])).length === 0)) continue;
    return `an entry it would list appeared where it holds no file (${path})`;
  }
  return undefined;
}

/**
 * A directory of a listing read again: the files that appeared in it and are listed (`added`), the
 * listed ones gone (`gone`), and the directories below it that appeared, walked (`newDirs`); or why the
 * listing must be made again (patch).
 */
async function directoryNow(
  resident: Resident,
  i: number,
  known: {
    held: ReadonlyMap<string, number>;
    listed: ReadonlyMap<string, Candidate>;
    pruned: ReadonlySet<string>;
    reported: ReadonlySet<string>;
    reading: Reading;
  },
): Promise<{ added: Candidate[]; gone: Candidate[]; newDirs: string[] } | string> {
  const { reading } = known;
  const dir = resident.directories[i];
  const limit = (resident.since.get(i) ?? resident.startedAt) - CLOCK_MARGIN_MS;
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (!entries || realpathSync.native(dir) !== dir) return `${dir} could not be read, or is reached through a link`;
  const verdict = await reading.judging(reading.fromRoot(dir));
  const added: Candidate[] = [];
  const newDirs: string[] = [];
  const there = new Set<string>();
  for (const entry of entries) {
    const path = nodePath.join(dir, entry.name);
    there.add(entry.name);
    if (reading.rejudge.gitignore && entry.name.toLowerCase() === '.gitignore' && !resident.gitignores[i]) return `a .gitignore appeared (${path})`;
    // (a directory above a folder below the workspace folder's top is held too: its own entries are not the listing's)
    if (!reading.inBase(path) || (entry.isDirectory() && known.held.has(path))) continue;
    if (!entry.isFile()) {
      // A directory the listing holds is checked on its own; any other directory, or a link, is as it was when
      // listed (its times say so, and no event named it), or one whose files the listing leaves out, or new (walked).
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat && stat.ctimeMs < limit && stat.mtimeMs < limit && !known.reported.has(path)) continue;
      if (!stat?.isDirectory()) return `a link or another kind of entry appeared (${path})`;
      const judged = verdict(reading.fromRoot(path), true);
      if (judged === 'out') continue;
      if (judged === 'denied') return `a denied directory appeared (${path})`;
      const walked = await walkNew(path, reading);
      if (typeof walked === 'string') return walked;
      added.push(...walked.files);
      newDirs.push(...walked.dirs);
      continue;
    }
    if (known.listed.has(entry.name) || known.pruned.has(path)) continue;
    const judged = verdict(reading.fromRoot(path));
    if (judged === 'denied') return `a denied file appeared (${path})`;
    if (judged === 'kept') added.push({ path, relative: relativePosix(reading.rejudge.base, path) });
  }
  for (const path of known.pruned) if (nodePath.dirname(path) === dir && !there.has(nodePath.basename(path))) return `an entry it left out went (${path})`;
  return { added, gone: [...known.listed].filter(([name]) => !there.has(name)).map(([, file]) => file), newDirs };
}

/**
 * A directory new to a listing (made, or moved in with its files), walked: its files and those below it
 * that the listing would list, and its directories (but those it leaves out), each judged by the .gitignore
 * files above it read then; or why the listing is made again instead: a link or a denied entry in it, more
 * than the reading's budget of entries.
 */
async function walkNew(top: string, reading: Reading): Promise<{ files: Candidate[]; dirs: string[] } | string> {
  const files: Candidate[] = [];
  const dirs: string[] = [];
  for (const queue = [top]; queue.length > 0;) {
    const dir = queue.shift()!;
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => undefined);
    if (!entries) return `a new directory could not be read (${dir})`;
    reading.budget.entries -= entries.length;
    if (reading.budget.entries < 0) return `more than ${MAX_WALKED_ENTRIES} entries appeared in new directories (${top})`;
    const verdict = await reading.judging(reading.fromRoot(dir));
    dirs.push(dir);
    for (const entry of entries) {
      const path = nodePath.join(dir, entry.name);
      if (!entry.isFile() && !entry.isDirectory()) return `a link or another kind of entry appeared (${path})`;
      const judged = verdict(reading.fromRoot(path), entry.isDirectory());
      if (judged === 'denied') return `a denied entry appeared (${path})`;
      if (judged === 'out') continue;
      if (entry.isDirectory()) queue.push(path);
      else files.push({ path, relative: relativePosix(reading.rejudge.base, path) });
    }
  }
  return { files, dirs };
}

export class ResidentListings implements vscode.Disposable {
  private readonly listings = new Map<string, Resident>();
  /** Listings being made, by key, with the generation they began in. */
  private readonly running = new Map<string, { generation: number; listing: Promise<BaseListing | undefined> }>();
  /** Resident listings being checked before a replay, by key: still held, and the check shared with another call asking meanwhile. */
  private readonly checking = new Map<string, Promise<Resident | undefined>>();
  /** Raised by every event that may change a listing: a listing under way begun before it is not shared with a call made after it. */
  private generation = 0;
  /** Raised when every listing is dropped (a change of the folders, `invalidate`): a listing begun before it is not kept. */
  private drops = 0;
  /**
   * The entries VS Code's watcher reported created or deleted, the latest MAX_EVENTS to twice as many
   * (`eventsBefore`: how many were let go before them): each resident listing takes those after its own
   * `seen`; one that has not taken them before they were let go is made again.
   */
  private eventLog: string[] = [];
  private eventsBefore = 0;
  private readonly subscriptions: vscode.Disposable[] = [];
  /**
   * Listings replayed (`vouched`: of those, without statting their directories; `patched`: of those, with the directories that changed
   * read again) and made since activation (`inParts`: of those, in parts),
   * how often file events dropped them all, how many were found changed, how many were let go to make
   * room, and how many were restored from and written to the store (for the log and the tests).
   */
  readonly counts = { replayed: 0, vouched: 0, patched: 0, listed: 0, inParts: 0, dropped: 0, changed: 0, evicted: 0, restored: 0, stored: 0 };
  /** Why a resident listing was last made again instead of read again where it changed (for the log and the tests). */
  lastAgain: string | undefined;
  /** How many files a folder holds for its first listing to be made in parts (FindFilesSource.listInParts); the tests lower it. */
  partsFrom = PARTS_FROM;
  /** Keys whose stored listing this window looked for (once each). */
  private readonly triedStored = new Set<string>();
  /** Listings waiting to be stored (storeLater). */
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly watch: () => ListingWatch | undefined = () => undefined,
    private readonly limits = { listings: MAX_LISTINGS, files: MAX_KEPT_FILES },
    /** Where whole workspace folders' listings are kept between windows (none: not kept). */
    private readonly store?: ListingStore,
    /** Where to say why a listing that changed is made again instead of read again where it changed. */
    private readonly log?: (line: string) => void,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const reported = (uri: vscode.Uri) => {
      if (uri.scheme !== 'file') return this.invalidate();
      if (isDenied(uri)) return;
      // A listing under way may have missed it: not shared with a later call. Every listing takes it before its next replay.
      this.generation++;
      if (this.eventLog.length === 2 * MAX_EVENTS) {
        this.eventLog = this.eventLog.slice(MAX_EVENTS);
        this.eventsBefore += MAX_EVENTS;
      }
      this.eventLog.push(uri.fsPath);
    };
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate(reported),
      watcher.onDidDelete(reported),
      // (a .gitignore changed in place changes what the directories below it hold)
      watcher.onDidChange((uri) => {
        if (uri.path.endsWith('/.gitignore')) reported(uri);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()),
      vscode.workspace.onDidChangeConfiguration(() => {
        denied = undefined;
      }),
    );
  }

  /** Whether a listing for `key` is resident, or being checked for a replay (`get` replays it unless a directory of it changed). */
  holds(key: string): boolean {
    return this.listings.has(key) || this.checking.has(key);
  }

  invalidate(): void {
    this.counts.dropped++;
    this.generation++;
    this.drops++;
    this.listings.clear();
  }

  /**
   * The listing for `key`: replayed when resident and unchanged, else shared with a call making it now,
   * else made by `list` (undefined when it was cancelled) and kept unless something changed while it
   * ran. `made` tells whether this call made it (its log lines then went to this call already).
   */
  async get(
    key: string,
    isCancelled: () => boolean,
    list: () => Promise<BaseListing | undefined>,
    /** The keys of the listings the same call uses (its search, then an empty answer's checks): none of them makes room for this one. */
    inUse: ReadonlySet<string> = new Set(),
    /** How an entry that appears after the listing was made is judged (none: a change makes it again). */
    rejudge?: Rejudge,
  ): Promise<{ listing?: BaseListing; made: boolean }> {
    const replayed = await this.replayed(key, isCancelled);
    if (replayed) return { listing: replayed, made: false };
    // The same listing already under way (calls made together, the index build and a call): shared.
    const running = this.running.get(key);
    if (running && running.generation === this.generation) {
      const shared = await running.listing;
      if (shared) return { listing: shared, made: false };
      if (isCancelled()) return { made: false };
    }
    const generation = this.generation;
    const drops = this.drops;
    // A change made while it is made is taken by its first replay, as any change after it is: the entries reported from now on, the directories changed since it began.
    const seen = this.position();
    const got = this.restoreOrList(key, isCancelled, list);
    const entry = { generation, listing: got.then((result) => result?.listing) };
    this.running.set(key, entry);
    const result = await got.finally(() => {
      if (this.running.get(key) === entry) this.running.delete(key);
    });
    if (!result) return { made: false };
    const kept = () => drops === this.drops && !isCancelled();
    if (result.restored) {
      this.counts.restored++;
      const restored = kept() ? await this.sharing({ ...result.restored, rejudge }) : undefined;
      if (restored && kept()) this.keep(key, restored, inUse);
      return { listing: result.listing, made: false };
    }
    const made = result.listing;
    this.counts.listed++;
    if (made.parts) this.counts.inParts++;
    const marks = kept() ? await directoryMarks(made.directories) : undefined;
    const resident =
      marks && kept() ? await this.sharing({ ...made, rejudge, startedAt: result.startedAt, ...marks, since: new Map(), seen, uses: 1 }) : undefined;
    if (resident && kept()) {
      this.keep(key, resident, inUse);
      if (made.storable && this.store) this.storeLater(key, resident, made.storable);
    }
    return { listing: made, made: true };
  }

  /**
   * The resident listing for `key` when it still holds (`replays`: read again where it changed), checked
   * once for the calls asking while it is checked; undefined when it must be made again (`get` makes it).
   */
  replayed(key: string, isCancelled: () => boolean): Promise<BaseListing | undefined> {
    const checking = this.checking.get(key);
    if (checking) return checking;
    const resident = this.listings.get(key);
    if (!resident) return Promise.resolve(undefined);
    const check = this.replays(key, resident, isCancelled)
      .then((holds) => (holds ? resident : undefined))
      .finally(() => this.checking.delete(key));
    this.checking.set(key, check);
    return check;
  }

  /**
   * Whether a resident listing still holds (no directory where a file could appear changed since it was
   * made): it is then used again, as the most recently used; one that does not is let go.
   */
  private async replays(key: string, resident: Resident, isCancelled: () => boolean): Promise<boolean> {
    this.listings.delete(key);
    // The file events queued so far arrive first: a change made before this call moves the mark.
    await eventsDelivered();
    const watch = this.watch();
    const mark = watch?.shapeMark();
    const reported = this.reportedSince(resident);
    const vouched = mark !== undefined && resident.vouchedAt === mark && reported?.length === 0;
    if (!vouched && !(await this.current(resident, reported, isCancelled))) {
      this.counts.changed++;
      return false;
    }
    if (vouched) this.counts.vouched++;
    if (watch && mark !== undefined && resident.vouchedAt !== mark) resident.vouchedAt = (await watchedWhole(resident, watch)) ? mark : undefined;
    this.listings.set(key, resident);
    resident.uses++;
    this.counts.replayed++;
    return true;
  }

  /** Where the event log is now: a listing kept from here has taken every event before. */
  private position(): number {
    return this.eventsBefore + this.eventLog.length;
  }

  /** The entries reported created or deleted since a listing last took the events, or undefined when the log moved on without them. */
  private reportedSince(resident: Resident): string[] | undefined {
    const at = resident.seen - this.eventsBefore;
    return at >= 0 && this.position() - resident.seen <= MAX_EVENTS ? this.eventLog.slice(at) : undefined;
  }

  /**
   * Whether a resident listing still holds: none of its directories changed and no entry was reported, or
   * the few directories that changed or hold a reported entry were read again and judged as the listing
   * judged its files (`patch`).
   */
  private async current(resident: Resident, reported: string[] | undefined, isCancelled: () => boolean): Promise<boolean> {
    const again = (why: string) => {
      this.lastAgain = why;
      if (resident.rejudge) this.log?.(`listing ${resident.rejudge.base} again: ${why}`);
      return false;
    };
    if (!reported) return again(`more than ${MAX_EVENTS} entries were reported created or deleted`);
    const seen = this.position();
    const patchable = resident.rejudge !== undefined;
    const found = await changedDirectories(resident, isCancelled, {
      since: resident.since,
      atMost: patchable ? MAX_PATCHED_DIRECTORIES : 0,
      goneAtMost: patchable ? MAX_GONE_DIRECTORIES : 0,
      rules: patchable,
    });
    if (!found)
      return isCancelled()
        ? false
        : again(
            patchable
              ? `more than ${MAX_PATCHED_DIRECTORIES} of its directories changed, or more than ${MAX_GONE_DIRECTORIES} went`
              : 'one of its directories, or a .gitignore in one, changed',
          );
    if (found.changed.length === 0 && found.gone.length === 0 && found.ruled.length === 0 && reported.length === 0) {
      resident.seen = seen;
      return true;
    }
    if (!resident.rejudge || isCancelled()) return false;
    const remade = await patch(resident, resident.rejudge, found, reported);
    if (remade !== undefined) return again(remade);
    resident.seen = seen;
    this.counts.patched++;
    return true;
  }

  /**
   * A new listing of a whole folder with the files it shares with another resident listing of the same
   * folder (the one without the ignored files, the one with them) taken from it: one object and one path
   * string per file held, not one per listing (at 100,000 files, 90,000 of each fewer for the collector
   * to mark on each full collection). A slice at a time; the listing as it was when there is none.
   */
  private async sharing(resident: Resident): Promise<Resident> {
    const base = resident.rejudge?.base;
    const other = base === undefined ? undefined : [...this.listings.values()].find((held) => held.rejudge?.base === base);
    if (!other) return resident;
    const slices = new TimeSlices();
    const held = new Map<string, Candidate>();
    for (const file of other.files) {
      if (slices.due()) await slices.pause();
      held.set(file.path, file);
    }
    const files: Candidate[] = [];
    for (const file of resident.files) {
      if (slices.due()) await slices.pause();
      const same = held.get(file.path);
      files.push(same?.relative === file.relative ? same : file);
    }
    return { ...resident, files };
  }

  /** Keeps a listing resident, making room for it. */
  private keep(key: string, resident: Resident, inUse: ReadonlySet<string>): void {
    this.listings.set(key, resident);
    this.makeRoom(key, inUse);
  }

  /**
   * The listing stored for `key` by an earlier window when none of its directories changed since
   * (`restored`), else the one `list` makes and when it began.
   */
  private async restoreOrList(
    key: string,
    isCancelled: () => boolean,
    list: () => Promise<BaseListing | undefined>,
  ): Promise<{ listing: BaseListing; startedAt: number; restored?: Resident } | undefined> {
    if (this.store && !this.triedStored.has(key)) {
      // Once per key and window: a listing stored later in this window was made in it (and is resident).
      this.triedStored.add(key);
      const stored = await this.store.load(key).catch(() => undefined);
      if (stored && (await unchangedSince(stored, isCancelled))) {
        // From now on the window's watcher reports the directories that held no listed file, as for a listing it made.
        const { held, directories, identities, gitignores } = stored;
        const restored: Resident = {
          ...stored,
          directories: directories.slice(0, held),
          identities: identities.slice(0, held),
          gitignores: gitignores.slice(0, held),
          since: new Map(),
          seen: this.position(),
          uses: 1,
        };
        return { listing: restored, startedAt: stored.startedAt, restored };
      }
      if (isCancelled()) return undefined;
    }
    const startedAt = Date.now();
    const listing = await list();
    return listing && { listing, startedAt };
  }

  /**
   * Stores a listing of a whole workspace folder for the next window, once the calls of the moment are
   * answered (STORE_DELAY_MS): the folder's directories are walked then, off this thread, and the
   * listing is written with every one of them, unless it was dropped meanwhile.
   */
  private storeLater(key: string, resident: Resident, storable: NonNullable<BaseListing['storable']>): void {
    const store = this.store!;
    const current = () => this.listings.get(key) === resident;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void (async () => {
        const below = current() ? await storable.directoriesBelow() : undefined;
        if (!below || !current()) return;
        const known = new Set(resident.directories);
        const added = below.filter((dir) => !known.has(dir));
        const marks = await directoryMarks(added);
        if (!current()) return;
        const { files, pruned, warnings, startedAt } = resident;
        const stored = await store.save(key, storable.base, {
          files,
          pruned,
          warnings,
          startedAt,
          held: resident.directories.length,
          directories: [...resident.directories, ...added],
          identities: [...resident.identities, ...marks.identities],
          gitignores: [...resident.gitignores, ...marks.gitignores],
        });
        if (stored) this.counts.stored++;
      })().catch(() => {
        // Storing is for the next window only: this one goes on as it was.
      });
    }, STORE_DELAY_MS);
    this.timers.add(timer);
    timer.unref?.();
  }

  /**
   * Drops the least recently used listings until at most MAX_LISTINGS are kept, holding at most
   * MAX_KEPT_FILES files besides the most used one (`limits`): the whole workspace's listing, which every
   * call without an include replays, is not pushed out by the ones other calls make (a glob's, the index's
   * list with the ignored files). A listing the same call uses is not dropped for a newer one either: when
   * only those and the most used are left, the newest (`key`) is not kept.
   */
  private makeRoom(key: string, inUse: ReadonlySet<string>): void {
    let mostUsed: Resident | undefined;
    let total = 0;
    for (const listing of this.listings.values()) {
      total += listing.files.length;
      if (!mostUsed || listing.uses > mostUsed.uses || (listing.uses === mostUsed.uses && listing.files.length > mostUsed.files.length)) mostUsed = listing;
    }
    let counted = total - (mostUsed?.files.length ?? 0);
    const over = () => this.listings.size > this.limits.listings || counted > this.limits.files;
    for (const [held, listing] of [...this.listings]) {
      if (!over()) return;
      if (held === key || listing === mostUsed || inUse.has(held)) continue;
      counted -= listing.files.length;
      this.listings.delete(held);
      this.counts.evicted++;
    }
    // Only this call's listings and the most used are left: the newest goes, unless it is the most used.
    if (over() && this.listings.get(key) !== mostUsed) {
      this.listings.delete(key);
      this.counts.evicted++;
    }
  }

  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.invalidate();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
