/**
 * A file's stamp (size, times, inode): none for a directory or a missing file, a new one when the file
 * is written or replaced, and the same after a round trip through the packed form the workers send.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import { packStamps, sameStamp, stampKey, statStamp, statStampAsync, unpackStamps, type FileStamp } from '../../../../src/engine/source/fileStamp';
import { Fixture } from '../../fixture';

describe('source: file stamps', () => {
  const fx = new Fixture();
  after(() => fx.remove());

  it('a regular file has one, taken alike with and without holding the thread; a directory or a missing file none', async () => {
    const file = fx.write('a.txt', 'hello');
    const stamp = statStamp(file)!;
    assert.strictEqual(stamp.size, 5);
    assert.ok(sameStamp(stamp, (await statStampAsync(file))!));
    assert.strictEqual(statStamp(fx.path('')), undefined);
    assert.strictEqual(statStamp(fx.path('missing.txt')), undefined);
    assert.strictEqual(await statStampAsync(fx.path('missing.txt')), undefined);
    assert.strictEqual(stampKey(fx.path('missing.txt')), undefined);
  });

  it('changes when the file is written again with the same size, or replaced by another file', () => {
    const file = fx.write('b.txt', 'one');
    const before = statStamp(file)!;
    const key = stampKey(file);
    fs.writeFileSync(file, 'two');
    fs.utimesSync(file, new Date(before.mtimeMs + 5000), new Date(before.mtimeMs + 5000));
    assert.ok(!sameStamp(before, statStamp(file)!));
    assert.notStrictEqual(stampKey(file), key);
    const other = fx.write('c.txt', 'two');
    const replaced = statStamp(file)!;
    fs.renameSync(other, file);
    assert.notStrictEqual(statStamp(file)!.ino, replaced.ino);
    assert.ok(!sameStamp(replaced, statStamp(file)!));
  });

  it('packed for the workers and unpacked, the stamps come back as they were, a missing one as none (property)', () => {
    const stamp: fc.Arbitrary<FileStamp> = fc.record({
      size: fc.nat(),
      mtimeMs: fc.double({ min: 0, max: 4e12, noNaN: true }),
      ctimeMs: fc.double({ min: 0, max: 4e12, noNaN: true }),
      ino: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(fc.option(stamp, { nil: undefined })), (stamps) => {
        assert.deepStrictEqual(
          unpackStamps(packStamps(stamps)),
          stamps.map((stamp) => stamp && { ...stamp }),
        );
      }),
      { numRuns: 500, seed: 20261126 },
    );
  });
});
