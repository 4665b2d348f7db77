/**
 * Workspace folders on a virtual file system (any scheme but `file:`, e.g. a `memfs:` provider of an
 * extension, or a remote repository): the engine names their files by the URI's path, lists them by
 * walking `workspace.fs.readDirectory` with the engine's walk (treeWalk.ts: the entry policy, the
 * folder's excludes and its .gitignore files, as on disk) and reads them with `workspace.fs.readFile`
 * here (the worker pool reads only `file:` paths; it searches the bytes read here). This module only
 * adapts workspace.fs to the engine's directory reader.
 */
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { dirEntry, type DirEntry } from '../../engine/source/entryPolicy';
import { readIgnoreFileVia } from '../../engine/source/ignoreFile';
import { listWithReader, type DirectoryReader, type ReaderListing } from '../../engine/source/treeWalk';
import { innermost } from '../../engine/guard/paths';
import type { SearchBase } from '../../engine/guard/roots';
import type { Candidate } from '../../engine/api/types';

export interface VirtualFolder {
  /** The engine's absolute path for the folder: its URI's path (its fsPath for a `file:` folder). */
  path: string;
  uri: vscode.Uri;
}

/** The path the engine uses for a URI: its path, without a trailing slash. */
export function virtualPath(uri: vscode.Uri): string {
  const path = nodePath.posix.normalize(uri.path || '/');
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** Every workspace folder with the engine's path for it (`fsPath` for `file:`, else the URI's path). */
export function virtualFolders(): VirtualFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
    path: folder.uri.scheme === 'file' ? folder.uri.fsPath : virtualPath(folder.uri),
    uri: folder.uri,
  }));
}

/**
 * The URI of an engine path whose workspace folder (the deepest one holding it, as the engine picks it)
 * is virtual; undefined for a path in a `file:` folder or outside every folder.
 */
export function virtualUri(path: string, folders: readonly VirtualFolder[]): vscode.Uri | undefined {
  const best =
    folders[
      innermost(
        path,
        folders.map((folder) => folder.path),
      )
    ];
  if (!best || best.uri.scheme === 'file') return undefined;
  const relative = nodePath.posix.relative(best.path, path);
  return best.uri.with({ path: relative ? nodePath.posix.join(best.uri.path, relative) : best.uri.path });
}

/** The files below a base of a virtual folder (or the base itself when it is a file), walked through workspace.fs. */
export function listVirtual(base: SearchBase, baseIndex: number, baseUri: vscode.Uri, options: ReaderListing): Promise<Candidate[]> {
  const uriOf = (path: string) =>
    path === base.base ? baseUri : baseUri.with({ path: nodePath.posix.join(baseUri.path, nodePath.posix.relative(base.base, path)) });
  return listWithReader(workspaceReader(uriOf), base, baseIndex, options);
}

/**
 * How the engine reads a file of a virtual folder (it never reads such a path itself): through the
 * provider, when it searches the file (glob reads nothing). A file that cannot be read counts as unreadable.
 */
export function virtualReader(uri: vscode.Uri): () => Promise<Uint8Array | undefined> {
  return async () => {
    try {
      return await vscode.workspace.fs.readFile(uri);
    } catch {
      return undefined;
    }
  };
}

function entryOf(name: string, type: vscode.FileType): DirEntry {
  if (type & vscode.FileType.SymbolicLink) return dirEntry(name, 'link');
  return dirEntry(name, type & vscode.FileType.Directory ? 'directory' : type & vscode.FileType.File ? 'file' : 'other');
}

/**
 * workspace.fs as the engine's directory reader. Such a file system tells no real paths: a link is
 * followed as what its stat says it leads to, judged by its name (treeWalk.ts, entryPolicy.ts).
 */
function workspaceReader(uriOf: (path: string) => vscode.Uri): DirectoryReader {
  const stat = async (uri: vscode.Uri) => {
    try {
      return await vscode.workspace.fs.stat(uri);
    } catch {
      return undefined;
    }
  };
  return {
    async resolve(path) {
      const found = await stat(uriOf(path));
      return found && { real: undefined, directory: (found.type & vscode.FileType.Directory) !== 0, file: (found.type & vscode.FileType.File) !== 0 };
    },
    async list(path) {
      const entries = await vscode.workspace.fs.readDirectory(uriOf(path));
      return { real: undefined, entries: entries.map(([name, type]) => entryOf(name, type)) };
    },
    ignoreFile(dir, scope) {
      const uri = vscode.Uri.joinPath(uriOf(dir), '.gitignore');
      return readIgnoreFileVia(
        {
          name: uri.toString(),
          path: `${dir}/.gitignore`,
          stat: async () => {
            const found = await stat(uri);
            return found && { isFile: found.type === vscode.FileType.File, size: found.size };
          },
          read: () => Promise.resolve(vscode.workspace.fs.readFile(uri)).catch(() => undefined),
        },
        scope,
      );
    },
  };
}
