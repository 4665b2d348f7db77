/**
 * Candidates handed over while a folder is still being listed: taken in order as they arrive, nothing
 * while the next has not come, the end once all were taken, and a failed listing's error where the
 * candidates stopped; a wait for more ends on an arrival, on the end, or at its time bound.
 */
import * as assert from 'assert';
import type { Candidate } from '../../../../src/engine/api/types';
import { ArrivingCandidates } from '../../../../src/engine/source/arriving';

const file = (name: string): Candidate => ({ path: `/w/${name}`, relative: name });

describe('engine/source/arriving', () => {
  it('a cursor takes the candidates in the order they were added, and says when the next has not arrived yet', () => {
    const arriving = new ArrivingCandidates();
    const next = arriving.cursor();
    assert.strictEqual(next(), undefined, 'nothing yet');
    arriving.add([file('a'), file('b')]);
    assert.deepStrictEqual(next(), { value: file('a'), done: false });
    assert.deepStrictEqual(next(), { value: file('b'), done: false });
    assert.strictEqual(next(), undefined, 'the listing goes on');
    arriving.add([file('c')]);
    arriving.end();
    assert.deepStrictEqual(next(), { value: file('c'), done: false });
    assert.deepStrictEqual(next(), { value: undefined, done: true });
    assert.deepStrictEqual(next(), { value: undefined, done: true });
  });

  it('each cursor takes every candidate once, from the first, whenever it starts', () => {
    const arriving = new ArrivingCandidates();
    arriving.add([file('a')]);
    const early = arriving.cursor();
    assert.strictEqual(early()?.value?.relative, 'a');
    arriving.add([file('b')]);
    arriving.end();
    const late = arriving.cursor();
    const taken = (next: () => IteratorResult<Candidate> | undefined) => {
      const names: string[] = [];
      for (let step = next(); step && !step.done; step = next()) names.push(step.value.relative);
      return names;
    };
    assert.deepStrictEqual(taken(early), ['b']);
    assert.deepStrictEqual(taken(late), ['a', 'b']);
  });

  it("a failed listing's error is thrown where its candidates stop, after those that arrived", () => {
    const arriving = new ArrivingCandidates();
    arriving.add([file('a')]);
    const failure = new Error('listing failed: the folder was removed');
    arriving.end(failure);
    assert.strictEqual(arriving.failure, failure);
    const next = arriving.cursor();
    assert.strictEqual(next()?.value?.relative, 'a');
    assert.throws(() => next(), /the folder was removed/);
  });

  it('a wait ends when candidates arrive or the listing ends, not at its time bound', async () => {
    const arriving = new ArrivingCandidates();
    let woken = 0;
    const first = arriving.arrival(60_000).then(() => woken++);
    const second = arriving.arrival(60_000).then(() => woken++);
    arriving.add([file('a')]);
    await Promise.all([first, second]);
    assert.strictEqual(woken, 2);
    const third = arriving.arrival(60_000);
    arriving.end();
    await third;
    assert.strictEqual(arriving.done, true);
    await arriving.arrival(60_000); // once done, a wait ends at once
  });

  it('a wait with nothing arriving ends at its time bound', async () => {
    const arriving = new ArrivingCandidates();
    await arriving.arrival(0);
    arriving.add([file('a')]); // no wait left behind to wake
    assert.strictEqual(arriving.items.length, 1);
  });
});
