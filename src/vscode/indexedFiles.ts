/** What the content index holds: the files a grep of the whole workspace reads, listed as such a grep lists them. */
import * as vscode from 'vscode';
import { authorizeSearch, openCandidates } from '../engine/grep';
import { emptySkips } from '../engine/types';
import { environment } from './tools';

/** The workspace folders' paths, or undefined when one is not on disk (a virtual folder is not indexed). */
export function indexedFolders(): string[] | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.every((folder) => folder.uri.scheme === 'file') ? folders.map((folder) => folder.uri.fsPath) : undefined;
}

/** The files a grep with no path, no include and no include_ignored reads, in its order. */
export async function indexedFiles(): Promise<string[]> {
  const source = new vscode.CancellationTokenSource();
  try {
    const env = environment(source.token);
    const access = await authorizeSearch(undefined, env);
    if (access.kind !== 'files') return [];
    const candidates = await openCandidates(access.bases, { includeIgnored: false, granted: access.granted }, env, emptySkips());
    return [...candidates].map((candidate) => candidate.path);
  } finally {
    source.dispose();
  }
}
