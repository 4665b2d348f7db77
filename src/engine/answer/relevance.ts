/**
 * Which matching files a cut page names first (docs/tools.md, "A cut page names what it hides"): a file
 * named after a word of the pattern (`WebpackError.js` for `WebpackError`), then source over tests,
 * type declarations and minified or generated files, then the files with more matching lines; ties keep
 * the stable order.
 */
import type { MatchedFile } from '../run/grepCollector';
import { namedAfter } from '../run/pageOrder';

const SECONDARY = /(^|[/.\\_-])(tests?|specs?|__tests__|__mocks__|fixtures?)([/.\\_-]|$)|\.d\.[cm]?ts$|\.min\.[cm]?js$|\.map$/i;

interface Ranked<T> {
  entry: T;
  index: number;
  tier: number;
}

/** Negative when `a` ranks before `b`. */
const compare = <T extends MatchedFile>(a: Ranked<T>, b: Ranked<T>) => a.tier - b.tier || b.entry.count - a.entry.count || a.index - b.index;

/**
 * The `most` most relevant of `files`, most relevant first (a stable order: equal files keep theirs). One
 * pass that keeps the best so far: a file's path is tested for the lower tier only when it could still
 * rank among them, as a cut page's note asks this of every matching file not on the page.
 */
export function rankFiles<T extends MatchedFile>(files: readonly T[], pattern: string, most: number): T[] {
  const named = namedAfter(pattern);
  const best: Ranked<T>[] = [];
  if (most <= 0) return [];
  files.forEach((entry, index) => {
    const last = best.length === most ? best[most - 1] : undefined;
    const candidate: Ranked<T> = { entry, index, tier: named(entry.file) ? 0 : 1 };
    if (last && compare(candidate, last) > 0) return; // not even in the better of its possible tiers
    if (candidate.tier === 1 && SECONDARY.test(entry.file)) {
      candidate.tier = 2;
      if (last && compare(candidate, last) > 0) return;
    }
    let at = best.length;
    while (at > 0 && compare(candidate, best[at - 1]) < 0) at--;
    best.splice(at, 0, candidate);
    if (best.length > most) best.pop();
  });
  return best.map(({ entry }) => entry);
}
