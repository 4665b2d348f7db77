/**
 * The query planner held to brute force (fast-check, seeded): for thousands of random patterns (regex
 * syntax, literals taken from the texts with their case changed, every flag) and random texts (ASCII,
 * accented and Greek letters, the characters Unicode case folding maps to ASCII, CJK, astral
 * characters, CR/LF), every text the searcher finds a match in is among the candidates the index gives
 * for the pattern's query. And the planner narrows: literal-bearing patterns give a selective query.
 *
 * PLANNER_RUNS=N (default 4000) and PLANNER_SEED=S reproduce or lengthen a run.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { ContentIndex } from '../../../../src/engine/index/contentIndex';
import { planRegex } from '../../../../src/engine/index/planner';
import { compileMatcher, escapeRegExp, type MatcherOptions } from '../../../../src/engine/matcher/matcher';
import { InputError } from '../../../../src/engine/api/errors';
import { searchText } from '../../../../src/engine/searcher/searcher';

const RUNS = Number(process.env.PLANNER_RUNS ?? 4000);
const SEED = Number(process.env.PLANNER_SEED ?? 20261123);

/** Characters of the texts and literals: case pairs, folds to ASCII (K ſ), folds elsewhere (ß ẞ İ ı ς Σ), CJK, astral, line ends. */
const CHARS = [
  'a',
  'b',
  'c',
  'k',
  's',
  'A',
  'B',
  'K',
  'S',
  'x',
  '1',
  '_',
  ' ',
  '-',
  '(',
  '.',
  '\n',
  '\r',
  '\t',
  '\u212a',
  '\u017f',
  'é',
  'É',
  'ß',
  '\u1e9e',
  'İ',
  'ı',
  'ς',
  'σ',
  'Σ',
  '\u0345',
  'ι',
  'Ω',
  '\u2126',
  'å',
  '\u212b',
  '日',
  '本',
  '😀',
  '\ufe0f',
];
const char = fc.constantFrom(...CHARS);
const text = fc.array(char, { maxLength: 40 }).map((chars) => chars.join(''));

/** Regex pieces: escaped characters, classes, sets, quantifiers, groups, anchors, lookarounds, back-references. */
const atom: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: char.map(escapeRegExp) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '.',
      '\\w',
      '\\d',
      '\\s',
      '\\W',
      '\\p{L}',
      '[^a]',
      '[a-c]',
      '[A-Z]',
      '[kK]',
      '[ſs]',
      '[é-ë]',
      '[日本]',
      '\\u212a',
      '\\x41',
      '\\n',
    ),
  },
);
const piece: fc.Arbitrary<string> = fc.letrec<{ regex: string }>((tie) => ({
  regex: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('regex'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{0,2}', '+?', '{3,}')).map(([r, q]) => `(?:${r})${q}`),
    fc.array(tie('regex'), { minLength: 2, maxLength: 4 }).map((parts) => parts.join('')),
    fc.array(tie('regex'), { minLength: 2, maxLength: 3 }).map((parts) => `(${parts.join('|')})`),
    fc.tuple(tie('regex'), fc.constantFrom('^', '$', '\\b', '\\B', '(?=a)', '(?!b)', '(?<=c)', '(?<!k)')).map(([r, a]) => `${a}${r}`),
    tie('regex').map((r) => `(${r})\\1`),
  ),
})).regex;

const flags = fc.record(
  {
    case_insensitive: fc.boolean(),
    word: fc.boolean(),
    multiline: fc.boolean(),
    fixed_strings: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** A literal from one of the texts, with its case flipped here and there. */
const takenLiteral = (texts: string[]) =>
  fc
    .tuple(fc.nat(texts.length - 1), fc.nat(40), fc.integer({ min: 1, max: 12 }), fc.array(fc.boolean(), { maxLength: 12 }))
    .map(([t, start, length, flips]) => {
      const chars = [...texts[t]].slice(start, start + length);
      return chars.map((c, i) => (flips[i] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
    });

const scenario = fc.array(text, { minLength: 1, maxLength: 6 }).chain((texts) =>
  fc.record({
    texts: fc.constant(texts),
    pattern: fc.oneof(
      piece,
      takenLiteral(texts),
      takenLiteral(texts).map(escapeRegExp),
      fc.tuple(takenLiteral(texts).map(escapeRegExp), piece).map(([a, b]) => a + b),
    ),
    options: flags,
  }),
);

function matches(content: string, pattern: string, options: MatcherOptions): boolean {
  const matcher = compileMatcher(pattern, options);
  return searchText(content, matcher, { invert: false, before: 0, after: 0, maxPerFile: 1, maxLineLength: 500, collect: false }).count > 0;
}

describe('index planner: never misses a matching file (property, brute force)', function () {
  this.timeout(120_000);

  it(`over ${RUNS} random patterns, flags and texts, every matching text is a candidate`, () => {
    let narrowed = 0;
    let checked = 0;
    fc.assert(
      fc.property(scenario, ({ texts, pattern, options }) => {
        if (pattern.length === 0) return;
        let matcher;
        try {
          matcher = compileMatcher(pattern, options);
        } catch (error) {
          if (error instanceof InputError) return;
          throw error;
        }
        const index = new ContentIndex();
        texts.forEach((content, i) => index.set({ path: `/f${i}`, kind: 'text', size: content.length, mtimeMs: 0, ctimeMs: 0, ino: i }, content));
        const ids = index.evaluate(planRegex(matcher.regex));
        checked++;
        if (ids === undefined) return;
        narrowed++;
        texts.forEach((content, i) => {
          if (matches(content, pattern, options)) {
            assert.ok(
              ids.includes(index.entry(`/f${i}`)!.id),
              `text ${JSON.stringify(content)} matches ${JSON.stringify(pattern)} ${JSON.stringify(options)} but is not a candidate`,
            );
          }
        });
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Not a planner that gives up: a good share of the random patterns narrowed the files.
    assert.ok(narrowed > checked / 5, `only ${narrowed} of ${checked} patterns narrowed the candidates`);
  });

  it('narrows literals, required pieces of regexes and alternations; falls back for patterns with nothing usable', () => {
    const index = new ContentIndex();
    const texts = [
      'const handler = findTextInFiles();',
      'TODO: fix the Kelvin \u212a sign',
      'function parse_test() {}',
      'nothing here',
      'ValueError raised',
      'ſtraße',
    ];
    texts.forEach((content, i) => index.set({ path: `/f${i}`, kind: 'text', size: content.length, mtimeMs: 0, ctimeMs: 0, ino: i }, content));
    const candidates = (pattern: string, options: MatcherOptions = {}) => {
      const ids = index.evaluate(planRegex(compileMatcher(pattern, options).regex));
      return ids === undefined ? 'all' : ids.map((id) => texts.indexOf(texts[id]));
    };
    assert.deepStrictEqual(candidates('findTextInFiles'), [0]);
    assert.deepStrictEqual(candidates('todo', { case_insensitive: true }), [1]);
    assert.deepStrictEqual(candidates('(?i)KELVIN'), [1]);
    assert.deepStrictEqual(candidates('fn\\s+\\w+_test|function\\s+\\w+_test'), [2]);
    assert.deepStrictEqual(candidates('[A-Z][a-z]+Error'), [4]);
    assert.deepStrictEqual(candidates('todo|fixme|hack', { case_insensitive: true }), [1]);
    assert.deepStrictEqual(candidates('strasse', { case_insensitive: true }), []); // 'ſtraße' does not match /strasse/i
    assert.deepStrictEqual(candidates('sign', { word: true }), [1]);
    assert.deepStrictEqual(candidates('a(b', { fixed_strings: true }), []);
    for (const pattern of ['.', '\\w+', '(?i)x', 'ab?', '[a-z]{2}']) assert.strictEqual(candidates(pattern), 'all', pattern);
  });
});
