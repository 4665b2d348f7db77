/**
 * The counts of skipped files an answer reports (binary, over the size limit, denied, unreadable,
 * outside the workspace): they start at zero and add up reason by reason across what was searched.
 */
import * as assert from 'assert';
import { addSkips, emptySkips } from '../../../../src/engine/api/types';

describe('engine/api/types: skip counts', () => {
  it('start at zero for every reason, and add up reason by reason', () => {
    const total = emptySkips();
    assert.deepStrictEqual(total, { binary: 0, too_large: 0, denied: 0, unreadable: 0, outside_workspace: 0 });
    addSkips(total, { binary: 1, too_large: 2, denied: 3, unreadable: 4, outside_workspace: 5 });
    addSkips(total, { ...emptySkips(), denied: 10, outside_workspace: 1 });
    assert.deepStrictEqual(total, { binary: 1, too_large: 2, denied: 13, unreadable: 4, outside_workspace: 6 });
  });

  it('each count is its own: a new one is not changed by adding to another', () => {
    const first = emptySkips();
    addSkips(first, { ...emptySkips(), binary: 2 });
    assert.strictEqual(emptySkips().binary, 0);
  });
});
