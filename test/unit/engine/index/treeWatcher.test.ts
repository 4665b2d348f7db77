/**
 * The tree watcher behind `cli.js serve`: what it records of a change, and that a burst of events large
 * enough for the kernel's queue to have dropped some makes it vouch for nothing until the next reset.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { ContentIndex } from '../../../../src/engine/index/contentIndex';
import { eventsDelivered, overflowThreshold, TreeWatcher, WatchVouching } from '../../../../src/engine/index/treeWatcher';
import { EveryItem } from '../../../support/everyItem';
import { waitUntil } from '../../../support/waitUntil';
import { Fixture } from '../../fixture';

/** Waits until `done` holds (events arrive on the event loop), failing after 10 s with `what`. */
const until = (what: string, done: () => boolean): Promise<void> => waitUntil(done, () => what, 10_000, 10);

describe('engine/index/treeWatcher', () => {
  let fx: Fixture;
  let watcher: TreeWatcher | undefined;
  beforeEach(() => {
    fx = new Fixture('grep-tools-watch-');
    for (let i = 0; i < 10; i++) fx.write(`f${i}.txt`, 'old\n');
  });
  afterEach(() => {
    watcher?.close();
    fx.remove();
  });

  it('the threshold is half the inotify queue (16,384 events by default)', () => {
    const queued = fs.existsSync('/proc/sys/fs/inotify/max_queued_events') ? Number(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) : 16_384;
    assert.strictEqual(overflowThreshold(), Math.floor(queued / 2));
  });

  it('records the files an event named; a new entry makes the listing unusable', async () => {
    watcher = new TreeWatcher(() => undefined);
    assert.strictEqual(watcher.watch([fx.root]), 1);
    fs.appendFileSync(nodePath.join(fx.root, 'f1.txt'), 'new\n');
    await until('the change is seen', () => watcher!.current.touched.has(`${fx.root}/f1.txt`));
    assert.strictEqual(watcher.current.overflowed, false);
    fx.write('added.txt', 'x\n');
    await until('the new entry is seen', () => watcher!.current.structural);
  });

  it('a record started after a listing keeps the shape changed when an entry appeared while the tree was listed', async () => {
    watcher = new TreeWatcher(() => undefined);
    watcher.watch([fx.root]);
    // A listing begins; an entry appears in a directory it may already have read; the listing ends and the record starts anew.
    let listedAt = watcher.shapeMark;
    fx.write('while-listed.txt', 'x\n');
    await eventsDelivered();
    watcher.reset(listedAt);
    assert.strictEqual(watcher.current.structural, true, 'the next refresh lists again');
    assert.strictEqual(watcher.current.touched.size, 0, 'the files the build reads next are not named');
    // Nothing appeared while the next listing ran: the record starts clean; an edit meanwhile is not a change of shape.
    listedAt = watcher.shapeMark;
    fs.appendFileSync(nodePath.join(fx.root, 'f1.txt'), 'new\n');
    await eventsDelivered();
    watcher.reset(listedAt);
    assert.strictEqual(watcher.current.structural, false);
    watcher.reset();
    assert.strictEqual(watcher.current.structural, false, 'without a listing, a reset starts clean');
  });

  it('a directory gone before it could be watched is a change of shape, not a failure to watch', () => {
    let calls = 0;
    watcher = new TreeWatcher(() => calls++);
    assert.strictEqual(watcher.watch([fx.root, nodePath.join(fx.root, 'removed'), nodePath.join(fx.root, 'f1.txt', 'x')]), 1);
    assert.strictEqual(watcher.size, 1);
    assert.strictEqual(watcher.current.structural, true);
    assert.strictEqual(calls, 2, 'each gone directory schedules a refresh');
  });

  it('its generation changes whenever a watch is placed or closed, and only then', () => {
    watcher = new TreeWatcher(() => undefined);
    const other = fx.mkdir('other');
    const seen = [watcher.generation];
    watcher.watch([fx.root, other]);
    seen.push(watcher.generation);
    watcher.watch([fx.root, other]);
    seen.push(watcher.generation);
    watcher.watch([fx.root]);
    seen.push(watcher.generation);
    watcher.close();
    seen.push(watcher.generation);
    assert.strictEqual(new Set(seen).size, 4, `generations ${seen.join(', ')}: the same watches again change nothing`);
    assert.strictEqual(seen[1], seen[2]);
  });

  /** A watcher the system refuses to watch a directory named `full` for (ENOSPC: the inotify watch limit). */
  const refusingFull = () =>
    new TreeWatcher(
      () => undefined,
      undefined,
      (dir, listener) => {
        if (dir.endsWith('full')) throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
        return fs.watch(dir, { persistent: false }, listener);
      },
    );

  it('a watch the system refuses (ENOSPC) fails the call, which leaves no watch of its own behind', () => {
    watcher = refusingFull();
    const kept = fx.mkdir('kept');
    assert.strictEqual(watcher.watch([kept]), 1);
    assert.throws(() => watcher!.watch([kept, fx.root, fx.mkdir('full')]), { code: 'ENOSPC' });
    assert.deepStrictEqual([watcher.watches(kept), watcher.watches(fx.root), watcher.size], [true, false, 1]);
  });

  it('watchInSlices places and closes what watch does, a slice at a time, addInSlices keeps the others; a refusal (ENOSPC) leaves no watch of its own behind', async () => {
    watcher = refusingFull();
    const dirs = Array.from({ length: 12 }, (_, i) => fx.mkdir(`d${i}`));
    watcher.watch([fx.root]);
    const slices = new EveryItem();
    assert.strictEqual(await watcher.watchInSlices(dirs, slices), 12);
    assert.deepStrictEqual([watcher.size, watcher.watches(fx.root), dirs.every((dir) => watcher!.watches(dir)), slices.pauses], [12, false, true, 12]);
    await assert.rejects(watcher.watchInSlices([dirs[0], fx.root, fx.mkdir('full')], new EveryItem()), { code: 'ENOSPC' });
    assert.deepStrictEqual([watcher.watches(dirs[0]), watcher.watches(fx.root), watcher.size], [true, false, 1]);
    // addInSlices keeps the others: a refusal closes only what it placed.
    assert.strictEqual(await watcher.addInSlices([fx.root, dirs[1]], new EveryItem()), 2);
    await assert.rejects(watcher.addInSlices([dirs[2], fx.mkdir('again-full'), dirs[3]], new EveryItem()), { code: 'ENOSPC' });
    assert.deepStrictEqual(
      [watcher.watches(dirs[0]), watcher.watches(fx.root), watcher.watches(dirs[1]), watcher.watches(dirs[2]), watcher.size],
      [true, true, true, false, 3],
    );
  });

  it('past the threshold it keeps no file list and vouches for nothing until reset', async () => {
    let calls = 0;
    watcher = new TreeWatcher(() => calls++, 5);
    watcher.watch([fx.root]);
    for (let i = 0; i < 10; i++) fs.appendFileSync(nodePath.join(fx.root, `f${i}.txt`), 'new\n');
    await until('the burst is counted', () => watcher!.current.events >= 10);
    assert.deepStrictEqual(
      { ...watcher.current, touched: [...watcher.current.touched.keys()] },
      { touched: [], structural: true, events: watcher.current.events, overflowed: true },
    );
    assert.ok(calls >= 10, 'each event schedules a refresh');
    watcher.reset();
    assert.deepStrictEqual(
      { ...watcher.current, touched: [...watcher.current.touched.keys()] },
      { touched: [], structural: false, events: 0, overflowed: false },
    );
  });
});

describe('engine/index/treeWatcher: eventsDelivered and WatchVouching', () => {
  let fx: Fixture;
  let watcher: TreeWatcher | undefined;
  beforeEach(() => {
    fx = new Fixture('grep-tools-vouch-');
    fx.write('watched/a.txt', 'old\n');
    fx.write('watched/b.txt', 'old\n');
    fx.write('unwatched/c.txt', 'old\n');
  });
  afterEach(() => {
    watcher?.close();
    fx.remove();
  });

  /** An index holding the fixture's three files, stamped as they are now. */
  function indexOfFixture(): ContentIndex {
    const index = new ContentIndex();
    for (const relative of ['watched/a.txt', 'watched/b.txt', 'unwatched/c.txt']) {
      const path = `${fx.root}/${relative}`;
      const stat = fs.statSync(path);
      index.set({ path, kind: 'text', size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino }, 'old\n');
    }
    return index;
  }

  it('a change completed before eventsDelivered() resolves is always seen: a write, then a search at once', async () => {
    watcher = new TreeWatcher(() => undefined);
    watcher.watch([`${fx.root}/watched`]);
    for (let i = 0; i < 200; i++) {
      watcher.reset();
      fs.writeFileSync(`${fx.root}/watched/a.txt`, `new ${i}\n`);
      await eventsDelivered();
      assert.ok(watcher.current.touched.has(`${fx.root}/watched/a.txt`), `write ${i} seen`);
    }
  });

  it("its shape mark moves when an entry appears or goes or a .gitignore changes, not when a file's content does, and is not reset", async () => {
    watcher = new TreeWatcher(() => undefined);
    watcher.watch([`${fx.root}/watched`]);
    const before = watcher.shapeMark;
    fs.appendFileSync(`${fx.root}/watched/a.txt`, 'more\n');
    await eventsDelivered();
    assert.strictEqual(watcher.shapeMark, before, 'an edit leaves the shape');
    fs.writeFileSync(`${fx.root}/watched/new.txt`, 'x\n');
    await eventsDelivered();
    const added = watcher.shapeMark;
    assert.notStrictEqual(added, before, 'a new entry moves it');
    watcher.reset();
    assert.strictEqual(watcher.shapeMark, added, 'a reset keeps it');
    fs.writeFileSync(`${fx.root}/watched/.gitignore`, '*.log\n');
    await eventsDelivered();
    const ignored = watcher.shapeMark;
    assert.notStrictEqual(ignored, added, 'a new .gitignore moves it');
    fs.appendFileSync(`${fx.root}/watched/.gitignore`, '*.tmp\n');
    await eventsDelivered();
    assert.notStrictEqual(watcher.shapeMark, ignored, 'an edited .gitignore moves it');
    const now = watcher.shapeMark;
    fs.rmSync(`${fx.root}/watched/new.txt`);
    await eventsDelivered();
    assert.notStrictEqual(watcher.shapeMark, now, 'a removed entry moves it');
  });

  it('vouches only for a file of a watched directory that no event named, that the audit did not find stale, and never after an overflow', async () => {
    watcher = new TreeWatcher(() => undefined, 3);
    watcher.watch([`${fx.root}/watched`]);
    const index = indexOfFixture();
    const stale = new Set<string>();
    const vouching = new WatchVouching(watcher, () => watcher!.current, stale);
    const id = (relative: string) => index.idOf(`${fx.root}/${relative}`)!;
    assert.strictEqual(vouching.vouches(index, id('watched/a.txt')), true);
    assert.strictEqual(vouching.vouches(index, id('unwatched/c.txt')), false, 'its directory is not watched');
    stale.add(`${fx.root}/watched/b.txt`);
    assert.strictEqual(vouching.vouches(index, id('watched/b.txt')), false, 'the audit found it changed');
    stale.clear();
    fs.appendFileSync(`${fx.root}/watched/a.txt`, 'more\n');
    await eventsDelivered();
    assert.strictEqual(vouching.vouches(index, id('watched/a.txt')), false, 'an event named it');
    assert.strictEqual(vouching.vouches(index, id('watched/b.txt')), true, 'no event named it');
    // (inotify merges an event identical to the one before it: a burst of distinct ones)
    for (let i = 0; i < 3; i++) fs.writeFileSync(`${fx.root}/watched/new${i}.txt`, 'x\n');
    await until('the burst is seen', () => watcher!.current.overflowed);
    assert.strictEqual(vouching.vouches(index, id('watched/b.txt')), false, 'events may have been dropped');
  });

  it('a record kept beside a new one goes on vouching for its index while a refresh builds the next, until released', async () => {
    watcher = new TreeWatcher(() => undefined);
    watcher.watch([`${fx.root}/watched`]);
    const index = indexOfFixture();
    const id = (relative: string) => index.idOf(`${fx.root}/${relative}`)!;
    const first = watcher.reset();
    fs.appendFileSync(`${fx.root}/watched/a.txt`, 'before the refresh\n');
    await eventsDelivered();
    // A refresh begins: its own record starts, the index's goes on.
    const listedAt = watcher.shapeMark;
    const next = watcher.reset(listedAt, first);
    let record: typeof first | undefined = first;
    const vouching = new WatchVouching(watcher, () => record);
    assert.strictEqual(vouching.vouches(index, id('watched/a.txt')), false, 'named before the refresh began: still not vouched for');
    assert.strictEqual(vouching.vouches(index, id('watched/b.txt')), true, 'no event named it: vouched for while the refresh runs');
    fs.appendFileSync(`${fx.root}/watched/b.txt`, 'while the refresh runs\n');
    fs.writeFileSync(`${fx.root}/watched/new.txt`, 'x\n');
    await eventsDelivered();
    assert.strictEqual(vouching.vouches(index, id('watched/b.txt')), false, 'named while the refresh ran');
    assert.deepStrictEqual([first.structural, next.structural, next.touched.has(`${fx.root}/watched/a.txt`)], [true, true, false]);
    // The refresh's index replaces the old one: the old record ends.
    record = next;
    watcher.release();
    const counted = first.events;
    fs.appendFileSync(`${fx.root}/watched/a.txt`, 'after\n');
    await eventsDelivered();
    assert.strictEqual(next.touched.has(`${fx.root}/watched/a.txt`), true);
    assert.strictEqual(first.events, counted, 'a released record records nothing more');
    // A reset keeps only the record it is given.
    const third = watcher.reset(undefined, next);
    const fourth = watcher.reset(undefined, third);
    const [nextEvents, thirdEvents] = [next.events, third.events];
    fs.appendFileSync(`${fx.root}/watched/b.txt`, 'again\n');
    await eventsDelivered();
    assert.deepStrictEqual([next.events - nextEvents, third.events - thirdEvents, fourth.touched.has(`${fx.root}/watched/b.txt`)], [0, 1, true]);
  });
});
