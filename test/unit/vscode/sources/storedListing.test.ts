import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { changedDirectories, directoriesBelow, ListingStore, unchangedSince } from '../../../../src/vscode/sources/storedListing';
import { Fixture } from '../../fixture';
import { listingOf, walk, walked } from './storedListingFixture';

describe('stored listings (kept between windows)', () => {
  let fixture: Fixture;
  beforeEach(() => (fixture = new Fixture()));
  afterEach(() => fixture.remove());

  it('walks every directory where a file could appear, empty ones too, and leaves out what the listing leaves out as a whole', async () => {
    fixture.files({ 'a/x.ts': '', 'a/b/y.ts': '', 'node_modules/m/i.js': '' });
    fixture.mkdir('empty/deeper');
    assert.deepStrictEqual(await walked(fixture, walk(['node_modules'])), ['', 'a', 'a/b', 'empty', 'empty/deeper']);
  });

  it('writes a listing and reads it back as it was, for the same key and version only', async () => {
    // (A name may hold a newline, except on Windows.)
    const odd = process.platform === 'win32' ? 'b c/y z.ts' : 'b c/y\nz.ts';
    fixture.files({ 'a/x.ts': '', [odd]: '' });
    const directories = (await directoriesBelow(fixture.root, walk()))!;
    // The directories that held a listed file come first (the root and a/); the others were walked.
    const listing = { ...(await listingOf(fixture, ['a/x.ts', odd], directories, Date.now())), held: 2 };
    const dir = fixture.path('.storage');
    assert.ok(await new ListingStore(dir, '1.0.0').save('key', fixture.root, listing));
    assert.deepStrictEqual(await new ListingStore(dir, '1.0.0').load('key'), listing);
    assert.strictEqual(await new ListingStore(dir, '1.0.1').load('key'), undefined, 'another version');
    assert.strictEqual(await new ListingStore(dir, '1.0.0').load('other'), undefined, 'another key');
  });

  it('reads back a listing larger than one chunk of decoding, whatever the names hold', async () => {
    const names = Array.from({ length: 60_000 }, (_, i) => `dir ${i % 97}/é-${i}-${'x'.repeat(i % 13)}.ts`);
    const listing = await listingOf(fixture, names, [fixture.root], Date.now());
    const store = new ListingStore(fixture.path('.storage'), 'v');
    assert.ok(await store.save('large', fixture.root, listing));
    assert.deepStrictEqual(await store.load('large'), listing);
  });

  it('an empty listing is stored too; a listing whose paths are not below its folder is not', async () => {
    const dir = fixture.path('.storage');
    const empty = await listingOf(fixture, [], [fixture.root], Date.now());
    assert.ok(await new ListingStore(dir, 'v').save('empty', fixture.root, empty));
    assert.deepStrictEqual((await new ListingStore(dir, 'v').load('empty'))?.files, []);
    const elsewhere = { ...empty, files: [{ path: '/elsewhere/x.ts', relative: 'x.ts' }] };
    assert.strictEqual(await new ListingStore(dir, 'v').save('elsewhere', fixture.root, elsewhere), false);
  });

  it('keeps the newest few listings', async () => {
    const dir = fixture.path('.storage');
    const store = new ListingStore(dir, 'v');
    const listing = await listingOf(fixture, [], [fixture.root], Date.now());
    let before = new Set<string>();
    for (let i = 0; i < 6; i++) {
      assert.ok(await store.save(`key ${i}`, fixture.root, listing));
      // Written in this order, a second apart (two saves in the same millisecond would tie).
      const names = fs.readdirSync(dir);
      const past = Date.now() / 1000 - 100 + i;
      for (const name of names.filter((name) => !before.has(name))) fs.utimesSync(nodePath.join(dir, name), past, past);
      before = new Set(names);
    }
    assert.strictEqual(fs.readdirSync(dir).length, 4);
    assert.ok(await store.load('key 5'));
    assert.strictEqual(await store.load('key 0'), undefined);
  });

  describe('whether a stored listing is current', () => {
    /** A listing begun after the tree was made (the margin for coarse clocks passed). */
    const later = () => Date.now() + 5_000;
    /** Marks a directory changed after the listing began (its times moved past it, as a change while no window was open would). */
    const changedAfter = (path: string) => {
      const future = (Date.now() + 60_000) / 1000;
      fs.utimesSync(path, future, future);
    };

    it('is current while nothing changed', async () => {
      fixture.files({ 'a/x.ts': '' });
      fixture.mkdir('empty');
      const listing = await listingOf(fixture, ['a/x.ts'], (await directoriesBelow(fixture.root, walk()))!, later());
      assert.strictEqual(await unchangedSince(listing, () => false), true);
    });

    it('is not once a file appeared in a directory that held no listed file', async () => {
      fixture.files({ 'a/x.ts': '' });
      fixture.mkdir('empty');
      const listing = await listingOf(fixture, ['a/x.ts'], (await directoriesBelow(fixture.root, walk()))!, later());
      fixture.write('empty/new.ts', '');
      changedAfter(fixture.path('empty'));
      assert.strictEqual(await unchangedSince(listing, () => false), false);
    });

    it('is not once a .gitignore it held changed', async () => {
      fixture.files({ 'a/.gitignore': '*.log\n', 'a/x.ts': '' });
      const listing = await listingOf(fixture, ['a/x.ts'], [fixture.root, fixture.path('a')], later());
      assert.deepStrictEqual(listing.gitignores, [false, true]);
      changedAfter(fixture.path('a/.gitignore'));
      assert.strictEqual(await unchangedSince(listing, () => false), false);
    });

    it('names the directories changed since it began, or since each was read again, and those gone, up to a number in all', async () => {
      fixture.files({ 'a/x.ts': '', 'b/y.ts': '', 'c/z.ts': '' });
      const dirs = [fixture.root, fixture.path('a'), fixture.path('b'), fixture.path('c')];
      const listing = await listingOf(fixture, ['a/x.ts', 'b/y.ts', 'c/z.ts'], dirs, later());
      changedAfter(fixture.path('a'));
      changedAfter(fixture.path('c'));
      assert.deepStrictEqual(await changedDirectories(listing, () => false, { atMost: 2 }), { changed: [1, 3], gone: [], ruled: [] });
      assert.strictEqual(await changedDirectories(listing, () => false, { atMost: 1 }), undefined, 'more changed than it reads again');
      // c read again after its change: only a is changed since.
      const since = new Map([[3, Date.now() + 120_000]]);
      assert.deepStrictEqual(await changedDirectories(listing, () => false, { since, atMost: 2 }), { changed: [1], gone: [], ruled: [] });
      fs.rmSync(fixture.path('b'), { recursive: true });
      changedAfter(fixture.root);
      assert.deepStrictEqual(await changedDirectories(listing, () => false, { since, atMost: 3 }), { changed: [0, 1], gone: [2], ruled: [] });
      assert.strictEqual(await unchangedSince(listing, () => false), false);
    });

    it('names the directories whose .gitignore changed or went when asked to, counted with the changed ones; else it cannot say', async () => {
      fixture.files({ 'a/x.ts': '', 'a/.gitignore': '*.log\n', 'b/y.ts': '', 'b/.gitignore': '*.tmp\n' });
      const dirs = [fixture.root, fixture.path('a'), fixture.path('b')];
      const listing = await listingOf(fixture, ['a/x.ts', 'b/y.ts'], dirs, later());
      changedAfter(fixture.path('a/.gitignore'));
      fs.rmSync(fixture.path('b/.gitignore'));
      changedAfter(fixture.path('b'));
      assert.strictEqual(await changedDirectories(listing, () => false, { atMost: 2 }), undefined);
      assert.deepStrictEqual(await changedDirectories(listing, () => false, { atMost: 2, rules: true }), { changed: [], gone: [], ruled: [1, 2] });
      assert.strictEqual(await changedDirectories(listing, () => false, { atMost: 1, rules: true }), undefined, 'more than it reads again');
    });
  });
});
