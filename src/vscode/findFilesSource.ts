/**
 * The VS Code file source: files come from `workspace.findFiles`, excluding what `files.exclude` and
 * `search.exclude` exclude in each workspace folder (unless include_ignored) and never entering a
 * denied directory (whatever its case). findFiles follows symlinks, so its answer then goes through
 * the guard's `auditListing`: a file reached through a link that leaves the granted roots, or leads to
 * a denied place, is dropped, and what the CLI's walker would prune is noted the same way.
 */
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { auditListing, caseInsensitiveGlob } from '../engine/audit';
import type { FileQuery, FileSource, PrunedEntry } from '../engine/fileSource';
import { GitignoreRules } from '../engine/gitignore';
import { compileGlob, deniedDirectoryGlobs } from '../engine/globs';
import type { Candidate } from '../engine/types';

/** Globs set to `true` in a `files.exclude`-style setting of the folder. */
function enabledGlobs(section: string, key: string, scope: vscode.Uri | undefined): string[] {
  const value = vscode.workspace.getConfiguration(section, scope).get<Record<string, unknown>>(key) ?? {};
  return Object.entries(value)
    .filter(([, enabled]) => enabled === true)
    .map(([glob]) => glob);
}

export class FindFilesSource implements FileSource {
  constructor(private readonly token: vscode.CancellationToken) {}

  async kind(absolute: string): Promise<'file' | 'directory' | undefined> {
    try {
      const stat = await vscode.workspace.fs.stat(vscode.Uri.file(absolute));
      return stat.type & vscode.FileType.Directory ? 'directory' : stat.type & vscode.FileType.File ? 'file' : undefined;
    } catch {
      return undefined;
    }
  }

  async mtime(absolute: string): Promise<number> {
    return (await fs.stat(absolute).catch(() => undefined))?.mtimeMs ?? 0;
  }

  async list(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[]): Promise<Candidate[][]> {
    const perBase: Candidate[][] = [];
    for (const [baseIndex, base] of query.bases.entries()) {
      if ((await this.kind(base.base)) === 'file') {
        perBase.push([{ path: base.base, relative: nodePath.basename(base.base) }]);
        continue;
      }
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(base.root));
      const ignored = query.includeIgnored ? [] : [...enabledGlobs('files', 'exclude', folder?.uri), ...enabledGlobs('search', 'exclude', folder?.uri)];
      // Denied rules ignore case; findFiles' globs do not on Linux: spell every letter both ways.
      const excludes = [...deniedDirectoryGlobs(denied).map(caseInsensitiveGlob), ...ignored];
      // findFiles takes one exclude glob: brace-free globs go into one {a,b} group; the others are applied after.
      const simple = excludes.filter((glob) => !/[{}]/.test(glob));
      const complex = excludes.filter((glob) => /[{}]/.test(glob)).map((glob) => compileGlob(glob, 'files.exclude'));
      const exclude = simple.length ? `{${simple.join(',')}}` : null;
      const uris = await vscode.workspace.findFiles(
        new vscode.RelativePattern(vscode.Uri.file(base.base), query.include ?? '**'),
        exclude,
        undefined,
        this.token,
      );
      const gitignore = query.respectGitignore ? new GitignoreRules(base.root) : undefined;
      const files: Candidate[] = [];
      for (const uri of uris) {
        if (uri.scheme !== 'file') continue;
        const fromRoot = nodePath.relative(base.root, uri.fsPath).split(nodePath.sep).join('/');
        if (complex.some((matches) => matches(fromRoot))) continue;
        if (gitignore?.ignoresFile(fromRoot)) continue;
        files.push({ path: uri.fsPath, relative: nodePath.relative(base.base, uri.fsPath).split(nodePath.sep).join('/') });
      }
      const excluded = ignored.map((glob) => compileGlob(glob, 'files.exclude'));
      perBase.push(
        await auditListing(base, baseIndex, files, {
          granted: query.granted ?? [],
          denied,
          excluded: (fromRoot) => excluded.some((matches) => matches(fromRoot)),
          pruned,
        }),
      );
    }
    return perBase;
  }
}
