/**
 * The guard applied to a listing made by someone else (VS Code's findFiles, which follows symlinks and
 * lists what it is told to): drops every file reached through a symlink whose real path leaves the
 * granted roots or leads to a denied place, and notes what the Node walker would have pruned in the
 * same directories, so both sources count the same. Reads only the base and the directories that hold
 * listed files (never a denied or excluded one, never one behind a refused link) and opens no file.
 */
import * as nodePath from 'path';
import { parentOf, type PrunedEntry } from './fileSource';
import { listDirectory } from './directory';
import { mapAtMost, OPENS_AT_ONCE } from '../searcher/descriptors';
import { EntryPolicy, type DirEntry } from './entryPolicy';
import { resolveLinkSync } from '../guard/links';
import { below, realPathOf, relativePosix } from '../guard/paths';
import type { SearchBase } from '../guard/roots';
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
  /** Lists a level's directories, in order (undefined: it could not be listed); default: on this thread, OPENS_AT_ONCE at a time. */
  listDirectories?: ListDirectories;
}

/** A directory as listed for the audit: the real path of what was opened, and its entries. */
export interface AuditedDirectory {
  real: string;
  entries: readonly DirEntry[];
}

/** Lists directories, each at `path`, following a link there only when `follow` (directory.ts); in order. */
export type ListDirectories = (directories: ReadonlyArray<{ path: string; follow: boolean }>) => Promise<Array<AuditedDirectory | undefined>>;

/** Lists on the calling thread without holding it: at most OPENS_AT_ONCE directories open at a time (a level of a large tree holds thousands). */
export const listHere: ListDirectories = (directories) =>
  mapAtMost(directories, OPENS_AT_ONCE, ({ path, follow }) => listDirectory(path, follow).catch(() => undefined));

/** The files of one directory base that may be read, after checking every directory on their way. */
export async function auditListing(base: SearchBase, baseIndex: number, files: readonly Candidate[], options: AuditOptions): Promise<Candidate[]> {
  // An empty listing too has its base read: what the walker prunes there counts for every search of it.
  // A slice at a time: a listing of 100,000 files must not hold the extension host's thread.
  const slices = new TimeSlices();
  const listed = new Set<string>();
  const withFiles = new Set<string>(['']);
  for (const file of files) {
    listed.add(file.relative);
    for (let dir = parentOf(file.relative); dir !== '' && !withFiles.has(dir); dir = parentOf(dir)) withFiles.add(dir);
    if (slices.due()) await slices.pause();
  }
  const realRoot = await realPathOf(base.root, base.root);
  const policy = new EntryPolicy({
    scope: { granted: [realRoot, ...options.granted], denied: options.denied, allowed: options.allowed },
    // Excluded and holding nothing findFiles listed: not entered, not counted (as the walker does).
    // Whatever holds listed files is checked, even if a glob here would call it excluded.
    excluded: (fromRoot, name, dir) => {
      const relative = dir.relative ? `${dir.relative}/${name}` : name;
      return !withFiles.has(relative) && !listed.has(relative) && options.excluded(fromRoot);
    },
    followSymlinks: options.followSymlinks !== false,
  });
  const audit: Audit = {
    base,
    baseIndex,
    realRoot,
    rootOf: relativePosix(base.root, base.base),
    policy,
    withFiles,
    pruned: options.pruned,
    slices,
    blocked: new Set(),
    linked: new Set(['']),
    listDirectories: options.listDirectories ?? listHere,
  };
  for (let level = ['']; level.length > 0;) level = await auditLevel(audit, level);
  if (audit.blocked.size === 0) return [...files];
  return filterInSlices(
    files,
    (file) => {
      for (let path = file.relative; path !== ''; path = parentOf(path)) if (audit.blocked.has(path)) return false;
      return true;
    },
    slices,
  );
}

interface Audit {
  base: SearchBase;
  baseIndex: number;
  realRoot: string;
  /** The base's path from its root. */
  rootOf: string;
  policy: EntryPolicy;
  /** Directories (base-relative) holding listed files, and their parents. */
  withFiles: ReadonlySet<string>;
  pruned: PrunedEntry[];
  slices: TimeSlices;
  /** Base-relative paths nothing below which may be read. */
  blocked: Set<string>;
  /** Directories reached through a followed link: opened following it (any other is opened without). */
  linked: Set<string>;
  listDirectories: ListDirectories;
}

/** Checks the directories of one level (base-relative) and returns those of the next that hold listed files. */
async function auditLevel(audit: Audit, level: readonly string[]): Promise<string[]> {
  const { base, baseIndex, policy } = audit;
  const next: string[] = [];
  // A level's directories are read at once; their entries are then gone through a slice at a time
  // (the reads complete together, and handling each in its callback would run them back to back).
  const listed = await audit.listDirectories(level.map((dir) => ({ path: dir ? nodePath.join(base.base, dir) : base.base, follow: audit.linked.has(dir) })));
  for (const [i, dir] of level.entries()) {
    const listing = listed[i];
    const block = (relative: string, reason: PrunedEntry['reason'] | undefined, directory: boolean) => {
      if (reason) audit.pruned.push({ base: baseIndex, relative, reason, directory });
      audit.blocked.add(relative);
    };
    if (listing === undefined) {
      block(dir, 'unreadable', true);
      continue;
    }
    const fromRoot = audit.rootOf && dir ? `${audit.rootOf}/${dir}` : audit.rootOf || dir;
    const { dir: at, refused } = policy.listed({ path: dir ? below(base.base, dir) : base.base, relative: dir, fromRoot }, listing.real, audit.realRoot);
    if (refused) {
      block(dir, refused, true);
      continue;
    }
    for (const entry of listing.entries) {
      if (audit.slices.due()) await audit.slices.pause();
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      const verdict = policy.verdictSync(at, entry, resolveLinkSync);
      if (verdict.kind === 'prune') block(relative, verdict.reason, verdict.directory);
      else if (verdict.kind === 'skip' && entry.isSymbolicLink()) block(relative, undefined, false);
      else if (verdict.kind === 'directory' && audit.withFiles.has(relative)) {
        if (verdict.link) audit.linked.add(relative);
        next.push(relative);
      }
    }
  }
  return next;
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
