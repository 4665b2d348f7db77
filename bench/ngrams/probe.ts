/**
 * The engine pieces the n-gram bench uses, bundled by bench/ngrams.mjs (esbuild): the stored index read
 * through a counting reader, the planner, the matcher and searcher, the serve client, ripgrep's flags;
 * and a prototype of sparse n-grams (sparse.ts) with the planner's literals kept as strings.
 */
import { readSync, openSync, fstatSync, readFileSync, statSync } from 'fs';
import { deserialise } from '../../src/engine/index/store';
import { planRegex } from '../../src/engine/index/planner';
import { compileMatcher, escapeRegExp } from '../../src/engine/matcher/matcher';
import { searchText } from '../../src/engine/searcher/searcher';
import { askServer } from '../../src/cli/client';
import { parseArguments, type CliRequest } from '../../src/cli/arguments';
import { ripgrepArgs, findRipgrep } from '../../test/support/ripgrep';
import { planLiterals } from './literalPlanner';
import { planCaseLiterals } from './casePlanner';

export { planRegex, compileMatcher, escapeRegExp, searchText, askServer, parseArguments, ripgrepArgs, findRipgrep, planLiterals, planCaseLiterals };
export type { CliRequest };

/** The stored index, its posting bytes read a range at a time through a reader that counts what it reads. */
export function loadCounting(indexDir: string) {
  const fd = openSync(`${indexDir}/index.bin`, 'r');
  const counts = { reads: 0, bytes: 0 };
  const readAt = (position: number, length: number) => {
    counts.reads++;
    counts.bytes += length;
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const read = readSync(fd, buffer, filled, length - filled, position + filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  };
  const size = fstatSync(fd).size;
  const loaded = deserialise(readAt, size);
  return { ...loaded, counts, size };
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

export function fileSize(path: string): number {
  return statSync(path).size;
}

export function matchesText(text: string, matcher: ReturnType<typeof compileMatcher>): boolean {
  return searchText(text, matcher, { invert: false, before: 0, after: 0, maxPerFile: 1, maxLineLength: 500, collect: false }).count > 0;
}
