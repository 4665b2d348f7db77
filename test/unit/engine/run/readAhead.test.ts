import * as assert from 'assert';
import type { FileOutcome } from '../../../../src/engine/pool/pool';
import { ReadAhead } from '../../../../src/engine/run/readAhead';

/** The outcome the stand-in pool gives a file: as many matching lines as its name has characters. */
const hit = (count: number): FileOutcome => ({ count, lines: [] });

/** A pool stand-in: records each batch and answers it when told, each file's outcome hit(its name's length). */
class FakePool {
  readonly batches: Array<{ files: string[]; pageRoom: number; answer(): void; fail(error: Error): void }> = [];
  send = (files: string[], pageRoom: number): Promise<FileOutcome[]> =>
    new Promise((resolve, reject) => {
      this.batches.push({ files, pageRoom, answer: () => resolve(files.map((file) => hit(file.length))), fail: reject });
    });
}

/** Takes every chunk ahead in order, as the search does: files and outcomes, flattened. */
async function takeAll(ahead: ReadAhead): Promise<Array<[string, FileOutcome]>> {
  const taken: Array<[string, FileOutcome]> = [];
  for (let chunk = ahead.peek(); chunk; chunk = ahead.peek()) {
    const outcomes = await chunk.outcomes;
    ahead.take();
    chunk.files.forEach((file, i) => taken.push([file, outcomes[i]]));
  }
  return taken;
}

describe('engine/run/readAhead: files read ahead of the report, handed back in order', () => {
  it('sends a batch to the pool each batchSize files, and the rest on flush, with the page room set before', async () => {
    const pool = new FakePool();
    const ahead = new ReadAhead(100, 3, pool.send);
    ahead.pageRoom = 7;
    for (const file of ['a', 'bb', 'ccc', 'dddd']) ahead.batched(file);
    assert.deepStrictEqual(
      pool.batches.map((batch) => batch.files),
      [['a', 'bb', 'ccc']],
      'a full batch goes at once',
    );
    ahead.flush();
    assert.deepStrictEqual(
      pool.batches.map((batch) => [batch.files, batch.pageRoom]),
      [
        [['a', 'bb', 'ccc'], 7],
        [['dddd'], 7],
      ],
    );
    pool.batches.forEach((batch) => batch.answer());
    assert.deepStrictEqual(await takeAll(ahead), [
      ['a', hit(1)],
      ['bb', hit(2)],
      ['ccc', hit(3)],
      ['dddd', hit(4)],
    ]);
  });

  it('settled files ride along in the batch in their place, and do not count towards its size', async () => {
    const pool = new FakePool();
    const ahead = new ReadAhead(100, 2, pool.send);
    ahead.settled('s1', 0);
    ahead.batched('r1');
    ahead.settled('s2', 'binary');
    ahead.batched('r22');
    assert.deepStrictEqual(
      pool.batches.map((batch) => batch.files),
      [['r1', 'r22']],
      'only the files to read go to the pool',
    );
    pool.batches[0].answer();
    assert.deepStrictEqual(await takeAll(ahead), [
      ['s1', 0],
      ['r1', hit(2)],
      ['s2', 'binary'],
      ['r22', hit(3)],
    ]);
  });

  it('a run of settled files alone is answered without the pool', async () => {
    const pool = new FakePool();
    const ahead = new ReadAhead(100, 48, pool.send);
    ahead.settled('a', 0);
    ahead.settled('b', 'too_large');
    ahead.flush();
    assert.strictEqual(pool.batches.length, 0);
    assert.deepStrictEqual(await takeAll(ahead), [
      ['a', 0],
      ['b', 'too_large'],
    ]);
  });

  it('a file searched on its own keeps its place after the files gathered before it', async () => {
    const pool = new FakePool();
    const ahead = new ReadAhead(100, 48, pool.send);
    ahead.batched('first');
    ahead.one('alone', Promise.resolve('unreadable'));
    ahead.batched('last');
    ahead.flush();
    pool.batches.forEach((batch) => batch.answer());
    assert.deepStrictEqual(await takeAll(ahead), [
      ['first', hit(5)],
      ['alone', 'unreadable'],
      ['last', hit(4)],
    ]);
  });

  it('has room for `limit` files ahead, gathered or sent, and room again once the report takes a chunk', async () => {
    const pool = new FakePool();
    const ahead = new ReadAhead(4, 2, pool.send);
    ahead.batched('a');
    ahead.batched('b');
    ahead.batched('c');
    assert.strictEqual(ahead.hasRoom, true);
    ahead.batched('d');
    assert.strictEqual(ahead.hasRoom, false, 'four files ahead');
    pool.batches[0].answer();
    await ahead.peek()!.outcomes;
    ahead.take();
    assert.strictEqual(ahead.hasRoom, true, 'two taken');
    assert.strictEqual(ahead.peek()!.files.join(), 'c,d');
  });

  it('without a pool, every file is searched on its own, in order', async () => {
    const ahead = new ReadAhead(16, 48);
    ahead.one('x', new Promise((resolve) => setImmediate(() => resolve(0))));
    ahead.one('y', Promise.resolve('binary'));
    assert.deepStrictEqual(await takeAll(ahead), [
      ['x', 0],
      ['y', 'binary'],
    ]);
  });

  it('drain waits for every chunk still ahead, a failed one included, without throwing', async () => {
    const pool = new FakePool();
    const ahead = new ReadAhead(100, 1, pool.send);
    ahead.batched('a');
    ahead.batched('b');
    let drained = false;
    const drain = ahead.drain().then(() => (drained = true));
    pool.batches[0].fail(new Error('the search was stopped'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.strictEqual(drained, false, 'one batch is still running');
    pool.batches[1].answer();
    await drain;
    assert.strictEqual(drained, true);
    await assert.rejects(ahead.peek()!.outcomes, /stopped/);
  });

  it('hands back thousands of chunks in order (the chunks taken are let go on the way)', async () => {
    const ahead = new ReadAhead(10_000, 48);
    const files = Array.from({ length: 1000 }, (_, i) => `f${i}`);
    for (const file of files) ahead.one(file, Promise.resolve(0));
    const taken = await takeAll(ahead);
    assert.deepStrictEqual(
      taken.map(([file]) => file),
      files,
    );
    assert.strictEqual(ahead.peek(), undefined);
  });
});
