/**
 * The guard applied to a listing made by someone else (VS Code's findFiles, which follows symlinks and
 * lists what it is told to): drops every file reached through a symlink whose real path leaves the
 * granted roots or leads to a denied place, and notes what the Node walker would have pruned in the
 * same directories, so both sources count the same. Reads only the directories that hold listed files
 * (never a denied or excluded one, never one behind a refused link) and opens no file.
 */
import { promises as fs, type Dirent } from 'fs';
import * as nodePath from 'path';
import type { PrunedEntry } from './fileSource';
import { deniedDirectoryGlobs, deniedRule } from './globs';
import { judgeLink } from './guard';
import type { SearchBase } from './roots';
import type { Candidate } from './types';

export interface AuditOptions {
  /** Real paths symlinks may lead to (`Access.granted`); the base root's real path is added. */
  granted: readonly string[];
  denied: readonly string[];
  /** files.exclude / search.exclude (unless include_ignored), by root-relative path: not counted when nothing below was listed. */
  excluded(fromRoot: string): boolean;
  pruned: PrunedEntry[];
  /** false (VS Code's `search.followSymlinks`): nothing is reached through a symlink, as ripgrep without --follow. Default true. */
  followSymlinks?: boolean;
}

function parentOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash === -1 ? '' : relative.slice(0, slash);
}

/** The files of one directory base that may be read, after checking every directory on their way. */
export async function auditListing(base: SearchBase, baseIndex: number, files: readonly Candidate[], options: AuditOptions): Promise<Candidate[]> {
  if (files.length === 0) return [];
  const realRoot = await fs.realpath(base.root).catch(() => base.root);
  const granted = [realRoot, ...options.granted];
  const deniedDirs = deniedDirectoryGlobs(options.denied);
  const listed = new Set(files.map((file) => file.relative));
  const withFiles = new Set<string>(['']);
  for (const file of files) {
    for (let dir = parentOf(file.relative); dir !== '' && !withFiles.has(dir); dir = parentOf(dir)) withFiles.add(dir);
  }
  const blocked = new Set<string>();
  const rootOf = nodePath.relative(base.root, base.base).split(nodePath.sep).join('/');
  let level = [''];
  while (level.length > 0) {
    const next: string[] = [];
    await Promise.all(
      level.map(async (dir) => {
        let entries: Dirent[];
        try {
          entries = await fs.readdir(dir ? nodePath.join(base.base, dir) : base.base, { withFileTypes: true });
        } catch {
          options.pruned.push({ base: baseIndex, relative: dir, reason: 'unreadable', directory: true });
          blocked.add(dir);
          return;
        }
        for (const entry of entries) {
          const relative = dir ? `${dir}/${entry.name}` : entry.name;
          const fromRoot = rootOf ? `${rootOf}/${relative}` : relative;
          // The walker's order: denied directories, then excludes, then where a symlink leads.
          if (deniedRule(fromRoot, deniedDirs) !== undefined) {
            options.pruned.push({ base: baseIndex, relative, reason: 'denied', directory: entry.isDirectory() || entry.isSymbolicLink() });
            blocked.add(relative);
            continue;
          }
          // Excluded and holding nothing findFiles listed: not entered, not counted (as the walker does).
          // Whatever holds listed files is checked, even if a glob here would call it excluded.
          if (!withFiles.has(relative) && !listed.has(relative) && options.excluded(fromRoot)) continue;
          let isDirectory = entry.isDirectory();
          if (entry.isSymbolicLink()) {
            if (options.followSymlinks === false) {
              blocked.add(relative);
              continue;
            }
            const link = judgeLink(nodePath.join(base.base, relative), granted, options.denied);
            if (link.kind === 'dangling') {
              blocked.add(relative);
              continue;
            }
            if (link.kind !== 'follow') {
              options.pruned.push({ base: baseIndex, relative, reason: link.kind === 'outside' ? 'outside_workspace' : 'denied', directory: link.directory });
              blocked.add(relative);
              continue;
            }
            isDirectory = link.directory;
          }
          if (isDirectory && withFiles.has(relative)) next.push(relative);
        }
      }),
    );
    level = next;
  }
  return files.filter((file) => {
    for (let path = file.relative; path !== ''; path = parentOf(path)) if (blocked.has(path)) return false;
    return true;
  });
}

/** A glob that matches regardless of case, for a matcher that has no such option (findFiles' exclude). */
export function caseInsensitiveGlob(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end !== -1) {
        out += glob.slice(i, end + 1);
        i = end;
        continue;
      }
    }
    const lower = c.toLowerCase();
    const upper = c.toUpperCase();
    out += lower !== upper ? `[${lower}${upper}]` : c;
  }
  return out;
}
