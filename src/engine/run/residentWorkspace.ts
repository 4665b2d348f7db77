/**
 * The workspace index of a long-running process (the CLI's `serve`): built or refreshed as `index`
 * does, held in memory, and kept current by a watcher of every listed directory. While the watcher
 * holds, a call relies on the index without statting the files no event named, and replays the
 * recorded listing while no entry appeared, went or was renamed (no walk); an event schedules a
 * refresh, which reads only what changed; while it runs, the index held is vouched for by its own record
 * of changes, which goes on recording until the new index opens. Anything the watcher cannot vouch for
 * (a file an event named, directories watched only since the last refresh read the tree, a watch that
 * failed, a failed refresh) is checked by stat, as one command line call checks it, so the answer is
 * always the one a full scan gives.
 */
import { CONTENT_REFRESH_AT_MOST, RECENT_WRITE_MS, reindexFiles } from '../index/builder';
import type { ContentIndex } from '../index/contentIndex';
import type { IndexLimits } from '../index/limits';
import { linksFresh, ListingSource, listingFresh, watchedDirectories, type RecordedListing, type StreamingSource } from '../index/listing';
import { RecentResults, watchedIndexPrejudge, type SearchIndex } from '../index/prejudge';
import { RefreshSchedule } from '../index/refreshSchedule';
import { loadIndex, type IndexMeta } from '../index/store';
import { TreeWatcher, WatchVouching, type TreeChanges, type WatchDirectory } from '../index/treeWatcher';
import { buildWorkspaceIndex, type IndexingRoles, type IndexSummary } from './workspaceIndex';

/** A refresh starts this long after the last event (a burst of events, as a branch switch makes, costs one). */
export const REFRESH_DELAY_MS = 250;
/** Refreshes in a row that may each find new directories to watch before the tree is left unvouched for. */
const MAX_WATCHING_REFRESHES = 3;

/** Whether a stored index recorded the listing of the searched files (not when a directory changed too recently). */
function listsSearched(meta: IndexMeta | undefined): boolean {
  return meta?.listings?.some((listing) => !listing.includeIgnored) === true;
}

export interface ResidentLog {
  refreshed(summary: IndexSummary, watched: number): void;
  /** Only the contents of these many files changed: they alone were read again (refreshContent). */
  contentRefreshed(files: number, elapsedMs: number): void;
  /** The tree cannot be watched: calls check every file by stat. */
  unwatched(reason: string): void;
  /** The directories of the ignored files cannot be watched too: include_ignored lists the tree and checks those files by stat. */
  ignoredUnwatched(reason: string): void;
  /** A refresh failed: calls check every file by stat until one succeeds. */
  failed(reason: string): void;
}

export class ResidentWorkspace {
  private stored?: { meta: IndexMeta; index: ContentIndex; close(): void };
  private readonly watcher: TreeWatcher;
  private readonly refreshes = new RefreshSchedule(
    () => this.refresh(),
    (error) => this.log.failed((error as Error).message),
  );
  /**
   * The record of changes that vouches for the index held (`stored`), or none: the watcher's current one
   * once it saw the whole tree since the index read it; while a refresh reads the tree, the replaced
   * index's own, which goes on recording beside the refresh's until the new index opens, so calls made
   * meanwhile rely on the old index for every file no event named instead of statting them all.
   */
  private record?: Readonly<TreeChanges>;
  private watchable = true;
  /** Whether the directories of the ignored files' listing may be watched (no ENOSPC placing them yet). */
  private ignoredWatchable = true;
  private closed = false;
  private readonly vouching: WatchVouching;
  /** What the calls found in the files they read, kept for the next call of the same question (prejudge.ts). */
  private readonly recent = new RecentResults();

  constructor(
    private readonly env: IndexingRoles & { source: StreamingSource },
    private readonly dir: string,
    private readonly limits: IndexLimits,
    private readonly log: ResidentLog,
    watchDirectory?: WatchDirectory,
    /** Builds or refreshes the stored index (the tests hold a refresh at its start). */
    private readonly build: typeof buildWorkspaceIndex = buildWorkspaceIndex,
  ) {
    this.watcher = new TreeWatcher(() => this.refreshes.in(REFRESH_DELAY_MS), undefined, watchDirectory);
    this.vouching = new WatchVouching(this.watcher, (index) => (index === this.stored?.index ? this.record : undefined));
  }

  /** Builds or refreshes the index and watches the tree; resolves once the watcher vouches for it (or cannot). */
  async start(): Promise<void> {
    await this.refreshes.now();
  }

  /** What one call searches through: the source that replays the listing while it holds, and the index. */
  environment(): { source: ListingSource; index?: SearchIndex } {
    const stored = this.stored;
    if (!stored) return { source: new ListingSource(this.env.source, []) };
    const record = this.record;
    const fresh = (listing: RecordedListing) => (record && !record.structural && !record.overflowed ? linksFresh(listing) : listingFresh(listing));
    return {
      source: new ListingSource(this.env.source, this.replayable(), fresh),
      index: watchedIndexPrejudge(() => this.stored?.index, this.vouching, this.recent),
    };
  }

  /** The stored listings a call may replay: all of them, unless the ignored ones' directories could not be watched while the others are. */
  private replayable(): RecordedListing[] {
    const listings = this.stored?.meta.listings ?? [];
    return this.ignoredWatchable || !this.watchable ? listings : listings.filter((listing) => !listing.includeIgnored);
  }

  /**
   * Watches the directories of the listings; when that many watches cannot be placed (ENOSPC), those
   * of the workspace's own listing alone, from then on: include_ignored then lists the tree, and the
   * ignored files the index holds are checked by stat. Returns the watches added.
   */
  private watchListings(listings: RecordedListing[]): number {
    const searched = listings.filter((listing) => !listing.includeIgnored);
    if (this.ignoredWatchable && searched.length < listings.length) {
      try {
        return this.watcher.watch(watchedDirectories(listings));
      } catch (error) {
        this.ignoredWatchable = false;
        this.log.ignoredUnwatched((error as NodeJS.ErrnoException).code ?? (error as Error).message);
      }
    }
    return this.watcher.watch(watchedDirectories(searched));
  }

  /**
   * Reads again into the index held the files an event named, when the watcher vouches for the tree and
   * its shape did not change (no entry appeared or went, no event was dropped) and they are few: no
   * listing, no stat of the others, nothing written (a later full refresh stores the index, and takes a
   * changed file's stamp). Synchronous, so no call sees it half done. Whether it could.
   */
  private refreshContent(): boolean {
    const changes = this.record;
    const index = this.stored?.index;
    // (an index whose listing could not be recorded is refreshed whole, which records it)
    if (!index || !listsSearched(this.stored?.meta) || !changes || changes.structural || changes.overflowed || changes.touched.size > CONTENT_REFRESH_AT_MOST)
      return false;
    const started = Date.now();
    const upTo = changes.events;
    const changed = [...changes.touched.keys()].filter((path) => index.idOf(path) !== undefined);
    // A file written in the last RECENT_WRITE_MS is held as unread: it stays in the record, and is read again once it has stayed unwritten that long.
    const recent = new Set(
      reindexFiles(
        index,
        changed,
        this.env.config.maxFileSize,
        this.env.folders.map((folder) => folder.path),
      ).recent,
    );
    this.watcher.forget(
      [...changes.touched.keys()].filter((path) => !recent.has(path)),
      upTo,
      changes,
    );
    if (recent.size > 0) this.refreshes.in(RECENT_WRITE_MS);
    this.log.contentRefreshed(changed.length, Date.now() - started);
    return true;
  }

  /** One refresh (RefreshSchedule): the changed files alone when it can (refreshContent), else the whole tree. */
  private async refresh(): Promise<void> {
    if (this.refreshContent()) return;
    const retryMs = await this.refreshUntilWatched();
    if (retryMs !== undefined) this.refreshes.in(retryMs);
  }

  /**
   * Refreshes until a refresh places no new watch: a directory first watched after the refresh read it
   * may have changed unseen in between, so the next refresh reads it again, watched by then. Returns
   * when to try again when the listing could not be recorded (something changed too recently).
   */
  private async refreshUntilWatched(): Promise<number | undefined> {
    for (let round = 0; round < MAX_WATCHING_REFRESHES && !this.closed; round++) {
      // (the index held stays vouched for by its own record, kept recording, until the new one opens)
      const fresh = this.watcher.reset(undefined, this.record);
      let summary: IndexSummary;
      try {
        summary = await this.build(this.env, this.dir, this.limits);
      } finally {
        // (the new index opens next, no call in between; a failed refresh leaves the old one unvouched for)
        this.unvouched();
      }
      if (this.closed) return undefined; // (closed meanwhile: nothing is opened again)
      const stored = loadIndex(this.dir);
      this.stored?.close();
      this.stored = stored;
      const listings = stored?.meta.listings ?? [];
      const searched = listsSearched(stored?.meta);
      let added = 0;
      if (searched && this.watchable) {
        try {
          added = this.watchListings(listings);
        } catch (error) {
          this.watchable = false;
          this.watcher.close();
          this.log.unwatched((error as NodeJS.ErrnoException).code ?? (error as Error).message);
        }
      }
      this.log.refreshed(summary, this.watcher.size);
      if (!searched) {
        // The listing could not be recorded (a directory changed too recently): calls walk the tree until
        // the next refresh, and rely on this index, read while the watches were in place, for the files no
        // event named (a directory not watched then is not watched now: its files are checked by stat).
        if (stored && this.watchable) this.record = fresh;
        return RECENT_WRITE_MS;
      }
      if (!this.watchable) return undefined;
      if (added === 0) {
        this.record = fresh;
        return undefined;
      }
    }
    return undefined;
  }

  /** No record vouches for the index held (a new one, until the watcher saw the whole tree since it read it; or after a failed refresh). */
  private unvouched(): void {
    this.record = undefined;
    this.watcher.release();
  }

  /** Resolves once no refresh is under way: after close(), once the last one let go of the index's files. */
  async whenIdle(): Promise<void> {
    await this.refreshes.idle();
  }

  close(): void {
    this.closed = true;
    this.refreshes.close();
    this.watcher.close();
    this.stored?.close();
    this.stored = undefined;
  }
}
