/**
 * Listings of workspace folders kept in the extension host between calls, so a search does not ask
 * `workspace.findFiles` for every file of the workspace each time. A listing is what FindFilesSource
 * produced for one base and one set of inputs (include, excludes, denied and granted paths, VS Code's
 * search settings): the audited files, what the audit pruned and the lines it logged. It is replayed
 * only for the same inputs, and only while nothing it depends on changed:
 * - a file watcher event (a file or directory created or deleted, a `.gitignore` changed) or a change
 *   of the workspace folders drops every listing (a burst of events costs one re-listing, on the next call);
 * - before a replay, every directory that held a listed file, and the `.gitignore` it held, is stat'ed: one
 *   changed since the listing began (the watcher may report late, or not at all where `files.watcherExclude`
 *   applies), or that is another directory now (a symlink on its way retargeted), sends the call to
 *   findFiles again.
 * The excludes and settings are part of the inputs, so a settings change lists afresh by itself.
 */
import { lstatSync, statSync } from 'fs';
import * as vscode from 'vscode';
import { parentOf, type PrunedEntry } from '../../engine/source/fileSource';
import { RECENT_WRITE_MS } from '../../engine/index/builder';
import { deniedRule } from '../../engine/globset/globs';
import { relativePosix } from '../../engine/guard/paths';
import { TimeSlices } from '../../engine/source/timeSlices';
import { eventsDelivered } from '../../engine/index/treeWatcher';
import { policySettings } from '../settings';
import type { Candidate } from '../../engine/api/types';

/** What one base's listing produced, as FindFilesSource returns it. */
export interface BaseListing {
  files: Candidate[];
  /** Pruned entries (their `base` is rewritten to the base's index in the replaying query). */
  pruned: PrunedEntry[];
  /** Lines the listing wrote to the log (skipped ignore files): written again by each replay. */
  warnings: string[];
  /** Absolute directories that held a listed file (the base among them). */
  directories: string[];
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

interface Resident extends BaseListing {
  /** Date.now() when the listing began: a directory changed after it makes the listing stale. */
  startedAt: number;
  /**
   * What each directory was when the listing was kept (device and inode, links followed): a directory
   * reached through a symlink that now leads elsewhere (a link retargeted further along its chain, where
   * no listed directory changes) is another directory.
   */
  identities: string[];
  /**
   * Whether each directory held a .gitignore when the listing was kept: only those are stat'ed again (one
   * created, deleted or renamed since changes its directory's times; one edited in place, its own).
   */
  gitignores: boolean[];
  /**
   * The watcher's shape mark when the directories were last found unchanged, all watched and none a
   * symlink: while the mark stays, the listing is current without statting them again.
   */
  vouchedAt?: number;
  /** Calls that took it: made, then each replay (the most used one stays, makeRoom). */
  uses: number;
}

/** A directory's identity (device and inode, links followed), or undefined when it is not one. */
function identity(dir: string): string | undefined {
  const stat = statSync(dir, { throwIfNoEntry: false });
  return stat?.isDirectory() ? `${stat.dev}:${stat.ino}` : undefined;
}

/**
 * File times are coarse (and a remote file system's clock may lag): a directory whose change time is
 * this close to the listing's start is treated as changed after it, as the index treats a file.
 */
const CLOCK_MARGIN_MS = RECENT_WRITE_MS;
/**
 * Listings kept at once (different includes, paths, or the searches an empty answer's checks make): as
 * many as hold at most MAX_KEPT_FILES files besides the most used, and at most MAX_LISTINGS; the least recently used
 * goes first. An agent's questions use a dozen or so listings: fewer would list again on every call.
 */
const MAX_LISTINGS = 32;
const MAX_KEPT_FILES = 250_000;

/** Whether every directory of the listing, and the .gitignore in it, is unchanged since the listing began, and still the same directory. */
async function unchangedSince(listing: Resident, isCancelled: () => boolean): Promise<boolean> {
  const limit = listing.startedAt - CLOCK_MARGIN_MS;
  const slices = new TimeSlices();
  for (const [i, dir] of listing.directories.entries()) {
    if (slices.due()) {
      await slices.pause();
      if (isCancelled()) return false;
    }
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (!stat?.isDirectory() || stat.ctimeMs >= limit || stat.mtimeMs >= limit) return false;
    if (`${stat.dev}:${stat.ino}` !== listing.identities[i]) return false;
    if (!listing.gitignores[i]) continue;
    const rules = statSync(`${dir}/.gitignore`, { throwIfNoEntry: false });
    if (!rules || rules.ctimeMs >= limit || rules.mtimeMs >= limit) return false;
  }
  return true;
}

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

/** Each directory's identity (`identity`, '' when it is none) and whether a .gitignore is in it, a slice at a time: what `unchangedSince` compares against. */
async function directoryMarks(directories: readonly string[]): Promise<Pick<Resident, 'identities' | 'gitignores'>> {
  const marks: Pick<Resident, 'identities' | 'gitignores'> = { identities: [], gitignores: [] };
  const slices = new TimeSlices();
  for (const dir of directories) {
    if (slices.due()) await slices.pause();
    marks.identities.push(identity(dir) ?? '');
    marks.gitignores.push(statSync(`${dir}/.gitignore`, { throwIfNoEntry: false }) !== undefined);
  }
  return marks;
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

export class ResidentListings implements vscode.Disposable {
  private readonly listings = new Map<string, Resident>();
  /** Listings being made, by key, with the generation they began in. */
  private readonly running = new Map<string, { generation: number; listing: Promise<BaseListing | undefined> }>();
  /** Raised by every event that may change a listing: a listing begun before it is not kept. */
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Listings replayed (`vouched`: of those, without statting their directories) and made since activation, how often file events dropped them all, how many were found changed and how many were let go to make room (for the log and the tests). */
  readonly counts = { replayed: 0, vouched: 0, listed: 0, dropped: 0, changed: 0, evicted: 0 };

  constructor(
    private readonly watch: () => ListingWatch | undefined = () => undefined,
    private readonly limits = { listings: MAX_LISTINGS, files: MAX_KEPT_FILES },
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const drop = (uri: vscode.Uri) => {
      if (!isDenied(uri)) this.invalidate();
    };
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate(drop),
      watcher.onDidDelete(drop),
      watcher.onDidChange((uri) => {
        if (uri.path.endsWith('/.gitignore')) drop(uri);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()),
      vscode.workspace.onDidChangeConfiguration(() => {
        denied = undefined;
      }),
    );
  }

  invalidate(): void {
    this.counts.dropped++;
    this.generation++;
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
  ): Promise<{ listing?: BaseListing; made: boolean }> {
    const resident = this.listings.get(key);
    if (resident) {
      this.listings.delete(key);
      // The file events queued so far arrive first: a change made before this call moves the mark.
      await eventsDelivered();
      const watch = this.watch();
      const mark = watch?.shapeMark();
      const vouched = mark !== undefined && resident.vouchedAt === mark;
      if (vouched || (await unchangedSince(resident, isCancelled))) {
        if (vouched) this.counts.vouched++;
        if (watch && mark !== undefined && resident.vouchedAt !== mark) resident.vouchedAt = (await watchedWhole(resident, watch)) ? mark : undefined;
        this.listings.set(key, resident);
        resident.uses++;
        this.counts.replayed++;
        return { listing: resident, made: false };
      }
      this.counts.changed++;
    }
    // The same listing already under way (calls made together, the index build and a call): shared.
    const running = this.running.get(key);
    if (running && running.generation === this.generation) {
      const shared = await running.listing;
      if (shared) return { listing: shared, made: false };
      if (isCancelled()) return { made: false };
    }
    const generation = this.generation;
    const startedAt = Date.now();
    const listing = list();
    const entry = { generation, listing };
    this.running.set(key, entry);
    const made = await listing.finally(() => {
      if (this.running.get(key) === entry) this.running.delete(key);
    });
    if (!made) return { made: false };
    this.counts.listed++;
    const kept = () => generation === this.generation && !isCancelled();
    if (kept()) {
      const marks = await directoryMarks(made.directories);
      if (kept()) {
        this.listings.set(key, { ...made, startedAt, ...marks, uses: 1 });
        this.makeRoom(key, inUse);
      }
    }
    return { listing: made, made: true };
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
    this.invalidate();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
