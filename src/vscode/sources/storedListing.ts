/**
 * What a resident listing is checked against before a replay, and the listing of a whole workspace
 * folder kept on disk between windows, so that a new window's first search of a large workspace does
 * not wait for `workspace.findFiles` to list every file again (tens of seconds at 500,000 files).
 *
 * A listing is current while no directory where a listed file could appear changed since it began:
 * each such directory's times are before the listing's start, it is still the same directory (device
 * and inode, links followed), and the .gitignore it held is unchanged (`unchangedSince`). Within a
 * window the file watcher reports the rest. Between windows nothing watched, so a stored listing holds
 * every directory below the folder that the listing does not leave out as a whole (`directoriesBelow`:
 * a directory with no listed file yet is where the next one can appear), walked when it is stored.
 *
 * Plain Node (no `vscode` import): the unit tests run it as it is.
 */
import { createHash } from 'crypto';
import { promises as fsp, statSync } from 'fs';
import * as nodePath from 'path';
import { RECENT_WRITE_MS } from '../../engine/index/builder';
import { below } from '../../engine/guard/paths';
import type { ListDirectories } from '../../engine/source/audit';
import type { PrunedEntry } from '../../engine/source/fileSource';
import { TimeSlices } from '../../engine/source/timeSlices';
import type { Candidate } from '../../engine/api/types';

/** What a listing's directories were when it was kept, to tell whether it is still current. */
export interface ListingMarks {
  /** Date.now() when the listing began: a directory changed after it makes the listing stale. */
  startedAt: number;
  /** Absolute directories where a listed file could appear (the base among them). */
  directories: string[];
  /** Each directory's device and inode, links followed ('' when it was none). */
  identities: string[];
  /** Whether each directory held a .gitignore: only those are stat'ed again (one created or deleted changes its directory's times). */
  gitignores: boolean[];
}

/**
 * File times are coarse (and a remote file system's clock may lag): a directory whose change time is
 * this close to the listing's start is treated as changed after it, as the index treats a file.
 */
export const CLOCK_MARGIN_MS = RECENT_WRITE_MS;

/** A directory's identity (device and inode, links followed), or undefined when it is not one. */
function identity(dir: string): string | undefined {
  const stat = statSync(dir, { throwIfNoEntry: false });
  return stat?.isDirectory() ? `${stat.dev}:${stat.ino}` : undefined;
}

/** Each directory's identity and whether a .gitignore is in it, a slice at a time: what `unchangedSince` compares against. */
export async function directoryMarks(directories: readonly string[]): Promise<Pick<ListingMarks, 'identities' | 'gitignores'>> {
  const marks: Pick<ListingMarks, 'identities' | 'gitignores'> = { identities: [], gitignores: [] };
  const slices = new TimeSlices();
  for (const dir of directories) {
    if (slices.due()) await slices.pause();
    marks.identities.push(identity(dir) ?? '');
    marks.gitignores.push(statSync(`${dir}/.gitignore`, { throwIfNoEntry: false }) !== undefined);
  }
  return marks;
}

/** Whether every directory of the listing, and the .gitignore in it, is unchanged since the listing began, and still the same directory. */
export async function unchangedSince(listing: ListingMarks, isCancelled: () => boolean): Promise<boolean> {
  const found = await changedDirectories(listing, isCancelled, { atMost: 0 });
  return found !== undefined && found.changed.length === 0 && found.gone.length === 0;
}

/**
 * The directories of a listing (their indexes in `directories`) changed since it began, or since each was
 * read again (`since`: when, by index), at most `atMost`, and those gone (no longer there, or another
 * directory now), at most `goneAtMost` (default: `atMost`); with `rules`, those whose .gitignore changed
 * or went (`ruled`, counted with the changed). Undefined when more, or (without `rules`) a .gitignore a
 * directory held changed, or cancelled.
 */
export async function changedDirectories(
  listing: ListingMarks,
  isCancelled: () => boolean,
  { since, atMost, goneAtMost = atMost, rules = false }: { since?: ReadonlyMap<number, number>; atMost: number; goneAtMost?: number; rules?: boolean },
): Promise<{ changed: number[]; gone: number[]; ruled: number[] } | undefined> {
  const found = { changed: [] as number[], gone: [] as number[], ruled: [] as number[] };
  const slices = new TimeSlices();
  for (const [i, dir] of listing.directories.entries()) {
    if (slices.due()) {
      await slices.pause();
      if (isCancelled()) return undefined;
    }
    const limit = (since?.get(i) ?? listing.startedAt) - CLOCK_MARGIN_MS;
    const stat = statSync(dir, { throwIfNoEntry: false });
    const same = stat?.isDirectory() === true && `${stat.dev}:${stat.ino}` === listing.identities[i];
    if (same && listing.gitignores[i]) {
      const ignoreFile = statSync(`${dir}/.gitignore`, { throwIfNoEntry: false });
      if (!ignoreFile || ignoreFile.ctimeMs >= limit || ignoreFile.mtimeMs >= limit) {
        if (!rules || found.changed.length + found.ruled.length === atMost) return undefined;
        found.ruled.push(i);
        continue;
      }
    }
    if (same && stat.ctimeMs < limit && stat.mtimeMs < limit) continue;
    const into = same ? found.changed : found.gone;
    if (same ? found.changed.length + found.ruled.length === atMost : found.gone.length === goneAtMost) return undefined;
    into.push(i);
  }
  return found;
}

/** Directories listed at once by the walk. */
const LISTED_AT_ONCE = 512;
/** The most directories walked for a stored listing: a larger tree is listed afresh by each new window. */
const MAX_WALKED_DIRECTORIES = 500_000;

/** How `directoriesBelow` walks: what a listing leaves out as a whole, and where its symlinks may lead. */
export interface DirectoryWalk {
  /** Whether the listing leaves out every file below this directory (path from the base): denied, excluded, ignored. */
  skips(fromBase: string): boolean;
  /** Whether the listing followed symlinks (`search.followSymlinks`). */
  followSymlinks: boolean;
  /** Real paths a followed link may lead to besides the base (the other workspace folders, a confirmed outside path). */
  granted: readonly string[];
  listDirectories: ListDirectories;
  isCancelled(): boolean;
}

/**
 * What the walk does with a link the listing follows: walks it when it leads to a directory in the base that
 * is not left out nor walked already, skips it otherwise; 'elsewhere' when it leads into another granted root.
 */
async function linkedDirectory(path: string, realBase: string, seen: ReadonlySet<string>, walk: DirectoryWalk): Promise<'walk' | 'skip' | 'elsewhere'> {
  const real = await fsp.realpath(path).catch(() => undefined);
  if (real === undefined || !(await fsp.stat(real).catch(() => undefined))?.isDirectory()) return 'skip';
  const inBase = real === realBase || real.startsWith(`${realBase}/`);
  // A link out of every granted root is pruned by the listing's audit: nothing is listed through it.
  if (!inBase) return walk.granted.some((root) => real === root || real.startsWith(`${root}/`)) ? 'elsewhere' : 'skip';
  return seen.has(real) || walk.skips(nodePath.relative(realBase, real).split(nodePath.sep).join('/')) ? 'skip' : 'walk';
}

/**
 * Every directory below `base` (itself included) where the listing could find a file, by the paths the
 * listing uses: the directories it leaves out as a whole are not entered, and a directory link is
 * followed as the listing follows it, only where its real path lies in the base and is not left out
 * (it is then walked once, by its first path). Undefined when it cannot answer for the listing: cancelled,
 * over MAX_WALKED_DIRECTORIES, or a followed link leads to another granted root (whose directories a
 * listing of this base does not hold).
 */
export async function directoriesBelow(base: string, walk: DirectoryWalk): Promise<string[] | undefined> {
  const realBase = await fsp.realpath(base).catch(() => undefined);
  if (realBase === undefined) return undefined;
  const found: string[] = [base];
  const seen = new Set<string>([realBase]);
  let level: Array<{ path: string; follow: boolean }> = [{ path: base, follow: false }];
  const slices = new TimeSlices();
  while (level.length > 0) {
    const next: typeof level = [];
    // A level a few hundred directories at a time: their entries are let go before the next are read.
    for (let at = 0; at < level.length; at += LISTED_AT_ONCE) {
      const part = level.slice(at, at + LISTED_AT_ONCE);
      const listed = await walk.listDirectories(part);
      if (walk.isCancelled()) return undefined;
      for (const [i, dir] of part.entries()) {
        for (const entry of listed[i]?.entries ?? []) {
          if (slices.due()) {
            await slices.pause();
            if (walk.isCancelled()) return undefined;
          }
          if (!entry.isDirectory() && !(entry.isSymbolicLink() && walk.followSymlinks)) continue;
          const path = `${dir.path}/${entry.name}`;
          if (walk.skips(nodePath.relative(base, path).split(nodePath.sep).join('/'))) continue;
          if (entry.isDirectory()) {
            next.push({ path, follow: false });
            continue;
          }
          const linked = await linkedDirectory(path, realBase, seen, walk);
          if (linked === 'elsewhere') return undefined;
          if (linked === 'walk') next.push({ path, follow: true });
        }
      }
    }
    level = [];
    for (const dir of next) {
      // A directory met again through a link (or a link's target met again) is walked once.
      const real = dir.follow ? await fsp.realpath(dir.path).catch(() => undefined) : undefined;
      if (real !== undefined) {
        if (seen.has(real)) continue;
        seen.add(real);
      }
      found.push(dir.path);
      level.push(dir);
    }
    if (found.length > MAX_WALKED_DIRECTORIES) return undefined;
  }
  return found;
}

/** A listing as it is stored: its files, what it pruned and logged, and the marks it is checked against. */
export interface StoredListing extends ListingMarks {
  /**
   * How many of the directories, first, held a listed file (the resident listing's own): the others were
   * walked for the next window. Once it is found current, a window checks only those again, and relies
   * on its file watcher for the rest, as for a listing it made.
   */
  held: number;
  files: Candidate[];
  pruned: PrunedEntry[];
  warnings: string[];
}

/**
 * The first line of a stored listing's file. Then come NUL-terminated strings, written and read a run
 * at a time: the directories, their identities, one string of '0' and '1' (whether each held a
 * .gitignore), then the files' paths from the base.
 */
interface Header {
  format: number;
  /** The extension's version: a listing stored by another version is not replayed (its rules may differ). */
  version: string;
  key: string;
  base: string;
  startedAt: number;
  files: number;
  directories: number;
  held: number;
  pruned: PrunedEntry[];
  warnings: string[];
}

const FORMAT = 3;
/** Stored listings kept in the directory (one per workspace folder and set of settings): the oldest beyond go. */
const STORED_KEPT = 4;
/** Strings joined into one at a time when a listing is written. */
const JOIN_RUN = 8192;
/** Bytes decoded at a time when a listing is read back. */
const DECODE_BYTES = 1 << 20;
/** The most files a stored listing holds. */
const MAX_STORED_FILES = 2_000_000;

/** Writes `count` strings, each followed by a NUL, a run at a time (one run's string is held at once); false once `keep` refuses one. */
async function writeStrings(handle: fsp.FileHandle, count: number, string: (i: number) => string, keep: (i: number) => boolean = () => true): Promise<boolean> {
  for (let at = 0; at < count; at += JOIN_RUN) {
    const run: string[] = [];
    for (let i = at; i < Math.min(count, at + JOIN_RUN); i++) {
      if (!keep(i)) return false;
      run.push(string(i));
    }
    if (run.length > 0) await handle.write(`${run.join('\0')}\0`);
  }
  return true;
}

/** The NUL-terminated strings of `bytes` from `from` on, decoded a chunk at a time; undefined when the last is not terminated. */
async function readStrings(bytes: Buffer, from: number): Promise<string[] | undefined> {
  const strings: string[] = [];
  const slices = new TimeSlices();
  for (let at = from; at < bytes.length;) {
    if (slices.due(DECODE_BYTES >> 8)) await slices.pause();
    // Up to the last NUL of the chunk (or the first after it, for a string longer than a chunk).
    let cut = bytes.lastIndexOf(0, Math.min(bytes.length, at + DECODE_BYTES) - 1);
    if (cut < at) cut = bytes.indexOf(0, at);
    if (cut === -1) return undefined;
    const decoded = bytes.toString('utf8', at, cut).split('\0');
    for (const string of decoded) strings.push(string);
    at = cut + 1;
  }
  return strings;
}

/** The listings of whole workspace folders kept on disk between windows, in the extension's workspace storage. */
export class ListingStore {
  constructor(
    private readonly dir: string,
    private readonly version: string,
  ) {}

  private file(key: string): string {
    return nodePath.join(this.dir, `listing-${createHash('sha256').update(key).digest('hex').slice(0, 24)}.bin`);
  }

  /** Writes the listing of `base` made for `key` (written whole, then renamed into place); false when it cannot be stored. */
  async save(key: string, base: string, listing: StoredListing): Promise<boolean> {
    const { files, pruned, warnings, startedAt, directories, identities, gitignores, held } = listing;
    if (files.length > MAX_STORED_FILES) return false;
    const header: Header = {
      format: FORMAT,
      version: this.version,
      key,
      base,
      startedAt,
      files: files.length,
      directories: directories.length,
      held,
      pruned,
      warnings,
    };
    const target = this.file(key);
    const written = `${target}.${process.pid}.tmp`;
    await fsp.mkdir(this.dir, { recursive: true });
    const handle = await fsp.open(written, 'w');
    let complete = false;
    try {
      await handle.write(`${JSON.stringify(header)}\n`);
      await writeStrings(handle, directories.length, (i) => directories[i]);
      await writeStrings(handle, identities.length, (i) => identities[i]);
      await writeStrings(handle, 1, () => gitignores.map((held) => (held ? '1' : '0')).join(''));
      // Only paths below the base are stored: they are read back as the base and the path from it.
      complete = await writeStrings(
        handle,
        files.length,
        (i) => files[i].relative,
        (i) => files[i].path === below(base, files[i].relative),
      );
    } finally {
      await handle.close();
      if (!complete) await fsp.rm(written, { force: true });
    }
    if (!complete) return false;
    await fsp.rename(written, target);
    await this.keepNewest();
    return true;
  }

  /** The listing stored for `key` by this version, or undefined. It is read back a slice at a time. */
  async load(key: string): Promise<StoredListing | undefined> {
    const bytes = await fsp.readFile(this.file(key)).catch(() => undefined);
    if (!bytes) return undefined;
    const newline = bytes.indexOf(10);
    let header: Header;
    try {
      header = JSON.parse(bytes.toString('utf8', 0, newline)) as Header;
    } catch {
      return undefined;
    }
    if (header.format !== FORMAT || header.version !== this.version || header.key !== key) return undefined;
    const strings = await readStrings(bytes, newline + 1);
    const count = header.directories;
    if (strings?.length !== 2 * count + 1 + header.files || strings[2 * count].length !== count) return undefined;
    const files: Candidate[] = [];
    const slices = new TimeSlices();
    for (let i = 2 * count + 1; i < strings.length; i++) {
      if (slices.due()) await slices.pause();
      files.push({ path: below(header.base, strings[i]), relative: strings[i] });
    }
    const { pruned, warnings, startedAt, held } = header;
    const directories = strings.slice(0, count);
    const identities = strings.slice(count, 2 * count);
    const gitignores = Array.from(strings[2 * count], (held) => held === '1');
    return { files, pruned, warnings, startedAt, directories, identities, gitignores, held };
  }

  /** Removes the stored listings beyond the STORED_KEPT most recently written. */
  private async keepNewest(): Promise<void> {
    const names = (await fsp.readdir(this.dir)).filter((name) => /^listing-[0-9a-f]+\.bin$/.test(name));
    if (names.length <= STORED_KEPT) return;
    const dated = await Promise.all(
      names.map(async (name) => ({ name, at: (await fsp.stat(nodePath.join(this.dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    dated.sort((a, b) => b.at - a.at);
    for (const { name } of dated.slice(STORED_KEPT)) await fsp.rm(nodePath.join(this.dir, name), { force: true });
  }
}
