/**
 * The hint of a "Path not found" error (guard.ts): the path the call most likely meant when a name on
 * the way is misspelled ("src/compnents" → /ws/src/components), otherwise the nearest existing directory
 * on the way. It stats the path's ancestors; it lists a directory only inside a workspace folder (where it
 * really is) and never a hidden one (denied, or outside the allow-list), and never suggests a hidden entry.
 */
import { promises as fs } from 'fs';
import { entryKind, type EntryKind } from '../api/types';
import { HOST_FLAVOUR, innermost, isInside, realPathOf, samePath, type PathFlavour } from './paths';
import type { WorkspaceFolder } from './roots';

/** An entry of a listed directory, as the listing says (a link is not followed). */
export interface HintEntry {
  name: string;
  kind: EntryKind;
}

export interface PathHintContext {
  folders: readonly WorkspaceFolder[];
  /** 'file', 'directory', or undefined when nothing is there. */
  kind(absolute: string): Promise<'file' | 'directory' | undefined>;
  /** Whether the guard hides this path by its name (denied, or not allowed), judged from the workspace folder `root`. */
  hidden(absolute: string, root: string): boolean;
  /**
   * Whether the guard refuses what is really at `real` (outside the folders' real paths, denied, not
   * allowed: scope.ts `judgeReal`), so a name leading there (a link, a junction) is hidden too; absent,
   * names are judged by `hidden` only.
   */
  refusedReal?(real: string, directory: boolean): boolean;
  /** The path rules (guard.ts `GuardContext.flavour`); absent, this platform's `path`. */
  flavour?: PathFlavour;
  /** The real path of an existing path (guard.ts `GuardContext.realPath`); absent, the file system's. */
  realPath?(absolute: string): Promise<string | undefined>;
  /** A directory's entries, links not followed (rejects when it cannot be listed; guard.ts `GuardContext.entries`); absent, the file system's. */
  entries?(dir: string): Promise<HintEntry[]>;
}

function flavourOf(ctx: PathHintContext): PathFlavour {
  return ctx.flavour ?? HOST_FLAVOUR;
}

function realPathFn(ctx: PathHintContext): (absolute: string) => Promise<string | undefined> {
  return ctx.realPath ?? ((path: string) => realPathOf(path));
}

/** A directory on the hint's way: its path, and where it really is. */
interface Place {
  path: string;
  real: string;
}

/** The entry `name` of the listed directory `at`: its path, and where it is (where its directory really is; a link is resolved apart). */
function childOf(at: Place, name: string, flavour: PathFlavour): Place {
  return { path: flavour.join(at.path, name), real: flavour.join(at.real, name) };
}

/** The entries of a directory on disk, links not followed. */
export async function diskEntries(dir: string): Promise<HintEntry[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  return entries.map((entry) => ({
    name: entry.name,
    kind: entryKind(entry),
  }));
}

/** The first MAX_ENTRIES entries of a directory, through the context; none when it cannot be listed. */
async function entriesOf(dir: string, ctx: PathHintContext): Promise<HintEntry[]> {
  const list = ctx.entries ?? diskEntries;
  const entries = await list(dir).catch(() => [] as HintEntry[]);
  return entries.slice(0, MAX_ENTRIES);
}

/**
 * Whether an entry of the listed directory `at` is hidden: by its name, or by where it really is (a
 * link resolved through the context's resolver; any other entry is where its directory really is).
 */
async function hiddenEntry(at: Place, entry: HintEntry, folder: WorkspaceFolder, ctx: PathHintContext): Promise<boolean> {
  const { path, real } = childOf(at, entry.name, flavourOf(ctx));
  if (ctx.hidden(path, folder.path)) return true;
  if (!ctx.refusedReal) return false;
  if (entry.kind === 'link') return hiddenWhereItIs(path, ctx);
  return real !== path && ctx.refusedReal(real, entry.kind === 'directory');
}

/** Whether a path, by its name or by where it really leads (links on its way resolved by the context), is hidden. */
async function hiddenPath(path: string, folder: WorkspaceFolder, ctx: PathHintContext): Promise<boolean> {
  return ctx.hidden(path, folder.path) || (await hiddenWhereItIs(path, ctx));
}

async function hiddenWhereItIs(path: string, ctx: PathHintContext): Promise<boolean> {
  if (!ctx.refusedReal) return false;
  const real = await realPathFn(ctx)(path);
  return real !== undefined && real !== path && ctx.refusedReal(real, (await ctx.kind(path)) === 'directory');
}

/** The entries of a listed directory that the hint may name (of the `kinds` asked for: links, which are resolved, only when asked). */
async function visibleEntries(at: Place, folder: WorkspaceFolder, ctx: PathHintContext, kinds?: ReadonlySet<HintEntry['kind']>): Promise<HintEntry[]> {
  const visible: HintEntry[] = [];
  for (const entry of await entriesOf(at.path, ctx)) {
    if ((kinds === undefined || kinds.has(entry.kind)) && !(await hiddenEntry(at, entry, folder, ctx))) visible.push(entry);
  }
  return visible;
}

const DIRECTORIES: ReadonlySet<HintEntry['kind']> = new Set(['directory']);
const FILES_AND_DIRECTORIES: ReadonlySet<HintEntry['kind']> = new Set(['file', 'directory']);

/** Entries compared at most, so a huge directory cannot make an error slow. */
const MAX_ENTRIES = 10_000;
/** Directories visited at most when looking for a path that ends with the missing one, and paths suggested. */
const MAX_DIRECTORIES = 20_000;
const MAX_SUGGESTIONS = 3;
/** Files counted at most in a suggested directory ("10000+ files"). */
const MAX_COUNTED = 10_000;

/** Optimal string alignment distance (Levenshtein with transpositions), on lower-cased names. */
export function nameDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...new Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) rows[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, rows[i - 2][j - 2] + 1);
      rows[i][j] = best;
    }
  }
  return rows[s.length][t.length];
}

/** The other entry name closest to `wanted` (a case difference is distance 0), when it is close enough to be a typo. */
export function closestName(wanted: string, names: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    if (name === wanted || Math.abs(name.length - wanted.length) > limit) continue;
    const distance = nameDistance(wanted, name);
    if (distance > limit) continue;
    if (!best || distance < best.distance || (distance === best.distance && name < best.name)) best = { name, distance };
  }
  return best?.name;
}

/** The innermost workspace folder holding `absolute`, lexically. */
function folderOf(absolute: string, ctx: PathHintContext): WorkspaceFolder | undefined {
  return ctx.folders[
    innermost(
      absolute,
      ctx.folders.map((folder) => folder.path),
      flavourOf(ctx),
    )
  ];
}

/** Whether `dir` may be listed for a hint: inside a workspace folder where it really is, and not hidden; where it really is. */
async function listable(dir: string, ctx: PathHintContext): Promise<{ folder: WorkspaceFolder; at: Place } | undefined> {
  const flavour = flavourOf(ctx);
  const realPath = realPathFn(ctx);
  const folder = folderOf(dir, ctx);
  if (!folder || ctx.hidden(dir, folder.path)) return undefined;
  const real = await realPath(dir);
  if (real === undefined) return undefined;
  for (const candidate of ctx.folders) {
    const realFolder = await realPath(candidate.path);
    if (
      realFolder !== undefined &&
      isInside(real, realFolder, flavour) &&
      !ctx.hidden(flavour.join(candidate.path, flavour.relative(realFolder, real)), candidate.path)
    )
      return { folder, at: { path: dir, real } };
  }
  return undefined;
}

/** The subdirectories of `at` that a hint may enter: real directories (no links), not hidden. */
async function subdirectories(at: Place, folder: WorkspaceFolder, ctx: PathHintContext): Promise<Place[]> {
  const flavour = flavourOf(ctx);
  return (await visibleEntries(at, folder, ctx, DIRECTORIES)).map((entry) => childOf(at, entry.name, flavour));
}

/** "31 files" under `path` (not hidden, no links followed), "10000+ files" past the bound; "a file" for a file. */
async function describeHolding(path: string, folder: WorkspaceFolder, ctx: PathHintContext): Promise<string> {
  if ((await ctx.kind(path)) === 'file') return 'a file';
  const real = await realPathFn(ctx)(path);
  if (real === undefined) return '0 files';
  const flavour = flavourOf(ctx);
  let files = 0;
  const queue: Place[] = [{ path, real }];
  while (queue.length > 0 && files < MAX_COUNTED) {
    const at = queue.shift()!;
    for (const entry of await visibleEntries(at, folder, ctx, FILES_AND_DIRECTORIES)) {
      if (entry.kind === 'directory') queue.push(childOf(at, entry.name, flavour));
      else if (entry.kind === 'file') files++;
    }
  }
  return `${files >= MAX_COUNTED ? `${MAX_COUNTED}+` : files} file${files === 1 ? '' : 's'}`;
}

/**
 * When the missing path's first segment is not in its workspace folder: existing paths that end with its
 * path below the folder ("src/math" → /ws/three/src/math), or whose first segment is a close name
 * ("crate/searcher" → /ws/x/crates/searcher):
 * a breadth-first walk of the folder (shallow first, bounded), entering only listable, not hidden, real
 * directories; each suggestion is checked to exist and is not hidden.
 */
async function pathsEndingWith(missing: string, ctx: PathHintContext): Promise<Array<{ path: string; holds: string }>> {
  const flavour = flavourOf(ctx);
  const folder = folderOf(missing, ctx);
  const top = folder && (await listable(folder.path, ctx));
  if (!folder || !top) return [];
  const [first, ...rest] = flavour.relative(folder.path, missing).split(flavour.sep);
  // Only when the path's first segment is not in the folder: the folder it lies in was left out, or misspelled.
  if (!first || first === '..' || (await ctx.kind(flavour.join(folder.path, first))) !== undefined) return [];
  const found: string[] = [];
  const queue = [top.at];
  for (let visited = 0; queue.length > 0 && visited < MAX_DIRECTORIES && found.length < MAX_SUGGESTIONS; visited++) {
    const at = queue.shift()!;
    for (const child of await subdirectories(at, folder, ctx)) {
      const name = flavour.basename(child.path);
      if (name === first || closestName(first, [name]) === name) {
        const candidate = flavour.join(child.path, ...rest);
        if (candidate !== missing && (await ctx.kind(candidate)) !== undefined && !(await hiddenPath(candidate, folder, ctx)) && found.length < MAX_SUGGESTIONS)
          found.push(candidate);
      }
      queue.push(child);
    }
  }
  return Promise.all(found.map(async (path) => ({ path, holds: await describeHolding(path, folder, ctx) })));
}

/**
 * The sentence to add to "Path not found: … (resolved to X).": " Did you mean Y?", or the existing paths
 * that end with it (" Did you mean /ws/a/src/math (31 files)?"), or " The nearest existing directory is
 * Z." (left out when Z is the workspace folder itself, which the message names already), or ''.
 */
export async function notFoundHint(missing: string, ctx: PathHintContext): Promise<string> {
  const typo = await typoHint(missing, ctx);
  if (typo.startsWith(' Did you mean')) return typo;
  const ending = await pathsEndingWith(missing, ctx);
  if (ending.length > 0) return ` Did you mean ${ending.map(({ path, holds }) => `${path} (${holds})`).join(' or ')}?`;
  return typo;
}

async function typoHint(missing: string, ctx: PathHintContext): Promise<string> {
  const flavour = flavourOf(ctx);
  // The nearest existing ancestor, by stats only.
  let nearest = flavour.dirname(missing);
  let nearestKind = await ctx.kind(nearest);
  while (nearestKind === undefined && flavour.dirname(nearest) !== nearest) {
    nearest = flavour.dirname(nearest);
    nearestKind = await ctx.kind(nearest);
  }
  if (nearestKind === undefined) return '';
  if (nearestKind === 'file') return ` The nearest existing path is ${nearest}, a file.`;
  // A misspelled name on the way: follow the closest entry at each step.
  const segments = flavour.relative(nearest, missing).split(flavour.sep);
  let current = nearest;
  for (const [index, segment] of segments.entries()) {
    const listed = await listable(current, ctx);
    if (!listed) break;
    const names = (await visibleEntries(listed.at, listed.folder, ctx)).map((entry) => entry.name);
    const name = names.includes(segment) ? segment : closestName(segment, names);
    if (name === undefined) break;
    const next = flavour.join(current, name);
    const kind = await ctx.kind(next);
    if (kind === undefined || (index < segments.length - 1 && kind !== 'directory')) break;
    if (index === segments.length - 1) return ` Did you mean ${next}?`;
    current = next;
  }
  const isFolder = ctx.folders.some((folder) => samePath(flavour.resolve(folder.path), nearest, flavour));
  return isFolder ? '' : ` The nearest existing directory is ${nearest}.`;
}
