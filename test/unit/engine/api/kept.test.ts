import * as assert from 'assert';
import { keepNewest } from '../../../../src/engine/api/kept';

describe('engine/api/kept: the bounded memos', () => {
  it('keeps the newest entries, dropping the oldest beyond the bound', () => {
    const memo = new Map<string, number>();
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) assert.strictEqual(keepNewest(memo, key, i, 3), i);
    assert.deepStrictEqual(
      [...memo],
      [
        ['b', 1],
        ['c', 2],
        ['d', 3],
      ],
    );
  });

  it('a key set again becomes the newest, and nothing else is dropped for it', () => {
    const memo = new Map<string, number>([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    keepNewest(memo, 'a', 9, 3);
    assert.deepStrictEqual(
      [...memo],
      [
        ['b', 1],
        ['c', 2],
        ['a', 9],
      ],
    );
    keepNewest(memo, 'd', 3, 3);
    assert.deepStrictEqual([...memo.keys()], ['c', 'a', 'd']);
  });
});
