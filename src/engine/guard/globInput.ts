/**
 * The checks on a glob a call gives (`include`, `exclude`, glob's `pattern`) before anything is listed:
 * its complexity limit (docs/security.md, "Limits"; its length was checked with the input, by the
 * schema's maxLength), no absolute base, no '..'; and the base an absolute glob names.
 */
import { braceExpand } from 'minimatch';
import { globComplexityProblem, splitAbsoluteGlob } from '../globset/globs';
import { InputError } from '../api/errors';
import { HOST_FLAVOUR, samePath, type PathFlavour } from './paths';

/**
 * An include, exclude or glob pattern is relative to the search path: it cannot be absolute (the base
 * belongs in "path", where the guard judges it) nor climb out with '..' (in any brace alternative).
 */
export function checkSearchGlob(glob: string, field: 'include' | 'exclude' | 'glob', flavour: PathFlavour = HOST_FLAVOUR): void {
  const name = field === 'glob' ? 'glob' : `${field} glob`;
  const problem = globComplexityProblem(glob);
  if (problem) {
    throw new InputError(
      `Invalid ${name} ${JSON.stringify(glob.length > 200 ? `${glob.slice(0, 200)}…` : glob)}: ${problem}. Such a glob can take minutes to match; write a simpler one (or use grep's pattern, or glob's mode "regex", which run under the time limit).`,
    );
  }
  // On Windows also a drive ("C:/src/**") or a root ("\src"): a glob is never matched from there.
  if (glob.startsWith('/') || glob.startsWith('~') || flavour.isAbsolute(glob)) {
    throw new InputError(
      `Invalid ${name} ${JSON.stringify(glob)}: it is matched relative to the search path and cannot name an absolute location. Put the directory in "path" and keep the glob relative, e.g. "**/*.ts".`,
    );
  }
  if (braceExpand(glob).some((expanded) => expanded.split('/').includes('..'))) {
    throw new InputError(`Invalid ${name} ${JSON.stringify(glob)}: '..' cannot climb out of the search path. Set "path" to the directory to search instead.`);
  }
}

/**
 * The base a glob call searches: `path`, or the static prefix of an absolute glob pattern. On Windows
 * an absolute glob may spell its directories with '\' as a `path` may ("C:\ws\src\*.ts"): there every
 * '\' of it is a separator, as no file name holds one; the base is spelled with '\' however the glob
 * wrote it, as the guard names the place it resolves to (so a confirmation names one path, not two).
 */
export function globRequest(
  pattern: string,
  path: string | undefined,
  mode: 'glob' | 'regex' | undefined,
  flavour: PathFlavour = HOST_FLAVOUR,
): { pattern: string; path: string | undefined } {
  if ((mode ?? 'glob') !== 'glob' || !flavour.isAbsolute(pattern)) return { pattern, path };
  const windows = flavour.sep === '\\';
  const split = splitAbsoluteGlob(windows ? pattern.replace(/\\/g, '/') : pattern);
  const base = windows ? split.base.replace(/\//g, '\\') : split.base;
  if (path !== undefined && !samePath(flavour.resolve(path), flavour.resolve(base), flavour)) {
    throw new InputError(`Give either an absolute glob or "path", not both: pattern ${JSON.stringify(pattern)} already names the base ${base}.`);
  }
  return { pattern: split.rest, path: base };
}
