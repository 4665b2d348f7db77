/**
 * The hint of a "Path not found" error (guard.ts): the path the call most likely meant when a name on
 * the way is misspelled ("src/compnents" → /ws/src/components), otherwise the nearest existing directory
 * on the way. It stats the path's ancestors; it lists a directory only inside a workspace folder (where it
 * really is) and never a hidden one (denied, or outside the allow-list), and never suggests a hidden entry.
 */
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import { isInside, type WorkspaceFolder } from './roots';

export interface PathHintContext {
  folders: readonly WorkspaceFolder[];
  /** 'file', 'directory', or undefined when nothing is there. */
  kind(absolute: string): Promise<'file' | 'directory' | undefined>;
  /** Whether the guard hides this path (denied, or not allowed), judged from the workspace folder `root`. */
  hidden(absolute: string, root: string): boolean;
}

/** Entries compared at most, so a huge directory cannot make an error slow. */
const MAX_ENTRIES = 10_000;

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
function folderOf(absolute: string, folders: readonly WorkspaceFolder[]): WorkspaceFolder | undefined {
  let best: WorkspaceFolder | undefined;
  for (const folder of folders) if (isInside(absolute, folder.path) && (!best || folder.path.length > best.path.length)) best = folder;
  return best;
}

async function realpathOr(path: string): Promise<string | undefined> {
  return fs.realpath(path).catch(() => undefined);
}

/** Whether `dir` may be listed for a hint: inside a workspace folder where it really is, and not hidden. */
async function listable(dir: string, ctx: PathHintContext): Promise<WorkspaceFolder | undefined> {
  const folder = folderOf(dir, ctx.folders);
  if (!folder || ctx.hidden(dir, folder.path)) return undefined;
  const real = await realpathOr(dir);
  if (real === undefined) return undefined;
  for (const candidate of ctx.folders) {
    const realFolder = await realpathOr(candidate.path);
    if (realFolder !== undefined && isInside(real, realFolder) && !ctx.hidden(nodePath.join(candidate.path, nodePath.relative(realFolder, real)), candidate.path)) return folder;
  }
  return undefined;
}

async function entryNames(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.slice(0, MAX_ENTRIES);
}

/**
 * The sentence to add to "Path not found: … (resolved to X).": " Did you mean Y?", or " The nearest
 * existing directory is Z." (left out when Z is the workspace folder itself, which the message names
 * already), or ''.
 */
export async function notFoundHint(missing: string, ctx: PathHintContext): Promise<string> {
  // The nearest existing ancestor, by stats only.
  let nearest = nodePath.dirname(missing);
  let nearestKind = await ctx.kind(nearest);
  while (nearestKind === undefined && nodePath.dirname(nearest) !== nearest) {
    nearest = nodePath.dirname(nearest);
    nearestKind = await ctx.kind(nearest);
  }
  if (nearestKind === undefined) return '';
  if (nearestKind === 'file') return ` The nearest existing path is ${nearest}, a file.`;
  // A misspelled name on the way: follow the closest entry at each step.
  const segments = nodePath.relative(nearest, missing).split(nodePath.sep);
  let current = nearest;
  for (const [index, segment] of segments.entries()) {
    const folder = await listable(current, ctx);
    if (!folder) break;
    const names = (await entryNames(current)).filter((name) => !ctx.hidden(nodePath.join(current, name), folder.path));
    const name = names.includes(segment) ? segment : closestName(segment, names);
    if (name === undefined) break;
    const next = nodePath.join(current, name);
    const kind = await ctx.kind(next);
    if (kind === undefined || (index < segments.length - 1 && kind !== 'directory')) break;
    if (index === segments.length - 1) return ` Did you mean ${next}?`;
    current = next;
  }
  const isFolder = ctx.folders.some((folder) => nodePath.resolve(folder.path) === nearest);
  return isFolder ? '' : ` The nearest existing directory is ${nearest}.`;
}
