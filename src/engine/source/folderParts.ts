/**
 * How a large workspace folder is listed in parts (VS Code's findFiles hands each listing over as one
 * reply, and reading it holds the extension host 5–10 ms a thousand files; vscode/sources/findFilesSource.ts,
 * listInParts): the files of the directories it splits, then groups of about equal weight of the other
 * directories, each listed by its own include glob. The parts' includes together name every file of the
 * folder once.
 */
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import { comparePaths } from '../globset/globs';
import { mapAtMost } from '../searcher/descriptors';
import { parentOf } from './fileSource';

/** Groups a folder's directories are listed in, at least... */
const PARTS = 8;
/**
 * ...and more for a larger folder, so a part holds about this many files at most (a reply of 56,000 files
 * held the extension host 300 ms at 500,000 files in 8 parts), up to MAX_PARTS (each part is a ripgrep
 * process VS Code spawns from the extension host, 30–80 ms of its thread at that size).
 */
const FILES_PER_PART = 25_000;
const MAX_PARTS = 32;
/** The most directories split (each adds its own files to the first part's include glob). */
const MAX_LEVELS = 32;
/** Directories read at once to weigh a folder, and at most (a few milliseconds to tens of them). */
const WEIGH_IN_FLIGHT = 16;
const MAX_WEIGHED = 1000;
/**
 * The most directories a part's listing is told not to enter (otherDirectories): each is a name in its
 * exclude glob, which VS Code also tests every listed file against.
 */
const LEFT_OUT_AT_MOST = 256;
/** A name findFiles' glob would read as a pattern (or an escape): a directory holding one as a directory is not split. */
const GLOB_SPECIAL = /[*?[\]{}!,\\]/;

/** How a folder is split. */
export interface FolderParts {
  /**
   * The directories whose own files (not those below) the first part lists, from the folder's root: the
   * folder itself ('') first, then each directory split below it.
   */
  levels: string[];
  /** The other directories (paths from the folder), none inside another, in groups (PARTS or more), in the final order. */
  groups: string[][];
  /** The files the folder holds as weighed (estimated past the directories read). */
  files: number;
}

/** What the walk found in one directory. */
interface Weight {
  /** Its own entries that are not directories to walk (files, symlinks). */
  files: number;
  /** Those and every file below it (estimated past the directories read: weigh). */
  total: number;
  /** Its directories the listing enters, in path order. */
  dirs: string[];
  /** False when it holds a symlink (a part's glob would not name what lies behind it) or a directory a glob would read as a pattern. */
  splittable: boolean;
}

/** The directory of `tops` (directories parts name, paths from the folder) that is `dir` or holds it, if any. */
export function enclosingTop(tops: { has(dir: string): boolean }, dir: string): string | undefined {
  for (let at = dir; at !== ''; at = parentOf(at)) if (tops.has(at)) return at;
  return undefined;
}

/** The include of a part: every file below the directories of `group`. */
export function groupInclude(group: readonly string[]): string {
  const parent = parentOf(group[0]);
  const above = parent === '' ? '' : `${parent}/`;
  // (siblings are named after their parent's path; others by their whole paths)
  const names = group.every((dir) => parentOf(dir) === parent) ? group.map((dir) => dir.slice(above.length)) : undefined;
  if (!names) return `{${group.join(',')}}/**`;
  return names.length === 1 ? `${above}${names[0]}/**` : `${above}{${names.join(',')}}/**`;
}

/**
 * The directories of the other parts, which a part's listing need not enter: ripgrep walks every
 * directory below a listing's base whatever its include, and prunes only what its exclude names (every
 * part would walk the whole folder). `group`: the part's directories (none: the first part, the files
 * of the levels). None when there are more than LEFT_OUT_AT_MOST (VS Code tests each listed file
 * against the exclude glob): the part then walks the whole folder.
 */
export function otherDirectories(parts: FolderParts, group: readonly string[] = []): string[] {
  const own = new Set(group);
  const others = parts.groups.flat().filter((dir) => !own.has(dir));
  return others.length <= LEFT_OUT_AT_MOST ? others : [];
}

/** The include of the first part: the files directly in each of `levels`. */
export function levelsInclude(levels: readonly string[]): string {
  const globs = levels.map((level) => (level === '' ? '*' : `${level}/*`));
  return globs.length === 1 ? globs[0] : `{${globs.join(',')}}`;
}

const byDirectory = (a: string, b: string) => comparePaths(`${a}/`, `${b}/`);

/**
 * The folder's directories the listing enters, each with its files and what lies below, from readdir
 * alone, a level at a time while the next level keeps the directories read within `atMost`: a
 * directory of the first level not read (where a tree is large) weighs as many entries as a directory
 * read holds on average. The weights only balance the parts; whatever they are, the parts name every
 * file once.
 */
async function weigh(folder: string, excluded: (dir: string) => boolean, atMost: number): Promise<Map<string, Weight>> {
  const weights = new Map<string, Weight>();
  const order: string[] = [];
  let entries = 0;
  const read = async (dir: string, below: string[]): Promise<void> => {
    const weight: Weight = { files: 0, total: 0, dirs: [], splittable: true };
    weights.set(dir, weight);
    const listed = await fs.readdir(dir === '' ? folder : nodePath.join(folder, dir), { withFileTypes: true }).catch(() => []);
    entries += listed.length;
    for (const entry of listed) {
      if (entry.isSymbolicLink()) weight.splittable = false;
      if (!entry.isDirectory()) {
        weight.files++;
        continue;
      }
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (excluded(path)) continue;
      if (GLOB_SPECIAL.test(entry.name)) weight.splittable = false;
      weight.dirs.push(path);
      below.push(path);
    }
    weight.dirs.sort(byDirectory);
  };
  for (let level = ['']; level.length > 0 && order.length + level.length <= atMost;) {
    const below: string[] = [];
    await mapAtMost(level, WEIGH_IN_FLIGHT, (dir) => read(dir, below));
    order.push(...level);
    level = below;
  }
  const unread = entries / Math.max(1, order.length);
  // (each level after the one above it: the totals add up from the deepest)
  for (let i = order.length - 1; i >= 0; i--) {
    const weight = weights.get(order[i])!;
    weight.total = weight.files + weight.dirs.reduce((sum, dir) => sum + (weights.get(dir)?.total ?? unread), 0);
  }
  return weights;
}

/**
 * How a folder is listed in parts, from the weights of its directories (files below each): the
 * directory holding the most files is split into its own files and its directories while it holds more
 * than one part's share (an eighth of the folder, or FILES_PER_PART in a larger one) and the parts would
 * name at most LEFT_OUT_AT_MOST directories, so a folder whose files lie mostly in one directory
 * (packages/ beside docs/, a chain of single directories) is split where they are; then the directories
 * in as many groups of about equal weight, in the final order (a directory's files sort as its name and
 * a '/'). Undefined where the folder is listed whole: nothing to split at its top (no directory, a
 * symlink, a name a glob would read as a pattern).
 */
function splitFolder(weights: ReadonlyMap<string, Weight>): FolderParts | undefined {
  const root = weights.get('');
  if (!root?.splittable || root.dirs.length === 0) return undefined;
  const count = Math.min(MAX_PARTS, Math.max(PARTS, Math.ceil(root.total / FILES_PER_PART)));
  const share = root.total / count;
  const levels = [''];
  let units = [...root.dirs];
  const weightOf = (dir: string) => weights.get(dir)?.total ?? 0;
  while (levels.length < MAX_LEVELS) {
    // The heaviest directory that can be split (one holding a symlink or a glob's name stays whole).
    let heaviest: string | undefined;
    for (const unit of units) {
      const weight = weights.get(unit);
      if (weight?.splittable && weight.dirs.length > 0 && (heaviest === undefined || weight.total > weightOf(heaviest))) heaviest = unit;
    }
    if (heaviest === undefined || weightOf(heaviest) <= share) break;
    const { dirs } = weights.get(heaviest)!;
    // (no more directories than each part's exclude names: past that, every part would walk the whole folder)
    if (units.length - 1 + dirs.length > LEFT_OUT_AT_MOST) break;
    levels.push(heaviest);
    units = [...units.filter((unit) => unit !== heaviest), ...dirs];
  }
  units.sort(byDirectory);
  // Consecutive runs of about equal weight: a group ends once the weight so far reaches its share of the whole.
  // (more parts than PARTS only where each leaves the others out: else each would walk the whole folder)
  const groupCount = Math.min(units.length > LEFT_OUT_AT_MOST ? PARTS : count, units.length);
  const total = units.reduce((sum, unit) => sum + weightOf(unit), 0);
  const groups: string[][] = [];
  let group: string[] = [];
  let sofar = 0;
  units.forEach((unit, i) => {
    group.push(unit);
    sofar += weightOf(unit);
    const left = units.length - i - 1;
    const groupsLeft = groupCount - groups.length - 1;
    // (every group gets a directory: one closes when as many are left as groups still to fill)
    if (groupsLeft > 0 && (sofar >= ((groups.length + 1) * total) / groupCount || left === groupsLeft)) {
      groups.push(group);
      group = [];
    }
  });
  if (group.length > 0) groups.push(group);
  levels.sort(byDirectory);
  return { levels, groups, files: root.total };
}

/**
 * How a folder is listed in parts (splitFolder), from a walk of its directories with readdir alone (no
 * file is opened or statted); directories `excluded` names (a path from the folder: denied, or one the
 * listing does not enter, such as .git) are not walked, and no part names them. `weighedAtMost`: the
 * directories read at most (MAX_WEIGHED; the tests lower it).
 */
export async function partsOf(folder: string, excluded: (dir: string) => boolean, weighedAtMost = MAX_WEIGHED): Promise<FolderParts | undefined> {
  return splitFolder(await weigh(folder, excluded, weighedAtMost));
}
