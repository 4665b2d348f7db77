/**
 * The index on disk: what a save writes is what a load reads back (the files with their kinds and stamps,
 * what was indexed for which folders, the recorded listings, the files each trigram finds); a damaged or
 * foreign index is not used but rebuilt; an index built for other folders is not used for these; a save
 * leaves no segment file its table does not name, and a removed index leaves none at all.
 */
import * as assert from 'assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as nodePath from 'path';
import { ContentIndex, FileTable, type FileEntry } from '../../../../src/engine/index/contentIndex';
import { foldText, trigramKeys } from '../../../../src/engine/index/fold';
import type { RecordedListing } from '../../../../src/engine/index/listing';
import {
  INDEX_FILE,
  loadIndex,
  loadIndexFor,
  openIndexFor,
  openIndexInSlices,
  removeIndex,
  saveIndex,
  storedFor,
  type IndexMeta,
} from '../../../../src/engine/index/store';
import { TimeSlices } from '../../../../src/engine/source/timeSlices';
import { EveryItem } from '../../../support/everyItem';

const META: IndexMeta = { folders: ['/w'], maxFileSize: 1, builtAt: 0 };
const file = (path: string, kind: FileEntry['kind'] = 'text', ino = 1): FileEntry => ({
  path,
  kind,
  size: 3,
  mtimeMs: 1_700_000_000_123.5,
  ctimeMs: 1_700_000_000_456.25,
  ino,
});

/** A recorded listing of /w: these files, these watched paths. */
const listingOf = (relatives: string[], watched: RecordedListing['watched'] = []): RecordedListing => ({
  folders: ['/w'],
  denied: [],
  granted: ['/w'],
  includeIgnored: false,
  respectGitignore: true,
  bases: relatives.map(() => 0),
  relatives,
  pruned: [],
  watched,
  links: [],
});

/** The live files of an index whose text holds `literal` (as the planner's query of its trigrams admits them). */
function holding(index: ContentIndex, literal: string): string[] {
  const ids = index.evaluate({ op: 'and', args: trigramKeys(foldText(literal)).map((key) => ({ op: 'trigram' as const, key })) }) ?? [];
  return ids.map((id) => index.fileOf(id).path).sort();
}

/** Slices that never pause and record the items of each step they are told of (the steps an open took). */
function recordingSteps(): { steps: number[]; slices: TimeSlices } {
  const steps: number[] = [];
  const slices = new (class extends TimeSlices {
    override due(items = 1): boolean {
      steps.push(items);
      return false;
    }
  })();
  return { steps, slices };
}

describe('engine/index/store: the index on disk', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(nodePath.join(tmpdir(), 'grep-tools-store-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back what it stored: files, kinds, stamps, meta, recorded listings, and the files each trigram finds', () => {
    const index = new ContentIndex();
    index.set(file('/w/a.ts', 'text', 11), 'const needle = 1;');
    index.set(file('/w/b.ts', 'text', 12), 'no match here');
    index.set(file('/w/pic.png', 'binary', 13));
    index.set(file('/w/big.log', 'large', 14));
    index.set(file('/w/link.ts', 'linked', 15)); // (read by every search: no postings)
    const listing: RecordedListing = {
      folders: ['/w'],
      denied: ['**/.env'],
      granted: ['/w'],
      includeIgnored: false,
      respectGitignore: true,
      bases: [0, 0],
      relatives: ['a.ts', 'src/deep/b c.ts'],
      pruned: [{ base: 0, relative: '.git', reason: 'denied', directory: true }],
      watched: [{ path: '/w', stamp: { size: 4096, mtimeMs: 5, ctimeMs: 6, ino: 7 } }, { path: '/w/.gitignore' }],
      links: [{ path: '/w/link.ts', target: 'f:/w/a.ts' }],
    };
    const meta: IndexMeta = { folders: ['/w'], maxFileSize: 1 << 20, builtAt: 1234, listings: [listing] };
    saveIndex(dir, meta, index);
    index.close();
    const stored = loadIndex(dir)!;
    try {
      assert.deepStrictEqual(stored.meta, meta);
      assert.deepStrictEqual([...stored.index.paths()].sort(), ['/w/a.ts', '/w/b.ts', '/w/big.log', '/w/link.ts', '/w/pic.png']);
      assert.deepStrictEqual(stored.index.entry('/w/pic.png')?.file, file('/w/pic.png', 'binary', 13));
      assert.deepStrictEqual(stored.index.entry('/w/big.log')?.file, file('/w/big.log', 'large', 14));
      assert.deepStrictEqual(stored.index.entry('/w/link.ts')?.file, file('/w/link.ts', 'linked', 15));
      assert.deepStrictEqual(holding(stored.index, 'needle'), ['/w/a.ts']);
      assert.deepStrictEqual(holding(stored.index, 'NEEDLE'), ['/w/a.ts'], 'folded as it was indexed');
      assert.deepStrictEqual(holding(stored.index, 'match'), ['/w/b.ts']);
    } finally {
      stored.close();
    }
  });

  it('opens a slice at a time, without its recorded listings, the index it loads at once: the same files, stamps, ids, removed ids and postings, giving the event loop turns', async () => {
    const index = new ContentIndex();
    for (let i = 0; i < 3000; i++) index.set(file(`/w/f${i}.ts`, 'text', i), i % 3 === 0 ? `const needle${i} = 1;` : 'other');
    index.seal();
    index.remove('/w/f7.ts');
    // A listing whose watched paths' stamps come before the file table's on disk.
    const watched = Array.from({ length: 50 }, (_, i) => ({ path: `/w/d${i}`, stamp: { size: 4096, mtimeMs: i, ctimeMs: i + 1, ino: 100 + i } }));
    const listing = listingOf(['f0.ts'], watched);
    saveIndex(dir, { ...META, listings: [listing] }, index, { compact: false });
    index.close();
    const slices = new EveryItem();
    const [atOnce, inSlices] = [loadIndex(dir)!, (await openIndexInSlices(dir, slices))!];
    try {
      assert.ok(slices.pauses >= 4, `${slices.pauses} turns for 2 x 3,000 entries taken 1,024 at a time`);
      assert.deepStrictEqual(atOnce.meta.listings?.[0].watched, watched);
      assert.deepStrictEqual(inSlices.index.entry('/w/f5.ts')?.file, file('/w/f5.ts', 'text', 5), "its stamp, not a watched path's");
      assert.deepStrictEqual(inSlices.index.held().files, atOnce.index.held().files);
      assert.strictEqual(inSlices.index.idOf('/w/f7.ts'), undefined);
      assert.deepStrictEqual(holding(inSlices.index, 'needle'), holding(atOnce.index, 'needle'));
      assert.strictEqual(holding(inSlices.index, 'needle').length, 1000);
      assert.strictEqual(inSlices.index.needsCompaction(), atOnce.index.needsCompaction(), 'the removed ids are counted alike');
    } finally {
      atOnce.close();
      inSlices.close();
    }
    assert.strictEqual(await openIndexInSlices(nodePath.join(dir, 'none')), undefined);
  });

  it("opened with the paths its opener holds (a build's list, the index it replaces), holds those strings as its own: the same files, ids and answers; a path they lack keeps its own", async () => {
    const index = new ContentIndex();
    for (let i = 0; i < 3000; i++) index.set(file(`/w/f${i}.ts`, 'text', i), i % 3 === 0 ? `const needle${i} = 1;` : 'other');
    index.seal();
    index.remove('/w/f7.ts');
    index.set(file('/w/added.ts', 'text', 9000), 'const needle = 2;');
    saveIndex(dir, META, index, { compact: false });
    index.close();
    // Strings made apart from the table's, in its order but for: files listed it does not hold (one in ten,
    // and a run of 200 after f2000), a hole where the replaced index held none (1,000 in a row after f1000),
    // f7 (removed: its id is a hole in the table) and added.ts (added last, not listed).
    const known: Array<string | undefined> = [];
    for (let i = 0; i < 3000; i++) {
      known.push(['/w/f', String(i), '.ts'].join(''));
      if (i % 10 === 5) known.push(`/w/listed-only${i}.ts`);
      if (i === 1000) for (let k = 0; k < 1000; k++) known.push(undefined);
      if (i === 2000) for (let k = 0; k < 200; k++) known.push(`/w/run${k}.ts`);
    }
    const plain = (await openIndexInSlices(dir))!;
    const opened = (await openIndexInSlices(dir, undefined, known))!;
    try {
      assert.strictEqual(plain.pathsKnown, undefined);
      assert.strictEqual(opened.pathsKnown, 2999, 'every held path but added.ts (not listed)');
      assert.deepStrictEqual(opened.index.held().files, plain.index.held().files);
      for (const path of ['/w/f0.ts', '/w/f1000.ts', '/w/f2001.ts', '/w/f2999.ts', '/w/added.ts'])
        assert.strictEqual(opened.index.idOf(path), plain.index.idOf(path), path);
      assert.strictEqual(opened.index.idOf('/w/f7.ts'), undefined);
      assert.deepStrictEqual(holding(opened.index, 'needle'), holding(plain.index, 'needle'));
      assert.strictEqual(holding(opened.index, 'needle').length, 1001);
    } finally {
      plain.close();
      opened.close();
    }
    // Known paths in another order than the table's: each still matched within the look-ahead, the rest kept as read.
    const reversed = (await openIndexInSlices(
      dir,
      undefined,
      Array.from({ length: 3000 }, (_, i) => `/w/f${2999 - i}.ts`),
    ))!;
    const atOnce = loadIndex(dir)!;
    try {
      assert.ok(reversed.pathsKnown! < 300, `${reversed.pathsKnown} matched out of order`);
      assert.deepStrictEqual(reversed.index.held().files, atOnce.index.held().files);
    } finally {
      reversed.close();
      atOnce.close();
    }
  });

  it('reads lists of paths several megabytes long in runs, every path whole (multi-byte characters across the edges of the runs)', async () => {
    const index = new ContentIndex();
    // 6,000 paths of about 400 bytes, each character of the name 1 to 4 bytes long: 2.4 MB, read a megabyte at a time.
    const name = (i: number) => `${'日本é𝄞a'.repeat(30 + (i % 7))}-${i}`;
    for (let i = 0; i < 6000; i++) index.set(file(`/w/${name(i)}.ts`, 'text', i), i === 4321 ? 'const needle = 1;' : 'other');
    const relatives = Array.from({ length: 6000 }, (_, i) => `${name(i)}.ts`);
    const listing = listingOf(relatives);
    const empty: RecordedListing = { ...listing, bases: [], relatives: [] };
    saveIndex(dir, { ...META, listings: [listing, empty] }, index);
    const paths = (files: FileTable) => Array.from({ length: files.length }, (_, id) => files.path(id));
    const expected = paths(index.held().files);
    index.close();
    const { steps, slices } = recordingSteps();
    const opened = (await openIndexInSlices(dir, slices))!;
    const stored = loadIndex(dir)!;
    try {
      assert.deepStrictEqual(paths(opened.index.held().files), expected);
      assert.deepStrictEqual(paths(stored.index.held().files), expected);
      assert.deepStrictEqual(stored.meta.listings?.[0].relatives, relatives);
      assert.deepStrictEqual(stored.meta.listings?.[1].relatives, []);
      assert.deepStrictEqual(holding(opened.index, 'needle'), [`/w/${name(4321)}.ts`]);
      // The table's paths came first, in runs: no step took them all.
      let taken = 0;
      let runs = 0;
      while (taken < 6000) taken += steps[runs++];
      assert.strictEqual(taken, 6000);
      assert.ok(runs >= 3, `the paths taken in ${runs} runs: ${steps.slice(0, runs).join(', ')}`);
    } finally {
      opened.close();
      stored.close();
    }
  });

  it("reads a large table's stamps and its segments a step at a time, every stamp whole across the steps' edges", async () => {
    // 10,000 files: their stamps are 320 KB, read 256 KiB (8,192 files) a step; two segments, a step each.
    const index = new ContentIndex();
    for (let i = 0; i < 10_000; i++) {
      index.set(file(`/w/f${i}.ts`, 'text', i), `const n${i % 50} = 1;`);
      if (i === 4999) index.seal();
    }
    saveIndex(dir, META, index, { compact: false });
    index.close();
    const { steps, slices } = recordingSteps();
    const opened = (await openIndexInSlices(dir, slices))!;
    try {
      for (let i = 0; i < 10_000; i++) assert.deepStrictEqual(opened.index.entry(`/w/f${i}.ts`)?.file, file(`/w/f${i}.ts`, 'text', i));
      assert.deepStrictEqual(holding(opened.index, 'n49 ').length, 200);
      const stampSteps = steps.findIndex((items, i) => items === 8192 && steps[i + 1] === 1808);
      assert.ok(stampSteps >= 0, `the stamps in two steps: ${steps.join(', ')}`);
    } finally {
      opened.close();
    }
  });

  it('a file removed or replaced before the save is gone, or found by its new text only', () => {
    const index = new ContentIndex();
    index.set(file('/w/a.ts'), 'alpha text');
    index.set(file('/w/b.ts'), 'beta text');
    saveIndex(dir, META, index);
    index.remove('/w/a.ts');
    index.set(file('/w/b.ts', 'text', 2), 'gamma text');
    saveIndex(dir, META, index);
    index.close();
    const stored = loadIndex(dir)!;
    try {
      assert.deepStrictEqual([...stored.index.paths()], ['/w/b.ts']);
      assert.strictEqual(stored.index.entry('/w/a.ts'), undefined);
      assert.deepStrictEqual(holding(stored.index, 'alpha'), []);
      assert.deepStrictEqual(holding(stored.index, 'beta'), []);
      assert.deepStrictEqual(holding(stored.index, 'gamma'), ['/w/b.ts']);
    } finally {
      stored.close();
    }
  });

  it('an index built for other folders, or the same in another order, is not used for these (loaded, opened, or told of by its header)', async () => {
    const index = new ContentIndex();
    index.set(file('/w/a.ts'), 'text');
    saveIndex(dir, { ...META, folders: ['/w', '/v'] }, index);
    index.close();
    const same = loadIndexFor(dir, ['/w', '/v']);
    const opened = await openIndexFor(dir, ['/w', '/v']);
    assert.ok(same && opened && storedFor(dir, ['/w', '/v']));
    same.close();
    opened.close();
    for (const other of [['/v', '/w'], ['/w']]) {
      assert.strictEqual(loadIndexFor(dir, other), undefined);
      assert.strictEqual(await openIndexFor(dir, other), undefined);
      assert.strictEqual(storedFor(dir, other), false);
    }
    assert.strictEqual(loadIndex(nodePath.join(dir, 'nothing-here')), undefined, 'no index at all');
    assert.strictEqual(storedFor(nodePath.join(dir, 'nothing-here'), ['/w', '/v']), false);
    writeFileSync(nodePath.join(dir, INDEX_FILE), 'GTIX and nothing more');
    assert.strictEqual(storedFor(dir, ['/w', '/v']), false, 'not an index this version can read');
  });

  it('a save leaves no segment file its table does not name; a removed index leaves none, and nothing else is touched', () => {
    const index = new ContentIndex();
    writeFileSync(nodePath.join(dir, 'notes.txt'), 'not the index\n');
    for (let round = 0; round < 12; round++) {
      index.set(file(`/w/f${round}.ts`), `round ${round} text`);
      saveIndex(dir, META, index);
      const stored = loadIndex(dir)!;
      assert.deepStrictEqual(holding(stored.index, `round ${round}`), [`/w/f${round}.ts`]);
      stored.close();
      const segments = readdirSync(dir).filter((name) => name.startsWith('postings-'));
      const table = readFileSync(nodePath.join(dir, INDEX_FILE), 'latin1');
      for (const name of segments) assert.ok(table.includes(name), `${name} is named by the table (round ${round})`);
    }
    index.close();
    removeIndex(dir);
    assert.deepStrictEqual(readdirSync(dir), ['notes.txt']);
    assert.strictEqual(loadIndex(dir), undefined);
  });

  it('does not use a damaged or foreign index (table or segment file): it is rebuilt instead', () => {
    const index = new ContentIndex();
    index.set({ path: '/a', kind: 'text', size: 3, mtimeMs: 1, ctimeMs: 1, ino: 1 }, 'abcdef');
    saveIndex(dir, META, index);
    index.close();
    const table = nodePath.join(dir, 'index.bin');
    const segment = nodePath.join(
      dir,
      readdirSync(dir).find((name) => name.startsWith('postings-'))!,
    );
    const good = { table: readFileSync(table), segment: readFileSync(segment) };
    const usable = () => {
      const stored = loadIndex(dir);
      stored?.close();
      return stored !== undefined;
    };
    const restore = () => {
      writeFileSync(table, good.table);
      writeFileSync(segment, good.segment);
    };
    assert.strictEqual(usable(), true);
    truncateSync(table, good.table.length - 2);
    assert.strictEqual(usable(), false, 'a truncated table');
    restore();
    writeFileSync(table, 'PK\x03\x04 not an index');
    assert.strictEqual(usable(), false, 'a foreign file');
    restore();
    const other = Buffer.from(good.table);
    other.writeUInt32LE(99, 4);
    writeFileSync(table, other);
    assert.strictEqual(usable(), false, 'another format version');
    restore();
    truncateSync(segment, good.segment.length - 3);
    assert.strictEqual(usable(), false, 'a truncated segment');
    restore();
    rmSync(segment);
    assert.strictEqual(usable(), false, 'a missing segment');
    restore();
    assert.strictEqual(usable(), true);
  });
});
