/**
 * Building and refreshing the content index from a listing: every listed file is read once and found by
 * its text (a binary file as binary, one over the size checked as large, unread); a refresh reads only
 * the files whose stamp changed and drops the ones no longer listed; a file written in the last two
 * seconds is held as unread (read by every search) and named so it is read again once settled.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { LARGE_FILE_CHECK_MAX_BYTES } from '../../../../src/engine/api/config';
import { directRealPath, isRecentWrite, RECENT_WRITE_MS, refreshIndex, reindexFiles, type RefreshOptions } from '../../../../src/engine/index/builder';
import { ContentIndex } from '../../../../src/engine/index/contentIndex';
import { foldText, trigramKeys } from '../../../../src/engine/index/fold';
import { Fixture } from '../../fixture';
import { age } from './age';

/** The indexed files whose text may hold `literal`, as the planner's query of its trigrams admits them. */
function holding(index: ContentIndex, literal: string): string[] {
  const ids = index.evaluate({ op: 'and', args: trigramKeys(foldText(literal)).map((key) => ({ op: 'trigram' as const, key })) }) ?? [];
  return ids
    .map((id) => index.fileOf(id)?.path)
    .filter((path) => path !== undefined)
    .sort();
}

describe('engine/index/builder: the index built and refreshed from a listing', () => {
  let fx: Fixture;
  let ws: string;
  let index: ContentIndex;
  const options = (extra: Partial<RefreshOptions> = {}): RefreshOptions => ({ maxFileSize: 1 << 20, folders: [ws], ...extra });
  const kinds = () =>
    Object.fromEntries([...index.paths()].sort().map((path) => [nodePath.relative(ws, path).split(nodePath.sep).join('/'), index.entry(path)!.file.kind]));

  beforeEach(() => {
    fx = new Fixture('grep-tools-builder-');
    ws = fx.mkdir('ws');
    fx.files({
      'ws/src/a.ts': 'export const needle = 1;\n',
      'ws/src/b.ts': 'export const other = 2;\n',
      'ws/pic.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
      'ws/huge.log': '',
    });
    fs.truncateSync(fx.path('ws/huge.log'), LARGE_FILE_CHECK_MAX_BYTES + 1); // (sparse: nothing to write)
    age(ws);
    index = new ContentIndex();
  });
  afterEach(() => {
    index.close();
    fx.remove();
  });
  const listed = () => ['src/a.ts', 'src/b.ts', 'pic.png', 'huge.log'].map((relative) => fx.path(`ws/${relative}`));

  it('reads every listed file once: text found by its words, a binary file as binary, one over the size checked as large', () => {
    const result = refreshIndex(index, listed(), options());
    assert.deepStrictEqual(result, { read: 4, kept: 0, dropped: 0, bytes: 49 });
    assert.deepStrictEqual(kinds(), { 'huge.log': 'large', 'pic.png': 'binary', 'src/a.ts': 'text', 'src/b.ts': 'text' });
    assert.deepStrictEqual(holding(index, 'needle'), [fx.path('ws/src/a.ts')]);
    assert.deepStrictEqual(holding(index, 'EXPORT CONST'), [fx.path('ws/src/a.ts'), fx.path('ws/src/b.ts')], 'whatever the case asked');
  });

  it('a refresh keeps the unchanged files unread, reads a changed one again and drops one no longer listed', () => {
    refreshIndex(index, listed(), options());
    fs.writeFileSync(fx.path('ws/src/b.ts'), 'export const needle =3;\n'); // the same size: its times tell
    const past = Date.now() / 1000 - 3600;
    fs.utimesSync(fx.path('ws/src/b.ts'), past, past);
    const result = refreshIndex(
      index,
      listed().filter((path) => !path.endsWith('pic.png')),
      options(),
    );
    assert.deepStrictEqual(result, { read: 1, kept: 2, dropped: 1, bytes: 24 });
    assert.deepStrictEqual(holding(index, 'needle'), [fx.path('ws/src/a.ts'), fx.path('ws/src/b.ts')]);
    assert.deepStrictEqual(holding(index, 'other'), [], 'the old text is gone');
    assert.strictEqual(index.entry(fx.path('ws/pic.png')), undefined);
  });

  it('a file gone since it was listed is not held', () => {
    const paths = listed();
    fs.rmSync(fx.path('ws/src/b.ts'));
    refreshIndex(index, paths, options());
    assert.strictEqual(index.entry(fx.path('ws/src/b.ts')), undefined);
  });

  it('stops reading once cancelled, and tells its progress file by file', () => {
    const progress: string[] = [];
    let reads = 0;
    const result = refreshIndex(
      index,
      listed(),
      options({ isCancelled: () => reads >= 2, onProgress: (done, total) => progress.push(`${done}/${total}`, String(reads++)) }),
    );
    assert.strictEqual(result.read, 2);
    assert.deepStrictEqual(
      progress.filter((line) => line.includes('/')),
      ['0/4', '1/4', '4/4'],
    );
  });

  it('encodes what it added every so many postings, and says so', () => {
    let flushes = 0;
    refreshIndex(index, listed(), options({ flushEvery: 10, onFlush: () => flushes++ }));
    assert.strictEqual(flushes, 2, 'after each of the two text files');
    assert.deepStrictEqual(holding(index, 'needle'), [fx.path('ws/src/a.ts')]);
  });

  it('a file written in the last two seconds is held as unread and named, to be read again once settled; one dated ahead stays unread', () => {
    const file = fx.path('ws/src/a.ts');
    const written = fs.statSync(file).mtimeMs;
    const { recent } = reindexFiles(index, [file], 1 << 20, [ws], written + RECENT_WRITE_MS - 1);
    assert.deepStrictEqual(recent, [file]);
    assert.strictEqual(index.entry(file)!.file.kind, 'unread');
    assert.deepStrictEqual(holding(index, 'needle'), [], 'not relied on: every search reads it');
    assert.strictEqual(isRecentWrite(index, file, written - 1), false, 'dated ahead of now: not a recent write, it stays unread');
    const settled = reindexFiles(index, [file], 1 << 20, [ws], written + RECENT_WRITE_MS);
    assert.deepStrictEqual(settled.recent, []);
    assert.deepStrictEqual(holding(index, 'needle'), [file]);
  });

  it('a content refresh reads the files named, and drops one gone', () => {
    refreshIndex(index, listed(), options());
    fs.writeFileSync(fx.path('ws/src/a.ts'), 'renamed the needle away\n');
    fs.rmSync(fx.path('ws/src/b.ts'));
    const now = Date.now() + 60_000;
    reindexFiles(index, [fx.path('ws/src/a.ts'), fx.path('ws/src/b.ts')], 1 << 20, [ws], now);
    assert.deepStrictEqual(holding(index, 'away'), [fx.path('ws/src/a.ts')]);
    assert.strictEqual(index.entry(fx.path('ws/src/b.ts')), undefined);
  });

  it('a file below a folder has the real path of its folder joined with its path there, under each flavour', () => {
    const posix = directRealPath(['/home/me/ws', '/srv/data/'], nodePath.posix, (folder) => (folder === '/home/me/ws' ? '/mnt/disk/ws' : folder));
    assert.strictEqual(posix('/home/me/ws/src/a.ts'), '/mnt/disk/ws/src/a.ts', 'the folder itself reached through a link');
    assert.strictEqual(posix('/srv/data/x.csv'), '/srv/data/x.csv');
    assert.strictEqual(posix('/home/me/ws2/a.ts'), undefined, 'below no folder');
    const win32 = directRealPath(['C:\\ws'], nodePath.win32, () => 'D:\\real\\ws');
    assert.strictEqual(win32('C:\\ws\\src\\a.ts'), 'D:\\real\\ws\\src\\a.ts');
    assert.strictEqual(directRealPath(['/gone'], nodePath.posix, () => undefined)('/gone/a.ts'), undefined, 'a folder with no real path');
  });
});
