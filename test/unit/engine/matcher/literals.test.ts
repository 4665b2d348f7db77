import * as assert from 'assert';
import { requiredLiteral } from '../../../../src/engine/matcher/literals';

describe('requiredLiteral', () => {
  const cases: Array<[string, string | undefined]> = [
    ['sourceMappingURL', 'sourceMappingURL'],
    ['def authenticate\\(', 'def authenticate('],
    ['function\\s+(\\w+)\\(', 'function'],
    ['\\w+Error\\(', 'Error('],
    ['[a-z]+_[0-9]+', '_'],
    ['foo|bar', undefined],
    ['(foo|bar)baz', 'baz'],
    ['colou?r', 'colo'],
    ['ab*c', 'a'],
    ['ab+c', 'ab'],
    ['x{2,3}yz', 'yz'],
    ['x{0,3}yz', 'yz'],
    ['a{2}', 'a'],
    ['\\bword\\b', 'word'],
    ['^import .* from', 'import '],
    ['\\d+\\.\\d+', '.'],
    ['[abc]', undefined],
    ['.*', undefined],
    ['\\p{Lu}\\p{Ll}+ing', 'ing'],
    ['a\\u0041bcd', 'bcd'],
    ['(?<name>x)yz', 'yz'],
    ['\\k<name>end', 'end'],
    ['{', '{'],
    ['a{b', 'a{b'],
    ['lazy.*?end', 'lazy'],
    ['emoji😀here', 'emoji😀here'],
  ];
  for (const [pattern, literal] of cases) {
    it(`${pattern} → ${JSON.stringify(literal)}`, () => {
      assert.strictEqual(requiredLiteral(pattern), literal);
      // Whatever it says must be in every match: check on a string the regex matches.
    });
  }

  it('every literal it returns occurs in real matches of the pattern', () => {
    const samples: Array<[string, string]> = [
      ['function\\s+(\\w+)\\(', 'export function main() {'],
      ['\\w+Error\\(', 'throw new TypeError("x")'],
      ['colou?r', 'the color red'],
      ['ab+c', 'xabbbc'],
      ['x{2,3}yz', 'xxxyz'],
      ['\\d+\\.\\d+', 'v1.25'],
    ];
    for (const [pattern, text] of samples) {
      const match = new RegExp(pattern, 'u').exec(text);
      assert.ok(match, `${pattern} matches ${text}`);
      assert.ok(match[0].includes(requiredLiteral(pattern)!), `${requiredLiteral(pattern)} is inside ${match[0]}`);
    }
  });
});
