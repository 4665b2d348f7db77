/**
 * The folding both the index and the query planner apply to text before taking its trigrams: one UTF-16
 * code unit to one code unit, so a substring of a text folds to a substring of the folded text. ASCII
 * letters fold to lower case, and the two characters that Unicode case folding maps to ASCII letters
 * (U+212A KELVIN SIGN → k, U+017F LATIN SMALL LETTER LONG S → s) fold to them; every other unit is kept.
 * A case-sensitive query then finds a superset of its files, and an ASCII letter ignoring case finds
 * every spelling a JavaScript regex with `i` (with or without `u`) accepts for it.
 */

export function foldUnit(unit: number): number {
  if (unit >= 65 && unit <= 90) return unit + 32;
  if (unit === 0x212a) return 107; // 'k'
  if (unit === 0x017f) return 115; // 's'
  return unit;
}

/**
 * A trigram's key: exact for three ASCII units, a hash above the ASCII range otherwise (a collision only
 * adds candidates). Keys stay below 2^30, small integers to V8 (fast as Map keys).
 */
export function trigramKey(a: number, b: number, c: number): number {
  if ((a | b | c) < 128) return (a << 14) | (b << 7) | c;
  const hash = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) >>> 0;
  return ASCII_KEYS + (hash % (KEY_LIMIT - ASCII_KEYS));
}

const KEY_LIMIT = 1 << 30;

/** Keys below this are the exact keys of ASCII trigrams. */
export const ASCII_KEYS = 1 << 21;

/** foldUnit of each ASCII unit. */
export const ASCII_FOLD = Uint8Array.from({ length: 128 }, (_, unit) => foldUnit(unit));

/** The keys of the trigrams of `text` after folding, each once, in no particular order. */
export function trigramKeys(text: string): number[] {
  const keys = new Set<number>();
  forEachTrigram(text, (key) => keys.add(key));
  return [...keys];
}

/** Calls `visit` with the key of every trigram of the folded text (repeats included). */
export function forEachTrigram(text: string, visit: (key: number) => void): void {
  if (text.length < 3) return;
  let a = foldUnit(text.charCodeAt(0));
  let b = foldUnit(text.charCodeAt(1));
  for (let i = 2; i < text.length; i++) {
    const c = foldUnit(text.charCodeAt(i));
    visit(trigramKey(a, b, c));
    a = b;
    b = c;
  }
}

/** The folded text (for the planner's literals). */
export function foldText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(foldUnit(text.charCodeAt(i)));
  return out;
}
