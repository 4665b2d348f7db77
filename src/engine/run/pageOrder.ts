/**
 * The order of a grep's results in mode `content` (docs/tools.md, "Order of the results"): files
 * holding a definition of the searched name first, then ordinary source, then tests, then generated and
 * vendored files (among the files holding a definition too); path order within each group. The order
 * depends only on the files and their content, never on the page asked for, so paging through it is exact.
 */
import * as nodePath from 'path';
import { relativePosix } from '../guard/paths';

/** The kinds of file by path, first to last. */
export const SOURCE = 0;
export const TEST = 1;
export const GENERATED = 2;

/** Tests and their data: a test directory, or a test file's own name (`*_test.go`, `test_*.py`, `*.spec.ts`, `FooTest.java`). */
const TEST_PATH =
  /(^|\/)(tests?|specs?|__tests__|__mocks__|fixtures?|testdata|testing|e2e|benches)\/|(^|\/)test_[^/]*\.py$|_test\.(go|py|rb|rs|c|cc|cpp|exs?)$|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)[^/]*Tests?\.(java|cs|kt|scala|php)$|_spec\.rb$/i;

/** Generated or vendored: built bundles, vendored trees, minified files, source maps and lock files. */
const GENERATED_PATH =
  /(^|\/)(dist|vendor|third[_-]party|node_modules|bower_components)\/|\.min\.[cm]?js$|\.bundle\.[cm]?js$|\.map$|\.pb\.go$|_pb2\.pyi?$|(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|go\.sum|poetry\.lock|Pipfile\.lock|composer\.lock|Gemfile\.lock|uv\.lock)$/i;

/** The group a file's path puts it in, the path taken relative to the search's base (`bases`) so the base's own folders do not count. */
export function pathGroup(file: string, bases: readonly string[]): typeof SOURCE | typeof TEST | typeof GENERATED {
  const relative = relativeToBase(file, bases);
  if (GENERATED_PATH.test(relative)) return GENERATED;
  if (TEST_PATH.test(relative)) return TEST;
  return SOURCE;
}

/** The group of a file: the files holding a definition of the searched name first, each part by its path's kind. */
export function fileGroup(file: string, bases: readonly string[], defines: boolean): number {
  return (defines ? 0 : GENERATED + 1) + pathGroup(file, bases);
}

function relativeToBase(file: string, bases: readonly string[]): string {
  // relativePosix slices a file below a base as spelled (most are: a cut page takes the group of every matching file).
  for (const base of bases) {
    const relative = relativePosix(base, file);
    if (relative && !relative.startsWith('..') && !nodePath.isAbsolute(relative)) return relative;
  }
  return file.split(nodePath.sep).join('/');
}

/** `items` in the order of a cut page: by group, then in their own (path) order. A stable sort. */
export function orderByGroup<T>(items: readonly T[], group: (item: T) => number): T[] {
  return items
    .map((item, index) => ({ item, index, group: group(item) }))
    .sort((a, b) => a.group - b.group || a.index - b.index)
    .map(({ item }) => item);
}

/** The words of a pattern that could name a file: identifiers of three characters or more, lower-cased. */
export function patternWords(pattern: string): Set<string> {
  return new Set((pattern.match(/[A-Za-z_$][\w$]{2,}/g) ?? []).map((word) => word.toLowerCase()));
}

/** The file's name without its extensions: `WebpackError.js` → `webpackerror`. */
export function fileStem(file: string): string {
  return nodePath.basename(file).split('.')[0].toLowerCase();
}
