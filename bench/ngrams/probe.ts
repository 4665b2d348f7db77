/**
 * The engine pieces the n-gram bench uses, bundled by bench/ngrams.mjs (esbuild): the stored index with
 * its list reads counted, the planner, the matcher and searcher, the serve client, ripgrep's flags; and
 * the planner again over literal strings, folded and in their case (the prototypes' plans).
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { loadIndex } from '../../src/engine/index/store';
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

/** The stored index, its posting lists read from its segment files through a counter of the reads and bytes. */
export function loadCounting(indexDir: string) {
  const loaded = loadIndex(indexDir);
  if (!loaded) throw new Error(`no index of this version in ${indexDir}: build it with node dist/cli.js index --index-dir ${indexDir}`);
  const counts = { reads: 0, bytes: 0 };
  for (const { data } of loaded.index.held().segments) {
    const range = data.range.bind(data);
    data.range = (start, end) => {
      counts.reads++;
      counts.bytes += end - start;
      return range(start, end);
    };
  }
  const size = readdirSync(indexDir).reduce((sum, name) => sum + statSync(`${indexDir}/${name}`).size, 0);
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
