/**
 * The index of a workspace as the CLI keeps it: the files a search of the whole workspace lists (same
 * guard, excludes, .gitignore and denied paths), refreshed in place and stored in the index directory.
 */
import { authorizeSearch, CancelledError, openCandidates, type SearchEnvironment } from '../grep';
import { emptySkips } from '../types';
import { refreshIndex, type RefreshResult } from './builder';
import { ContentIndex } from './contentIndex';
import { indexPrejudge, type SearchIndex } from './prejudge';
import { loadIndex, saveIndex, type IndexMeta } from './store';

/** The files a search of every workspace folder (no path, no include, ignored files left out) lists, in order. */
export async function listWorkspaceFiles(env: SearchEnvironment): Promise<string[]> {
  const access = await authorizeSearch(undefined, env);
  if (access.kind !== 'files') return [];
  const candidates = await openCandidates(access.bases, { includeIgnored: false, granted: access.granted }, env, emptySkips());
  const paths: string[] = [];
  for (const candidate of candidates) {
    if (env.isCancelled()) throw new CancelledError();
    paths.push(candidate.path);
  }
  return paths;
}

const sameFolders = (meta: IndexMeta, folders: readonly string[]) => meta.folders.length === folders.length && meta.folders.every((folder, i) => folder === folders[i]);

export interface IndexSummary extends RefreshResult {
  files: number;
  /** Bytes of the index file written. */
  indexBytes: number;
  /** Bytes of the postings held in memory. */
  postingBytes: number;
  elapsedMs: number;
}

/** Builds the index of the environment's folders in `dir`, or refreshes the one there. */
export async function buildWorkspaceIndex(env: SearchEnvironment, dir: string): Promise<IndexSummary> {
  const started = Date.now();
  const folders = env.folders.map((folder) => folder.path);
  const stored = loadIndex(dir);
  const index = stored && sameFolders(stored.meta, folders) ? stored.index : new ContentIndex();
  const paths = await listWorkspaceFiles(env);
  const result = refreshIndex(index, paths, { maxFileSize: env.config.maxFileSize, folders, isCancelled: env.isCancelled });
  const indexBytes = saveIndex(dir, { folders, maxFileSize: env.config.maxFileSize, builtAt: Date.now() }, index);
  return { ...result, files: index.size, indexBytes, postingBytes: index.postingBytes(), elapsedMs: Date.now() - started };
}

/** The index stored in `dir` for these folders, as a search consults it; undefined when there is none. */
export function openWorkspaceIndex(dir: string, folders: readonly string[]): SearchIndex | undefined {
  const stored = loadIndex(dir);
  return stored && sameFolders(stored.meta, folders) ? indexPrejudge(stored.index) : undefined;
}
