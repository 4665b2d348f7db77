/**
 * Which matching files a cut page names first (docs/tools.md, "A cut page names what it hides"): a file
 * named after a word of the pattern (`WebpackError.js` for `WebpackError`), then source over tests,
 * type declarations and minified or generated files, then the files with more matching lines; ties keep
 * the stable order.
 */
import type { MatchedFile } from '../run/grepCollector';
import { fileStem as stem, patternWords } from '../run/pageOrder';

const SECONDARY = /(^|[/.\\_-])(tests?|specs?|__tests__|__mocks__|fixtures?)([/.\\_-]|$)|\.d\.[cm]?ts$|\.min\.[cm]?js$|\.map$/i;

/** `files` most relevant first (a stable sort: equal files keep their order). */
export function rankFiles<T extends MatchedFile>(files: readonly T[], pattern: string): T[] {
  const words = patternWords(pattern);
  const tier = (entry: MatchedFile) => (words.has(stem(entry.file)) ? 0 : SECONDARY.test(entry.file) ? 2 : 1);
  return files
    .map((entry, index) => ({ entry, index, tier: tier(entry) }))
    .sort((a, b) => a.tier - b.tier || b.entry.count - a.entry.count || a.index - b.index)
    .map(({ entry }) => entry);
}
