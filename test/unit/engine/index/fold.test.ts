/**
 * The folding the index and the query planner both apply before taking trigrams: it keeps every text's
 * length, so a substring folds to a substring and its trigrams are among the text's (the index never
 * misses a file that holds a match); an ASCII letter folds with every spelling a JavaScript regex with
 * `i` accepts for it (the Kelvin sign and the long s included); nothing else is changed.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { ASCII_KEYS, foldText, foldUnit, forEachTrigram, trigramKey, trigramKeys } from '../../../../src/engine/index/fold';

const options = { numRuns: 500, seed: 20261126 };
/** Text with ASCII, accented letters, the two special folds, CJK and astral characters. */
const text = fc.array(fc.constantFrom(...'aZk Ks_9\u212a\u017fÉé日本😀\n\t{}'.split(''), ...'abcxyzABCXYZ'), { maxLength: 40 }).map((units) => units.join(''));

describe('engine/index/fold: text folded for trigrams', () => {
  it('folds ASCII letters to lower case, the Kelvin sign to k and the long s to s, and keeps everything else', () => {
    assert.strictEqual(foldText('AbC \u212a\u017f É日'), 'abc ks É日');
    assert.strictEqual(foldText('Straße ÀÉ'), 'straße ÀÉ', 'other letters as they are (a search ignoring their case reads the file)');
    for (let unit = 0; unit < 0x10000; unit++) {
      const folded = foldUnit(unit);
      if (unit >= 65 && unit <= 90) assert.strictEqual(folded, unit + 32);
      else if (unit === 0x212a || unit === 0x017f) assert.ok(folded === 107 || folded === 115);
      else assert.strictEqual(folded, unit, `U+${unit.toString(16)}`);
    }
  });

  it('every spelling a regex with `i` accepts for an ASCII letter folds to the same letter', () => {
    for (let unit = 0; unit < 0x10000; unit++) {
      const char = String.fromCharCode(unit);
      for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
        if (new RegExp(letter, 'i').test(char) || new RegExp(letter, 'iu').test(char)) assert.strictEqual(foldText(char), letter, `U+${unit.toString(16)}`);
      }
    }
  });

  it("a substring of a text folds to a substring of the folded text, and its trigrams are among the text's (property)", () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (whole, from, length) => {
        const start = whole.length === 0 ? 0 : from % whole.length;
        const part = whole.slice(start, start + (length % 12));
        assert.strictEqual(foldText(whole).length, whole.length);
        assert.ok(foldText(whole).includes(foldText(part)));
        const keys = new Set(trigramKeys(whole));
        for (const key of trigramKeys(part)) assert.ok(keys.has(key), `${JSON.stringify(part)} in ${JSON.stringify(whole)}`);
      }),
      options,
    );
  });

  it('a text and its spelling in other ASCII cases have the same trigrams (property)', () => {
    fc.assert(
      fc.property(text, (value) => {
        const keys = trigramKeys(value).sort();
        assert.deepStrictEqual(trigramKeys(value.replace(/[a-z]/g, (c) => c.toUpperCase())).sort(), keys);
        assert.deepStrictEqual(trigramKeys(value.replace(/[A-Z]/g, (c) => c.toLowerCase())).sort(), keys);
      }),
      options,
    );
  });

  it('three ASCII units have a key of their own; any other trigram a key above them; every key below 2^30', () => {
    const seen = new Map<number, string>();
    for (const trigram of ['abc', 'abd', 'bac', '   ', '\x00\x00\x00', '\x7f\x7f\x7f', 'a\nb']) {
      const key = trigramKey(trigram.charCodeAt(0), trigram.charCodeAt(1), trigram.charCodeAt(2));
      assert.ok(key < ASCII_KEYS, trigram);
      assert.ok(!seen.has(key), `${JSON.stringify(trigram)} and ${JSON.stringify(seen.get(key))}`);
      seen.set(key, trigram);
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 128, max: 0xffff }), fc.integer({ min: 0, max: 0xffff }), (a, b, c) => {
        const key = trigramKey(a, b, c);
        assert.ok(key >= ASCII_KEYS && key < 2 ** 30 && Number.isInteger(key));
      }),
      options,
    );
  });

  it('visits every trigram in order, repeats included, and none in a text shorter than three units', () => {
    const visited: number[] = [];
    forEachTrigram('aaaa', (key) => visited.push(key));
    assert.deepStrictEqual(visited, [trigramKey(97, 97, 97), trigramKey(97, 97, 97)]);
    assert.deepStrictEqual(trigramKeys('aaaa'), [trigramKey(97, 97, 97)], 'the keys, each once');
    assert.deepStrictEqual(trigramKeys('ab'), []);
    assert.deepStrictEqual(trigramKeys(''), []);
  });
});
