/** What the content index holds: the files a grep of the whole workspace reads, listed as such a grep lists them. */
import * as vscode from 'vscode';
import { authorizeSearch } from '../../engine/run/environment';
import { openCandidates } from '../../engine/run/candidates';
import { emptySkips } from '../../engine/api/types';
import { TimeSlices } from '../../engine/source/timeSlices';
import { ignoredListingAtMost } from '../../engine/index/limits';
import { environment } from '../environment';
import type { Services } from '../services';

/** The workspace folders' paths, or undefined when one is not on disk (a virtual folder is not indexed). */
export function indexedFolders(): string[] | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.every((folder) => folder.uri.scheme === 'file') ? folders.map((folder) => folder.uri.fsPath) : undefined;
}

/**
 * The files a grep with no path and no include reads, in its order, or with `includeIgnored` those it
 * reads with include_ignored (an empty answer's checks search ignored files too, and then read only what
 * the index cannot settle): the build indexes the second while within limits.ts's bounds (indexedFilesOf).
 */
export async function indexedFiles(services: Services, includeIgnored: boolean, slices = new TimeSlices()): Promise<string[]> {
  const source = new vscode.CancellationTokenSource();
  try {
    const env = environment(services, source.token);
    const access = await authorizeSearch(undefined, env);
    if (access.kind !== 'files') return [];
    // (a slice at a time: 500,000 paths in one go held the extension host for about 100 ms)
    const paths: string[] = [];
    for (const candidate of await openCandidates(access.bases, { includeIgnored, granted: access.granted }, env, emptySkips())) {
      paths.push(candidate.path);
      if (slices.due()) await slices.pause();
    }
    return paths;
  } finally {
    source.dispose();
  }
}

/** The files with include_ignored (indexedFiles), unless there are more than the index would hold beside `searched` files (limits.ts): such a list is not copied to the build thread. */
export async function indexedFilesWithIgnored(services: Services, searched: number): Promise<string[] | undefined> {
  const withIgnored = await indexedFiles(services, true);
  return withIgnored.length <= ignoredListingAtMost(searched) ? withIgnored : undefined;
}
