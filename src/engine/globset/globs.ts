/** Glob matching (minimatch) and the path order every answer uses. */
import { braceExpand, Minimatch } from 'minimatch';
import { InputError } from '../api/errors';

/**
 * How every glob is read: dot files match, no comments, no negation, and no extglobs (`+(a|b)`), which
 * VS Code's globs do not have either and which compile to regexes that can backtrack exponentially.
 */
export const GLOB_OPTIONS = { dot: true, nocomment: true, nonegate: true, noext: true } as const;

/**
 * Bounds on a glob a model writes, checked before it is compiled: minimatch expands every brace
 * alternative (`{a,b}` 17 times is 131,072 patterns), its parser is quadratic in unclosed `[`, and
 * the regex of a segment with k `*` (or of a path with k `**`) backtracks in time growing as the name's
 * length to the power k. Within these bounds a name of 255 characters is tested in well under 100 ms.
 */
export const GLOB_LIMITS = { alternatives: 256, starsPerSegment: 3, globstars: 2, classes: 32 } as const;

/** Why a glob is over GLOB_LIMITS (the limit named, and what to do instead), or undefined. */
export function globComplexityProblem(glob: string): string | undefined {
  const classes = glob.split('[').length - 1;
  if (classes > GLOB_LIMITS.classes) return `it has ${classes} '[', at most ${GLOB_LIMITS.classes} character classes are accepted`;
  const alternatives = braceExpand(glob, { braceExpandMax: GLOB_LIMITS.alternatives + 1 });
  if (alternatives.length > GLOB_LIMITS.alternatives) {
    return `its braces expand to more than ${GLOB_LIMITS.alternatives} alternatives (the limit); list fewer, or split the search`;
  }
  for (const alternative of alternatives) {
    const segments = alternative.split('/');
    const globstars = segments.filter((segment) => segment === '**').length;
    if (globstars > GLOB_LIMITS.globstars)
      return `${JSON.stringify(alternative)} has ${globstars} '**' segments, at most ${GLOB_LIMITS.globstars} are accepted`;
    for (const segment of segments) {
      const stars = segment === '**' ? 0 : segment.split('*').length - 1;
      if (stars > GLOB_LIMITS.starsPerSegment)
        return `the path segment ${JSON.stringify(segment)} has ${stars} '*', at most ${GLOB_LIMITS.starsPerSegment} per segment are accepted`;
    }
  }
  return undefined;
}
const GLOB_CHARS = /[*?[\]{}]/;

/** True when the glob has no '/', so it is matched against the file name at any depth. */
export function isNameGlob(glob: string): boolean {
  return !glob.includes('/');
}

function lastSegment(relative: string): string {
  return relative.slice(relative.lastIndexOf('/') + 1);
}

/** Characters that make a glob more than literal text (the extglob ones too, though GLOB_OPTIONS reads them literally). */
const NOT_LITERAL = /[*?[\]{}()!+@\\]/;
/** A class of plain characters (`[lL]`, as caseInsensitiveGlob spells a letter): one position that holds one of them. */
const PLAIN_CLASS = /^\[([^\][!^\\:\-/\uD800-\uDFFF]+)\]/;

/**
 * The positions of a glob's alternative: the characters each may hold, or null for a wildcard (or what may
 * be one). After a '[' that opens no plain class, where minimatch's class ends is not read here: every
 * position from it on is null.
 */
function positionsOf(alternative: string): Array<string | null> {
  const positions: Array<string | null> = [];
  for (let i = 0; i < alternative.length; i++) {
    const c = alternative[i];
    const plain = c === '[' ? PLAIN_CLASS.exec(alternative.slice(i)) : null;
    if (plain) {
      positions.push(plain[1]);
      i += plain[0].length - 1;
    } else if (c === '[') {
      while (positions.length < alternative.length) positions.push(null);
      break;
    } else positions.push(NOT_LITERAL.test(c) ? null : c);
  }
  return positions;
}

/**
 * A test that a text starts (`end` false) or ends with a character each position allows: literal text is
 * compared at once (startsWith / endsWith), a position of a class by its character codes.
 */
function affixTest(positions: readonly string[], end: boolean): (text: string) => boolean {
  if (positions.every((position) => position.length === 1)) {
    const literal = positions.join('');
    return end ? (text) => text.endsWith(literal) : (text) => text.startsWith(literal);
  }
  const codes = positions.map((position) => Array.from(position, (c) => c.charCodeAt(0)));
  return (text) => {
    const at = end ? text.length - codes.length : 0;
    if (at < 0) return false;
    for (let i = 0; i < codes.length; i++) if (!codes[i].includes(text.charCodeAt(at + i))) return false;
    return true;
  };
}

/**
 * A quick test every string a glob matches passes (minimatch with GLOB_OPTIONS): per brace alternative,
 * the literal text before its first wildcard and after its last one (a class of plain characters counts
 * as one of them, so a glob spelled to ignore case narrows too). It narrows the paths the full match is
 * tried on (`**\/*.d.ts` keeps the names ending in `.d.ts`), and is true for any string where the glob's
 * spelling could be read another way (`//`, `.` and `..` segments, a `\`).
 */
export function globMayMatch(glob: string): (text: string) => boolean {
  const pattern = glob.replace(/^\.\//, '');
  const always = () => true;
  if (pattern.includes('\\')) return always;
  const affixes: Array<(text: string) => boolean> = [];
  for (const alternative of braceExpand(pattern, { braceExpandMax: GLOB_LIMITS.alternatives })) {
    if (alternative.includes('//') || alternative.split('/').some((segment) => segment === '.' || segment === '..')) return always;
    const positions = positionsOf(alternative);
    const first = positions.indexOf(null);
    const last = positions.lastIndexOf(null);
    const prefix = (first === -1 ? positions : positions.slice(0, first)) as string[];
    const suffix = positions.slice(last + 1) as string[];
    // A '/' next to a wildcard may not be there ('**\/a' matches 'a'): left out of the text required.
    if (first !== -1 && prefix.at(-1) === '/') prefix.pop();
    if (first !== -1 && suffix[0] === '/') suffix.shift();
    if (prefix.length === 0 && suffix.length === 0) return always;
    const starts = affixTest(prefix, false);
    const ends = affixTest(suffix, true);
    affixes.push((text) => starts(text) && ends(text));
  }
  if (affixes.length === 0) return always;
  if (affixes.length === 1) return affixes[0];
  return (text) => affixes.some((fits) => fits(text));
}

/** A glob compiled once to a RegExp by minimatch (testing it is many times faster than `match`). */
export function globTest(glob: string, nocase = false): (path: string) => boolean {
  const matcher = new Minimatch(glob, { ...GLOB_OPTIONS, nocase });
  const regex = matcher.makeRe();
  return regex ? (path) => regex.test(path) : (path) => matcher.match(path);
}

/** glob's pattern as a test of base-relative paths ('*.ts' only at the top); '\\' is refused. */
export function relativeGlobTest(pattern: string): (relative: string) => boolean {
  if (pattern.includes('\\')) throw new InputError(`Invalid glob ${JSON.stringify(pattern)}: use '/' as the path separator, not '\\'.`);
  const glob = new Minimatch(pattern.replace(/^\.\//, ''), GLOB_OPTIONS);
  return (relative) => glob.match(relative);
}

/** A predicate over '/'-separated relative paths. A glob without '/' matches the file name at any depth. */
export function compileGlob(glob: string, field: string): (relative: string) => boolean {
  if (glob.includes('\\')) {
    throw new InputError(`Invalid ${field} glob ${JSON.stringify(glob)}: use '/' as the path separator, not '\\'.`);
  }
  const pattern = glob.replace(/^\.\//, '');
  if (new Minimatch(pattern, GLOB_OPTIONS).set.length === 0) throw new InputError(`Invalid ${field} glob ${JSON.stringify(glob)}: it matches nothing.`);
  const may = globMayMatch(pattern);
  const regex = globTest(pattern);
  const test = (text: string) => may(text) && regex(text);
  return isNameGlob(glob) ? (relative) => test(lastSegment(relative)) : test;
}

/** A denied-path rule's test, given the path and its last segment, both lower-cased. */
type RuleTest = (lowerPath: string, lowerName: string) => boolean;

/** A denied-path rule compiled: its test, and a regex source matching every path it matches, ignoring ASCII case (none for a rule through minimatch). */
interface CompiledRule {
  test: RuleTest;
  may?: string;
}

const compiledRules = new Map<string, CompiledRule>();

const escapeText = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A denied-path rule compiled once (matched ignoring case): `**\/name` compares the last segment,
 * `**\/name-glob` tests it, `**\/dir/file` compares the path's end, `**\/dir/**` looks for the directory
 * segment; others go through minimatch.
 */
function compileRule(rule: string): CompiledRule {
  let compiled = compiledRules.get(rule);
  if (compiled === undefined) {
    compiled = classify(rule);
    compiledRules.set(rule, compiled);
  }
  return compiled;
}

function classify(rule: string): CompiledRule {
  const byName = /^\*\*\/([^/]+)$/.exec(rule);
  const inDirectory = /^\*\*\/([^/]+)\/\*\*$/.exec(rule);
  const affix = byName && /^(\*?)([^*?[\]{}]*)(\*?)$/.exec(byName[1]);
  // A name, a prefix, a suffix or a text anywhere in the last segment.
  const may = affix && affix[2] ? `${affix[1] ? '' : '(?:^|/)'}${escapeText(affix[2])}${affix[3] ? '[^/]*' : ''}$` : undefined;
  if (byName && !GLOB_CHARS.test(byName[1])) {
    const name = byName[1].toLowerCase();
    return { test: (_path, lowerName) => lowerName === name, may };
  }
  if (affix && affix[1] !== affix[3]) {
    // `*.pem`, `id_rsa*`: one '*' before or after plain text.
    const text = affix[2].toLowerCase();
    return { test: affix[1] ? (_path, lowerName) => lowerName.endsWith(text) : (_path, lowerName) => lowerName.startsWith(text), may };
  }
  if (affix && affix[1] && affix[2]) {
    // `*.tfstate.*`: the text anywhere in the name ('*' matches any characters but '/', a leading dot too).
    const text = affix[2].toLowerCase();
    return { test: (_path, lowerName) => lowerName.includes(text), may };
  }
  if (byName) {
    const nameTest = globTest(byName[1], true);
    return { test: (_path, lowerName) => nameTest(lowerName) };
  }
  if (rule.startsWith('**/') && !GLOB_CHARS.test(rule.slice(3)) && !rule.endsWith('/')) {
    // `**/.kube/config`: the path is those segments, or ends with them.
    const tail = rule.slice(3).toLowerCase();
    return { test: (lowerPath) => lowerPath === tail || lowerPath.endsWith(`/${tail}`), may: `(?:^|/)${escapeText(rule.slice(3))}$` };
  }
  if (inDirectory && !GLOB_CHARS.test(inDirectory[1])) {
    const dir = inDirectory[1].toLowerCase();
    return { test: (lowerPath) => lowerPath.startsWith(`${dir}/`) || lowerPath.includes(`/${dir}/`), may: `(?:^|/)${escapeText(inDirectory[1])}/` };
  }
  return { test: globTest(rule, true) };
}

/**
 * A rule list compiled once: its tests in order, and one regex that matches every '/'-separated path any
 * of them matches (and a few more), ignoring ASCII case: most paths match no rule, and then one test says
 * so instead of one per rule. No regex when a rule goes through minimatch (a user's glob).
 */
interface CompiledRules {
  list: Array<{ rule: string; test: RuleTest }>;
  mayMatch?: RegExp;
}

const compiledLists = new WeakMap<readonly string[], CompiledRules>();

function compileRules(rules: readonly string[]): CompiledRules {
  const compiled = rules.map((rule) => ({ rule, ...compileRule(rule) }));
  const parts = compiled.map((rule) => rule.may);
  const mayMatch = parts.length > 0 && parts.every((part) => part !== undefined) ? new RegExp(parts.join('|'), 'i') : undefined;
  return { list: compiled.map(({ rule, test }) => ({ rule, test })), mayMatch };
}

/** Any character outside ASCII (whose case the regex's ASCII folding may not match as toLowerCase does). */
const NOT_ASCII = /[\u0080-\uffff]/;

/** The first denied-path rule that `relative` (a path below a workspace folder or search base) matches. */
export function deniedRule(relative: string, rules: readonly string[]): string | undefined {
  let compiled = compiledLists.get(rules);
  if (compiled === undefined) compiledLists.set(rules, (compiled = compileRules(rules)));
  const { list, mayMatch } = compiled;
  // No rule can match: nothing to find, unless Windows would open another name for this spelling.
  if (mayMatch && !mayMatch.test(relative) && !NOT_ASCII.test(relative) && !WINDOWS_ALIAS.test(relative)) return undefined;
  const lowerPath = relative.toLowerCase();
  const lowerName = lastSegment(lowerPath);
  for (const { rule, test } of list) if (test(lowerPath, lowerName)) return rule;
  // The file Windows opens for this spelling (".env.", ".env ", ".env::$DATA", ".ssh:x/id_rsa"): denied
  // like the name it stands for, on every platform (a name that would reach a secret there is refused here too).
  if (!WINDOWS_ALIAS.test(lowerPath)) return undefined;
  const canonical = windowsCanonical(lowerPath);
  if (canonical === lowerPath || canonical === '') return undefined;
  const canonicalName = lastSegment(canonical);
  for (const { rule, test } of list) if (test(canonical, canonicalName)) return rule;
  return undefined;
}

/** A path with a segment Windows reads as another name: a stream suffix (":…"), or trailing dots or spaces. */
const WINDOWS_ALIAS = /:|[. ](?:\/|$)/;

/**
 * The '/'-separated relative path as Windows resolves its names: each segment without an alternate data
 * stream suffix (`notes.txt:hidden`, `.env::$DATA` name the file `notes.txt`, `.env`) and without
 * trailing dots and spaces (`.env.`, `.env ` open `.env`). '.' and '..' stay as they are.
 */
export function windowsCanonical(relative: string): string {
  return relative
    .split('/')
    .map((segment) => {
      if (segment === '.' || segment === '..') return segment;
      const stream = segment.indexOf(':');
      const name = stream === -1 ? segment : segment.slice(0, stream);
      return name.replace(/[. ]+$/, '');
    })
    .join('/');
}

/**
 * Denied rules that name a whole directory (`**\/.ssh/**` → `**\/.ssh`): sources prune such directories
 * without listing them, as they do for files.exclude.
 */
export function deniedDirectoryGlobs(rules: readonly string[]): string[] {
  return rules.filter((rule) => rule.endsWith('/**')).map((rule) => rule.slice(0, -3));
}

/**
 * Path order: segment by segment, so a directory's files stay together (a/b before a.txt). Compared
 * character by character with '/' below every other character, which is the same order.
 */
export function comparePaths(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca === 47) return -1;
      if (cb === 47) return 1;
      return ca - cb;
    }
  }
  return a.length - b.length;
}

/**
 * Splits an absolute glob ('/'-separated) into its static directory prefix and the glob below it. A
 * prefix that is only a drive ("C:" of "C:/*.ts") is that drive's root ("C:/"), never "C:", which
 * Windows reads as the drive's current directory.
 */
export function splitAbsoluteGlob(glob: string): { base: string; rest: string } {
  const segments = glob.split('/');
  let i = 0;
  while (i < segments.length - 1 && !GLOB_CHARS.test(segments[i])) i++;
  const prefix = segments.slice(0, i).join('/');
  const base = prefix === '' ? '/' : /^[a-zA-Z]:$/.test(prefix) ? `${prefix}/` : prefix;
  return { base, rest: segments.slice(i).join('/') };
}
