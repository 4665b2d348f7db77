/**
 * The guard applied to a listing made by someone else (VS Code's findFiles, which follows symlinks and
 * lists what it is told to): drops every file reached through a symlink whose real path leaves the
 * granted roots or leads to a denied place, and notes what the Node walker would have pruned in the
 * same directories, so both sources count the same. Reads only the directories that hold listed files
 * (never a denied or excluded one, never one behind a refused link) and opens no file.
 */
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import { parentOf, type PrunedEntry } from './fileSource';
import { deniedDirectoryGlobs, deniedRule } from '../globset/globs';
import { listDirectory } from './directory';
import { judgeLink } from '../guard/links';
import { relativePosix } from '../guard/paths';
import type { SearchBase } from '../guard/roots';
import { judgeReal, type ReadScope } from '../guard/scope';
import { filterInSlices, TimeSlices } from './timeSlices';
import type { Candidate } from '../api/types';

export interface AuditOptions {
  /** Real paths symlinks may lead to (`Access.granted`); the base root's real path is added. */
  granted: readonly string[];
  denied: readonly string[];
  /** `grepTools.allowedPaths`: where a symlink leads must be allowed too. */
  allowed?: readonly string[];
  /** files.exclude / search.exclude (unless include_ignored), by root-relative path: not counted when nothing below was listed. */
  excluded(fromRoot: string): boolean;
  pruned: PrunedEntry[];
  /** false (VS Code's `search.followSymlinks`): nothing is reached through a symlink, as ripgrep without --follow. Default true. */
  followSymlinks?: boolean;
}

/** The files of one directory base that may be read, after checking every directory on their way. */
export async function auditListing(base: SearchBase, baseIndex: number, files: readonly Candidate[], options: AuditOptions): Promise<Candidate[]> {
  if (files.length === 0) return [];
  const realRoot = await fs.realpath(base.root).catch(() => base.root);
  const scope: ReadScope = { granted: [realRoot, ...options.granted], denied: options.denied, allowed: options.allowed };
  const deniedDirs = deniedDirectoryGlobs(options.denied);
  // A slice at a time: a listing of 100,000 files must not hold the extension host's thread.
  const slices = new TimeSlices();
  const listed = new Set<string>();
  const withFiles = new Set<string>(['']);
  for (const file of files) {
    listed.add(file.relative);
    for (let dir = parentOf(file.relative); dir !== '' && !withFiles.has(dir); dir = parentOf(dir)) withFiles.add(dir);
    if (slices.due()) await slices.pause();
  }
  const blocked = new Set<string>();
  const rootOf = relativePosix(base.root, base.base);
  // Directories reached through a followed link: opened following it (any other is opened without).
  const linked = new Set<string>(['']);
  let level = [''];
  while (level.length > 0) {
    const next: string[] = [];
    // A level's directories are read at once; their entries are then gone through a slice at a time
    // (the reads complete together, and handling each in its callback would run them back to back).
    const listings = await Promise.all(
      level.map(async (dir) => ({ dir, listing: await listDirectory(dir ? nodePath.join(base.base, dir) : base.base, linked.has(dir)).catch(() => undefined) })),
    );
    for (const { dir, listing } of listings) {
      if (listing === undefined) {
        options.pruned.push({ base: baseIndex, relative: dir, reason: 'unreadable', directory: true });
        blocked.add(dir);
        continue;
      }
      // Judged where it really is when that is not where its name says (through a link, or swapped for one).
      const dirFromRoot = rootOf && dir ? `${rootOf}/${dir}` : rootOf || dir;
      const realDir = listing.real === (dirFromRoot ? nodePath.join(realRoot, dirFromRoot) : realRoot) ? undefined : listing.real;
      const refused = realDir === undefined ? undefined : judgeReal(realDir, scope, true);
      if (refused) {
        options.pruned.push({ base: baseIndex, relative: dir, reason: refused, directory: true });
        blocked.add(dir);
        continue;
      }
      for (const entry of listing.entries) {
        if (slices.due()) await slices.pause();
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
          const link = judgeLink(nodePath.join(base.base, relative), scope);
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
          linked.add(relative);
        } else if (realDir !== undefined) {
          // Below a link: the entry's real path decides (awsdir -> .aws: awsdir/credentials is .aws/credentials).
          const verdict = judgeReal(`${realDir}/${entry.name}`, scope, isDirectory);
          if (verdict) {
            options.pruned.push({ base: baseIndex, relative, reason: verdict, directory: isDirectory });
            blocked.add(relative);
            continue;
          }
        }
        if (isDirectory && withFiles.has(relative)) next.push(relative);
      }
    }
    level = next;
  }
  if (blocked.size === 0) return [...files];
  return filterInSlices(
    files,
    (file) => {
      for (let path = file.relative; path !== ''; path = parentOf(path)) if (blocked.has(path)) return false;
      return true;
    },
    slices,
  );
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
