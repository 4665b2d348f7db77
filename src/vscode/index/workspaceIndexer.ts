/**
 * The content index in VS Code: built in the background after activation by a low-priority process of its
 * own (dist/indexProcess.js, which runs dist/indexWorker.js), so the build's memory is not the extension
 * host's, from the files a search of the whole workspace lists, kept in the extension's
 * storage (`context.storageUri`, never in the workspace), and handed to each grep as `env.index`. The
 * index settles only files whose size, times and inode are those it read (prejudge.ts), so a file
 * changed since is read as without it; watcher events schedule a refresh, which reads only what changed.
 * Progress shows in the status bar while it builds. `grepTools.index.enabled: false` turns it off.
 * The extension activates once the window has started: where a previous window stored an index, it is
 * opened and refreshed at once (with it, the build lists the workspace, and that listing stays resident),
 * so the first search of a reopened window finds both ready; elsewhere the workspace is listed at once
 * (`listOnOpen`: the first search replays that listing instead of waiting for VS Code's findFiles), and
 * nothing is read or watched for the index until the first search (`wake`).
 */
import * as fs from 'fs';
import * as nodePath from 'path';
import { fork, type ChildProcess } from 'child_process';
import * as vscode from 'vscode';
import type { BuildSummary } from '../../engine/index/buildWorker';
import { sendBuild, sendWithIgnored, type FromBuildProcess, type ProcessBuildRequest, type ToBuildProcess } from '../../engine/index/buildProcess';
import type { ContentIndex } from '../../engine/index/contentIndex';
import { CONTENT_REFRESH_AT_MOST, RECENT_WRITE_MS } from '../../engine/index/builder';
import { buildHeapLimitMb, IGNORED_LISTED_AT_MOST_SEARCHED } from '../../engine/index/limits';
import { RecentResults, watchedIndexPrejudge, type SearchIndex } from '../../engine/index/prejudge';
import { RefreshSchedule } from '../../engine/index/refreshSchedule';
import { openIndexFor, openIndexInSlices, storedFor } from '../../engine/index/store';
import { TreeWatcher, WatchVouching, type TreeChanges } from '../../engine/index/treeWatcher';
import { statStampAsync } from '../../engine/source/fileStamp';
import { TimeSlices } from '../../engine/source/timeSlices';
import { mapAtMost, OPENS_AT_ONCE } from '../../engine/searcher/descriptors';
import { WORKER_YOUNG_GENERATION_MB } from '../../engine/pool/pool';
import { directoriesOf as listedDirectories, isDenied, type ListingWatch } from '../sources/residentListing';
import { indexEnabled as enabled, listOnOpenEnabled, readIndexLimits } from './indexSettings';
import { thousands } from '../../engine/answer/printer';
import { isHomeOrRoot } from '../../engine/guard/roots';

/** A refresh starts this long after the last watcher event (a burst of events costs one refresh). */
const REFRESH_DELAY_MS = 3000;
/** The first build starts this long after the indexer wakes, so the first calls do not compete with it. */
const START_DELAY_MS = 1000;
/** How often a wait for the searches under way to end looks again (the first build, the list with the ignored files). */
const IDLE_POLL_MS = 200;
/** The status bar shows a build that has run this long... */
const SHOW_AFTER_MS = 500;
/** ...or, from its start, the first build of a workspace of this many files (it will take a while). */
const SHOW_AT_ONCE_FILES = 5000;
/** The build pauses this share of its work time. */
const PAUSE_RATIO = 0.25;
/**
 * The background audit of a watched index: every AUDIT_EVERY_MS while no search and no build runs, the
 * stamps of the next AUDIT_FILES files are taken and compared with the index's, so a change no file event
 * reported (a write through a hard link elsewhere, a network file system, a bind mount) is found within
 * files / AUDIT_FILES seconds (50 s at 100,000 files).
 */
const AUDIT_EVERY_MS = 1000;
const AUDIT_FILES = 2000;

export interface IndexState {
  /** `idle` until the first search where no index was stored; `waiting` for its first build to start. */
  phase: 'idle' | 'off' | 'waiting' | 'listing' | 'building' | 'ready' | 'listOnly' | 'failed';
  done: number;
  total: number;
  /** The last build's outcome, and the directory it was written in. */
  last?: BuildSummary;
  dir?: string;
  /** Why the last build kept the file list only (the workspace is larger than grepTools.index.* allows). */
  listOnly?: string;
  /** The stored index a window opened with, and how many of its files were fresh then (undefined until checked). */
  loaded?: { files: number; fresh?: number };
  /** Builds finished since activation (each lists the workspace). */
  builds: number;
  /** Listings of the workspace with its ignored files made for builds (one is asked for only while the workspace is within the limits and IGNORED_LISTED_AT_MOST_SEARCHED). */
  ignoredListings: number;
  /** Content refreshes finished since activation: only the files a watcher saw change were read again (no listing). */
  contentRefreshes: number;
  /** Whether a refresh runs: a build (phase `listing` or `building`), or a content refresh (the phase stays `ready`). */
  refreshing: boolean;
  /** What the index did for the last grep: files it settled and files read (undefined: it was not used). */
  lastUse?: { settled: number; read: number };
  /**
   * Whether the index is watched: its files' directories are watched since before it was built, so a file
   * no event named since is taken as indexed without a stamp; `unwatched` says why not, when it cannot be.
   */
  watched: boolean;
  unwatched?: string;
  /** The background audit: files whose stamps it compared, and those it found changed without an event. */
  audit: { checked: number; changed: number };
  /** The peak resident memory of the last build's process (its own, not the extension host's). */
  buildPeakRss?: number;
  /**
   * The listing of the workspace made as the window opened (listOnOpen): `off` when none was made (the
   * setting is off, a folder is not on disk, or a stored index's refresh lists instead); its files and time once listed.
   */
  openListing: { phase: 'off' | 'listing' | 'listed' | 'failed'; files?: number; ms?: number };
}

export interface IndexerOptions {
  /** Where the index is kept; undefined (no folder open) turns the index off. */
  storageDir: string | undefined;
  /** The workspace folders' paths on disk; undefined when one is not on disk (a virtual folder). */
  folders(): string[] | undefined;
  /** The files a search of the whole workspace reads (same excludes, .gitignore and guard), gathered in `slices`... */
  listFiles(slices?: TimeSlices): Promise<string[]>;
  /** ...and with include_ignored, unless there are more than an index would hold beside `searched` files: asked for by the build only when the searched files are within its limits and IGNORED_LISTED_AT_MOST_SEARCHED. */
  listWithIgnored(searched: number): Promise<string[] | undefined>;
  maxFileSize(): number;
  log: vscode.LogOutputChannel;
}

export class WorkspaceIndexer implements vscode.Disposable {
  readonly state: IndexState = {
    phase: 'idle',
    done: 0,
    total: 0,
    builds: 0,
    ignoredListings: 0,
    contentRefreshes: 0,
    refreshing: false,
    watched: false,
    audit: { checked: 0, changed: 0 },
    openListing: { phase: 'off' },
  };
  /** Watches the directories of the indexed files (one inotify watch each), from before a build reads them. */
  private readonly watcher = new TreeWatcher(() => {
    if (this.awake) this.refreshes.in(REFRESH_DELAY_MS);
  });
  /** What the calls found in the files they read, kept for the next call of the same question (prejudge.ts). */
  private readonly recent = new RecentResults();
  /** The index built while the watches were in place: the only one the watcher vouches for (set through `watchIndex`). */
  private watchedIndex?: ContentIndex;
  /**
   * The watcher's record of changes since the watched index's files were listed: it goes on while a
   * refresh lists and reads the tree again (the record of that refresh begun beside it), until the index
   * the refresh stores replaces this one.
   */
  private watchedRecord?: Readonly<TreeChanges>;
  /** The record begun as the build under way read the tree (`watchFor`): the next watched index's. */
  private buildRecord?: Readonly<TreeChanges>;
  /** Whether the build under way began with its files' directories watched. */
  private buildWatched = false;
  /** Files the audit found changed without an event: read as without the watcher until the next build. */
  private readonly stale = new Set<string>();
  /**
   * The watcher's word (WatchVouching): for the index built while the watches were in place, also while a
   * refresh builds its successor (its record goes on), not for a file an event named or the audit found changed.
   */
  private readonly vouching = new WatchVouching(this.watcher, (index) => (index === this.watchedIndex ? this.watchedRecord : undefined), this.stale);
  private auditTimer?: NodeJS.Timeout;
  private auditNext = 0;
  /** Whether the ignored files' directories could not be watched as well (ENOSPC): from then on, only the searched files' are. */
  private ignoredUnwatched = false;
  private opened?: { index: ContentIndex; close(): void };
  /** The build under way (buildProcess.ts). */
  private buildProcess?: ChildProcess;
  /** The refreshes (builds), one at a time: from the listing to the index opened. */
  private readonly refreshes = new RefreshSchedule(
    async () => {
      this.state.refreshing = true;
      try {
        await this.build();
      } finally {
        this.state.refreshing = false;
      }
    },
    (error) => this.options.log.warn(`index: the refresh failed (${(error as Error).message})`),
  );
  private buildStarted = 0;
  /** Whether the next refresh must list the workspace again (a setting or the folders changed). */
  private listAgain = false;
  /** Entries VS Code's watcher reported created or deleted since the last listing (its events may come late: weighed by contentChanges). */
  private readonly shapeReports = new Set<string>();
  /** Files VS Code's watcher reported changed in content since the last refresh (the tree watcher may not watch their directory). */
  private readonly changedFiles = new Set<string>();
  /** Disposed (the window closing, the extension deactivated). */
  private disposed = false;
  /** The stored index being opened as the window opens (openStored). */
  private storedOpening?: Promise<void>;
  private readonly status = vscode.window.createStatusBarItem('grepTools.index', vscode.StatusBarAlignment.Left, 0);
  private readonly subscriptions: vscode.Disposable[] = [];

  /**
   * Searches under way, sent to the build process as the count changes: the first build starts when there
   * are none, and a build waits while there are any (buildWorker.ts), so a search made while the index builds has the cores.
   */
  private searching = 0;

  /** Whether the index is kept (watched, built, refreshed): from activation where one is stored, else from the first search. */
  private awake = false;

  constructor(private readonly options: IndexerOptions) {
    this.status.name = 'Grep Tools Index';
    this.subscriptions.push(this.status);
    // A stored index is refreshed at once: its listing is what the window's first search needs too. It is
    // opened a slice at a time (450 ms at 447,000 files); a search made meanwhile searches as without it,
    // and the refresh waits for it.
    if (this.hasStored()) {
      this.storedOpening = this.openStored();
      this.wake(0);
    } else this.listOnOpen();
  }

  /**
   * Lists the workspace as a search of it lists it (resident afterwards, residentListing.ts), so the
   * window's first search replays that listing instead of waiting for VS Code's findFiles of the whole
   * workspace (seconds at 100,000 files); a search made meanwhile shares it. Only files' names are
   * listed: nothing is read or watched for the index until the first search. Off with
   * `grepTools.listWorkspaceOnOpen: false`, for a folder not on disk (a virtual one's walk may cross a
   * network), and where a folder is the home directory or a root (opened by chance, often millions of files).
   */
  private listOnOpen(): void {
    const folders = this.options.folders();
    if (!listOnOpenEnabled() || folders === undefined || folders.length === 0) return;
    const broad = folders.find((folder) => isHomeOrRoot(folder));
    if (broad !== undefined) {
      this.options.log.info(`The workspace is not listed as the window opens: ${broad} is the home directory or a root (the first search lists it).`);
      return;
    }
    const started = performance.now();
    const opening: IndexState['openListing'] = { phase: 'listing' };
    this.state.openListing = opening;
    this.options.listFiles().then(
      (files) => {
        Object.assign(opening, { phase: 'listed', files: files.length, ms: Math.round(performance.now() - started) });
        this.options.log.info(
          `Listed the workspace as the window opened: ${thousands(files.length)} files in ${opening.ms} ms (the first search replays this listing).`,
        );
      },
      (error: unknown) => {
        opening.phase = 'failed';
        this.options.log.warn(
          `Could not list the workspace as the window opened (the first search lists it): ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  }

  /** Starts keeping the index (a search is made, or a stored index was opened): watches the workspace and schedules the first build. */
  private wake(delayMs = START_DELAY_MS): void {
    if (this.awake) return;
    this.awake = true;
    this.state.phase = 'waiting';
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const changed = (shape: boolean) => (uri: vscode.Uri) => {
      if (isDenied(uri)) return;
      if (uri.scheme !== 'file') this.listAgain = true;
      else (shape ? this.shapeReports : this.changedFiles).add(uri.fsPath);
      this.refreshes.in(REFRESH_DELAY_MS);
    };
    const listAgain = () => {
      this.listAgain = true;
      this.refreshes.in(REFRESH_DELAY_MS);
    };
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate(changed(true)),
      watcher.onDidDelete(changed(true)),
      watcher.onDidChange(changed(false)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.close();
        listAgain();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('grepTools') || event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search')) listAgain();
      }),
    );
    this.refreshes.in(delayMs);
  }

  /** Whether a previous window stored an index for these folders (its header read, not the index). */
  private hasStored(): boolean {
    const dir = this.options.storageDir;
    const folders = this.options.folders();
    return enabled() && dir !== undefined && folders !== undefined && storedFor(dir, folders);
  }

  /** Opens the index a previous window stored, a slice at a time: each file it would settle is checked against its stamp. */
  private async openStored(): Promise<void> {
    const dir = this.options.storageDir;
    const folders = this.options.folders();
    if (dir === undefined || folders === undefined) return;
    const stored = await openIndexFor(dir, folders);
    if (!stored) return;
    if (this.disposed) return stored.close();
    this.opened = { index: stored.index, close: stored.close };
    this.state.loaded = { files: stored.index.size };
    this.options.log.info(
      `index: loaded the stored index of ${stored.index.size} files from ${dir}; a file changed since is read afresh until the refresh, which starts now`,
    );
  }

  /**
   * The index one call consults (its search and the checks of an empty answer), or undefined (off, or
   * not built yet). Each file's stamp is read once per call, as the command line reads it, by the search
   * workers when the call's files are listed (off this thread).
   */
  search(): SearchIndex | undefined {
    this.wake();
    if (!enabled() || !this.opened) return undefined;
    // A build may finish, and close this index, while the call lists its files: it asks the index open then.
    return watchedIndexPrejudge(() => this.opened?.index, this.vouching, this.recent);
  }

  /**
   * Slices for the work that prepares a build on this thread (its list, the directories it watches, the list
   * sent to its process): between two of them it waits while a search runs, which would otherwise share
   * this thread with it (on 500,000 files, a call made as a build began took 6.4-6.9 s, the others 3.8-4.9 s).
   */
  private givingWay(): TimeSlices {
    return new TimeSlices(() => this.noSearchUnderWay());
  }

  /** Every directory holding one of these files, and those above it up to its workspace folder (where an entry can appear too), a slice at a time (giving way to searches). */
  private async directoriesOf(paths: readonly string[]): Promise<Set<string>> {
    const slices = this.givingWay();
    const dirs = new Set<string>();
    for (const root of this.options.folders() ?? []) for (const dir of await listedDirectories(root, paths, slices)) dirs.add(dir);
    return dirs;
  }

  /**
   * Watches the directories of the files about to be indexed, before the build reads them; a record of
   * changes starts for the index it builds, with the tree's shape changed when it changed while they were
   * listed (`listedAt`, the watcher's shapeMark as the listing began: an entry that appeared in a directory
   * the listing had read is then listed by the next refresh). The watched index's record goes on beside
   * it, so searches rely on the watcher until the build's index replaces that one (a file in a directory
   * no longer watched is checked by its stamp). False when they cannot all be watched (the inotify limit):
   * then, for the rest of the session, every file the index settles is checked by its stamp, as without a watcher.
   */
  private async watchFor(paths: readonly string[], listedAt: number): Promise<boolean> {
    this.buildRecord = this.watcher.reset(listedAt, this.watchedRecord);
    if (this.state.unwatched !== undefined) return false;
    const dirs = await this.directoriesOf(paths);
    try {
      await this.watcher.watchInSlices(dirs, this.givingWay());
      return true;
    } catch (error) {
      this.watcher.close();
      this.watchIndex(undefined);
      this.state.unwatched = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      this.options.log.warn(
        `index: the ${dirs.size} directories of the indexed files cannot be watched (${this.state.unwatched}); each search checks every file it skips by its stamp`,
      );
      return false;
    }
  }

  /**
   * The list with the ignored files the build asked for (BuildRequest.ignoredOnRequest), their directories
   * watched too (include_ignored, an empty answer's check) while the system allows that many watches,
   * before the build reads them; undefined when there are too many files or the listing failed.
   */
  private async listIgnored(paths: readonly string[]): Promise<string[] | undefined> {
    let withIgnored: string[] | undefined;
    // A search under way goes first: this listing is VS Code's findFiles in parts, whose replies would share the cores and this thread with it.
    await this.noSearchUnderWay();
    this.state.ignoredListings++;
    try {
      withIgnored = await this.options.listWithIgnored(paths.length);
    } catch (error) {
      this.options.log.info(`index: the workspace with its ignored files could not be listed (${(error as Error).message}); the searched files are indexed`);
      return undefined;
    }
    if (!withIgnored || !this.buildWatched || this.ignoredUnwatched) return withIgnored;
    try {
      // (added to those of the searched files, which stay watched whatever happens here)
      await this.watcher.addInSlices(await this.directoriesOf(withIgnored), this.givingWay());
    } catch (error) {
      // The watches this call placed are closed.
      this.ignoredUnwatched = true;
      this.options.log.info(
        `index: the directories of the ignored files cannot be watched too (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); those files are checked by their stamps`,
      );
    }
    return withIgnored;
  }

  /**
   * The watcher, for the resident listings (residentListing.ts), while the index is watched: a listing
   * whose directories are all watched and that was found current stays current while no event changes
   * the tree's shape (TreeWatcher.shapeMark), without statting its directories again.
   */
  listingWatch(): ListingWatch | undefined {
    if (!this.watchedIndex) return undefined;
    const watcher = this.watcher;
    return { shapeMark: () => watcher.shapeMark, watches: (dir) => watcher.watches(dir) };
  }

  /**
   * One step of the background audit: the stamps of the next AUDIT_FILES watched files, compared with
   * the index's. A file changed without an event is read by searches from then on, and a refresh reads it.
   */
  private async audit(): Promise<void> {
    const index = this.watchedIndex;
    if (!index || this.buildProcess || this.searching > 0) return;
    const ids: number[] = [];
    for (let n = 0; n < Math.min(AUDIT_FILES, index.idLimit); n++, this.auditNext++) {
      if (this.auditNext >= index.idLimit) this.auditNext = 0;
      if (index.holds(this.auditNext) && this.vouching.vouches(index, this.auditNext)) ids.push(this.auditNext);
    }
    const stamps = await mapAtMost(ids, OPENS_AT_ONCE, (id) => statStampAsync(index.pathOf(id)));
    if (index !== this.watchedIndex) return;
    const changed = ids.filter((id, i) => !stamps[i] || !index.stamped(id, stamps[i]));
    this.state.audit.checked += ids.length;
    if (changed.length === 0) return;
    this.state.audit.changed += changed.length;
    for (const id of changed) this.stale.add(index.pathOf(id));
    this.options.log.info(
      `index: the audit found ${changed.length} files changed that no file event reported (${index.pathOf(changed[0])}${changed.length > 1 ? ', …' : ''}); they are read until the refresh, which starts now`,
    );
    this.refreshes.in(0);
  }

  private close(): void {
    this.opened?.close();
    this.opened = undefined;
    this.watchIndex(undefined);
  }

  /** The index the watcher vouches for, if any, and the record it does so by: the state says whether there is one. */
  private watchIndex(index: ContentIndex | undefined, record?: Readonly<TreeChanges>): void {
    this.watchedIndex = index;
    this.watchedRecord = index && record;
    this.state.watched = index !== undefined;
  }

  /** No index (turned off, or no folder to index): none is kept open, and the status bar says nothing. */
  private turnOff(): void {
    this.state.phase = 'off';
    this.status.hide();
    this.close();
  }

  private async build(): Promise<void> {
    // (the refresh of a stored index replaces it once done: it begins once the stored one is open)
    await this.storedOpening;
    const dir = this.options.storageDir;
    const folders = this.options.folders();
    if (!enabled() || dir === undefined || folders === undefined || folders.length === 0) return this.turnOff();
    const changed = this.contentChanges();
    if (changed) return this.refreshContent(dir, folders, changed);
    this.listAgain = false;
    this.shapeReports.clear();
    this.changedFiles.clear();
    // The first build waits for the searches under way (the first call after activation reads every file).
    if (this.state.builds === 0) await this.noSearchUnderWay();
    this.state.phase = 'listing';
    const listedAt = this.watcher.shapeMark;
    let paths: string[];
    try {
      paths = await this.options.listFiles(this.givingWay());
    } catch (error) {
      this.fail(error);
      return;
    }
    this.buildWatched = await this.watchFor(paths, listedAt);
    this.state.phase = 'building';
    this.buildStarted = Date.now();
    this.state.done = 0;
    this.state.total = paths.length;
    this.showProgress();
    // The list with the ignored files is made when the build asks for it: only when the searched files are within the limits
    // and IGNORED_LISTED_AT_MOST_SEARCHED. With an index open (stored, or built before), they were within the limits: it will
    // be asked for, and is made at once, beside the build's first steps.
    const listingIgnored = this.opened && paths.length <= IGNORED_LISTED_AT_MOST_SEARCHED ? this.listIgnored(paths) : undefined;
    const request = {
      dir,
      folders,
      paths,
      asksIgnored: true,
      maxFileSize: this.options.maxFileSize(),
      pauseRatio: PAUSE_RATIO,
      limits: readIndexLimits(),
    };
    const outcome = await this.runBuild(request, paths.length, () => listingIgnored ?? this.listIgnored(paths));
    // (a build that did not ask for it waits for it to end: its watches are placed before a next build starts anew)
    await listingIgnored;
    this.status.hide();
    if (outcome.kind === 'done') {
      await this.open(dir, outcome.summary, paths);
      this.readRecentLater(outcome.recent);
    } else if (outcome.kind === 'listOnly') this.keepListOnly(outcome.files, outcome.reason);
    else this.fail(new Error(outcome.kind === 'failed' ? outcome.message : 'the index build stopped'));
  }

  /**
   * The files to read again when only file contents changed since the watched index was built (no entry
   * appeared or went, no setting changed, no event was dropped) and they are few; undefined when the
   * workspace must be listed again.
   */
  private contentChanges(): string[] | undefined {
    const index = this.watchedIndex;
    const changes = this.watchedRecord;
    const listing = (why: string) => {
      if (index) this.options.log.info(`index: the workspace is listed again (${why})`);
      return undefined;
    };
    if (!index || !changes || this.opened?.index !== index) return undefined;
    if (this.listAgain) return listing('an entry was created or deleted, or a setting or the folders changed');
    if (changes.overflowed) return listing('more file events than the system may have kept');
    if (changes.structural) return listing('an entry appeared, went or was renamed in a watched directory');
    const changed = new Set([...changes.touched.keys(), ...this.stale, ...this.changedFiles]);
    // VS Code's reports of entries created or deleted, which may come after the listing that saw them: a file the index holds
    // and that is there changed at most in content; a directory there above held files was listed with them; an entry neither
    // there, nor held, nor above a held file went before the listing. Anything else is new to the index, or gone from it.
    let heldDirectories: Set<string> | undefined;
    for (const path of this.shapeReports) {
      const exists = fs.existsSync(path);
      const held = index.idOf(path) !== undefined;
      if (exists && held) {
        changed.add(path);
        continue;
      }
      heldDirectories ??= directoriesHeld(index);
      if (exists !== heldDirectories.has(path) || held) return listing(`${path} was created or deleted`);
    }
    if (changed.size > CONTENT_REFRESH_AT_MOST) return listing(`${changed.size} files changed`);
    // A file the index does not hold is not one it searches (an ignored file it left out, a denied one).
    return [...changed].filter((path) => index.idOf(path) !== undefined);
  }

  /**
   * Reads again the files whose content changed (buildWorker.ts refreshOnly): a small segment and the
   * table are stored, and the index opened again. Searches keep relying on the watcher meanwhile (a changed
   * file is read by them until then). A file an event named after the refresh began stays unrelied on.
   */
  private async refreshContent(dir: string, folders: string[], changed: string[]): Promise<void> {
    const record = this.watchedRecord;
    const upTo = record?.events ?? 0;
    this.changedFiles.clear();
    this.shapeReports.clear();
    if (changed.length > 0) {
      const outcome = await this.runBuild(
        {
          dir,
          folders,
          paths: [],
          only: changed,
          asksIgnored: false,
          maxFileSize: this.options.maxFileSize(),
          pauseRatio: PAUSE_RATIO,
          limits: readIndexLimits(),
        },
        changed.length,
      );
      if (outcome.kind !== 'done') {
        this.options.log.info(
          `index: the refresh of ${changed.length} changed files did not end (${outcome.kind === 'failed' ? outcome.message : 'stopped'}); the workspace is listed again`,
        );
        this.listAgain = true;
        this.refreshes.in(0);
        return;
      }
      // (holding the paths of the index it replaces, which held the listing's)
      const stored = await openIndexInSlices(dir, undefined, this.opened?.index.pathsById());
      if (!stored) {
        this.listAgain = true;
        this.refreshes.in(0);
        return;
      }
      this.close();
      this.opened = { index: stored.index, close: stored.close };
      if (record) this.watcher.forget(changed, upTo, record);
      for (const path of changed) this.stale.delete(path);
      this.watchIndex(stored.index, record);
      this.state.last = outcome.summary;
      this.state.contentRefreshes++;
      this.readRecentLater(outcome.recent);
      this.options.log.info(
        `index: ${changed.length} changed files read again in ${outcome.summary.elapsedMs} ms (the others kept without a stamp: the tree kept its shape)`,
      );
    }
  }

  /**
   * Files the build held unread because they were written just before it read them (their times may not
   * show a write in the same tick yet): read again by a content refresh once RECENT_WRITE_MS has passed,
   * so the index relies on them without waiting for another change.
   */
  private readRecentLater(recent: readonly string[] | undefined): void {
    if (!recent?.length) return;
    for (const path of recent) this.changedFiles.add(path);
    this.refreshes.in(RECENT_WRITE_MS);
  }

  /**
   * Runs a build of `request` in its own process (buildProcess.ts, which lowers its own priority below
   * the host's: processInBackground): its progress shown, the searches under way sent as they change, the list with the ignored
   * files made when it asks (`listIgnored`); `files` sizes its build thread's heap (the list with the
   * ignored files holds at most as many again, which the heap's margin covers). Its outcome, or a failure
   * saying how the process ended without one.
   */
  private async runBuild(
    request: ProcessBuildRequest & { paths: readonly string[] },
    files: number,
    listIgnored?: () => Promise<string[] | undefined>,
  ): Promise<FromBuildProcess> {
    // A small young generation, as the search workers have: the build's garbage is short-lived; an old generation bounded by the files it lists.
    const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: buildHeapLimitMb(files) };
    // (the host's own flags, an inspector's port among them, are not the build's; in VS Code's Electron, the process is run as Node)
    const child = fork(nodePath.join(__dirname, 'indexProcess.js'), [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    this.buildProcess = child;
    // The end of what it wrote to stderr (a crash's reason), for the log.
    let errors = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (errors = (errors + text).slice(-2048)));
    const send = (message: ToBuildProcess) => this.send(child, message);
    const ended = new Promise<FromBuildProcess>((resolve) => {
      child.on('message', (message: FromBuildProcess) => {
        if (message.kind === 'listIgnored') return void listIgnored?.().then((withIgnored) => sendWithIgnored(send, withIgnored));
        if (message.kind !== 'progress') return resolve(message);
        this.state.done = message.done;
        this.state.total = message.total;
        this.showProgress();
      });
      child.on('error', (error) => resolve({ kind: 'failed', message: error.message }));
      // (after its last message: the channel is closed too)
      child.on('close', (code, signal) => {
        const why = errors.trim().split('\n').slice(-3).join(' ');
        resolve({ kind: 'failed', message: `the index build process ended (${signal ?? `exit code ${code}`})${why ? `: ${why}` : ''}` });
      });
    });
    void send({ kind: 'searching', count: this.searching });
    await sendBuild(send, request, resourceLimits, this.givingWay());
    const outcome = await ended;
    this.buildProcess = undefined;
    child.kill();
    if (outcome.peakRssBytes !== undefined) this.state.buildPeakRss = outcome.peakRssBytes;
    return outcome;
  }

  /** A message to a build process, unless it has gone (its end is reported by its `exit`); settles once the channel has taken it (SendToBuild). */
  private send(child: ChildProcess, message: ToBuildProcess): Promise<void> {
    return new Promise((resolve) => {
      if (!child.connected) return resolve();
      child.send(message, (error) => {
        if (error) this.options.log.info(`index: the build process did not take a message (${error.message})`);
        resolve();
      });
    });
  }

  /** Opens the index a build stored in `dir`, holding the paths of `listed` (the files it was given, in that order) as its own (openIndexInSlices). */
  private async open(dir: string, summary: BuildSummary, listed: readonly string[]): Promise<void> {
    const stored = await openIndexInSlices(dir, undefined, listed);
    this.close();
    if (stored) this.opened = { index: stored.index, close: stored.close };
    // The files the audit found changed were read by the build.
    this.stale.clear();
    this.watchIndex(stored && this.buildWatched ? stored.index : undefined, this.buildRecord);
    // (the record of the index it replaced, kept while it was built, ends)
    this.watcher.release();
    this.auditNext = 0;
    if (this.watchedIndex && !this.auditTimer) {
      this.auditTimer = setInterval(
        () => void this.audit().catch((error: Error) => this.options.log.warn(`index: audit failed (${error.message})`)),
        AUDIT_EVERY_MS,
      );
      this.auditTimer.unref();
    }
    this.state.phase = stored ? 'ready' : 'failed';
    this.state.listOnly = undefined;
    this.state.last = summary;
    this.state.dir = dir;
    this.state.builds++;
    const loaded = this.state.loaded;
    if (loaded && loaded.fresh === undefined) {
      loaded.fresh = summary.kept;
      this.options.log.info(`index: ${summary.kept} of the ${loaded.files} stored files were fresh, ${summary.read} read again, ${summary.dropped} dropped`);
    }
    this.options.log.info(
      `index: ${summary.files} files (${summary.read} read, ${summary.kept} kept, ${summary.dropped} dropped) in ${summary.elapsedMs} ms, ` +
        `${summary.indexBytes} bytes on disk in ${dir}` +
        (this.state.buildPeakRss === undefined ? '' : `; the build process's peak memory ${Math.round(this.state.buildPeakRss / 1048576)} MB`) +
        (stored?.pathsKnown === undefined ? '' : `; ${stored.pathsKnown} of its paths held as the listing's`),
    );
  }

  /** The workspace is larger than the settings allow: no content index (searches read every file), and the status bar says why. */
  private keepListOnly(files: number, reason: string): void {
    this.close();
    this.state.phase = 'listOnly';
    this.state.listOnly = reason;
    this.state.last = undefined;
    this.state.builds++;
    this.options.log.info(`index: file list only (${reason}): the content of the ${files} files is not indexed, searches read every file`);
    this.status.text = '$(list-flat) Grep index: file list only';
    this.status.tooltip = `Grep Tools keeps the file list of this workspace only: ${reason}. Searches read every file. Raise the setting to index the content.`;
    this.status.show();
  }

  private fail(error: unknown): void {
    this.state.phase = 'failed';
    this.options.log.warn(`index: not built (${error instanceof Error ? error.message : String(error)}); searches read every file`);
  }

  /**
   * Shown once a build has run for a moment, so a refresh after an edit, done at once, does not flash in
   * the status bar; the first build of a large workspace is shown from its start.
   */
  private showProgress(): void {
    const firstLarge = this.state.builds === 0 && this.state.total >= SHOW_AT_ONCE_FILES;
    if (!firstLarge && Date.now() - this.buildStarted < SHOW_AFTER_MS) return;
    this.status.text = `$(sync~spin) Indexing ${thousands(this.state.done)}/${thousands(this.state.total)}`;
    this.status.tooltip = 'Grep Tools is indexing the workspace: until it is done, searches read the files it has not indexed yet.';
    this.status.show();
  }

  /** Runs a search, counted as under way while it runs. */
  async runSearch<T>(search: () => Promise<T>): Promise<T> {
    this.countSearches(+1);
    try {
      return await search();
    } finally {
      this.countSearches(-1);
    }
  }

  /** Resolves once no search is under way (looked at every IDLE_POLL_MS). */
  private async noSearchUnderWay(): Promise<void> {
    while (this.searching > 0) await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
  }

  private countSearches(change: number): void {
    this.searching += change;
    if (this.buildProcess) void this.send(this.buildProcess, { kind: 'searching', count: this.searching });
  }

  /** Records what the index did for a grep (IndexState.lastUse). */
  noteUse(indexed: { settled: number; read: number } | undefined): void {
    this.state.lastUse = indexed && { ...indexed };
  }

  dispose(): void {
    this.disposed = true;
    this.refreshes.close();
    clearInterval(this.auditTimer);
    this.watcher.close();
    this.buildProcess?.kill();
    this.close();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** The directories above the files the index holds. */
function directoriesHeld(index: ContentIndex): Set<string> {
  const directories = new Set<string>();
  for (const path of index.paths()) {
    for (let dir = nodePath.dirname(path); !directories.has(dir); dir = nodePath.dirname(dir)) {
      directories.add(dir);
      if (nodePath.dirname(dir) === dir) break;
    }
  }
  return directories;
}
