import * as assert from 'assert';
import {
  describeOptions,
  errorText,
  grepInput,
  HIGHLIGHT_QUERY,
  labelText,
  lineRegex,
  MARK,
  parseInclude,
  patternProblem,
  resultLabel,
  type SearchOptions,
} from '../../../../src/vscode/commands/text';

const OFF: SearchOptions = { matchCase: false, wholeWord: false, regex: false, include: '' };

/** What VS Code's quick pick highlights in a label for the value HIGHLIGHT_QUERY: `*` becomes `.*`, case is ignored. */
function highlighted(label: string): string | undefined {
  const query = HIGHLIGHT_QUERY.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(query, 'i').exec(label)?.[0].split(MARK).join('');
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

  describe('resultLabel', () => {
    it('marks the first match so the quick pick highlights exactly it, whatever the options', () => {
      const ignoringCase = resultLabel('    # TODO: revoke the todo', lineRegex('todo', OFF));
      assert.strictEqual(ignoringCase, `# ${MARK}TODO${MARK}: revoke the todo`);
      assert.strictEqual(highlighted(ignoringCase), 'TODO');
      const matchingCase = resultLabel('// TODO: the todo', lineRegex('todo', { ...OFF, matchCase: true }));
      assert.strictEqual(highlighted(matchingCase), 'todo');
      assert.strictEqual(highlighted(resultLabel('def authenticate(self):', lineRegex('def \\w+', { ...OFF, regex: true }))), 'def authenticate');
      assert.strictEqual(highlighted(resultLabel('cat category cat', lineRegex('cat', { ...OFF, wholeWord: true }))), 'cat');
    });

    it('keeps a match far into a long line in view', () => {
      const label = resultLabel(`${'x'.repeat(300)} needle ${'y'.repeat(50)}`, lineRegex('needle', OFF));
      assert.ok(label.startsWith('…'), label);
      assert.ok(label.indexOf(MARK) <= 41, label);
      assert.strictEqual(highlighted(label), 'needle');
    });

    it('shows text as text: no icons, no stray marks, no line breaks; nothing marked without a match', () => {
      assert.strictEqual(resultLabel('$(document).ready()', lineRegex('ready', OFF)), `$\u200b(document).${MARK}ready${MARK}()`);
      assert.strictEqual(resultLabel(`a${MARK}b`, lineRegex('zzz', OFF)), 'ab');
      assert.strictEqual(labelText('a\rb\u2028c'), 'a b c');
      assert.strictEqual(resultLabel('  indented', lineRegex('^', { ...OFF, regex: true })), 'indented');
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
