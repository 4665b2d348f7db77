/**
 * The index of a workspace as the CLI keeps it: the files a search of the whole workspace lists (same
 * guard, excludes, .gitignore and denied paths), refreshed in place and stored in the index directory
 * with the listing itself (replayed while fresh).
 */
import { filterStream, type FileSource } from '../source/fileSource';
import { authorizeSearch, type Cancellation, type GuardRoles, type Settings } from './environment';

/** What indexing a workspace takes: the guard's roles (folders, settings, source), the cancellation, the full file source. */
export type IndexingRoles = GuardRoles & Settings & Cancellation & { source: FileSource };
import { CancelledError, InputError } from '../api/errors';
import { emptySkips } from '../api/types';
import { refreshIndex, type RefreshResult } from '../index/builder';
import { ContentIndex } from '../index/contentIndex';
import type { FileStamp } from '../source/fileStamp';
import { ListingSource, recordListing, type RecordedListing, type StreamingSource } from '../index/listing';
import { currentIndexPrejudge, type SearchIndex } from '../index/prejudge';
import { DEFAULT_INDEX_LIMITS, ignoredListingAtMost, indexedFilesOf, type IndexLimits } from '../index/limits';
import { loadIndexFor, saveIndex, storingAsItGoes, type IndexMeta } from '../index/store';

/** The files of a listing, in order, and the listing recorded on the way (when it can be relied on). */
interface ListedFiles {
  paths: string[];
  listing?: RecordedListing;
}

/**
 * The files a search of every workspace folder (no path, no include) reads, ignored files left out; and
 * the ones it reads with them (include_ignored), listed when asked for, unless there are more than
 * ignoredListingAtMost (the walk stops there: no index holds them then).
 */
async function listWorkspaceFiles(env: IndexingRoles): Promise<{ searched: ListedFiles; withIgnored: () => ListedFiles | undefined }> {
  const access = await authorizeSearch(undefined, env);
  if (access.kind !== 'files') return { searched: { paths: [] }, withIgnored: () => undefined };
  const list = (includeIgnored: boolean, maxFiles?: number): ListedFiles | undefined => {
    const query = {
      bases: access.bases,
      include: '**',
      includeIgnored,
      respectGitignore: env.config.respectGitignore && !includeIgnored,
      granted: access.granted,
    };
    const { listing, files, pruned, over } = recordListing(env.source, query, env.config.deniedPaths, env.isCancelled, Date.now(), maxFiles);
    if (env.isCancelled()) throw new CancelledError();
    if (over) return undefined;
    const filter = { denied: env.config.deniedPaths, allowed: env.config.allowedPaths, pruned };
    return { paths: [...filterStream(access.bases, files, filter, emptySkips())].map((candidate) => candidate.path), listing };
  };
  const searched = list(false)!;
  return { searched, withIgnored: () => list(true, ignoredListingAtMost(searched.paths.length)) };
}

export interface IndexSummary extends RefreshResult {
  files: number;
  /** Whether the listing was recorded (a search of the whole workspace then skips the walk while it is fresh). */
  listing: boolean;
  /** Whether the files searches leave out (excludes, .gitignore) are indexed too, for include_ignored. */
  withIgnored: boolean;
  /** Bytes of the index file written. */
  indexBytes: number;
  /** Bytes of the postings (stored in segment files, read a list at a time). */
  postingBytes: number;
  elapsedMs: number;
  /** Why the index keeps the file list (the recorded listing) only: over a size limit (limits.ts). */
  listOnly?: string;
}

/**
 * Builds the index of the environment's folders in `dir`, or refreshes the one there. Above the limits
 * (the same defaults as VS Code's settings) it keeps the file list only: the recorded listing, no content.
 */
export async function buildWorkspaceIndex(env: IndexingRoles, dir: string, limits: IndexLimits = DEFAULT_INDEX_LIMITS): Promise<IndexSummary> {
  const started = Date.now();
  const folders = env.folders.map((folder) => folder.path);
  const stored = loadIndexFor(dir, folders);
  let index = stored ? stored.index : new ContentIndex();
  let result: RefreshResult = { read: 0, kept: 0, dropped: 0, bytes: 0 };
  let listings: RecordedListing[] = [];
  let withIgnored = false;
  let listOnly: string | undefined;
  let indexBytes: number;
  const meta = (): IndexMeta => ({ folders, maxFileSize: env.config.maxFileSize, builtAt: Date.now(), listings });
  try {
    const listed = await listWorkspaceFiles(env);
    const stamps = new Map<string, FileStamp | undefined>();
    let ignored: ListedFiles | undefined;
    const chosen = indexedFilesOf(listed.searched.paths, () => (ignored = listed.withIgnored())?.paths, env.config.maxFileSize, limits, stamps);
    withIgnored = chosen.withIgnored;
    listings = [listed.searched.listing, withIgnored ? ignored?.listing : undefined].filter((listing): listing is RecordedListing => listing !== undefined);
    listOnly = chosen.listOnly;
    if (listOnly !== undefined) index = new ContentIndex();
    else
      result = refreshIndex(index, chosen.paths, {
        maxFileSize: env.config.maxFileSize,
        folders,
        isCancelled: env.isCancelled,
        stamps,
        onFlush: storingAsItGoes(dir, meta, index),
      });
    indexBytes = saveIndex(dir, meta(), index);
  } catch (error) {
    if (error instanceof InputError || error instanceof CancelledError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(`The index could not be written in ${dir} (${reason}). Pass an --index-dir that can be written, outside the workspace.`);
  } finally {
    // The segment files of a new index are open too (a descriptor each until closed).
    index.close();
    stored?.close();
  }
  return {
    ...result,
    files: index.size,
    listing: listings.some((listing) => !listing.includeIgnored),
    withIgnored,
    indexBytes,
    postingBytes: index.postingBytes(),
    elapsedMs: Date.now() - started,
    ...(listOnly ? { listOnly } : {}),
  };
}

/**
 * The index stored in `dir` for these folders, as a search consults it, and the source that replays its
 * listing (wrapping `source`); undefined when there is none. Meant for one command line call: each
 * file's stamp is read once, so the checks of an empty answer (diagnostics.ts) re-run against the same
 * snapshot without statting every file again.
 */
export function openWorkspaceIndex(
  dir: string,
  folders: readonly string[],
  source: StreamingSource,
): { index: SearchIndex; source: ListingSource; close(): void } | undefined {
  const stored = loadIndexFor(dir, folders);
  if (!stored) return undefined;
  return { index: currentIndexPrejudge(() => stored.index), source: new ListingSource(source, stored.meta.listings ?? []), close: stored.close };
}
