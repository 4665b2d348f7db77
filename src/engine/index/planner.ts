/**
 * The query planner: a compiled regex → the trigram query every file holding a match satisfies (Russ
 * Cox's analysis for codesearch). Each node of the pattern, parsed by @eslint-community/regexpp, is
 * described by the exact strings it matches (when few), or by the prefixes and suffixes of its matches
 * and a query they satisfy; concatenation adds the trigrams across the boundary. Conservative: a file
 * the query rules out cannot hold a match; when unsure a node may match anything (the query then loses
 * precision, never files). Strings are folded (fold.ts) as the index folds the text.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { foldText } from './fold';
import { ALL, and, containingAny, or, type Query } from './query';

interface Info {
  /** When defined, the node matches exactly these (folded) strings. */
  exact?: Set<string>;
  /** Otherwise: every match starts with one of these, ends with one of these, and satisfies `match`. */
  prefix: Set<string>;
  suffix: Set<string>;
  match: Query;
}

/** At most this many exact strings, prefixes or suffixes per node. */
const SET_LIMIT = 16;
/** Suffix × prefix pairs turned into boundary trigrams. */
const CROSS_LIMIT = 64;
/** Characters a class may stand for and still be a set of exact strings. */
const CLASS_LIMIT = 8;
/** Copies of a repeated node unrolled. */
const UNROLL_LIMIT = 4;

const EMPTY = new Set(['']);
const anything = (): Info => ({ prefix: EMPTY, suffix: EMPTY, match: ALL });
const exactly = (strings: Iterable<string>): Info => {
  const exact = new Set(strings);
  return { exact, prefix: exact, suffix: exact, match: ALL };
};

/** The query every match of the node satisfies. */
function full(info: Info): Query {
  return info.exact ? containingAny(info.exact) : info.match;
}

function trim(strings: Set<string>, keep: (s: string, length: number) => string): Set<string> {
  let set = strings;
  for (let length = 3; set.size > SET_LIMIT && length >= 0; length--) set = new Set([...strings].map((s) => keep(s, length)));
  return set;
}
const trimPrefixes = (strings: Set<string>) => trim(strings, (s, n) => s.slice(0, n));
const trimSuffixes = (strings: Set<string>) => trim(strings, (s, n) => (n === 0 ? '' : s.slice(-n)));

function cross(left: Set<string>, right: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const a of left) for (const b of right) out.add(a + b);
  return out;
}

function concat(a: Info, b: Info): Info {
  if (a.exact && b.exact && a.exact.size * b.exact.size <= SET_LIMIT) return exactly(cross(a.exact, b.exact));
  const left = a.exact ?? a.suffix;
  const right = b.exact ?? b.prefix;
  const boundary = left.size * right.size <= CROSS_LIMIT ? containingAny(cross(left, right)) : ALL;
  const prefix = a.exact ? (a.exact.size * right.size <= SET_LIMIT ? cross(a.exact, right) : a.exact) : a.prefix;
  const suffix = b.exact ? (left.size * b.exact.size <= SET_LIMIT ? cross(left, b.exact) : b.exact) : b.suffix;
  return { prefix: trimPrefixes(prefix), suffix: trimSuffixes(suffix), match: and([full(a), full(b), boundary]) };
}

function alternate(infos: Info[]): Info {
  if (infos.every((info) => info.exact)) {
    const union = new Set(infos.flatMap((info) => [...info.exact!]));
    if (union.size <= SET_LIMIT) return exactly(union);
  }
  const prefix = new Set(infos.flatMap((info) => [...(info.exact ?? info.prefix)]));
  const suffix = new Set(infos.flatMap((info) => [...(info.exact ?? info.suffix)]));
  return { prefix: trimPrefixes(prefix), suffix: trimSuffixes(suffix), match: or(infos.map(full)) };
}

/** One or more copies of the node: what every such string starts and ends with, and contains. */
function oneOrMore(x: Info): Info {
  return { prefix: trimPrefixes(x.exact ?? x.prefix), suffix: trimSuffixes(x.exact ?? x.suffix), match: full(x) };
}

function repeat(x: Info, min: number, max: number): Info {
  if (max === 0) return exactly(EMPTY);
  if (min === 0) return max === 1 && x.exact && x.exact.size < SET_LIMIT ? exactly([...x.exact, '']) : anything();
  if (min === max && min <= UNROLL_LIMIT) {
    let out = x;
    for (let i = 1; i < min; i++) out = concat(out, x);
    return out;
  }
  let out = oneOrMore(x);
  for (let i = 1; i < Math.min(min, UNROLL_LIMIT); i++) out = concat(x, out);
  return out;
}

/**
 * Whether a character other than ASCII may be kept as itself in a search that ignores case: only one
 * with no case mapping in a script or category without case (Han, kana, Hangul, punctuation, math and
 * currency symbols, spaces, decimal digits). Other characters stand for any character.
 */
const CASELESS = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{P}\p{Sm}\p{Sc}\p{Zs}\p{Nd}]$/u;
function keptIgnoringCase(text: string): boolean {
  return text.toLowerCase() === text && text.toUpperCase() === text && CASELESS.test(text);
}

/** The folded spelling of a character, or undefined when it cannot be pinned down. */
function characterText(value: number, ignoreCase: boolean): string | undefined {
  const text = String.fromCodePoint(value);
  if (ignoreCase && value >= 128 && !keptIgnoringCase(text)) return undefined;
  return foldText(text);
}

function characterClass(node: AST.CharacterClass, ignoreCase: boolean): Info {
  if (node.negate || node.unicodeSets) return anything();
  const strings = new Set<string>();
  for (const element of node.elements) {
    if (element.type === 'Character') {
      const text = characterText(element.value, ignoreCase);
      if (text === undefined) return anything();
      strings.add(text);
    } else if (element.type === 'CharacterClassRange') {
      if (element.max.value - element.min.value >= CLASS_LIMIT) return anything();
      for (let value = element.min.value; value <= element.max.value; value++) {
        const text = characterText(value, ignoreCase);
        if (text === undefined) return anything();
        strings.add(text);
      }
    } else {
      return anything();
    }
    if (strings.size > CLASS_LIMIT) return anything();
  }
  return exactly(strings);
}

function alternatives(list: AST.Alternative[], ignoreCase: boolean): Info {
  return alternate(list.map((alternative) => alternative.elements.reduce((info, element) => concat(info, describe(element, ignoreCase)), exactly(EMPTY))));
}

function describe(node: AST.Element, ignoreCase: boolean): Info {
  switch (node.type) {
    case 'Character': {
      const text = characterText(node.value, ignoreCase);
      return text === undefined ? anything() : exactly([text]);
    }
    case 'CharacterClass':
      return characterClass(node, ignoreCase);
    case 'CharacterSet':
      return anything();
    case 'Assertion':
      return exactly(EMPTY); // consumes nothing
    case 'Backreference':
      return anything();
    case 'Group':
      return node.modifiers ? anything() : alternatives(node.alternatives, ignoreCase);
    case 'CapturingGroup':
      return alternatives(node.alternatives, ignoreCase);
    case 'Quantifier':
      return repeat(describe(node.element, ignoreCase), node.min, node.max);
    default:
      return anything();
  }
}

/** The query for a regex as the searcher runs it (its source and flags); `all` when the pattern gives nothing usable. */
export function planRegex(regex: RegExp): Query {
  let pattern: AST.Pattern;
  try {
    pattern = new RegExpParser({ strict: false }).parsePattern(regex.source, 0, regex.source.length, { unicode: regex.unicode, unicodeSets: false });
  } catch {
    return ALL;
  }
  return full(alternatives(pattern.alternatives, regex.ignoreCase));
}
