/**
 * The Node file source used by the CLI and the bench: walks each base with the exclusions VS Code
 * applies by default (files.exclude, search.exclude), never enters a denied directory, and follows a
 * symlink only when its real path stays inside the root.
 */
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import { Minimatch } from 'minimatch';
import { DEFAULT_EXCLUDES } from './config';
import type { FileQuery, FileSource } from './fileSource';
import { deniedDirectoryGlobs, deniedRule } from './globs';
import { isInside } from './roots';
import type { Candidate, SkipCounts } from './types';

function toPosix(path: string): string {
  return nodePath.sep === '/' ? path : path.split(nodePath.sep).join('/');
}

export class NodeFileSource implements FileSource {
  constructor(private readonly excludes: readonly string[] = DEFAULT_EXCLUDES) {}

  async kind(absolute: string): Promise<'file' | 'directory' | undefined> {
    try {
      const stat = await fs.stat(absolute);
      return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  }

  async mtime(absolute: string): Promise<number> {
    return (await fs.stat(absolute).catch(() => undefined))?.mtimeMs ?? 0;
  }

  async list(query: FileQuery, denied: readonly string[], skipped: SkipCounts, isCancelled: () => boolean): Promise<Candidate[][]> {
    const prune = [
      ...deniedDirectoryGlobs(denied).map((glob) => new Minimatch(glob, { dot: true, nocase: true })),
      ...(query.includeIgnored ? [] : this.excludes.map((glob) => new Minimatch(glob, { dot: true }))),
    ];
    const perBase: Candidate[][] = [];
    for (const base of query.bases) {
      const files: Candidate[] = [];
      if ((await this.kind(base.base)) === 'file') {
        files.push({ path: base.base, relative: nodePath.basename(base.base) });
      } else {
        const realRoot = await fs.realpath(base.root).catch(() => base.root);
        await this.walk(base.base, '', base.root, realRoot, prune, denied, skipped, files, isCancelled, new Set());
      }
      perBase.push(files);
    }
    return perBase;
  }

  private async walk(
    dir: string,
    relative: string,
    root: string,
    realRoot: string,
    prune: Minimatch[],
    denied: readonly string[],
    skipped: SkipCounts,
    out: Candidate[],
    isCancelled: () => boolean,
    visiting: Set<string>,
  ): Promise<void> {
    if (isCancelled()) return;
    const realDir = await fs.realpath(dir).catch(() => dir);
    if (visiting.has(realDir)) return; // a symlink loop
    visiting.add(realDir);
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      skipped.unreadable++;
      visiting.delete(realDir);
      return;
    }
    for (const entry of entries) {
      const path = nodePath.join(dir, entry.name);
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      const fromRoot = toPosix(nodePath.relative(root, path));
      if (prune.some((glob) => glob.match(fromRoot))) continue;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const real = await fs.realpath(path).catch(() => undefined);
        if (real === undefined) continue; // dangling link
        if (!isInside(real, realRoot)) {
          skipped.outside_workspace++;
          continue;
        }
        // A link must not reach what its target's own path would deny (notes.txt -> .env).
        const realFromRoot = toPosix(nodePath.relative(realRoot, real));
        if (deniedRule(realFromRoot, denied) || deniedRule(realFromRoot, deniedDirectoryGlobs(denied))) {
          skipped.denied++;
          continue;
        }
        const stat = await fs.stat(real).catch(() => undefined);
        isDir = stat?.isDirectory() ?? false;
        isFile = stat?.isFile() ?? false;
      }
      if (isDir) {
        await this.walk(path, rel, root, realRoot, prune, denied, skipped, out, isCancelled, visiting);
      } else if (isFile) {
        out.push({ path, relative: rel });
      }
    }
    visiting.delete(realDir);
  }
}
