/**
 * The Command Palette search's text, without VS Code: what the person typed as the engine's input, and
 * results as quick pick labels that keep the match in view. Unit-tested in plain Node.
 */
import { compileMatcher } from '../../engine/matcher/matcher';
import type { GrepInput } from '../../engine/api/types';

/** Text shown in a quick pick label: `$(name)` would render as an icon, a line break would end the row. */
export function labelText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]/g, ' ').replace(/\$\(/g, '$\u200b(');
}

/**
 * What a quick pick highlights in a label for the value in its input, by VS Code's rule: the first
 * case-insensitive occurrence of the value, in which `*` stands for anything.
 */
export function inputHighlight(label: string, value: string): [number, number] | undefined {
  const query = value.trim();
  if (!query) return undefined;
  const source = query.replace(/[-\\{}+?|^$.,[\]()#\s]/g, '\\$&').replace(/\*/g, '.*');
  const found = new RegExp(source, 'i').exec(label);
  return found ? [found.index, found.index + found[0].length] : undefined;
}

export function quote(text: string): string {
  return `"${text}"`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** An engine error as a person should read it: its message, without the advice written for a model. */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*Hint: .*$/s, '');
}

export interface SearchToggles {
  matchCase: boolean;
  wholeWord: boolean;
  regex: boolean;
  /** A glob ('*.ts', 'src/**'), a path ('./src', '/abs/dir'), or a path followed by a glob; '' = everything. */
  include: string;
}

export interface RecentSearch extends SearchToggles {
  pattern: string;
}

export function sameSearch(a: RecentSearch, b: RecentSearch): boolean {
  return a.pattern === b.pattern && a.matchCase === b.matchCase && a.wholeWord === b.wholeWord && a.regex === b.regex && a.include === b.include;
}

export function describeOptions(options: SearchToggles): string {
  const parts = [options.matchCase && 'Match Case', options.wholeWord && 'Whole Word', options.regex && 'Regex'].filter(Boolean) as string[];
  if (options.include) parts.push(`in ${options.include}`);
  return parts.join(' · ');
}

/**
 * The "files to include" field as the engine's input: a glob, or a path (absolute, `~/…`, `./…`,
 * `../…`) optionally followed by a glob. `*.ts, *.md` (VS Code's comma list) becomes `{*.ts,*.md}`.
 */
export function parseInclude(text: string): { path?: string; include?: string } {
  let value = text.trim();
  if (!value) return {};
  if (value.includes(',') && !/[{}]/.test(value)) {
    const parts = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    value = parts.length > 1 ? `{${parts.join(',')}}` : (parts[0] ?? '');
  }
  const isPath = /^(\/|~(\/|$)|\.\.?(\/|$))/.test(value);
  if (!isPath) return { include: value };
  const segments = value.split('/');
  const firstGlob = segments.findIndex((segment) => /[*?[\]{}]/.test(segment));
  if (firstGlob === -1) return { path: value };
  return { path: segments.slice(0, firstGlob).join('/') || '/', include: segments.slice(firstGlob).join('/') };
}

/** The engine input for a search from the Command Palette: up to grepTools.maxResultsCap lines. */
export function grepInput(search: RecentSearch, maxResults: number): GrepInput {
  const scope = parseInclude(search.include);
  return {
    pattern: search.pattern,
    ...(scope.path !== undefined ? { path: scope.path } : {}),
    ...(scope.include !== undefined ? { include: scope.include } : {}),
    ...(search.matchCase ? {} : { case_insensitive: true }),
    ...(search.regex ? {} : { fixed_strings: true }),
    ...(search.wholeWord ? { word: true } : {}),
    max_results: maxResults,
  };
}

export const REGEX_ADVICE = 'Escape special characters with a backslash, or turn off Use Regular Expression to search for the text as typed.';

/** The pattern as the engine compiles it, without the global flag: for a label's highlight and the selection. */
export function lineRegex(pattern: string, options: SearchToggles): RegExp {
  const matcher = compileMatcher(pattern, { case_insensitive: !options.matchCase, fixed_strings: !options.regex, word: options.wholeWord });
  return new RegExp(matcher.regex.source, matcher.regex.flags.replace('g', ''));
}

/** What is wrong with a pattern (an invalid regular expression), shown while it is typed. */
export function patternProblem(pattern: string, options: SearchToggles): string | undefined {
  try {
    lineRegex(pattern, options);
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}

/** The first match in a line, as [start, end), or undefined. */
export function firstMatch(text: string, regex: RegExp): [number, number] | undefined {
  regex.lastIndex = 0;
  const found = regex.exec(text);
  return found ? [found.index, found.index + found[0].length] : undefined;
}

/** Characters shown before the match at most, so a match far into a long line stays visible. */
const LEAD = 40;

/** The line from `cut` on, after an ellipsis, with the span moved along. */
function startAt(line: string, span: [number, number], cut: number): [string, [number, number]] {
  if (/[\udc00-\udfff]/.test(line[cut] ?? '')) cut--; // never split a surrogate pair
  return [`…${line.slice(cut)}`, [span[0] - cut + 1, span[1] - cut + 1]];
}

/**
 * A result's label: the line, trimmed, cut so that its first match is in view and is what the quick pick
 * highlights for `value` (the search text in its input) when the match is that text: a line holding the
 * text earlier in another case, or not as a whole word, starts at the match.
 */
export function resultLabel(text: string, regex: RegExp, value: string): string {
  let line = text;
  let span = firstMatch(line, regex);
  if (span && span[0] === span[1]) span = undefined; // nothing to highlight
  const indent = line.length - line.trimStart().length;
  if (!span || span[0] >= indent) {
    line = line.slice(indent);
    if (span) span = [span[0] - indent, span[1] - indent];
  }
  if (span && span[0] > LEAD) [line, span] = startAt(line, span, span[0] - Math.floor(LEAD / 2));
  const highlight = span && inputHighlight(line, value);
  if (span && highlight && highlight[0] < span[0]) [line, span] = startAt(line, span, span[0]);
  return labelText(line);
}
