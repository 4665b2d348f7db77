import * as assert from 'assert';
import fc from 'fast-check';
import { stat } from 'fs';
import { comparePaths } from '../../../../src/engine/globset/globs';
import { filterInSlices, sortInSlices, TimeSlices } from '../../../../src/engine/source/timeSlices';

describe('engine/timeSlices', () => {
  it('a pause of slices that give way waits for what they give way to (a build waiting while a search runs)', async () => {
    let searching = true;
    let waits = 0;
    let searchEnded: () => void = () => {};
    const searchEnds = new Promise<void>((resolve) => (searchEnded = resolve));
    const slices = new TimeSlices(async () => {
      waits++;
      if (searching) await searchEnds;
    });
    let resumed = false;
    const paused = slices.pause().then(() => (resumed = true));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.strictEqual(resumed, false, 'still waiting while the search runs');
    searching = false;
    searchEnded();
    await paused;
    assert.strictEqual(waits, 1);
    await slices.pause(); // nothing to wait for: a turn of the event loop only
    assert.strictEqual(waits, 2);
  });

  it('a pause made right after I/O (a reply just read) lets a due timer run before the next slice', async () => {
    const order: string[] = [];
    await new Promise<void>((done) =>
      stat(__filename, () => {
        // (in the I/O callback: a timer comes due while this slice still runs)
        const started = performance.now();
        setTimeout(() => order.push('timer'), 1);
        while (performance.now() - started < 5);
        void new TimeSlices().pause().then(() => {
          order.push('next slice');
          done();
        });
      }),
    );
    assert.deepStrictEqual(order, ['timer', 'next slice']);
  });

  it('sortInSlices sorts as Array.prototype.sort does, ties in their first order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ key: fc.integer({ min: 0, max: 50 }), id: fc.nat() }), { maxLength: 9000 }), async (items) => {
        const compare = (a: { key: number }, b: { key: number }) => a.key - b.key;
        assert.deepStrictEqual(await sortInSlices([...items], compare), [...items].sort(compare));
      }),
      { seed: 7, numRuns: 60 },
    );
  });

  it('sortInSlices sorts runs of sorted stretches as Array.prototype.sort does, ties in their first order (property)', async () => {
    // A listing's shape: stretches already in order (a directory's files), the stretches in any order.
    const stretch = fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 3000 }).map((keys) => keys.sort((a, b) => a - b));
    await fc.assert(
      fc.asyncProperty(fc.array(stretch, { maxLength: 12 }), async (stretches) => {
        const items = stretches.flatMap((keys, s) => keys.map((key, i) => ({ key, id: `${s}.${i}` })));
        const compare = (a: { key: number }, b: { key: number }) => a.key - b.key;
        assert.deepStrictEqual(await sortInSlices([...items], compare), [...items].sort(compare));
      }),
      { seed: 11, numRuns: 60 },
    );
  });

  it('sortInSlices compares a sorted list about once an item, not once an item per merge', async () => {
    const paths = Array.from({ length: 100_000 }, (_, i) => `d${String(i >> 8).padStart(4, '0')}/f${String(i).padStart(6, '0')}.ts`);
    let comparisons = 0;
    const sorted = await sortInSlices([...paths], (a, b) => {
      comparisons++;
      return comparePaths(a, b);
    });
    assert.deepStrictEqual(sorted, paths);
    assert.ok(comparisons < 1.2 * paths.length, `${comparisons} comparisons for ${paths.length} paths`);
  });

  it('sortInSlices and filterInSlices give the event loop turns while 100,000 paths are sorted and filtered', async () => {
    const paths = Array.from({ length: 100_000 }, (_, i) => `d${(i * 7919) % 500}/sub/file${i}.txt`);
    // A stretch is measured in the process's CPU time, not on the clock: on a loaded machine the thread
    // also waits for a core, which is no longer a stretch of the work.
    const cpuMs = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    let turns = 0;
    let longest = 0;
    let last = cpuMs();
    const timer = setInterval(() => {
      const now = cpuMs();
      longest = Math.max(longest, now - last);
      last = now;
      turns++;
    }, 1);
    let kept: string[];
    let sorted: string[];
    try {
      last = cpuMs();
      kept = await filterInSlices(paths, (path) => !path.endsWith('7.txt'));
      sorted = await sortInSlices([...kept], comparePaths);
    } finally {
      clearInterval(timer);
    }
    assert.strictEqual(kept.length, 90_000);
    assert.deepStrictEqual(sorted, [...kept].sort(comparePaths));
    assert.ok(turns >= 5, `the event loop ran ${turns} times`);
    assert.ok(longest < 100, `the longest stretch without a turn: ${longest.toFixed(0)} ms of CPU time`);
  });
});
