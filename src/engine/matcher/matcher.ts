/** Turns a grep pattern and its flags into a JavaScript RegExp, with errors a model can act on. */
import { hasTopLevelAlternation, requiredLiteral } from './literals';
import { InputError } from '../api/errors';
import type { GrepInput } from '../api/types';

/**
 * A word character as ripgrep's Unicode `\\w` (and so its `-w`) defines it: letters and other alphabetic code
 * points, marks, decimal digits, connector punctuation (`_`) and the joiners U+200C/U+200D. So `import` right
 * after U+FE0F (a variation selector, a mark) is not a whole word, and `²` or `½` (numbers, not digits) do not join one.
 */
const WORD_CHAR = '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]';

/** The grep inputs that decide how a pattern matches (the rest decide where and what is reported). */
export type MatcherOptions = Pick<GrepInput, 'case_insensitive' | 'fixed_strings' | 'word' | 'multiline'>;

export interface Matcher {
  /** Global regex for searching a whole text ('m' so ^ and $ work per line; 's' when multiline). */
  regex: RegExp;
  /** The same pattern without 'g', for testing one line's text. */
  lineRegex: RegExp;
  multiline: boolean;
  /** A literal every match contains (for the byte prefilter), and whether it is compared ignoring case. */
  literal?: string;
  ignoreCase: boolean;
  /**
   * True when a line matches exactly when it contains `literal` (ignoring case when `ignoreCase`; no word
   * boundaries, one line): the searcher may then find matching lines in the bytes without decoding them.
   */
  literalOnly: boolean;
}

const INLINE_FLAGS = /^\(\?([a-zA-Z]+)\)/;

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A regex pattern's leading inline flag group, `(?i)`, `(?s)`, `(?m)` (always on) or `(?u)`, taken off:
 * the rest of the pattern, and whether the group asks to ignore case or for a dot that matches newlines.
 */
function takeInlineFlags(pattern: string): { source: string; ignoreCase: boolean; multiline: boolean } {
  const inline = INLINE_FLAGS.exec(pattern);
  if (!inline) return { source: pattern, ignoreCase: false, multiline: false };
  let ignoreCase = false;
  let multiline = false;
  for (const flag of inline[1]) {
    if (flag === 'i') ignoreCase = true;
    else if (flag === 's') multiline = true;
    else if (flag !== 'm' && flag !== 'u') {
      throw new InputError(
        `Invalid pattern: inline flag "(?${inline[1]})" is not supported. Supported leading flags: (?i) ignore case, (?s) dot matches newline, (?m) (always on). Or use case_insensitive / multiline.`,
      );
    }
  }
  const source = pattern.slice(inline[0].length);
  if (source.length === 0) throw new InputError('Invalid pattern: nothing follows the inline flag group.');
  return { source, ignoreCase, multiline };
}

export function compileMatcher(pattern: string, options: MatcherOptions): Matcher {
  const inline = options.fixed_strings ? undefined : takeInlineFlags(pattern);
  let source = inline ? inline.source : escapeRegExp(pattern);
  const ignoreCase = options.case_insensitive === true || inline?.ignoreCase === true;
  const multiline = options.multiline === true || inline?.multiline === true;
  const literal = options.fixed_strings ? pattern : requiredLiteral(source);
  const literalOnly = literal !== undefined && literal.length > 0 && escapeRegExp(literal) === source && !options.word && !multiline;
  if (!options.fixed_strings && !options.word && !multiline) source = triedAtRunStarts(source);
  if (options.word) source = `(?<!${WORD_CHAR})(?:${source})(?!${WORD_CHAR})`;
  const flags = `gm${ignoreCase ? 'i' : ''}${multiline ? 's' : ''}`;
  // Unicode mode first (so '.' and classes see code points, \p{..} works); plain mode accepts the
  // looser escapes models often write (\_, \-, \<).
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags + 'u');
  } catch (unicodeError) {
    if (options.word) throw invalidPattern(pattern, unicodeError);
    try {
      regex = new RegExp(source, flags);
    } catch (error) {
      throw invalidPattern(pattern, error);
    }
  }
  // V8 compiles on first use, per kind of string, and may fail then ("Regular expression too large"):
  // use it here once on each kind, so the failure is an invalid pattern and not a crash in a worker.
  try {
    regex.test('');
    regex.test('\u0100');
    regex.lastIndex = 0;
  } catch (error) {
    throw invalidPattern(pattern, error);
  }
  return { regex, lineRegex: new RegExp(regex.source, regex.flags.replace('g', '')), multiline, literal, ignoreCase, literalOnly };
}

/** A class that never matches a line break: `\w`, `\d`, `.` (not multiline), or a plain `[...]` of such. */
const LEADING_RUN = /^(\\[wd]|\.|\[(?!\^)(?:\\[wdbfvt\-\]\\.^$/]|[^\]\\\n\r])+\])(?:[+*])/;

/**
 * `\w+Error\(`, `.*foo`, `[a-z]*_id`: a pattern that starts with a repeated class is tried only where a
 * run of that class begins, `(?<!\w)\w+Error\(`, so a backtracking engine does not retry the run from
 * each of its characters (quadratic on a long minified line). The first match from any position is the
 * same: a match starting inside a run also starts one character earlier, so the leftmost one starts
 * where the run does; and a line break, where a line's search begins, is never in the class.
 */
function triedAtRunStarts(source: string): string {
  const lead = LEADING_RUN.exec(source);
  return lead && !hasTopLevelAlternation(source) ? `(?<!${lead[1]})${source}` : source;
}

/** A pattern that is not a valid regular expression (grep then checks its literal reading: diagnostics.ts). */
export class InvalidPatternError extends InputError {}

function invalidPattern(pattern: string, error: unknown): InputError {
  // V8 says "Invalid regular expression: /src/flags: reason"; keep the reason.
  const message = (error instanceof Error ? error.message : String(error)).replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  const hints: string[] = [];
  if (/Unterminated group|Unmatched '\)'|Unterminated character class|Nothing to repeat|Lone quantifier/i.test(message)) {
    hints.push('escape special characters such as ( ) [ ] { } * + ? with a backslash, or set fixed_strings: true to search for the text literally');
  }
  if (/\(\?[<!=]?[a-zA-Z-]*[:)]/.test(pattern) && /group/i.test(message)) {
    hints.push('inline flags are only accepted at the start of the pattern, e.g. (?i)foo');
  }
  if (hints.length === 0) hints.push('use JavaScript regex syntax, or set fixed_strings: true to search for the text literally');
  return new InvalidPatternError(`Invalid regular expression ${JSON.stringify(pattern)}: ${message}. Hint: ${hints.join('; ')}.`);
}
