/**
 * The index's posting lists: sorted file ids stored as delta-varints. What is stored is what is read back,
 * for any ids up to 2^32 - 1 (five bytes); a list kept as bytes and filtered by another gives their common
 * ids, also when it is continued in a second range; and the set operations a query makes are those of sets.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { appendContinued, ByteWriter, decodeIds, encodeIds, intersect, keepListed, union } from '../../../../src/engine/index/postings';

/** Sorted, distinct ids. */
const ids = (max = 2 ** 32 - 1) => fc.uniqueArray(fc.integer({ min: 0, max }), { maxLength: 200 }).map((list) => list.sort((a, b) => a - b));
const encoded = (list: readonly number[]) => {
  const out = new ByteWriter();
  encodeIds(list, out);
  return out.result();
};
const options = { numRuns: 300, seed: 20261126 };

describe('engine/index/postings: posting lists', () => {
  it('reads back the ids it stored, small and large (property)', () => {
    fc.assert(
      fc.property(ids(), (list) => assert.deepStrictEqual(decodeIds(encoded(list), 0, encoded(list).length), list)),
      options,
    );
    assert.deepStrictEqual([...encoded([0, 1, 2])], [0, 0, 0], 'consecutive ids take a byte each');
    assert.deepStrictEqual([...encoded([127, 255])], [127, 127], 'deltas, not ids');
    assert.deepStrictEqual([...encoded([128])], [0x80, 0x01], 'seven bits a byte');
    assert.deepStrictEqual(decodeIds(encoded([2 ** 32 - 1]), 0, 5), [2 ** 32 - 1], 'the largest id, in five bytes');
  });

  it('lists stored one after another are read back each from its own range, appended', () => {
    const out = new ByteWriter();
    encodeIds([3, 9], out);
    const middle = out.length;
    encodeIds([1, 200_000], out);
    const bytes = out.result();
    assert.deepStrictEqual(decodeIds(bytes, 0, middle), [3, 9]);
    assert.deepStrictEqual(decodeIds(bytes, middle, bytes.length, [0]), [0, 1, 200_000]);
  });

  it('a writer grows past its first 64 KiB and keeps every byte', () => {
    const list = Array.from({ length: 40_000 }, (_, i) => i * 1000);
    const bytes = encoded(list);
    assert.ok(bytes.length > 1 << 16, `${bytes.length} bytes`);
    assert.deepStrictEqual(decodeIds(bytes, 0, bytes.length), list);
  });

  it('the ids of a list that a stored list holds too are their common ids, and a list continued in another range goes on where it stopped (property)', () => {
    fc.assert(
      fc.property(ids(5000), ids(5000), fc.nat(), (sorted, stored, cut) => {
        const at = stored.length === 0 ? 0 : cut % (stored.length + 1);
        const [first, second] = [stored.slice(0, at), stored.slice(at)];
        const out: number[] = [];
        const firstBytes = encoded(first);
        const reached = keepListed(sorted, 0, firstBytes, 0, firstBytes.length, out);
        // The second range holds larger ids, stored from -1 again (as a list split across blocks).
        const secondBytes = encoded(second);
        const shifted: number[] = [];
        keepListed(sorted, reached, secondBytes, 0, secondBytes.length, shifted);
        assert.deepStrictEqual([...out, ...shifted], intersect(sorted, stored));
      }),
      options,
    );
  });

  it('lists of larger and larger ids appended one after another read as one list: only each first delta is encoded again (property)', () => {
    fc.assert(
      fc.property(ids(), fc.array(fc.nat(), { maxLength: 4 }), (list, cuts) => {
        const ends = [...new Set(cuts.map((cut) => cut % (list.length + 1)))].sort((a, b) => a - b);
        const parts = [0, ...ends, list.length].slice(1).map((end, i, all) => list.slice(i === 0 ? 0 : all[i - 1], end));
        const out = new ByteWriter();
        let last = -1;
        parts.forEach((part, i) => {
          const lastAsked = appendContinued(encoded(part), last, out, i < parts.length - 1);
          if (i < parts.length - 1) assert.strictEqual(lastAsked, part.length > 0 ? part[part.length - 1] : last);
          last = lastAsked ?? last;
        });
        assert.deepStrictEqual([...out.result()], [...encoded(list)]);
      }),
      options,
    );
  });

  it('a writer takes runs of bytes past its first 64 KiB, a byte at a time and a run at a time', () => {
    const out = new ByteWriter();
    const run = Uint8Array.from({ length: 50_000 }, (_, i) => i % 251);
    out.push(7);
    out.append(run);
    out.append(run.subarray(10, 20));
    out.append(new Uint8Array(200_000).fill(3));
    out.push(9);
    assert.deepStrictEqual(out.result(), Uint8Array.from([7, ...run, ...run.subarray(10, 20), ...new Uint8Array(200_000).fill(3), 9]));
  });

  it('intersection and union are those of sets, sorted and without repeats (property)', () => {
    fc.assert(
      fc.property(ids(300), ids(300), (a, b) => {
        const inB = new Set(b);
        assert.deepStrictEqual(
          intersect(a, b),
          a.filter((id) => inB.has(id)),
        );
        assert.deepStrictEqual(
          union(a, b),
          [...new Set([...a, ...b])].sort((x, y) => x - y),
        );
        assert.deepStrictEqual(intersect(a, b), intersect(b, a));
        assert.deepStrictEqual(union(a, []), a);
        assert.deepStrictEqual(intersect(a, []), []);
      }),
      options,
    );
  });
});
