import * as assert from 'assert';
import {
  describeOptions,
  errorText,
  grepInput,
  inputHighlight,
  labelText,
  lineRegex,
  parseInclude,
  patternProblem,
  resultLabel,
  type SearchToggles,
} from '../../../../src/vscode/commands/text';

const OFF: SearchToggles = { matchCase: false, wholeWord: false, regex: false, include: '' };

/** The text the quick pick highlights in a label when its input holds `value`. */
function highlighted(label: string, value: string): string | undefined {
  const span = inputHighlight(label, value);
  return span && label.slice(span[0], span[1]);
}

describe('Command Palette search text', () => {
  describe('parseInclude', () => {
    it('reads a glob, a path, or a path followed by a glob', () => {
      assert.deepStrictEqual(parseInclude(''), {});
      assert.deepStrictEqual(parseInclude('  '), {});
      assert.deepStrictEqual(parseInclude('*.ts'), { include: '*.ts' });
      assert.deepStrictEqual(parseInclude('src/**/*.py'), { include: 'src/**/*.py' });
      assert.deepStrictEqual(parseInclude('./src'), { path: './src' });
      assert.deepStrictEqual(parseInclude('../other'), { path: '../other' });
      assert.deepStrictEqual(parseInclude('~/notes'), { path: '~/notes' });
      assert.deepStrictEqual(parseInclude('/abs/dir'), { path: '/abs/dir' });
      assert.deepStrictEqual(parseInclude('/abs/dir/**/*.md'), { path: '/abs/dir', include: '**/*.md' });
      assert.deepStrictEqual(parseInclude('./src/*.{ts,tsx}'), { path: './src', include: '*.{ts,tsx}' });
      assert.deepStrictEqual(parseInclude('/*.md'), { path: '/', include: '*.md' });
    });

    it("turns VS Code's comma list into one brace glob", () => {
      assert.deepStrictEqual(parseInclude('*.ts, *.md'), { include: '{*.ts,*.md}' });
      assert.deepStrictEqual(parseInclude('*.ts,'), { include: '*.ts' });
      assert.deepStrictEqual(parseInclude('{a,b}.ts'), { include: '{a,b}.ts' });
    });
  });

  describe('grepInput', () => {
    it('maps the toggles as VS Code search does: off means ignore case and a literal pattern', () => {
      assert.deepStrictEqual(grepInput({ pattern: 'a.b', ...OFF }, 1000), { pattern: 'a.b', case_insensitive: true, fixed_strings: true, max_results: 1000 });
      assert.deepStrictEqual(grepInput({ pattern: 'a.b', matchCase: true, wholeWord: true, regex: true, include: '/ws/src/**/*.ts' }, 5), {
        pattern: 'a.b',
        path: '/ws/src',
        include: '**/*.ts',
        word: true,
        max_results: 5,
      });
    });
  });

  describe('inputHighlight', () => {
    it("follows VS Code's quick pick: the first occurrence ignoring case, `*` for anything, the rest literal", () => {
      assert.deepStrictEqual(inputHighlight('// TODO: the todo', 'todo'), [3, 7]);
      assert.deepStrictEqual(inputHighlight('a.b axb', 'x*b'), [5, 7]);
      assert.deepStrictEqual(inputHighlight('f(a) [x]', '(a)'), [1, 4]);
      assert.strictEqual(inputHighlight('abc', '  '), undefined);
      assert.strictEqual(inputHighlight('abc', 'a.c'), undefined);
    });
  });

  describe('resultLabel', () => {
    it('highlights exactly the first match for the search text in the input, whatever the case and word options', () => {
      const ignoringCase = resultLabel('    # TODO: revoke the todo', lineRegex('todo', OFF), 'todo');
      assert.strictEqual(ignoringCase, '# TODO: revoke the todo');
      assert.strictEqual(highlighted(ignoringCase, 'todo'), 'TODO');
      // Match Case: the line starts at the match, so the earlier "TODO" is not what is highlighted.
      const matchingCase = resultLabel('// TODO: the todo', lineRegex('todo', { ...OFF, matchCase: true }), 'todo');
      assert.strictEqual(matchingCase, '…todo');
      assert.deepStrictEqual(inputHighlight(matchingCase, 'todo'), [1, 5]);
      const wholeWord = resultLabel('cat category cat', lineRegex('cat', { ...OFF, wholeWord: true }), 'cat');
      assert.strictEqual(wholeWord, 'cat category cat');
      assert.deepStrictEqual(inputHighlight(wholeWord, 'cat'), [0, 3]);
      const laterWord = resultLabel('category cat', lineRegex('cat', { ...OFF, wholeWord: true }), 'cat');
      assert.strictEqual(laterWord, '…cat');
    });

    it('keeps a match far into a long line in view', () => {
      const label = resultLabel(`${'x'.repeat(300)} needle ${'y'.repeat(50)}`, lineRegex('needle', OFF), 'needle');
      assert.ok(label.startsWith('…'), label);
      assert.ok(label.indexOf('needle') <= 41, label);
      assert.strictEqual(highlighted(label, 'needle'), 'needle');
    });

    it('shows text as text: no icons, no line breaks; a regular expression is left as the line', () => {
      assert.strictEqual(resultLabel('$(document).ready()', lineRegex('ready', OFF), 'ready'), '$\u200b(document).ready()');
      assert.strictEqual(labelText('a\rb\u2028c'), 'a b c');
      assert.strictEqual(resultLabel('  indented', lineRegex('^', { ...OFF, regex: true }), '^'), 'indented');
      assert.strictEqual(resultLabel('def authenticate(self):', lineRegex('def \\w+', { ...OFF, regex: true }), 'def \\w+'), 'def authenticate(self):');
    });
  });

  it('explains an invalid regular expression for a person, without the hint written for a model', () => {
    assert.strictEqual(patternProblem('(unclosed', { ...OFF, regex: true }), 'Invalid regular expression "(unclosed": Unterminated group.');
    assert.strictEqual(patternProblem('(unclosed', OFF), undefined);
    assert.strictEqual(errorText(new Error('Bad thing. Hint: do this.')), 'Bad thing.');
  });

  it('describes the options of a recent search', () => {
    assert.strictEqual(describeOptions(OFF), '');
    assert.strictEqual(describeOptions({ matchCase: true, wholeWord: true, regex: true, include: '*.py' }), 'Match Case · Whole Word · Regex · in *.py');
  });
});
