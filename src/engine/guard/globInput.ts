/**
 * The checks on a glob a call gives (`include`, `exclude`, glob's `pattern`) before anything is listed:
 * its complexity limit (docs/security.md, "Limits"; its length was checked with the input, by the
 * schema's maxLength), no absolute base, no '..'; and the base an absolute glob names.
 */
import * as nodePath from 'path';
import { braceExpand } from 'minimatch';
import { globComplexityProblem, splitAbsoluteGlob } from '../globset/globs';
import { InputError } from '../api/errors';

/**
 * An include, exclude or glob pattern is relative to the search path: it cannot be absolute (the base
 * belongs in "path", where the guard judges it) nor climb out with '..' (in any brace alternative).
 */
export function checkSearchGlob(glob: string, field: 'include' | 'exclude' | 'glob'): void {
  const name = field === 'glob' ? 'glob' : `${field} glob`;
  const problem = globComplexityProblem(glob);
  if (problem) {
    throw new InputError(
      `Invalid ${name} ${JSON.stringify(glob.length > 200 ? `${glob.slice(0, 200)}…` : glob)}: ${problem}. Such a glob can take minutes to match; write a simpler one (or use grep's pattern, or glob's mode "regex", which run under the time limit).`,
    );
  }
  if (glob.startsWith('/') || glob.startsWith('~')) {
    throw new InputError(
      `Invalid ${name} ${JSON.stringify(glob)}: it is matched relative to the search path and cannot name an absolute location. Put the directory in "path" and keep the glob relative, e.g. "**/*.ts".`,
    );
  }
  if (braceExpand(glob).some((expanded) => expanded.split('/').includes('..'))) {
    throw new InputError(`Invalid ${name} ${JSON.stringify(glob)}: '..' cannot climb out of the search path. Set "path" to the directory to search instead.`);
  }
}

/** The base a glob call searches: `path`, or the static prefix of an absolute glob pattern. */
export function globRequest(pattern: string, path: string | undefined, mode: 'glob' | 'regex' | undefined): { pattern: string; path: string | undefined } {
  if ((mode ?? 'glob') !== 'glob' || !nodePath.isAbsolute(pattern)) return { pattern, path };
  const split = splitAbsoluteGlob(pattern);
  if (path !== undefined && nodePath.resolve(path) !== nodePath.resolve(split.base)) {
    throw new InputError(`Give either an absolute glob or "path", not both: pattern ${JSON.stringify(pattern)} already names the base ${split.base}.`);
  }
  return { pattern: split.rest, path: split.base };
}
