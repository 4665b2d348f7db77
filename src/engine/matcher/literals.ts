/**
 * Required-literal extraction (ripgrep's inner-literal idea): the longest run of plain characters that
 * every match of a pattern must contain. A file whose bytes do not contain it cannot match, so it is
 * skipped before it is decoded or regex-searched. Conservative: when unsure, no literal.
 */

const QUANTIFIER_START = new Set(['*', '+', '?', '{']);

/** Characters that stand for themselves after a backslash. */
const ESCAPED_LITERAL = /[\\^$.*+?()[\]{}|/\-'"`~!@#%&=:;,<> ]/;

/** A bounded-repetition quantifier at `i`, with its minimum count; undefined when `{` is a literal. */
function braceQuantifier(pattern: string, i: number): { min: number; end: number } | undefined {
  const match = /^\{(\d+)(,\d*)?\}/.exec(pattern.slice(i));
  return match ? { min: Number(match[1]), end: i + match[0].length } : undefined;
}

/** Skips a group or class starting at `i` (pattern[i] is '(' or '['); returns the index after it. */
function skipBracketed(pattern: string, i: number): number {
  if (pattern[i] === '[') {
    let j = i + 1;
    if (pattern[j] === '^') j++;
    if (pattern[j] === ']') j++;
    for (; j < pattern.length; j++) {
      if (pattern[j] === '\\') j++;
      else if (pattern[j] === ']') return j + 1;
    }
    return pattern.length;
  }
  let depth = 0;
  for (let j = i; j < pattern.length; j++) {
    const c = pattern[j];
    if (c === '\\') j++;
    else if (c === '[') j = skipBracketed(pattern, j) - 1;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j + 1;
  }
  return pattern.length;
}

/** True when the pattern has a `|` outside any group or class (then no single literal is required). */
export function hasTopLevelAlternation(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[' || c === '(') i = skipBracketed(pattern, i) - 1;
    else if (c === '|') return true;
  }
  return false;
}

/**
 * The atom of the pattern at `i` and where the next one starts: `atom` is the literal character it
 * stands for, or undefined for anything else (a class, a group, an anchor, an escape such as \d, a
 * quantifier with nothing literal before it). Undefined for a pattern ending in a lone backslash.
 */
function readAtom(pattern: string, i: number): { atom?: string; next: number } | undefined {
  const c = pattern[i];
  if (c === '\\') {
    const e = pattern[i + 1];
    if (e === undefined) return undefined;
    const atom = ESCAPED_LITERAL.test(e) ? e : e === 'n' ? '\n' : e === 't' ? '\t' : undefined;
    // \d, \w, \b, \p{..}, \u...., \x.., back-references: not literal (\p{..} and \u{..} braces skipped).
    const next = i + 2;
    if (((e === 'p' || e === 'P' || e === 'u' || e === 'k') && pattern[next] === '{') || (e === 'k' && pattern[next] === '<')) {
      const close = pattern.indexOf(e === 'k' && pattern[next] === '<' ? '>' : '}', next);
      return { atom, next: close === -1 ? pattern.length : close + 1 };
    }
    if (e === 'u') return { atom, next: i + 6 };
    if (e === 'x') return { atom, next: i + 4 };
    if (e === 'c') return { atom, next: i + 3 };
    return { atom, next };
  }
  if (c === '(' || c === '[') return { next: skipBracketed(pattern, i) };
  if (c === '.' || c === '^' || c === '$' || c === ')' || c === ']' || c === '|') return { next: i + 1 };
  if (QUANTIFIER_START.has(c) && !(c === '{' && braceQuantifier(pattern, i) === undefined)) {
    // A quantifier with nothing literal before it (handled by the caller), e.g. after a group.
    return { next: c === '{' ? braceQuantifier(pattern, i)!.end : i + 1 };
  }
  // A surrogate pair is one character.
  if (c >= '\ud800' && c <= '\udbff' && i + 1 < pattern.length) return { atom: pattern.slice(i, i + 2), next: i + 2 };
  return { atom: c, next: i + 1 };
}

/** The longest literal that every match of the JavaScript regex `pattern` contains, if any. */
export function requiredLiteral(pattern: string): string | undefined {
  if (hasTopLevelAlternation(pattern)) return undefined;
  let best = '';
  let run = '';
  const endRun = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  let i = 0;
  while (i < pattern.length) {
    const read = readAtom(pattern, i);
    if (!read) return undefined;
    const { atom } = read;
    let { next } = read;
    // A quantifier after the atom: optional atoms break the run; '+' / {n≥1,} keep one copy, then break.
    const q = pattern[next];
    const brace = q === '{' ? braceQuantifier(pattern, next) : undefined;
    if (q === '*' || q === '?' || q === '+' || brace) {
      const min = q === '+' ? 1 : brace ? brace.min : 0;
      if (atom !== undefined && min >= 1) run += atom;
      endRun();
      next = brace ? brace.end : next + 1;
      if (pattern[next] === '?') next++; // lazy
    } else if (atom !== undefined) {
      run += atom;
    } else {
      endRun();
    }
    i = next;
  }
  endRun();
  return best.length > 0 ? best : undefined;
}
