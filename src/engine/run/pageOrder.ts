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
/** How many kinds there are. */
export const KINDS = GENERATED + 1;

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

function relativeToBase(file: string, bases: readonly string[]): string {
  // relativePosix slices a file below a base as spelled (most are).
  for (const base of bases) {
    const relative = relativePosix(base, file);
    if (relative && !relative.startsWith('..') && !nodePath.isAbsolute(relative)) return relative;
  }
  return file.split(nodePath.sep).join('/');
}

/**
 * `items` by `group` (0 .. `groups` - 1), in their own order within a group: a stable sort, made as it is
 * taken. `group` (a path's kind, the costly part) is asked once per item, and only for the items the order
 * has reached, so a caller that stops after a page does not pay for every matching file.
 */
export function* byGroup<T>(items: readonly T[], group: (item: T) => number, groups: number): Generator<T> {
  const known = new Int8Array(items.length).fill(-1);
  for (let g = 0; g < groups; g++)
    for (let i = 0; i < items.length; i++) {
      if (known[i] === -1) known[i] = group(items[i]);
      if (known[i] === g) yield items[i];
    }
}

/** The items of each iterable in turn. */
export function* concat<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}

/** The first `most` items an iterable gives. */
export function firstOf<T>(items: Iterable<T>, most: number): T[] {
  const taken: T[] = [];
  if (most <= 0) return taken;
  for (const item of items) if (taken.push(item) >= most) break;
  return taken;
}

/**
 * Whether a file is named after a word of the pattern (an identifier of three characters or more, any
 * case): its name without its extensions, `WebpackError.js` for `WebpackError`. Only a name as long as one
 * of the words is lower-cased and looked up: it is asked of every matching file.
 */
export function namedAfter(pattern: string): (file: string) => boolean {
  const words = new Set((pattern.match(/[A-Za-z_$][\w$]{2,}/g) ?? []).map((word) => word.toLowerCase()));
  const lengths = new Set([...words].map((word) => word.length));
  return (file) => {
    const start = Math.max(file.lastIndexOf('/'), file.lastIndexOf(nodePath.sep)) + 1;
    const dot = file.indexOf('.', start);
    const end = dot === -1 ? file.length : dot;
    return lengths.has(end - start) && words.has(file.slice(start, end).toLowerCase());
  };
}
