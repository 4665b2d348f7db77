/**
 * The searcher: file bytes → text → reported lines. Detects binary files, decodes UTF-8 (BOM stripped)
 * and UTF-16 with a BOM, finds matching lines with a whole-text regex scan (verified per line), or, for
 * a pattern with a required literal, from the literal's occurrences in the bytes (only those lines are
 * decoded), and attaches before/after context without repeating a line.
 */
import { compileMatcher, escapeRegExp, type Matcher, type MatcherOptions } from '../matcher/matcher';
import type { LineResult } from '../api/types';

export const BINARY_PROBE_BYTES = 8192;

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The length of a UTF-8 BOM at the start of `bytes` (3), or 0: the decoded text leaves it out. */
function utf8BomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** True for a binary file: a NUL byte in the first 8 KB of a file without a UTF-16 BOM. */
export function isBinary(bytes: Uint8Array): boolean {
  return !hasUtf16Bom(bytes) && asBuffer(bytes).subarray(0, BINARY_PROBE_BYTES).indexOf(0) !== -1;
}

/** Decoded text, or undefined for a binary file. UTF-8 (BOM stripped), or UTF-16 LE/BE with a BOM. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (isBinary(bytes)) return undefined;
  return asBuffer(bytes).toString('utf8', utf8BomLength(bytes));
}

/** UTF-8 of the characters that Unicode case folding maps to ASCII 'k' and 's' (KELVIN SIGN, LONG S). */
const FOLDS_TO_K = Buffer.from('\u212a', 'utf8');
const FOLDS_TO_S = Buffer.from('\u017f', 'utf8');

// eslint-disable-next-line no-control-regex -- NUL to DEL is the ASCII range
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Whether a match of an ASCII literal ignoring case may hold a character other than ASCII: only in
 * Unicode mode, where U+212A folds to k and U+017F to s.
 */
function foldsBeyondAscii(matcher: Matcher, literal: string): boolean {
  return matcher.regex.unicode && /[ks]/i.test(literal);
}

/**
 * The byte prefilter for a matcher: false means the file cannot match, so it need not be decoded or
 * regex-searched. Undefined when the matcher has no required literal (or it cannot be tested on bytes).
 */
export function compilePrefilter(matcher: Matcher): ((bytes: Uint8Array) => boolean) | undefined {
  const literal = matcher.literal;
  if (!literal) return undefined;
  // Ignoring case, a literal other than ASCII (é also matches É) is not tested on bytes.
  if (matcher.ignoreCase && !ASCII.test(literal)) return undefined;
  if (!matcher.ignoreCase || !/[a-zA-Z]/.test(literal)) {
    const needle = Buffer.from(literal, 'utf8');
    return (bytes) => asBuffer(bytes).indexOf(needle) !== -1;
  }
  // An ASCII literal ignoring case: found in the bytes read as Latin-1 (asciiIgnoringCase).
  const occurrences = asciiIgnoringCase(literal);
  const unicodeFolds = foldsBeyondAscii(matcher, literal);
  return (bytes) => {
    const buffer = asBuffer(bytes);
    return occurrences(buffer)(0) !== -1 || (unicodeFolds && (buffer.indexOf(FOLDS_TO_K) !== -1 || buffer.indexOf(FOLDS_TO_S) !== -1));
  };
}

/** Bytes read as Latin-1 text at a time when looking for a literal ignoring case: small strings are cheap to collect. */
const LATIN1_CHUNK = 64 * 1024;

/**
 * The occurrences of an ASCII literal ignoring case in bytes read as Latin-1 text, where only ASCII
 * letters fold to ASCII letters. The bytes are read a chunk at a time, each overlapping the one before
 * by the literal's length less one, so a search that stops early reads little and no string is large.
 */
function asciiIgnoringCase(literal: string): Occurrences {
  const regex = new RegExp(escapeRegExp(literal), 'gi');
  const overlap = literal.length - 1;
  return (bytes) => {
    let chunkStart = 0;
    let text: string | undefined;
    return (from) => {
      for (let start = from; start < bytes.length;) {
        if (text === undefined || start < chunkStart || start >= chunkStart + text.length) {
          chunkStart = start;
          text = bytes.toString('latin1', start, Math.min(bytes.length, start + Math.max(LATIN1_CHUNK, 2 * literal.length)));
        }
        regex.lastIndex = start - chunkStart;
        const found = regex.exec(text);
        if (found) return chunkStart + found.index;
        const chunkEnd = chunkStart + text.length;
        if (chunkEnd >= bytes.length) break;
        // The next chunk begins where a match could still end past this one.
        start = Math.max(start, chunkEnd - overlap);
        text = undefined;
      }
      return -1;
    };
  };
}

export interface SearchOptions {
  invert: boolean;
  before: number;
  after: number;
  /** Stop after this many reported lines in the file. */
  maxPerFile: number;
  maxLineLength: number;
  /** false: count reported lines only (count and files_with_matches modes, files past the page). */
  collect: boolean;
  /** With collect: the text of at most this many reported lines (the page's room); all are counted. */
  collectLimit?: number;
  /** Without collect: still give the first reported line (`FileMatches.first`: mode content, past the page). */
  first?: boolean;
  /** Say whether a matching line looks like a declaration of what it matches (`FileMatches.declares`; one-line, not inverted). */
  declarations?: boolean;
}

export interface FileMatches {
  /** Reported lines in the file (matches, or non-matching lines with invert). */
  count: number;
  /** Present when options.collect. */
  lines: LineResult[];
  /** Without options.collect: the first reported line, with no context (a cut page's note quotes it). */
  first?: LineResult;
  /** With options.declarations: a matching line looks like a declaration of the match (looksLikeDeclaration). */
  declares?: true;
  /**
   * Whether the file defines a name the pattern matches, once a cut page's order asked (run/grep.ts): kept
   * with the outcome, so a search that replays a remembered outcome does not ask again.
   */
  defines?: boolean;
  /**
   * Its lines up to this line number carry their definitions (`in`, `defines`), given by a page's outline
   * (run/grep.ts): kept with a remembered outcome, so a page that shows them again does not ask again.
   */
  outlinedThrough?: number;
  /**
   * Sent to be parsed for its definitions ahead of the next page (run/grep.ts, outlineAhead): kept with a
   * remembered outcome (dropped when the file changes), so the same question asked again does not send it again.
   */
  parsedAhead?: true;
  /**
   * A file without a match, searched with its spec's fallbacks (pool.ts, SearchSpec.fallbacks) when one
   * of them matches: each reading's reported lines and first line, in the readings' order (null: none).
   */
  fallbacks?: Array<{ count: number; first?: LineResult } | null>;
}

/**
 * What may stand before a declared name on its line: nothing but words (keywords, modifiers, types,
 * with generics, `pub(crate)`, `@Annotation`) and a Go receiver `(s *Server)`, each followed by spaces.
 */
const DECLARATION_PREFIX = /^\s*(?:(?:[@#]?[\w$]+(?:\([\w:\s]*\))?(?:<[^<>]*>)?[*&?[\]]*|<[^<>]*>|\([^()]*\))\s+)*$/;
/** A declaring keyword right before the match, whatever precedes it: `module.exports = class X`, `return function f(`. */
const DECLARING_KEYWORD = /(?:^|[^\w$.])(?:class|function\*?|def|fn|func|struct|interface|enum|trait|type|module|namespace)\s+$/;
/** Words that make the line a statement or an expression rather than a declaration. */
const NOT_DECLARING =
  /(?:^|\s)(?:return|new|await|throw|yield|else|case|in|of|typeof|instanceof|delete|echo|print|raise|import|from|use|using|goto|if|for|while|do|with|assert|not|and|or|lambda|go|defer|let\s+mut)\s/;

/**
 * A cheap test, run on the matching lines of files in a language with a grammar, of whether the match
 * at `column` may be the name a declaration declares (`pub struct WalkBuilder {`, `def walk(`,
 * `func (s *S) Walk(`, a method `  walk(a) {`): only such files are parsed to learn whether they hold a
 * definition of the searched name (run/grep.ts, the order of a cut page). It lets through calls at the
 * start of a line too; the parse decides.
 */
export function looksLikeDeclaration(line: string, column: number): boolean {
  if (column > 200) return false;
  const before = line.slice(0, column);
  return (DECLARATION_PREFIX.test(before) && !NOT_DECLARING.test(before)) || DECLARING_KEYWORD.test(before);
}

/**
 * The options of one file searched for a page with room for `pageRoom` more reported lines: with no
 * room, counts only (and the first line, if asked); else at most that many lines' text.
 */
export function pageOptions(search: SearchOptions, pageRoom: number): SearchOptions {
  return { ...search, collect: search.collect && pageRoom > 0, collectLimit: pageRoom };
}

/** A hit before context is attached: the reported line (1-based), its span of lines and match column. */
interface Hit {
  line: number;
  lastLine: number;
  start: number;
  column: number;
  length: number;
}

/** Start offsets of every line; a final newline does not begin another line. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
}

function lineTextAt(text: string, start: number): string {
  const end = lineEnd(text, start);
  return text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
}

/** A long line cut to a window of `max` characters around the match, with … where it was cut. */
export function clipLine(line: string, max: number, column = 0, length = 0): string {
  if (line.length <= max) return line;
  const lead = Math.max(0, Math.floor((max - Math.min(length, max)) / 3));
  const start = Math.max(0, Math.min(column - lead, line.length - max));
  const end = start + max;
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}

/** Finds the hits of a non-multiline search: one per line that holds a match inside that line. */
function findLineHits(text: string, matcher: Matcher, limit: number): Hit[] {
  if (matcher.literal && !matcher.ignoreCase && !matcher.literal.includes('\n')) return findLineHitsByLiteral(text, matcher, matcher.literal, limit);
  const regex = matcher.regex;
  const lineRegex = matcher.lineRegex;
  const hits: Hit[] = [];
  let line = 1;
  let counted = 0;
  regex.lastIndex = 0;
  while (hits.length < limit) {
    const found = regex.exec(text);
    if (!found) break;
    const at = found.index;
    const start = text.lastIndexOf('\n', at - 1) + 1;
    if (start >= text.length) break; // the empty "line" after a final newline, or in an empty file
    const end = lineEnd(text, start);
    for (let i = text.indexOf('\n', counted); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) {
      line++;
      counted = i + 1;
    }
    let column = at - start;
    let length = found[0].length;
    if (at + length > end || text.charCodeAt(end - 1) === 13) {
      // The match ran past the line (or the line ends in \r): verify on the line's own text.
      const verified = lineRegex.exec(lineTextAt(text, start));
      if (!verified) {
        regex.lastIndex = end + 1;
        if (end >= text.length) break;
        continue;
      }
      column = verified.index;
      length = verified[0].length;
    }
    hits.push({ line, lastLine: line, start, column, length });
    if (end >= text.length) break;
    regex.lastIndex = end + 1;
  }
  return hits;
}

/**
 * The same hits, found from the occurrences of a literal that every match contains: only the lines
 * holding it are tested with the regex (so a regex never runs over the rest of a long file).
 */
function findLineHitsByLiteral(text: string, matcher: Matcher, literal: string, limit: number): Hit[] {
  const hits: Hit[] = [];
  let line = 1;
  let counted = 0;
  for (let at = text.indexOf(literal); at !== -1 && hits.length < limit;) {
    const start = text.lastIndexOf('\n', at - 1) + 1;
    const end = lineEnd(text, start);
    const found = matcher.lineRegex.exec(text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end));
    if (found) {
      for (let i = text.indexOf('\n', counted); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) {
        line++;
        counted = i + 1;
      }
      hits.push({ line, lastLine: line, start, column: found.index, length: found[0].length });
    }
    if (end >= text.length) break;
    at = text.indexOf(literal, end + 1);
  }
  return hits;
}

/** Hits of a multiline search: each match at its first line; matches that share a line are one hit. */
function findMultilineHits(text: string, matcher: Matcher, starts: number[], limit: number): Hit[] {
  const regex = matcher.regex;
  const hits: Hit[] = [];
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  regex.lastIndex = 0;
  for (let found = regex.exec(text); found; found = regex.exec(text)) {
    if (found[0].length === 0) regex.lastIndex++;
    if (found.index >= text.length && (text.length === 0 || text.endsWith('\n'))) break;
    const first = lineOf(found.index);
    const last = lineOf(Math.max(found.index, found.index + found[0].length - 1));
    const previous = hits[hits.length - 1];
    if (previous && first <= previous.lastLine) {
      previous.lastLine = Math.max(previous.lastLine, last);
      continue;
    }
    if (hits.length >= limit) break;
    hits.push({ line: first, lastLine: last, start: starts[first - 1], column: found.index - starts[first - 1], length: found[0].length });
  }
  return hits;
}

/** Lines that do not match (each line tested on its own), or with multiline, lines no match touches. */
function findInvertedHits(text: string, matcher: Matcher, starts: number[], limit: number): Hit[] {
  const covered = new Set<number>();
  if (matcher.multiline) {
    for (const hit of findMultilineHits(text, matcher, starts, Number.MAX_SAFE_INTEGER)) {
      for (let l = hit.line; l <= hit.lastLine; l++) covered.add(l);
    }
  }
  const lineRegex = matcher.lineRegex;
  const hits: Hit[] = [];
  for (let i = 0; i < starts.length && hits.length < limit; i++) {
    if (text.length === 0) break;
    const line = i + 1;
    const matches = matcher.multiline ? covered.has(line) : lineRegex.test(lineTextAt(text, starts[i]));
    if (!matches) hits.push({ line, lastLine: line, start: starts[i], column: 0, length: 0 });
  }
  return hits;
}

/** Searches one decoded text. */
export function searchText(text: string, matcher: Matcher, options: SearchOptions): FileMatches {
  const limit = options.maxPerFile;
  const needStarts = options.invert || matcher.multiline || (options.collect && (options.before > 0 || options.after > 0));
  const starts = needStarts ? lineStarts(text) : [];
  const hits = options.invert
    ? findInvertedHits(text, matcher, starts, limit)
    : matcher.multiline
      ? findMultilineHits(text, matcher, starts, limit)
      : findLineHits(text, matcher, limit);
  const max = options.maxLineLength;
  /** A hit's reported text: its line (or, multiline, the lines its match spans), clipped around the match. */
  const hitText = (hit: Hit) => {
    const spanned: string[] = [];
    for (let l = hit.line; l <= hit.lastLine; l++) {
      const raw = l === hit.line ? lineTextAt(text, hit.start) : lineTextAt(text, starts[l - 1]);
      spanned.push(l === hit.line ? clipLine(raw, max, hit.column, hit.length) : clipLine(raw, max));
    }
    return spanned.join('\n');
  };
  const declares =
    options.declarations && !options.invert && !matcher.multiline && hits.some((hit) => looksLikeDeclaration(lineTextAt(text, hit.start), hit.column))
      ? ({ declares: true } as const)
      : undefined;
  if (!options.collect)
    return hits.length === 0 || !options.first
      ? { count: hits.length, lines: [], ...declares }
      : { count: hits.length, lines: [], first: { line: hits[0].line, text: hitText(hits[0]) }, ...declares };

  const contextLine = (line: number) => clipLine(lineTextAt(text, starts[line - 1]), max);
  return { count: hits.length, lines: reportedLines(hits, options, starts.length, hitText, contextLine), ...declares };
}

/**
 * The lines reported for the hits (up to options.collectLimit), each with its context lines before and
 * after (`lineCount` lines in all): a line already shown, as a hit or as context, is not shown again.
 */
function reportedLines(
  hits: Hit[],
  options: SearchOptions,
  lineCount: number,
  hitText: (hit: Hit) => string,
  contextLine: (line: number) => string,
): LineResult[] {
  const lines: LineResult[] = [];
  let shownThrough = 0; // last line already shown, as a hit or as context
  hits.slice(0, options.collectLimit ?? hits.length).forEach((hit, index) => {
    const result: LineResult = { line: hit.line, text: hitText(hit) };
    if (options.before > 0) {
      const from = Math.max(hit.line - options.before, shownThrough + 1, 1);
      const before: string[] = [];
      for (let l = from; l < hit.line; l++) before.push(contextLine(l));
      if (before.length > 0) result.before = before;
    }
    shownThrough = hit.lastLine;
    if (options.after > 0) {
      const next = hits[index + 1];
      const to = Math.min(hit.lastLine + options.after, next ? next.line - 1 : lineCount, lineCount);
      const after: string[] = [];
      for (let l = hit.lastLine + 1; l <= to; l++) after.push(contextLine(l));
      if (after.length > 0) result.after = after;
      shownThrough = Math.max(shownThrough, to);
    }
    lines.push(result);
  });
  return lines;
}

/**
 * Searches one file's bytes: 'binary' for a binary file; a file the prefilter rules out has no match
 * (with invert_match every line of it would be reported, so the prefilter is not used then). A search
 * with a required literal and no context finds its lines in the bytes (occurrencesOf, lineHitsInBytes).
 */
export function searchBytes(
  bytes: Uint8Array,
  matcher: Matcher,
  prefilter: ((bytes: Uint8Array) => boolean) | undefined,
  options: SearchOptions,
): FileMatches | 'binary' {
  if (isBinary(bytes)) return 'binary';
  if (hasUtf16Bom(bytes)) return searchText(decodeText(bytes)!, matcher, options);
  const withContext = options.collect && (options.before > 0 || options.after > 0);
  const occurrences = options.invert || withContext ? undefined : occurrencesOf(matcher);
  if (occurrences) return lineHitsInBytes(asBuffer(bytes), occurrences, matcher, options);
  if (prefilter && !options.invert && !prefilter(bytes)) return { count: 0, lines: [] };
  return searchText(decodeText(bytes)!, matcher, options);
}

/** A pattern compiled for searching bytes: its matcher and its byte prefilter. */
export interface CompiledPattern {
  matcher: Matcher;
  prefilter: ((bytes: Uint8Array) => boolean) | undefined;
}

export function compilePattern(pattern: string, options: MatcherOptions): CompiledPattern {
  const matcher = compileMatcher(pattern, options);
  return { matcher, prefilter: compilePrefilter(matcher) };
}

/** Searches bytes, or a text already decoded. */
export function searchContent(content: string | Uint8Array, { matcher, prefilter }: CompiledPattern, options: SearchOptions): FileMatches | 'binary' {
  return typeof content === 'string' ? searchText(content, matcher, options) : searchBytes(content, matcher, prefilter, options);
}

/**
 * Searches the content; when it holds no match and `fallbacks` are given (other readings of the pattern:
 * an empty answer's notes, pool.ts SearchSpec.fallbacks), searches it for each of them too.
 */
export function searchWithFallbacks(
  content: string | Uint8Array,
  pattern: CompiledPattern,
  options: SearchOptions,
  fallbacks?: { readings: readonly CompiledPattern[]; options: SearchOptions },
): FileMatches | 'binary' {
  const found = searchContent(content, pattern, options);
  if (found === 'binary' || found.count > 0 || !fallbacks) return found;
  return searchFallbacks(content, fallbacks.readings, fallbacks.options) ?? found;
}

/**
 * A file without a match searched for other readings of the pattern (an empty answer's fallbacks):
 * each one's reported lines and first line (FileMatches.fallbacks), or undefined when none matches.
 */
function searchFallbacks(content: string | Uint8Array, readings: readonly CompiledPattern[], options: SearchOptions): FileMatches | undefined {
  let any = false;
  const found = readings.map((reading) => {
    const matches = searchContent(content, reading, options);
    if (matches === 'binary' || matches.count === 0) return null;
    any = true;
    return { count: matches.count, first: matches.lines[0] ?? matches.first };
  });
  return any ? { count: 0, lines: [], fallbacks: found } : undefined;
}

/** Where a file's bytes hold the required literal: the offset of its next occurrence at or after `from`, or -1. */
type NextOccurrence = (from: number) => number;
type Occurrences = (bytes: Buffer) => NextOccurrence;

const OCCURRENCES = new WeakMap<Matcher, Occurrences | null>();

/**
 * How to find, in a file's bytes, the literal every match of a one-line matcher contains, when the lines
 * holding it there are exactly the decoded lines holding it (undefined otherwise). It has no line break,
 * BOM or replacement character, and encodes to valid UTF-8: its first byte is never a continuation byte,
 * so an invalid sequence before it cannot swallow it, and the decoder turns nothing else into it.
 * Case-sensitive: its UTF-8 bytes. Ignoring case: an ASCII literal, found in the bytes read as Latin-1,
 * where only ASCII letters fold to ASCII letters; as in the decoded text, unless the pattern is in
 * Unicode mode and the literal holds a k or an s (U+212A KELVIN SIGN folds to k, U+017F LONG S to s).
 */
function occurrencesOf(matcher: Matcher): Occurrences | undefined {
  let found = OCCURRENCES.get(matcher);
  if (found === undefined) {
    found = null;
    const literal = matcher.literal;
    if (literal && !matcher.multiline && !/[\n\r\ufeff\ufffd]/.test(literal)) {
      const needle = Buffer.from(literal, 'utf8');
      if (!matcher.ignoreCase) {
        if (needle.toString('utf8') === literal) found = (bytes) => (from) => bytes.indexOf(needle, from);
      } else if (ASCII.test(literal) && !foldsBeyondAscii(matcher, literal)) {
        found = asciiIgnoringCase(literal);
      }
    }
    OCCURRENCES.set(matcher, found);
  }
  return found ?? undefined;
}

/**
 * The matching lines of UTF-8 bytes, found from the occurrences of the matcher's required literal
 * (occurrencesOf) without decoding the file: each line holding it is decoded alone and, unless the literal is
 * the whole pattern, tested with the matcher's line regex, as findLineHitsByLiteral tests the decoded
 * text's lines (a line break is ASCII, so a line decodes alone to the text it has in the whole file).
 * All matching lines are counted; the text of those asked for (options.collect up to collectLimit, or
 * options.first) is kept.
 */
function lineHitsInBytes(bytes: Buffer, occurrences: Occurrences, matcher: Matcher, options: SearchOptions): FileMatches {
  const wanted = options.collect ? (options.collectLimit ?? Number.MAX_SAFE_INTEGER) : options.first ? 1 : 0;
  const literal = matcher.literal!;
  const bom = utf8BomLength(bytes);
  const lines: LineResult[] = [];
  let count = 0;
  let line = 1;
  let counted = 0; // lines are numbered up to this offset
  const next = occurrences(bytes);
  let declares = !options.declarations;
  for (let at = next(0); at !== -1 && count < options.maxPerFile;) {
    const end = bytes.indexOf(10, at);
    const start = at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1;
    const stop = end === -1 ? bytes.length : end;
    let column = -1;
    let length = literal.length;
    let text: string | undefined;
    const lineText = () => (text ??= bytes.toString('utf8', Math.max(start, bom), bytes[stop - 1] === 13 ? stop - 1 : stop));
    if (matcher.literalOnly && lines.length >= wanted && declares)
      column = 0; // an occurrence is a match: no need to decode the line
    else if (matcher.literalOnly && !matcher.ignoreCase) column = lineText().indexOf(literal);
    else {
      const found = matcher.lineRegex.exec(lineText());
      if (found) {
        column = found.index;
        length = found[0].length;
      }
    }
    if (column !== -1) {
      count++;
      if (!declares && looksLikeDeclaration(lineText(), column)) declares = true;
      if (lines.length < wanted) {
        for (let i = bytes.indexOf(10, counted); i !== -1 && i < start; i = bytes.indexOf(10, i + 1)) line++;
        counted = start;
        lines.push({ line, text: clipLine(lineText(), options.maxLineLength, column, length) });
      }
    }
    if (end === -1) break;
    at = next(end + 1);
  }
  const declared = options.declarations && declares ? ({ declares: true } as const) : undefined;
  if (options.collect) return { count, lines, ...declared };
  return lines.length > 0 ? { count, lines: [], first: lines[0], ...declared } : { count, lines: [], ...declared };
}
