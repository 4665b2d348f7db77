/**
 * A recorded listing: what a walk of the whole workspace listed, replayed instead of walking again while
 * no directory it listed and no .gitignore in them changed. It is recorded only for the search of the
 * whole workspace and only when nothing changed too recently to be relied on; replayed only for that
 * search; any change (a file created, deleted or renamed, a .gitignore edited in place) walks again.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import {
  ListingSource,
  listingFresh,
  recordListing,
  watchedDirectories,
  type RecordedListing,
  type StreamingSource,
} from '../../../../src/engine/index/listing';
import type { FileQuery, FileSource, PrunedEntry } from '../../../../src/engine/source/fileSource';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture } from '../../fixture';
import { age } from './age';

const denied = DEFAULT_DENIED_PATHS;
/** A moment well after every write of the test: nothing counts as written too recently. */
const later = () => Date.now() + 60_000;
const cancelledNever = () => false;

describe('engine/index/listing: a recorded listing of the whole workspace', () => {
  let fx: Fixture;
  let ws: string;
  const walker = new NodeFileSource();
  const query = (extra: Partial<FileQuery> = {}): FileQuery => ({
    bases: [{ root: ws, base: ws, folderIndex: 0 }],
    includeIgnored: false,
    respectGitignore: true,
    granted: [ws],
    ...extra,
  });
  /** The relative paths a source lists for a query, per base, with what it pruned. */
  const listed = async (source: FileSource, q = query()) => {
    const pruned: PrunedEntry[] = [];
    const perBase = await source.list(q, denied, pruned, cancelledNever);
    return {
      files: perBase.map((files) => files.map((file) => file.relative).sort()),
      pruned: pruned.map((entry) => `${entry.reason} ${entry.relative}`).sort(),
    };
  };
  const record = (q = query(), now = later()) => recordListing(walker, q, denied, cancelledNever, now);

  beforeEach(() => {
    fx = new Fixture('grep-tools-listing-');
    ws = fx.mkdir('ws');
    fx.files({
      'ws/src/a.ts': 'a\n',
      'ws/src/deep/b.ts': 'b\n',
      'ws/README.md': 'r\n',
      'ws/.gitignore': 'dist/\n',
      'ws/dist/out.js': 'o\n',
      'ws/.env': 'SECRET\n',
      'ws/.git/HEAD': 'ref\n',
      'ws/node_modules/m/index.js': 'm\n',
    });
  });
  afterEach(() => fx.remove());

  it('replays exactly what the walk lists, pruned entries included, without walking', async () => {
    const { listing, files } = record();
    assert.ok(listing, 'recorded');
    assert.deepStrictEqual(
      files.map(([, file]) => file.relative),
      ['.env', '.gitignore', 'README.md', 'src/a.ts', 'src/deep/b.ts'],
    );
    const source = new ListingSource(walker, [listing]);
    const walked = await listed(walker);
    assert.deepStrictEqual(await listed(source), walked);
    assert.strictEqual(source.replayed, 1);
    const streamed = [...source.stream(query(), denied, [], cancelledNever)].map(([base, file]) => `${base} ${file.path}`);
    assert.deepStrictEqual(
      streamed,
      files.map(([base, file]) => `${base} ${file.path}`),
      'streamed in the walk order',
    );
    assert.strictEqual(source.replayed, 2);
  });

  it('is not recorded while a listed directory or a .gitignore changed too recently to be relied on, and the walk still answers', () => {
    const now = Date.now();
    const { listing, files } = record(query(), now);
    assert.strictEqual(listing, undefined, 'just written: not relied on');
    assert.strictEqual(files.length, 5, 'the files are listed all the same');
    age(ws);
    assert.ok(record(query(), Date.now()).listing, 'settled an hour ago: recorded');
    fx.write('ws/.gitignore', 'dist/\n*.md\n');
    const rules = record(query(), Date.now());
    assert.strictEqual(rules.listing, undefined, 'a .gitignore edited just now: not relied on');
    assert.deepStrictEqual(
      rules.files.map(([, file]) => file.relative),
      ['.env', '.gitignore', 'src/a.ts', 'src/deep/b.ts'],
      'the new rules apply',
    );
  });

  it('is recorded only for the search of the whole workspace', () => {
    assert.strictEqual(record(query({ bases: [{ root: ws, base: fx.path('ws/src'), folderIndex: 0 }] })).listing, undefined, 'a folder below the root');
    const cancelled = recordListing(walker, query(), denied, () => true, later());
    assert.strictEqual(cancelled.listing, undefined, 'a cancelled walk');
    const noStream: FileSource = { kind: (path) => walker.kind(path), mtime: (path) => walker.mtime(path), list: (...args) => walker.list(...args) };
    assert.deepStrictEqual(recordListing(noStream, query(), denied, cancelledNever, later()), { files: [], pruned: [] }, 'a source that cannot stream');
  });

  it('past the most files it may hold, stops: nothing recorded and no files', () => {
    const over = recordListing(walker, query(), denied, cancelledNever, later(), 3);
    assert.deepStrictEqual(over, { files: [], pruned: [], over: true });
    const exact = recordListing(walker, query(), denied, cancelledNever, later(), 5);
    assert.ok(exact.listing && !exact.over, 'exactly as many: recorded');
  });

  it('is replayed only for the search it was recorded for; any other lists the tree', async () => {
    const { listing } = record();
    assert.ok(listing);
    const source = new ListingSource(walker, [listing]);
    assert.ok(source.holds(query(), denied));
    const others: Array<[string, FileQuery, readonly string[]]> = [
      ['include_ignored', query({ includeIgnored: true }), denied],
      ['.gitignore not respected', query({ respectGitignore: false }), denied],
      ['a folder below the root', query({ bases: [{ root: ws, base: fx.path('ws/src'), folderIndex: 0 }] }), denied],
      ['another outside place granted', query({ granted: [ws, fx.path('elsewhere')] }), denied],
      ['other denied paths', query(), [...denied, '**/*.md']],
      ['a watcher of directories asks', query({ onDirectory: () => undefined }), denied],
    ];
    for (const [what, other, otherDenied] of others) {
      assert.strictEqual(source.holds(other, otherDenied), false, what);
      const pruned: PrunedEntry[] = [];
      const replayedBefore = source.replayed;
      const files = (await source.list(other, otherDenied, pruned, cancelledNever)).map((base) => base.map((file) => file.relative).sort());
      assert.deepStrictEqual(
        files,
        (await walker.list(other, otherDenied, [], cancelledNever)).map((base) => base.map((file) => file.relative).sort()),
        what,
      );
      assert.strictEqual(source.replayed, replayedBefore, `${what}: listed, not replayed`);
    }
    const ignoredToo = (await listed(source, query({ includeIgnored: true, respectGitignore: false }))).files[0];
    assert.ok(ignoredToo.includes('dist/out.js') && ignoredToo.includes('node_modules/m/index.js'), 'include_ignored sees the ignored files');
  });

  it('stays fresh while nothing changed; a file created, deleted or renamed, or a .gitignore edited in place, makes it stale', () => {
    const changes: Array<[string, () => void]> = [
      ['a file created', () => fx.write('ws/src/deep/new.ts', 'n\n')],
      ['a file deleted', () => fs.rmSync(fx.path('ws/src/a.ts'))],
      ['a file renamed', () => fs.renameSync(fx.path('ws/README.md'), fx.path('ws/README.txt'))],
      ['a directory created', () => fx.mkdir('ws/src/fresh')],
      ['a .gitignore edited in place, its directory unchanged', () => fs.writeFileSync(fx.path('ws/.gitignore'), 'dist/\n*.md\n')],
      ['a .gitignore created', () => fx.write('ws/src/.gitignore', 'deep/\n')],
      ['a listed directory removed', () => fs.rmSync(fx.path('ws/src/deep'), { recursive: true })],
    ];
    for (const [what, change] of changes) {
      fx.remove();
      fx = new Fixture('grep-tools-listing-');
      ws = fx.mkdir('ws');
      fx.files({ 'ws/src/a.ts': 'a\n', 'ws/src/deep/b.ts': 'b\n', 'ws/README.md': 'r\n', 'ws/.gitignore': 'dist/\n', 'ws/dist/out.js': 'o\n' });
      age(ws);
      const { listing } = record(query(), Date.now());
      assert.ok(listing, `${what}: recorded`);
      assert.ok(listingFresh(listing), `${what}: fresh before the change`);
      change();
      assert.strictEqual(listingFresh(listing), false, what);
    }
  });

  it('a stale listing is not replayed: the next search lists the tree and sees the change', async () => {
    age(ws);
    const { listing } = record(query(), Date.now());
    assert.ok(listing);
    fx.write('ws/src/c.ts', 'c\n');
    const source = new ListingSource(walker, [listing]);
    assert.strictEqual(source.holds(query(), denied), false);
    assert.ok((await listed(source)).files[0].includes('src/c.ts'));
    assert.strictEqual(source.replayed, 0);
  });

  it("asks whether a listing is fresh once, and takes a watcher's word for it when given one", async () => {
    const { listing } = record();
    assert.ok(listing);
    const asked: RecordedListing[] = [];
    const trusting = new ListingSource(walker, [listing], (which) => (asked.push(which), true));
    fx.write('ws/src/unseen.ts', 'u\n');
    for (let i = 0; i < 3; i++) assert.ok(!(await listed(trusting)).files[0].includes('src/unseen.ts'), 'the watcher vouched: replayed');
    assert.deepStrictEqual(asked, [listing], 'asked once');
    const doubting = new ListingSource(walker, [listing], () => false);
    assert.ok((await listed(doubting)).files[0].includes('src/unseen.ts'), 'the watcher saw a change: listed');
  });

  it('hands a replayed listing back as the same lists each time, so a filter of them is kept', async () => {
    const { listing } = record();
    assert.ok(listing);
    const first = await new ListingSource(walker, [listing]).list(query(), denied, [], cancelledNever);
    const second = await new ListingSource(walker, [listing]).list(query(), denied, [], cancelledNever);
    assert.strictEqual(first[0], second[0]);
  });

  it("one call's source walks a tree once: the same walk asked again, whatever its include, is handed back with what it pruned", async () => {
    let walks = 0;
    const counting: StreamingSource = {
      kind: (path) => walker.kind(path),
      mtime: (path) => walker.mtime(path),
      list: (...args) => (walks++, walker.list(...args)),
      *stream(...args) {
        walks++;
        yield* walker.stream(...args);
      },
    };
    const source = new ListingSource(counting, []);
    const walked = await listed(walker);
    assert.ok(walked.pruned.length > 0, 'the fixture prunes something');
    assert.deepStrictEqual(await listed(source), walked);
    assert.deepStrictEqual(await listed(source, query({ include: '**/*.zzz' })), walked, 'another include: the same walk');
    assert.ok(source.holds(query(), denied));
    const pruned: PrunedEntry[] = [];
    const streamed = [...source.stream(query(), denied, pruned, cancelledNever)].map(([, file]) => file.relative);
    assert.deepStrictEqual({ files: [streamed.sort()], pruned: pruned.map((entry) => `${entry.reason} ${entry.relative}`).sort() }, walked);
    assert.strictEqual(walks, 1, 'walked once');

    assert.ok((await listed(source, query({ includeIgnored: true, respectGitignore: false }))).files[0].includes('dist/out.js'));
    assert.strictEqual(walks, 2, 'another walk (include_ignored) walks');

    const below = query({ bases: [{ root: ws, base: fx.path('ws/src'), folderIndex: 0 }] });
    for (const item of source.stream(below, denied, [], cancelledNever)) if (item) break;
    assert.strictEqual(source.holds(below, denied), false, 'a stream not taken to its end is not kept');
    assert.strictEqual([...source.stream(below, denied, [], cancelledNever)].length, 2);
    assert.ok(source.holds(below, denied), 'one taken to its end is');
    await source.list(below, denied, [], cancelledNever);
    assert.strictEqual(walks, 4);

    const unruled = query({ respectGitignore: false });
    await source.list(unruled, denied, [], () => true);
    assert.strictEqual(source.holds(unruled, denied), false, 'a cancelled walk is not kept');
    const told = query({ onDirectory: () => undefined });
    await source.list(told, denied, [], cancelledNever);
    await source.list(told, denied, [], cancelledNever);
    assert.strictEqual(walks, 7, 'a walk telling of its directories walks each time');
    await listed(new ListingSource(counting, []));
    assert.strictEqual(walks, 8, "another call's source walks again");
  });

  it('a watcher of the listing watches each listed directory, and the directory of each .gitignore', () => {
    const { listing } = record();
    assert.ok(listing);
    assert.deepStrictEqual(
      [...watchedDirectories([listing])].sort(),
      [ws, fx.path('ws/src'), fx.path('ws/src/deep')].sort(),
      'not the denied, excluded or ignored directories the walk did not enter',
    );
  });
});
