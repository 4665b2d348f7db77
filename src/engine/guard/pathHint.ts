/**
 * The hint of a "Path not found" error (guard.ts): the path the call most likely meant when a name on
 * the way is misspelled ("src/compnents" → /ws/src/components), otherwise the nearest existing directory
 * on the way. It stats the path's ancestors; it lists a directory only inside a workspace folder (where it
 * really is) and never a hidden one (denied, or outside the allow-list), and never suggests a hidden entry.
 */
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import { innermost, isInside, realPathOf, samePath, type PathFlavour } from './paths';
import type { WorkspaceFolder } from './roots';

export interface PathHintContext {
  folders: readonly WorkspaceFolder[];
  /** 'file', 'directory', or undefined when nothing is there. */
  kind(absolute: string): Promise<'file' | 'directory' | undefined>;
  /** Whether the guard hides this path (denied, or not allowed), judged from the workspace folder `root`. */
  hidden(absolute: string, root: string): boolean;
  /** The path rules (guard.ts `GuardContext.flavour`); absent, this platform's `path`. */
  flavour?: PathFlavour;
  /** The real path of an existing path (guard.ts `GuardContext.realPath`); absent, the file system's. */
  realPath?(absolute: string): Promise<string | undefined>;
}

function flavourOf(ctx: PathHintContext): PathFlavour {
  return ctx.flavour ?? nodePath;
}

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

/** Whether `dir` may be listed for a hint: inside a workspace folder where it really is, and not hidden. */
async function listable(dir: string, ctx: PathHintContext): Promise<WorkspaceFolder | undefined> {
  const flavour = flavourOf(ctx);
  const realPath = ctx.realPath ?? ((path: string) => realPathOf(path));
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
      return folder;
  }
  return undefined;
}

async function entryNames(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.slice(0, MAX_ENTRIES);
}

/** The subdirectories of `dir` that a hint may enter: real directories (no links), not hidden. */
async function subdirectories(dir: string, folder: WorkspaceFolder, ctx: PathHintContext): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .slice(0, MAX_ENTRIES)
    .filter((entry) => entry.isDirectory())
    .map((entry) => flavourOf(ctx).join(dir, entry.name))
    .filter((path) => !ctx.hidden(path, folder.path));
}

/** "31 files" under `dir` (not hidden, no links followed), "10000+ files" past the bound; "a file" for a file. */
async function describeHolding(path: string, folder: WorkspaceFolder, ctx: PathHintContext): Promise<string> {
  if ((await ctx.kind(path)) === 'file') return 'a file';
  let files = 0;
  const queue = [path];
  while (queue.length > 0 && files < MAX_COUNTED) {
    const dir = queue.shift()!;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.slice(0, MAX_ENTRIES)) {
      const child = flavourOf(ctx).join(dir, entry.name);
      if (ctx.hidden(child, folder.path)) continue;
      if (entry.isDirectory()) queue.push(child);
      else if (entry.isFile()) files++;
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
  if (!folder || !(await listable(folder.path, ctx))) return [];
  const [first, ...rest] = flavour.relative(folder.path, missing).split(flavour.sep);
  // Only when the path's first segment is not in the folder: the folder it lies in was left out, or misspelled.
  if (!first || first === '..' || (await ctx.kind(flavour.join(folder.path, first))) !== undefined) return [];
  const found: string[] = [];
  const queue = [folder.path];
  for (let visited = 0; queue.length > 0 && visited < MAX_DIRECTORIES && found.length < MAX_SUGGESTIONS; visited++) {
    const dir = queue.shift()!;
    for (const child of await subdirectories(dir, folder, ctx)) {
      const name = flavour.basename(child);
      if (name === first || closestName(first, [name]) === name) {
        const candidate = flavour.join(child, ...rest);
        if (candidate !== missing && !ctx.hidden(candidate, folder.path) && (await ctx.kind(candidate)) !== undefined && found.length < MAX_SUGGESTIONS)
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
    const folder = await listable(current, ctx);
    if (!folder) break;
    const names = (await entryNames(current)).filter((name) => !ctx.hidden(flavour.join(current, name), folder.path));
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
