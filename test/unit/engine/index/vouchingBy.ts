/** Test helper: a watcher's word given file by file, as a test decides it. */
import type { ContentIndex } from '../../../../src/engine/index/contentIndex';
import type { Vouching } from '../../../../src/engine/index/treeWatcher';

/**
 * A Vouching that vouches for a file when `check` says so, asked anew each time: its word's mark is new
 * on every search, so no search reuses what an earlier one worked out from it.
 */
export function vouchingBy(check: (index: ContentIndex, id: number) => boolean): Vouching {
  let marks = 0;
  return {
    vouches: check,
    word: (index) => ({ mark: ++marks, watched: (id) => check(index, id), named: () => [] }),
  };
}
