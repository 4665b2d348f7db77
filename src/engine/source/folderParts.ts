/**
 * How a large workspace folder is listed in parts (VS Code's findFiles hands each listing over as one
 * reply, and reading it holds the extension host 5–10 ms a thousand files; vscode/sources/findFilesSource.ts,
 * listInParts): the files of its top levels, then groups of the directories of the first level that holds
 * several, each group listed by its own include glob. The parts' includes together name every file of the
 * folder once.
 */
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import { comparePaths } from '../globset/globs';
import { parentOf } from './fileSource';

/** Groups a folder's directories are listed in. */
const PARTS = 8;
/** How deep partsOf goes down a chain of single directories (a folder that holds one directory, which holds one, ...). */
const MAX_DESCENT = 8;
/** A name findFiles' glob would read as a pattern (or an escape): such a folder is listed whole. */
const GLOB_SPECIAL = /[*?[\]{}!,\\]/;

/** How a folder is split. */
export interface FolderParts {
  /**
   * The directories whose own files (not those below) the first part lists, from the folder's root:
   * the folder itself (''), then, where it holds a single directory, that one, and so on down to the
   * directory that holds several.
   */
  levels: string[];
  /** That last level's directories (paths from the folder), in PARTS groups, in the final order. */
  groups: string[][];
}

/** Where `dir` (a path from the folder) lies in one of `tops` (the directories a part names), or is one of them. */
export function withinTops(tops: ReadonlySet<string>, dir: string): boolean {
  for (let at = dir; at !== ''; at = parentOf(at)) if (tops.has(at)) return true;
  return false;
}

/** The include of a part: every file below the directories of `group`, which share the parent `level`. */
export function groupInclude(level: string, group: readonly string[]): string {
  const above = level === '' ? '' : `${level}/`;
  const names = group.map((dir) => dir.slice(above.length));
  return names.length === 1 ? `${above}${names[0]}/**` : `${above}{${names.join(',')}}/**`;
}

/** The include of the first part: the files directly in each of `levels`. */
export function levelsInclude(levels: readonly string[]): string {
  const globs = levels.map((level) => (level === '' ? '*' : `${level}/*`));
  return globs.length === 1 ? globs[0] : `{${globs.join(',')}}`;
}

/**
 * How a folder is listed in parts: the first directory down from it that holds several (past a chain of
 * directories that hold one, at most MAX_DESCENT deep) and its directories in PARTS groups, in the final
 * order (a directory's files sort as its name and a '/'); or undefined where the folder is listed whole:
 * no such directory, a symlink on the way (followed or not by the settings), or a name a glob would read
 * as a pattern. Directories `excluded` names (a path from the folder: denied, or one the listing does not
 * enter, such as .git) are left out: nothing is listed in them.
 */
export async function partsOf(folder: string, excluded: (dir: string) => boolean): Promise<FolderParts | undefined> {
  const levels = [''];
  for (let depth = 0; depth <= MAX_DESCENT; depth++) {
    const level = levels[levels.length - 1];
    const entries = await fs.readdir(level === '' ? folder : nodePath.join(folder, level), { withFileTypes: true }).catch(() => undefined);
    if (!entries || entries.some((entry) => entry.isSymbolicLink() || GLOB_SPECIAL.test(entry.name))) return undefined;
    const dirs = entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => (level === '' ? entry.name : `${level}/${entry.name}`))
      .filter((dir) => !excluded(dir))
      .sort((a, b) => comparePaths(`${a}/`, `${b}/`));
    if (dirs.length === 0) return undefined;
    if (dirs.length === 1) {
      levels.push(dirs[0]);
      continue;
    }
    const count = Math.min(PARTS, dirs.length);
    const groups = Array.from({ length: count }, (_, g) => dirs.slice(Math.floor((g * dirs.length) / count), Math.floor(((g + 1) * dirs.length) / count)));
    return { levels, groups };
  }
  return undefined;
}
