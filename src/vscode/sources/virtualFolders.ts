/**
 * Workspace folders on a virtual file system (any scheme but `file:`, e.g. a `memfs:` provider of an
 * extension, or a remote repository): the engine names their files by the URI's path, lists them by
 * walking `workspace.fs.readDirectory` (with the folder's excludes and its .gitignore files, as on disk)
 * and reads them with `workspace.fs.readFile` here (the worker pool reads only `file:` paths; it
 * searches the bytes read here).
 */
import * as nodePath from 'path';
import * as vscode from 'vscode';
import type { PrunedEntry } from '../../engine/source/fileSource';
import { GitignoreRules } from '../../engine/source/gitignore';
import { deniedRule } from '../../engine/globset/globs';
import { MAX_IGNORE_FILE_BYTES, skippedIgnoreNote } from '../../engine/source/ignoreFile';
import { isInside } from '../../engine/guard/paths';
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
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ path: folder.uri.scheme === 'file' ? folder.uri.fsPath : virtualPath(folder.uri), uri: folder.uri }));
}

/**
 * The URI of an engine path whose workspace folder (the deepest one holding it, as the engine picks it)
 * is virtual; undefined for a path in a `file:` folder or outside every folder.
 */
export function virtualUri(path: string, folders: readonly VirtualFolder[]): vscode.Uri | undefined {
  let best: VirtualFolder | undefined;
  for (const folder of folders) if (isInside(path, folder.path) && (!best || folder.path.length > best.path.length)) best = folder;
  if (!best || best.uri.scheme === 'file') return undefined;
  const relative = nodePath.posix.relative(best.path, path);
  return best.uri.with({ path: relative ? nodePath.posix.join(best.uri.path, relative) : best.uri.path });
}

export interface VirtualListing {
  /** Denied directory globs: not entered. */
  deniedDirs: readonly string[];
  /** The denied rules: a .gitignore they match is not read. */
  denied: readonly string[];
  /** files.exclude / search.exclude by root-relative path (unless include_ignored). */
  excluded(fromRoot: string): boolean;
  followSymlinks: boolean;
  /** Apply .gitignore files (search.useIgnoreFiles, grepTools.respectGitignore, not include_ignored). */
  gitignore: boolean;
  pruned: PrunedEntry[];
  /** Receives a reader of each listed file by engine path (kept when already there: an unsaved editor wins). */
  contents: Map<string, string | (() => Promise<Uint8Array | undefined>)>;
  isCancelled(): boolean;
  /** Receives a line for the log: an ignore file that was skipped, and why. */
  warn?(message: string): void;
}

/** The files below a base of a virtual folder (or the base itself when it is a file), with their readers. */
export async function listVirtual(base: SearchBase, baseIndex: number, baseUri: vscode.Uri, options: VirtualListing): Promise<Candidate[]> {
  const files: Candidate[] = [];
  const rootOf = nodePath.posix.relative(base.root, base.base);
  const uriOf = (fromRoot: string) => baseUri.with({ path: nodePath.posix.join(baseUri.path, nodePath.posix.relative(rootOf, fromRoot)) });
  const gitignore = options.gitignore ? await virtualGitignore(rootOf, uriOf, options.denied, options.warn) : undefined;
  const stat = await vscode.workspace.fs.stat(baseUri);
  if (stat.type & vscode.FileType.File) {
    files.push({ path: base.base, relative: nodePath.posix.basename(base.base) });
  } else {
    let level: Array<[string, vscode.Uri]> = [['', baseUri]];
    while (level.length > 0 && !options.isCancelled()) {
      const next: Array<[string, vscode.Uri]> = [];
      for (const [dir, uri] of level) {
        let entries: Array<[string, vscode.FileType]>;
        try {
          entries = await vscode.workspace.fs.readDirectory(uri);
        } catch {
          options.pruned.push({ base: baseIndex, relative: dir, reason: 'unreadable', directory: true });
          continue;
        }
        const dirFromRoot = rootOf && dir ? `${rootOf}/${dir}` : rootOf || dir;
        if (gitignore && entries.some(([name]) => name === '.gitignore')) await gitignore.load(dirFromRoot);
        for (const [name, type] of entries) {
          const relative = dir ? `${dir}/${name}` : name;
          const fromRoot = rootOf ? `${rootOf}/${relative}` : relative;
          if (type & vscode.FileType.SymbolicLink && !options.followSymlinks) continue;
          const isDirectory = (type & vscode.FileType.Directory) !== 0;
          if (isDirectory && deniedRule(fromRoot, options.deniedDirs) !== undefined) {
            options.pruned.push({ base: baseIndex, relative, reason: 'denied', directory: true });
            continue;
          }
          if (options.excluded(fromRoot)) continue;
          if (gitignore?.rules.ignoresFile(fromRoot, isDirectory)) continue;
          const child = vscode.Uri.joinPath(uri, name);
          if (isDirectory) next.push([relative, child]);
          else if (type & vscode.FileType.File) files.push({ path: nodePath.posix.join(base.base, relative), relative });
        }
      }
      level = next;
    }
  }
  // Read through the provider when the engine searches the file (glob reads nothing); the engine never
  // reads such a path itself. A file that cannot be read counts as unreadable.
  for (const file of files) {
    if (options.contents.has(file.path)) continue;
    const uri = file.path === base.base ? baseUri : vscode.Uri.joinPath(baseUri, file.relative);
    options.contents.set(file.path, async () => {
      try {
        return await vscode.workspace.fs.readFile(uri);
      } catch {
        return undefined;
      }
    });
  }
  return files;
}

/**
 * .gitignore rules on a virtual file system, as git applies them below the workspace folder: the
 * files of the directories from the folder down to the base are read first, the others as the walk
 * meets them (before their directory's entries are tested). As on disk (ignoreFile.ts), only a
 * regular file that is not a symbolic link nor denied, of at most MAX_IGNORE_FILE_BYTES, is read.
 */
async function virtualGitignore(rootOf: string, uriOf: (fromRoot: string) => vscode.Uri, denied: readonly string[], warn?: (message: string) => void) {
  const texts = new Map<string, string>();
  const load = async (dirFromRoot: string) => {
    if (texts.has(dirFromRoot)) return;
    const uri = vscode.Uri.joinPath(uriOf(dirFromRoot), '.gitignore');
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch {
      return; // No .gitignore there.
    }
    let reason: string | undefined;
    if (deniedRule(dirFromRoot ? `${dirFromRoot}/.gitignore` : '.gitignore', denied) !== undefined) reason = 'it is a denied path';
    else if (stat.type !== vscode.FileType.File) reason = 'it is not a regular file';
    else if (stat.size > MAX_IGNORE_FILE_BYTES) reason = `it is ${stat.size} bytes, over the ${MAX_IGNORE_FILE_BYTES}-byte limit for ignore files`;
    if (reason) {
      warn?.(skippedIgnoreNote({ path: uri.toString(), reason }));
      return;
    }
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.byteLength > MAX_IGNORE_FILE_BYTES) warn?.(skippedIgnoreNote({ path: uri.toString(), reason: `it grew past the ${MAX_IGNORE_FILE_BYTES}-byte limit for ignore files` }));
      else texts.set(dirFromRoot, new TextDecoder().decode(bytes));
    } catch {
      // Gone since the stat.
    }
  };
  const segments = rootOf ? rootOf.split('/') : [];
  for (let depth = 0; depth < segments.length; depth++) await load(segments.slice(0, depth).join('/'));
  return { load, rules: new GitignoreRules('', (dir) => texts.has(dir), (dir) => texts.get(dir)) };
}
