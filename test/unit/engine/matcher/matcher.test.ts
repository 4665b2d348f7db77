import * as assert from 'assert';
import fc from 'fast-check';
import { compileMatcher, escapeRegExp } from '../../../../src/engine/matcher/matcher';
import { inputErrorOf } from '../../fixture';
import { searchText } from '../../../../src/engine/searcher/searcher';

/** Whether the compiled matcher finds a match anywhere in `text`. */
function finds(pattern: string, text: string, options = {}): boolean {
  const { regex } = compileMatcher(pattern, options);
  regex.lastIndex = 0;
  return regex.test(text);
}

describe('engine/matcher', () => {
  describe('escapeRegExp', () => {
    it('escapes every regex metacharacter', () => {
      const special = '.*+?^${}()|[]\\';
      assert.strictEqual(escapeRegExp(special), '\\.\\*\\+\\?\\^\\$\\{\\}\\(\\)\\|\\[\\]\\\\');
      assert.ok(new RegExp(`^${escapeRegExp(special)}$`).test(special));
    });
  });

  describe('compileMatcher', () => {
    it('compiles a global, per-line (m), unicode regex by default', () => {
      const matcher = compileMatcher('fo+', {});
      assert.strictEqual(matcher.regex.source, 'fo+');
      assert.strictEqual(matcher.regex.flags, 'gmu');
      assert.strictEqual(matcher.multiline, false);
    });

    it('adds i for case_insensitive and s for multiline', () => {
      assert.strictEqual(compileMatcher('x', { case_insensitive: true }).regex.flags, 'gimu');
      const multiline = compileMatcher('x', { multiline: true });
      assert.strictEqual(multiline.regex.flags, 'gmsu');
      assert.strictEqual(multiline.multiline, true);
    });

    it('applies a leading (?i) and removes it from the pattern', () => {
      const matcher = compileMatcher('(?i)todo', {});
      assert.strictEqual(matcher.regex.source, 'todo');
      assert.ok(matcher.regex.ignoreCase);
      assert.ok(finds('(?i)todo', 'a TODO here'));
      assert.ok(!finds('todo', 'a TODO here'));
    });

    it('accepts combined leading flags: (?s) turns on multiline, (?m) is always on', () => {
      const matcher = compileMatcher('(?si)a.b', {});
      assert.strictEqual(matcher.multiline, true);
      assert.ok(matcher.regex.ignoreCase && matcher.regex.dotAll);
      assert.ok(finds('(?s)a.b', 'a\nb'));
      assert.ok(!finds('a.b', 'a\nb'));
      assert.strictEqual(compileMatcher('(?m)^x', {}).regex.source, '^x');
    });

    it('refuses an unsupported leading flag and names the supported ones', () => {
      assert.strictEqual(
        inputErrorOf(() => compileMatcher('(?z)x', {})).message,
        'Invalid pattern: inline flag "(?z)" is not supported. Supported leading flags: (?i) ignore case, (?s) dot matches newline, (?m) (always on). Or use case_insensitive / multiline.',
      );
    });

    it('refuses (?x) rather than silently matching its spaces literally', () => {
      assert.match(inputErrorOf(() => compileMatcher('(?x) a b # comment', {})).message, /^Invalid pattern: inline flag "\(\?x\)" is not supported\./);
      assert.match(inputErrorOf(() => compileMatcher('(?ix)a', {})).message, /^Invalid pattern: inline flag "\(\?ix\)" is not supported\./);
    });

    it('refuses a pattern that is only a flag group', () => {
      assert.strictEqual(inputErrorOf(() => compileMatcher('(?i)', {})).message, 'Invalid pattern: nothing follows the inline flag group.');
    });

    it('with fixed_strings matches the text literally, flag groups included', () => {
      assert.ok(finds('a.b(c)*', 'x a.b(c)* y', { fixed_strings: true }));
      assert.ok(!finds('a.b', 'axb', { fixed_strings: true }));
      assert.ok(finds('(?i)x', 'literal (?i)x', { fixed_strings: true }));
      assert.ok(!finds('(?i)x', 'X', { fixed_strings: true }));
      assert.ok(finds('$HOME', 'echo $HOME', { fixed_strings: true }));
    });

    it('with word matches whole words only (letters, digits and _ are word characters, Unicode too)', () => {
      assert.ok(finds('foo', 'call foo(1)', { word: true }));
      assert.ok(finds('foo', 'foo-bar', { word: true }));
      assert.ok(!finds('foo', 'foobar', { word: true }));
      assert.ok(!finds('foo', 'foo_bar', { word: true }));
      assert.ok(!finds('foo', 'foo2', { word: true }));
      assert.ok(!finds('foo', 'éfoo', { word: true }));
      // Word characters as ripgrep's Unicode \w: marks, joiners and letter numbers join a word; other numbers do not.
      assert.ok(!finds('import', '\ufe0fimport x', { word: true }), 'a variation selector (a mark) before it');
      assert.ok(!finds('import', 'import\u0301', { word: true }), 'a combining accent after it');
      assert.ok(!finds('import', '\u200dimport', { word: true }), 'a zero-width joiner before it');
      assert.ok(!finds('import', '\u2160import', { word: true }), 'a letter number (Roman numeral one) before it');
      assert.ok(finds('import', '\u00b2import', { word: true }), 'superscript two is a number, not a word character');
      assert.ok(finds('import', 'import\u00bd', { word: true }), 'one half is a number, not a word character');
      assert.ok(finds('a|b', 'x b y', { word: true }), 'alternation is grouped before the word boundaries');
      assert.ok(!finds('a|b', 'ab', { word: true }));
      assert.ok(finds('a.b', 'see a.b.', { word: true, fixed_strings: true }));
    });

    it('accepts the loose escapes models write (\\_ \\-) by falling back to non-Unicode mode', () => {
      const matcher = compileMatcher('snake\\_case\\-x', {});
      assert.strictEqual(matcher.regex.unicode, false);
      assert.ok(finds('snake\\_case\\-x', 'snake_case-x'));
    });

    it('reports an invalid regex with the engine reason and a hint about escaping or fixed_strings', () => {
      const cases: Array<[string, string]> = [
        ['foo(', 'Unterminated group'],
        ['a)', "Unmatched ')'"],
        ['[abc', 'Unterminated character class'],
        ['a**', 'Nothing to repeat'],
      ];
      for (const [pattern, reason] of cases) {
        assert.strictEqual(
          inputErrorOf(() => compileMatcher(pattern, {})).message,
          `Invalid regular expression ${JSON.stringify(pattern)}: ${reason}. Hint: escape special characters such as ( ) [ ] { } * + ? with a backslash, or set fixed_strings: true to search for the text literally.`,
        );
      }
    });

    it('explains that inline flags are only accepted at the start', () => {
      assert.strictEqual(
        inputErrorOf(() => compileMatcher('foo(?i)bar', {})).message,
        'Invalid regular expression "foo(?i)bar": Invalid group. Hint: inline flags are only accepted at the start of the pattern, e.g. (?i)foo.',
      );
    });

    it('gives the generic hint for other regex errors', () => {
      const message = inputErrorOf(() => compileMatcher('x{2,1}', {})).message;
      assert.match(
        message,
        /^Invalid regular expression "x\{2,1\}": numbers out of order in \{\} quantifier\. Hint: use JavaScript regex syntax, or set fixed_strings: true/,
      );
    });

    it('with word, an escape that Unicode mode refuses is an error (no silent fallback)', () => {
      assert.match(inputErrorOf(() => compileMatcher('\\_', { word: true })).message, /^Invalid regular expression "\\\\_": Invalid escape\./);
    });
  });
  describe('a pattern that starts with a repeated class', () => {
    const PATTERNS = ['\\w+Error\\(', '.*foo', '[a-z]*_id', '\\d+px', '\\w+?x', '[\\w.]+@', '\\w*b\\b', '.+$', '\\w+(?=\\()'];
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'x', '_', '1', 'E', 'rror(', 'foo', '_id', 'px', '@', '.', ' ', '(', '\n', '\r\n', 'é'),
      maxLength: 60,
    });

    it('is tried only where a run of the class begins', () => {
      assert.strictEqual(compileMatcher('\\w+Error\\(', {}).lineRegex.source, '(?<!\\w)\\w+Error\\(');
      assert.strictEqual(compileMatcher('.*foo', {}).lineRegex.source, '(?<!.).*foo');
      // A class that holds a line break, an alternation, whole words, multiline: left as written.
      for (const [pattern, options, lead] of [
        ['\\s+x', {}, '\\s'],
        ['[^a]+x', {}, '[^a]'],
        ['\\w+a|b', {}, '\\w'],
        ['\\w+x', { word: true }, '\\w'],
        ['\\w+x', { multiline: true }, '\\w'],
        ['\\w+x', { fixed_strings: true }, '\\\\w'],
      ] as const) {
        assert.ok(!compileMatcher(pattern, options).lineRegex.source.includes(`(?<!${lead})`), `${pattern} ${JSON.stringify(options)}`);
      }
    });

    it('finds the same first match on every line as the pattern as written (property, 300 texts per pattern)', () => {
      for (const pattern of PATTERNS) {
        for (const options of [{}, { case_insensitive: true }]) {
          const matcher = compileMatcher(pattern, options);
          const plain = new RegExp(pattern, `mu${'case_insensitive' in options ? 'i' : ''}`);
          fc.assert(
            fc.property(text, (sample) => {
              const lines = sample.split('\n');
              if (lines[lines.length - 1] === '') lines.pop();
              const expected = lines.flatMap((line, i) => {
                const found = plain.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
                return found ? [[i + 1, found.index, found[0].length]] : [];
              });
              const found = lines.flatMap((line, i) => {
                const hit = matcher.lineRegex.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
                return hit ? [[i + 1, hit.index, hit[0].length]] : [];
              });
              assert.deepStrictEqual(found, expected);
              const reported = searchText(sample, matcher, { invert: false, before: 0, after: 0, maxPerFile: Infinity, maxLineLength: 500, collect: true });
              assert.deepStrictEqual(
                reported.lines.map((l) => l.line),
                expected.map(([line]) => line),
                `${pattern} on ${JSON.stringify(sample)}`,
              );
            }),
            { seed: 7, numRuns: 300 },
          );
        }
      }
    });
  });
});
