/**
 * The VS Code file source: files come from `workspace.findFiles`, excluding what `files.exclude` and
 * `search.exclude` exclude in each workspace folder (unless include_ignored) and never entering a
 * denied directory (whatever its case). findFiles follows symlinks, so its answer then goes through
 * the guard's `auditListing`: a file reached through a link that leaves the granted roots, or leads to
 * a denied place, is dropped, and what the CLI's walker would prune is noted the same way. Each folder's
 * `search.useIgnoreFiles` (false: .gitignore files are not applied) and `search.followSymlinks` (false:
 * nothing is reached through a symlink) are respected as VS Code's search respects them.
 */
import { promises as fs, statSync } from 'fs';
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { auditListing, caseInsensitiveGlob, listHere, type ListDirectories } from '../../engine/source/audit';
import { listingBelow, parentOf, type FileQuery, type FileSource, type ListedPart, type PrunedEntry } from '../../engine/source/fileSource';
import { gitignoreIgnoresCase, GitignoreRules, loadGitignoreTexts } from '../../engine/source/gitignore';
import { comparePaths, compileGlob, deniedDirectoryGlobs, deniedRule } from '../../engine/globset/globs';
import { realPathOf, relativePosix } from '../../engine/guard/paths';
import type { SearchBase } from '../../engine/guard/roots';
import { sortInSlices, TimeSlices } from '../../engine/source/timeSlices';
import { enclosingTop, groupInclude, levelsInclude, otherDirectories, partsOf } from '../../engine/source/folderParts';
import type { Candidate } from '../../engine/api/types';
import { directoriesOf, PARTS_FROM, type BaseListing, type Rejudge, type ResidentListings } from './residentListing';
import { directoriesBelow, type DirectoryWalk } from './storedListing';
import { kindOnDisk } from '../../engine/source/walker';
import { listVirtual, virtualFolders, virtualReader, virtualUri } from './virtualFolders';

/** A glob findFiles' listing was made without, compiled once for the tests applied to its results. */
interface ExcludeGlob {
  glob: string;
  matches: (fromRoot: string) => boolean;
}

/** Globs compiled once each, as files.exclude globs are (matched against paths from the root). */
function compiledGlobs(globs: readonly string[]): ExcludeGlob[] {
  return globs.map((glob) => ({ glob, matches: compileGlob(glob, 'files.exclude') }));
}

/**
 * Every glob findFiles' listing is made without: the denied directories' globs, spelled in both cases
 * (denied rules ignore case; findFiles' globs do not on Linux), then files.exclude / search.exclude.
 */
function excludeGlobs(denied: readonly string[], ignored: readonly ExcludeGlob[]): ExcludeGlob[] {
  return [...compiledGlobs(deniedDirectoryGlobs(denied).map(caseInsensitiveGlob)), ...ignored];
}

/**
 * The exclude glob findFiles takes (one: the brace-free globs in one {a,b} group, with the directories
 * of `leftOut` named there too, or null), those globs (`given`: findFiles does not enter a directory one
 * matches), and the matchers of the others, applied to its results.
 */
function findFilesExcludes(
  excludes: readonly ExcludeGlob[],
  leftOut: readonly string[] = [],
): { exclude: string | null; given: ExcludeGlob[]; afterwards: Array<(path: string) => boolean> } {
  const braced = (glob: string) => /[{}]/.test(glob);
  const given = excludes.filter(({ glob }) => !braced(glob));
  const afterwards = excludes.filter(({ glob }) => braced(glob)).map(({ matches }) => matches);
  const named = [...given.map(({ glob }) => glob), ...leftOut];
  return { exclude: named.length ? `{${named.join(',')}}` : null, given, afterwards };
}

/**
 * Whether findFiles may have left out the `.gitignore` of a root-relative directory that holds listed
 * files: its include did not ask for it, a link was not followed, or an exclude glob matches it (from
 * the root, as the listing's files are tested). A directory looked into for nothing costs one failed open.
 */
function hiddenIgnoreFile(include: string | undefined, followSymlinks: boolean, excludes: readonly ExcludeGlob[]): (dir: string) => boolean {
  if ((include ?? '**') !== '**' || !followSymlinks) return () => true;
  return (dir) => {
    const file = dir === '' ? '.gitignore' : `${dir}/.gitignore`;
    return excludes.some(({ matches }) => matches(file));
  };
}

/** Whether findFiles enters no directory at this path from the folder: a denied one, or one an exclude glob names (.git). */
function notEntered(denied: readonly string[], settings: FolderSettings): (dir: string) => boolean {
  const { given } = findFilesExcludes(excludeGlobs(denied, compiledGlobs(settings.ignored)));
  return (dir) => deniedRule(dir, denied) !== undefined || given.some(({ matches }) => matches(dir));
}

/** VS Code's settings a folder's listing follows. */
interface FolderSettings {
  ignored: string[];
  useIgnoreFiles: boolean;
  followSymlinks: boolean;
}

/** A folder's listing as findFolderFiles makes it, with how to walk its directories (for a stored listing of parts). */
interface FolderListing extends BaseListing {
  walk: DirectoryWalk;
}

/** How many parts of a folder (partsOf) are listed at once. */
const PARTS_IN_FLIGHT = 2;

const byRelative = (a: Candidate, b: Candidate) => comparePaths(a.relative, b.relative);

/** The files on disk of a findFiles listing, in its order: their paths, and the same from the workspace folder's root. */
interface OnDisk {
  paths: string[];
  fromRoot: string[];
}

/** Globs set to `true` in a `files.exclude`-style setting of the folder. */
function enabledGlobs(section: string, key: string, scope: vscode.Uri | undefined): string[] {
  const value = vscode.workspace.getConfiguration(section, scope).get<Record<string, unknown>>(key) ?? {};
  return Object.entries(value)
    .filter(([, enabled]) => enabled === true)
    .map(([glob]) => glob);
}

/**
 * A folder's listing from its parts (FindFilesSource.listInParts): the listing of the files of its levels
 * first, then one a group of directories, `files` already in order.
 */
function joinParts(base: string, files: Candidate[], parts: readonly FolderListing[], groups: readonly (readonly string[])[]): BaseListing {
  const pruned = new Map<string, PrunedEntry>();
  for (const part of parts) for (const entry of part.pruned) pruned.set(entry.relative, entry);
  const walk = partsWalk(
    parts.map((part) => part.walk),
    groups,
  );
  return {
    files,
    pruned: [...pruned.values()],
    warnings: [...new Set(parts.flatMap((part) => part.warnings))],
    directories: [...new Set(parts.flatMap((part) => part.directories))],
    storable: { base, directoriesBelow: () => directoriesBelow(base, walk) },
    parts: parts.length,
  };
}

/**
 * How the directories of a folder listed in parts are walked (storedListing.ts): a directory as the part of
 * the group it lies in left entries out, any other (a level) as the first part. Only the parts' walks are
 * held, not the parts (a listing kept with it would otherwise keep each part's own list of files).
 */
function partsWalk(walks: readonly DirectoryWalk[], groups: readonly (readonly string[])[]): DirectoryWalk {
  const [top] = walks;
  const walkOf = new Map(groups.flatMap((group, i) => group.map((dir) => [dir, walks[i + 1]] as const)));
  const judging = (fromRoot: string): DirectoryWalk => {
    const at = enclosingTop(walkOf, fromRoot);
    return at === undefined ? top : walkOf.get(at)!;
  };
  return { ...top, skips: (fromRoot) => judging(fromRoot).skips(fromRoot) };
}

/** The .gitignore rules of these root-relative directories, their files read first (off this thread), only where the scope allows. */
async function gitignoreRulesOf(
  base: SearchBase,
  dirs: readonly string[],
  query: Pick<FileQuery, 'granted' | 'warn'>,
  denied: readonly string[],
): Promise<GitignoreRules> {
  const realRoot = await realPathOf(base.root, base.root);
  const texts = await loadGitignoreTexts(base.root, dirs, { scope: { granted: [realRoot, ...(query.granted ?? [])], denied }, warn: query.warn });
  return new GitignoreRules(base.root, { hasFile: (dir) => texts.has(dir), read: (dir) => texts.get(dir), ignoreCase: gitignoreIgnoresCase() });
}

export class FindFilesSource implements FileSource {
  private readonly virtual = virtualFolders();

  /** Whether a workspace folder is virtual (not `file:`): only then can a listed file need a reader. */
  private readonly anyVirtual = this.virtual.some((folder) => folder.uri.scheme !== 'file');

  /**
   * The resident listings this call got, by key: an empty answer's checks list the same folders again,
   * and a listing checked unchanged once in a call is not checked again (one source per call).
   */
  private readonly got = new Map<string, ReturnType<ResidentListings['get']>>();

  constructor(
    private readonly token: vscode.CancellationToken,
    /** Listings kept between calls; without it every call lists with findFiles. */
    private readonly listings?: ResidentListings,
    /** Lists the directories the audit reads off this thread (SearchPool.listDirectories); without it they are listed here. */
    private readonly listDirectories?: ListDirectories,
  ) {}

  /**
   * A path on disk is looked at here, as its files are read: workspace.fs.stat goes through VS Code's
   * side of the extension host (with code-server, the browser tab), and on a machine whose cores were
   * all busy a call's few stats took 3.5 s there, where they take milliseconds here.
   */
  async kind(absolute: string): Promise<'file' | 'directory' | undefined> {
    const uri = virtualUri(absolute, this.virtual);
    if (!uri) return kindOnDisk(absolute);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      return stat.type & vscode.FileType.Directory ? 'directory' : stat.type & vscode.FileType.File ? 'file' : undefined;
    } catch {
      return undefined;
    }
  }

  /** A file of a virtual folder is read through workspace.fs; any other from disk, as usual (no reader without a virtual folder). */
  readonly reader = this.anyVirtual
    ? (absolute: string): (() => Promise<Uint8Array | undefined>) | undefined => {
        const uri = virtualUri(absolute, this.virtual);
        return uri && virtualReader(uri);
      }
    : undefined;

  async mtime(absolute: string): Promise<number> {
    const uri = virtualUri(absolute, this.virtual);
    if (uri) return (await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined))?.mtime ?? 0;
    return (await fs.stat(absolute).catch(() => undefined))?.mtimeMs ?? 0;
  }

  async list(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[]): Promise<Candidate[][]> {
    const perBase: Candidate[][] = [];
    for (const [baseIndex, base] of query.bases.entries()) {
      const files = await this.listBase(query, base, baseIndex, denied, pruned);
      if (!files) return perBase;
      perBase.push(files);
    }
    return perBase;
  }

  /**
   * The same files, in the final order, handed over as they come: a whole folder that no listing holds
   * is listed in parts (its top-level directories in groups, `listInParts`), each part handed over once
   * those before it are in; any other base once it is listed. False when cancelled.
   */
  async listInOrder(
    query: FileQuery,
    denied: readonly string[],
    pruned: PrunedEntry[],
    _isCancelled: () => boolean,
    onFiles: (base: number, files: readonly Candidate[]) => void,
  ): Promise<boolean> {
    for (const [baseIndex, base] of query.bases.entries()) {
      let handed = false;
      const files = await this.listBase(query, base, baseIndex, denied, pruned, (part) => {
        handed = true;
        onFiles(baseIndex, part);
      });
      if (!files) return false;
      if (!handed) onFiles(baseIndex, await sortInSlices([...files], byRelative));
    }
    return true;
  }

  /** Whether every base is a file or a folder whose listing for these inputs is resident (or was taken by this call): `list` then replays it. */
  holds(query: FileQuery, denied: readonly string[]): boolean {
    return query.bases.every((base) => {
      if (virtualUri(base.base, this.virtual)) return false;
      if (statSync(base.base, { throwIfNoEntry: false })?.isFile()) return true;
      return this.heldListing(query, base, denied) !== undefined;
    });
  }

  /**
   * The inputs of the listing held for a folder base (resident, or taken by this call), or undefined:
   * its own, or, for an include or a folder below a workspace folder's top, the workspace folder's whole
   * listing with the same other inputs. That one holds every file the base's own listing would (a folder
   * below takes its part, listingBelow), and the search applies the include to what it is given
   * (candidates.ts, glob.ts), as it does to the CLI's walk: an include, a glob or a folder of a large
   * workspace is answered from the listing every search keeps, instead of a findFiles call of its own.
   */
  private heldListing(query: FileQuery, base: SearchBase, denied: readonly string[]): { query: FileQuery; base: SearchBase } | undefined {
    const held = (inputs: FileQuery, at: SearchBase) => {
      const { key } = this.folderInputs(inputs, at, denied);
      return this.got.has(key) || this.listings?.holds(key) === true;
    };
    const whole = { query: { ...query, include: '**' }, base: { ...base, base: base.root } };
    if (((query.include ?? '**') !== '**' || base.base !== base.root) && held(whole.query, whole.base)) return whole;
    return held(query, base) ? { query, base } : undefined;
  }

  /** One base's files (undefined when cancelled); a whole folder no listing holds is listed in parts handed to `inParts`, when given. */
  private async listBase(
    query: FileQuery,
    base: SearchBase,
    baseIndex: number,
    denied: readonly string[],
    pruned: PrunedEntry[],
    inParts?: (files: readonly Candidate[]) => void,
  ): Promise<Candidate[] | undefined> {
    const virtualBase = virtualUri(base.base, this.virtual);
    if (virtualBase) return this.listVirtual(query, base, baseIndex, virtualBase, denied, pruned);
    if ((await this.kind(base.base)) === 'file') return [{ path: base.base, relative: nodePath.basename(base.base) }];
    return this.listFolderBase(query, base, baseIndex, denied, pruned, inParts);
  }

  /** What a folder's listing depends on: VS Code's settings for the folder, and the key a resident listing is kept under. */
  private folderInputs(query: FileQuery, base: SearchBase, denied: readonly string[]): { settings: FolderSettings; key: string } {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(base.root));
    const ignored = query.includeIgnored ? [] : [...enabledGlobs('files', 'exclude', folder?.uri), ...enabledGlobs('search', 'exclude', folder?.uri)];
    // VS Code's own search settings, read for this folder as its search reads them.
    const search = vscode.workspace.getConfiguration('search', folder?.uri ?? vscode.Uri.file(base.root));
    const settings = {
      ignored,
      useIgnoreFiles: search.get<unknown>('useIgnoreFiles') !== false,
      followSymlinks: search.get<unknown>('followSymlinks') !== false,
    };
    const { base: path, root } = base;
    const { include, includeIgnored, respectGitignore, granted, allowed } = query;
    return { settings, key: JSON.stringify({ path, root, include, includeIgnored, respectGitignore, granted, allowed, denied, settings }) };
  }

  /**
   * A base on disk: its resident listing when one was made for the same inputs and nothing changed
   * since (residentListing.ts), else listed with findFiles, in parts where the folder allows (listInParts:
   * VS Code's reading of each reply then holds the extension host's thread for a part's files, not the
   * whole folder's), each handed to `inParts` when given. Undefined when cancelled.
   */
  private async listFolderBase(
    query: FileQuery,
    base: SearchBase,
    baseIndex: number,
    denied: readonly string[],
    pruned: PrunedEntry[],
    inParts?: (files: readonly Candidate[]) => void,
  ): Promise<Candidate[] | undefined> {
    const held = this.heldListing(query, base, denied);
    if (held && held.base.base !== base.base) {
      // The workspace folder's listing, for a folder below its top: its part below the base, unless the
      // base is no directory of it as spelled (another spelling of the path, or one holding no listed file).
      const got = await this.wholeWhileHeld(held.query, held.base, denied);
      if (this.token.isCancellationRequested) return undefined;
      const part = got && (await listingBelow(got.listing, held.base.base, base.base));
      if (part) return this.replay(part, baseIndex, pruned, got.made ? undefined : query);
    }
    // The folder's own listing, or the whole folder's for an include.
    const { listing, made } = await this.listingFor(held?.base.base === base.base ? held.query : query, base, denied, inParts);
    if (!listing) return undefined;
    // A listing this call made wrote its lines as it was made.
    return this.replay(listing, baseIndex, pruned, made ? undefined : query);
  }

  /**
   * A workspace folder's listing for a folder below its top: the one this call took, or the resident one
   * while it holds (read again where it changed). Undefined when it must be made again (an entry it left
   * out went, too many directories changed): the folder below is then listed on its own, at the cost of
   * its own files, instead of waiting for the whole folder's (at 100,000 files, 10–20 s).
   */
  private async wholeWhileHeld(query: FileQuery, base: SearchBase, denied: readonly string[]): Promise<{ listing: BaseListing; made: boolean } | undefined> {
    const { key } = this.folderInputs(query, base, denied);
    const taken = this.got.get(key);
    if (taken) {
      const { listing, made } = await taken;
      return listing && { listing, made };
    }
    const listing = await this.listings?.replayed(key, () => this.token.isCancellationRequested);
    if (!listing) return undefined;
    this.got.set(key, Promise.resolve({ listing, made: false }));
    return { listing, made: false };
  }

  /** The listing for these inputs: replayed when resident (residentListing.ts), else made, in parts where the folder allows; none when cancelled. */
  private async listingFor(
    query: FileQuery,
    base: SearchBase,
    denied: readonly string[],
    inParts?: (files: readonly Candidate[]) => void,
  ): Promise<{ listing?: BaseListing; made: boolean }> {
    const { settings, key } = this.folderInputs(query, base, denied);
    const list = () => this.listInParts(query, base, denied, settings, inParts);
    const listings = this.listings;
    if (!listings) return { listing: await list(), made: true };
    let got = this.got.get(key);
    if (!got) {
      const rejudge = (query.include ?? '**') === '**' ? this.rejudge(query, base, denied, settings) : undefined;
      this.got.set(key, (got = listings.get(key, () => this.token.isCancellationRequested, list, new Set(this.got.keys()), rejudge)));
    }
    return got;
  }

  /**
   * How a resident listing of a whole folder (no include) judges a file that appears after it was made,
   * as findFolderFiles judged its files: denied (a denied rule of its path or a directory above), left
   * out (an exclude glob of its path or a directory above, VS Code's excludes among them, or the
   * .gitignore rules of its directories, read then), or listed.
   */
  private rejudge(query: FileQuery, base: SearchBase, denied: readonly string[], settings: FolderSettings): Rejudge {
    // (compiled by the first patch only: most calls replay a listing that did not change)
    let excludes: ReturnType<typeof findFilesExcludes> | undefined;
    const gitignoreApplies = query.respectGitignore && settings.useIgnoreFiles;
    const above = (fromRoot: string, test: (path: string) => boolean) => {
      for (let path = fromRoot; path !== ''; path = parentOf(path)) if (test(path)) return true;
      return false;
    };
    return {
      base: base.base,
      root: base.root,
      gitignore: gitignoreApplies,
      judging: async (dir) => {
        const { given, afterwards } = (excludes ??= findFilesExcludes(excludeGlobs(denied, compiledGlobs(settings.ignored))));
        let gitignore: GitignoreRules | undefined;
        if (gitignoreApplies) {
          const chain = [dir];
          while (chain[chain.length - 1] !== '') chain.push(parentOf(chain[chain.length - 1]));
          gitignore = await gitignoreRulesOf(base, chain, { granted: query.granted }, denied);
        }
        return (fromRoot, isDirectory = false) => {
          if (above(fromRoot, (path) => deniedRule(path, denied) !== undefined)) return 'denied';
          const out =
            above(fromRoot, (path) => given.some(({ matches }) => matches(path))) ||
            (!isDirectory && afterwards.some((matches) => matches(fromRoot))) ||
            gitignore?.ignoresFile(fromRoot, isDirectory) === true;
          return out ? 'out' : 'kept';
        };
      },
    };
  }

  /**
   * A listing's files for the base at `baseIndex` (its own list, never changed: a search filters and sorts
   * the same list once per filter, candidates.ts), its pruned entries added to `pruned`, its log lines written again.
   */
  private replay(listing: ListedPart, baseIndex: number, pruned: PrunedEntry[], warnAgain: FileQuery | undefined): Candidate[] {
    for (const entry of listing.pruned) pruned.push({ ...entry, base: baseIndex });
    for (const line of listing.warnings) warnAgain?.warn?.(line);
    return listing.files;
  }

  /**
   * A whole folder listed in parts, so a search starts on its first files while the rest are listed
   * (findFiles answers only once it has every file, tens of seconds at 500,000 files, and reading its
   * reply holds the extension host 5–10 ms a thousand files): the files at its top and in the
   * directories split below it where most files lie, then the other directories in groups of about equal
   * weight (partsOf), PARTS_IN_FLIGHT listed at once, each group's
   * files handed to `deliver` (when given) in the final order once the groups before it are in. The parts together are
   * the listing of the whole folder (the same files, pruned entries and log lines) and are kept as such.
   * A folder that cannot be split so is listed whole (`partsOf`).
   */
  private async listInParts(
    query: FileQuery,
    base: SearchBase,
    denied: readonly string[],
    settings: FolderSettings,
    deliver?: (files: readonly Candidate[]) => void,
  ): Promise<BaseListing | undefined> {
    const split = query.include === '**' && base.base === base.root ? await partsOf(base.base, notEntered(denied, settings)) : undefined;
    if (!split) return this.listFolder(query, base, denied, settings);
    const { levels, groups } = split;
    // Parts pay only where a listing takes seconds: a folder weighed at fewer than PARTS_FROM files is
    // listed whole by a call that stops there (a larger one is then listed in parts after all).
    const partsFrom = this.listings?.partsFrom ?? PARTS_FROM;
    if (split.files < partsFrom) {
      const probe = await this.findFolderFiles(query, base, denied, settings, { atMost: partsFrom });
      if (probe !== 'more') return probe;
    }
    // Each part's listing enters only its own directories (otherDirectories).
    const listing = (include: string, group?: readonly string[]) =>
      this.listFolder({ ...query, include }, base, denied, settings, { tops: group && new Set(group), leftOut: otherDirectories(split, group) });
    const started: Array<Promise<FolderListing | undefined>> = [];
    const start = (i: number) => (started[i] ??= listing(groupInclude(groups[i]), groups[i]));
    for (let i = 0; i < Math.min(PARTS_IN_FLIGHT, groups.length); i++) void start(i).catch(() => undefined);
    const top = await listing(levelsInclude(levels));
    if (!top) return undefined;
    const topFiles = await sortInSlices([...top.files], byRelative);
    const parts: FolderListing[] = [top];
    const files: Candidate[] = [];
    const hand = (run: Candidate[]) => {
      if (run.length === 0) return;
      deliver?.(run);
      for (const file of run) files.push(file);
    };
    let next = 0;
    for (const [i, group] of groups.entries()) {
      const part = await start(i);
      if (i + PARTS_IN_FLIGHT < groups.length) void start(i + PARTS_IN_FLIGHT).catch(() => undefined);
      if (!part) return undefined;
      parts.push(part);
      // The files of the levels that sort before the group's last directory come with it.
      const last = `${group[group.length - 1]}/`;
      const from = next;
      while (next < topFiles.length && comparePaths(topFiles[next].relative, last) < 0) next++;
      const run = [...topFiles.slice(from, next), ...part.files];
      // (in the final order only for a caller that takes the parts as they come)
      hand(deliver ? await sortInSlices(run, byRelative) : run);
    }
    hand(topFiles.slice(next));
    return joinParts(base.base, files, parts, groups);
  }

  /** A folder (or a part of it: findFolderFiles' `tops`, `leftOut`) listed by one findFiles call, with no bound on its files; undefined when cancelled. */
  private async listFolder(
    query: FileQuery,
    base: SearchBase,
    denied: readonly string[],
    settings: FolderSettings,
    part: { tops?: ReadonlySet<string>; leftOut?: readonly string[] } = {},
  ): Promise<FolderListing | undefined> {
    const listing = await this.findFolderFiles(query, base, denied, settings, part);
    return listing === 'more' ? undefined : listing;
  }

  /**
   * One base on disk, listed with findFiles, filtered and audited: the listing a resident one replays.
   * `tops`: the directories the include names, when it lists a part of the folder (listInParts);
   * `leftOut`: directories (paths from the folder) findFiles is told not to enter, those of the other
   * parts; `atMost`: 'more' when findFiles finds that many files (nothing else is done with them).
   */
  private async findFolderFiles(
    query: FileQuery,
    base: SearchBase,
    denied: readonly string[],
    settings: FolderSettings,
    { tops, leftOut, atMost }: { tops?: ReadonlySet<string>; leftOut?: readonly string[]; atMost?: number } = {},
  ): Promise<FolderListing | 'more' | undefined> {
    const { ignored, useIgnoreFiles, followSymlinks } = settings;
    const warnings: string[] = [];
    const warn = (line: string) => {
      warnings.push(line);
      query.warn?.(line);
    };
    const warnQuery: FileQuery = { ...query, warn };
    const ignoredGlobs = compiledGlobs(ignored);
    const excludes = excludeGlobs(denied, ignoredGlobs);
    const { exclude, given, afterwards } = findFilesExcludes(excludes, leftOut);
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.file(base.base), query.include ?? '**'), exclude, atMost, this.token);
    if (atMost !== undefined && uris.length >= atMost) return 'more';
    const listed = await this.onDisk(uris, base);
    if (!listed) return undefined;
    // A part lists every file below its directories, as the whole folder's listing would there; the directories above them are looked into.
    const wholeHidden = hiddenIgnoreFile(tops ? '**' : query.include, followSymlinks, excludes);
    const hidden = tops ? (dir: string) => enclosingTop(tops, dir) === undefined || wholeHidden(dir) : wholeHidden;
    const gitignore = query.respectGitignore && useIgnoreFiles ? await this.gitignoreOf(base, listed.fromRoot, warnQuery, denied, hidden) : undefined;
    const files = await this.kept(listed, base, (fromRoot) => afterwards.some((matches) => matches(fromRoot)) || gitignore?.ignoresFile(fromRoot) === true);
    if (!files) return undefined;
    const pruned: PrunedEntry[] = [];
    const audited = await auditListing(base, 0, files, {
      granted: query.granted ?? [],
      denied,
      allowed: query.allowed,
      excluded: (fromRoot) => ignoredGlobs.some(({ matches }) => matches(fromRoot)),
      pruned,
      followSymlinks,
      listDirectories: this.listDirectories,
    });
    if (this.token.isCancellationRequested) return undefined;
    const directories = [base.base, ...(await directoriesOf(base.root, listed.paths))];
    if (this.token.isCancellationRequested) return undefined;
    const walk = this.folderWalk(query, denied, { given, gitignore, followSymlinks });
    // A whole workspace folder's listing is kept for the next window, with every directory where a file could appear.
    const whole = query.include === '**' && base.base === base.root;
    const storable = whole ? { base: base.base, directoriesBelow: () => directoriesBelow(base.base, walk) } : undefined;
    return { files: audited, pruned, warnings, directories, storable, walk };
  }

  /** How the folder's directories are walked again (storedListing.ts), leaving out what its listing left out. */
  private folderWalk(
    query: FileQuery,
    denied: readonly string[],
    {
      given,
      gitignore,
      followSymlinks,
    }: {
      given: ReadonlyArray<{ matches(path: string): boolean }>;
      gitignore?: { ignoresFile(path: string, isDirectory?: boolean): boolean };
      followSymlinks: boolean;
    },
  ): DirectoryWalk {
    return {
      // Left out as a whole: a denied directory, one an exclude glob given to findFiles matches (it is not entered), one a .gitignore ignores.
      skips: (fromRoot) =>
        deniedRule(fromRoot, denied) !== undefined || given.some(({ matches }) => matches(fromRoot)) || gitignore?.ignoresFile(fromRoot, true) === true,
      followSymlinks,
      granted: query.granted ?? [],
      listDirectories: this.listDirectories ?? listHere,
      isCancelled: () => false,
    };
  }

  /** The paths on disk findFiles listed, in its order, and each one's path from the root: one pass, a slice at a time; undefined once cancelled. */
  private async onDisk(uris: readonly vscode.Uri[], base: SearchBase): Promise<OnDisk | undefined> {
    const listed: OnDisk = { paths: [], fromRoot: [] };
    const slices = new TimeSlices();
    // (in a turn of its own: this runs right after VS Code read the reply and made its URIs, which held the thread already)
    await slices.pause();
    if (this.token.isCancellationRequested) return undefined;
    for (const uri of uris) {
      if (slices.due()) {
        await slices.pause();
        if (this.token.isCancellationRequested) return undefined;
      }
      if (uri.scheme !== 'file') continue;
      const path = uri.fsPath;
      listed.paths.push(path);
      listed.fromRoot.push(relativePosix(base.root, path));
    }
    return listed;
  }

  /** The files of the listing that `dropped` keeps, in its order, a slice at a time; undefined once cancelled. */
  private async kept(listed: OnDisk, base: SearchBase, dropped: (fromRoot: string) => boolean): Promise<Candidate[] | undefined> {
    const files: Candidate[] = [];
    const slices = new TimeSlices();
    const atRoot = base.base === base.root;
    for (const [i, path] of listed.paths.entries()) {
      if (slices.due()) {
        await slices.pause();
        if (this.token.isCancellationRequested) return undefined;
      }
      const fromRoot = listed.fromRoot[i];
      if (!dropped(fromRoot)) files.push({ path, relative: atRoot ? fromRoot : relativePosix(base.base, path) });
    }
    return files;
  }

  /**
   * The .gitignore rules of the directories holding the listed `files` (paths from the root) and of those
   * above them, their files read before the listing is filtered, off this thread and each checked
   * (ignoreFile.ts). findFiles lists every `.gitignore` it reaches, so only those are read, and a directory
   * is looked into only where the listing could have left its `.gitignore` out (`hidden`).
   */
  private async gitignoreOf(
    base: SearchBase,
    files: readonly string[],
    query: FileQuery,
    denied: readonly string[],
    hidden: (dir: string) => boolean,
  ): Promise<GitignoreRules> {
    const dirs = new Set<string>(['']);
    const listed = new Set<string>();
    const slices = new TimeSlices();
    for (const fromRoot of files) {
      if (slices.due()) await slices.pause();
      const dir = parentOf(fromRoot);
      // Compared ignoring case: reading a name that is not there costs one failed open, missing one costs its rules.
      if (fromRoot.slice(fromRoot.lastIndexOf('/') + 1).toLowerCase() === '.gitignore') listed.add(dir);
      for (let above = dir; above !== '' && !dirs.has(above); above = parentOf(above)) dirs.add(above);
    }
    // A directory above the base was not listed: its .gitignore is looked for.
    const below = relativePosix(base.root, base.base);
    const inBase = (dir: string) => below === '' || dir === below || dir.startsWith(`${below}/`);
    return gitignoreRulesOf(
      base,
      [...dirs].filter((dir) => listed.has(dir) || !inBase(dir) || hidden(dir)),
      query,
      denied,
    );
  }

  /** A base in a virtual folder: walked with workspace.fs (findFiles needs a search provider for its scheme). */
  private async listVirtual(
    query: FileQuery,
    base: SearchBase,
    baseIndex: number,
    baseUri: vscode.Uri,
    denied: readonly string[],
    pruned: PrunedEntry[],
  ): Promise<Candidate[]> {
    const folder = vscode.workspace.getWorkspaceFolder(baseUri);
    const ignored = query.includeIgnored ? [] : [...enabledGlobs('files', 'exclude', folder?.uri), ...enabledGlobs('search', 'exclude', folder?.uri)];
    const excluded = compiledGlobs(ignored);
    const search = vscode.workspace.getConfiguration('search', folder?.uri ?? baseUri);
    return listVirtual(base, baseIndex, baseUri, {
      denied,
      allowed: query.allowed,
      excluded: (fromRoot) => excluded.some(({ matches }) => matches(fromRoot)),
      followSymlinks: search.get<unknown>('followSymlinks') !== false,
      gitignore: query.respectGitignore && search.get<unknown>('useIgnoreFiles') !== false,
      pruned,
      isCancelled: () => this.token.isCancellationRequested,
      warn: query.warn,
    });
  }
}
