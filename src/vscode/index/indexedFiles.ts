/** What the content index holds: the files a grep of the whole workspace reads, listed as such a grep lists them. */
import * as vscode from 'vscode';
import { authorizeSearch } from '../../engine/run/environment';
import { openCandidates } from '../../engine/run/candidates';
import { emptySkips } from '../../engine/api/types';
import { TimeSlices } from '../../engine/source/timeSlices';
import { ignoredListingAtMost } from '../../engine/index/limits';
import { environment } from '../environment';
import type { Services } from '../services';
import type { ProcessBuildRequest } from '../../engine/index/buildProcess';

/** The workspace folders' paths, or undefined when one is not on disk (a virtual folder is not indexed). */
export function indexedFolders(): string[] | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.every((folder) => folder.uri.scheme === 'file') ? folders.map((folder) => folder.uri.fsPath) : undefined;
}

/**
 * The files a grep with no path and no include reads, in its order. The build indexes those it reads with
 * include_ignored instead (an empty answer's checks search ignored files too, and then read only what the
 * index cannot settle) while within limits.ts's bounds (indexedFilesOf), listing them itself (ignoredListing).
 */
export async function indexedFiles(services: Services, slices = new TimeSlices()): Promise<string[]> {
  const source = new vscode.CancellationTokenSource();
  try {
    const env = environment(services, source.token);
    const access = await authorizeSearch(undefined, env);
    if (access.kind !== 'files') return [];
    // (a slice at a time: 500,000 paths in one go held the extension host for about 100 ms)
    const paths: string[] = [];
    for (const candidate of await openCandidates(access.bases, { includeIgnored: false, granted: access.granted }, env, emptySkips())) {
      paths.push(candidate.path);
      if (slices.due()) await slices.pause();
    }
    return paths;
  } finally {
    source.dispose();
  }
}

/**
 * How the build lists the files with include_ignored itself (BuildRequest.ignored): the bases and granted
 * roots of a grep of the whole workspace, its denied and allowed paths, and at most as many files as an
 * index holds beside `searched` ones (limits.ts). Its excludes are none: include_ignored leaves them out.
 */
export async function ignoredListing(services: Services, searched: number): Promise<ProcessBuildRequest['ignored']> {
  const source = new vscode.CancellationTokenSource();
  try {
    const env = environment(services, source.token);
    const access = await authorizeSearch(undefined, env);
    if (access.kind !== 'files') return undefined;
    const { deniedPaths, allowedPaths } = env.config;
    return { bases: access.bases, granted: [...access.granted], denied: [...deniedPaths], allowed: [...allowedPaths], atMost: ignoredListingAtMost(searched) };
  } finally {
    source.dispose();
  }
}
