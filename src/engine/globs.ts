/** Glob matching (minimatch) and the path order every answer uses. */
import { minimatch, Minimatch } from 'minimatch';
import { InputError } from './schema';

const GLOB_OPTIONS = { dot: true, nocomment: true, nonegate: true } as const;

/** True when the glob has no '/', so it is matched against the file name at any depth. */
export function isNameGlob(glob: string): boolean {
  return !glob.includes('/');
}

/** A predicate over '/'-separated relative paths. A glob without '/' matches the file name at any depth. */
export function compileGlob(glob: string, field: string): (relative: string) => boolean {
  if (glob.includes('\\')) {
    throw new InputError(`Invalid ${field} glob ${JSON.stringify(glob)}: use '/' as the path separator, not '\\'.`);
  }
  const matcher = new Minimatch(glob.replace(/^\.\//, ''), { ...GLOB_OPTIONS, matchBase: isNameGlob(glob) });
  if (matcher.set.length === 0) throw new InputError(`Invalid ${field} glob ${JSON.stringify(glob)}: it matches nothing.`);
  return (relative) => matcher.match(relative);
}

/** The first denied-path rule that `relative` (a path below a workspace folder or search base) matches. */
export function deniedRule(relative: string, rules: readonly string[]): string | undefined {
  return rules.find((rule) => minimatch(relative, rule, { ...GLOB_OPTIONS, nocase: true }));
}

/**
 * Denied rules that name a whole directory (`**\/.ssh/**` → `**\/.ssh`): sources prune such directories
 * without listing them, as they do for files.exclude.
 */
export function deniedDirectoryGlobs(rules: readonly string[]): string[] {
  return rules.filter((rule) => rule.endsWith('/**')).map((rule) => rule.slice(0, -3));
}

/** Path order: segment by segment, so a directory's files stay together (a/b before a.txt). */
export function comparePaths(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    if (sa[i] !== sb[i]) {
      // A directory (more segments follow) and a file of the same prefix: compare names only.
      return sa[i] < sb[i] ? -1 : 1;
    }
  }
  return sa.length - sb.length;
}

const GLOB_CHARS = /[*?[\]{}]/;

/** Splits an absolute glob into its static directory prefix and the glob below it. */
export function splitAbsoluteGlob(glob: string): { base: string; rest: string } {
  const segments = glob.split('/');
  let i = 0;
  while (i < segments.length - 1 && !GLOB_CHARS.test(segments[i])) i++;
  const base = segments.slice(0, i).join('/') || '/';
  return { base, rest: segments.slice(i).join('/') };
}
