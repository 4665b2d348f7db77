/**
 * The index's memory bound: on real code (this repository's sources and TypeScript's library and the
 * declarations of @types) the postings take at most a quarter of the bytes indexed, and a tree whose postings
 * would take more is refused.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as nodePath from 'path';
import {
  IGNORED_LISTED_AT_MOST_SEARCHED,
  indexedFilesOf,
  overLimits,
  POSTINGS_FLOOR,
  postingsOverBudget,
  POSTINGS_SHARE,
} from '../../../../src/engine/index/limits';
import { refreshIndex } from '../../../../src/engine/index/builder';
import { ContentIndex } from '../../../../src/engine/index/contentIndex';

const repository = nodePath.join(__dirname, '..', '..', '..', '..', '..');

function filesBelow(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const path = nodePath.join(dir, entry.name);
    if (entry.isDirectory()) filesBelow(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

describe('index: bounded memory', () => {
  it('postings of real code take at most a quarter of the bytes indexed', function () {
    this.timeout(20_000);
    const folders = [
      nodePath.join(repository, 'src'),
      nodePath.join(repository, 'node_modules', 'typescript', 'lib'),
      nodePath.join(repository, 'node_modules', '@types'),
    ];
    const paths = folders.flatMap((folder) => filesBelow(folder)).filter((path) => /\.(ts|js)$/.test(path) && fs.statSync(path).size <= 1 << 20);
    const index = new ContentIndex();
    const result = refreshIndex(index, paths, { maxFileSize: 1 << 20, folders });
    index.seal();
    const indexed = index.textBytes();
    assert.ok(indexed > 4 * POSTINGS_FLOOR, `indexed ${indexed} bytes in ${result.read} files (enough for the floor not to matter)`);
    const share = index.postingBytes() / indexed;
    assert.ok(share <= POSTINGS_SHARE, `postings ${index.postingBytes()} bytes = ${(share * 100).toFixed(1)}% of ${indexed}`);
    assert.strictEqual(postingsOverBudget(index.postingBytes(), indexed), undefined);
  });

  it('postings above a quarter of the bytes indexed (and above the floor) are refused, naming both sizes', () => {
    assert.strictEqual(postingsOverBudget(2 * 1024 * 1024, 8 * 1024 * 1024), undefined);
    assert.match(postingsOverBudget(2 * 1024 * 1024 + 1, 8 * 1024 * 1024) ?? '', /postings would take 2\.0 MB, more than a quarter of the 8\.0 MB indexed/);
    assert.strictEqual(postingsOverBudget(POSTINGS_FLOOR, 10), undefined, 'a few tiny files are indexed');
  });

  it('weighs the searched files first: over the limits, the list with the ignored ones is never asked for; within them, it is held while within them too', () => {
    const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-limits-'));
    try {
      const write = (name: string, bytes: number) => {
        fs.writeFileSync(nodePath.join(dir, name), 'x'.repeat(bytes));
        return nodePath.join(dir, name);
      };
      const searched = [write('a.ts', 10), write('b.ts', 10)];
      const all = [...searched, write('ignored.js', 1000)];
      let asked = 0;
      const withIgnored = () => {
        asked++;
        return all;
      };
      const limits = (maxFiles: number, maxIndexedBytes: number) => ({ maxFiles, maxIndexedBytes });
      assert.match(indexedFilesOf(searched, withIgnored, 1 << 20, limits(1, 1 << 20)).listOnly ?? '', /2 files, more than grepTools\.index\.maxFiles \(1\)/);
      assert.match(indexedFilesOf(searched, withIgnored, 1 << 20, limits(10, 15)).listOnly ?? '', /grepTools\.index\.maxIndexedBytes/);
      assert.strictEqual(asked, 0, 'not asked for while the searched files are over the limits');
      const stamps = new Map();
      assert.deepStrictEqual(indexedFilesOf(searched, withIgnored, 1 << 20, limits(10, 1 << 20), stamps), { paths: all, withIgnored: true });
      assert.deepStrictEqual([asked, [...stamps.keys()].sort()], [1, [...all].sort()], 'asked once; each file statted, its stamp kept for the build');
      assert.deepStrictEqual(indexedFilesOf(searched, withIgnored, 1 << 20, limits(10, 500)), { paths: searched, withIgnored: false });
      assert.deepStrictEqual(
        indexedFilesOf(searched, all, 1 << 20, limits(2, 1 << 20)),
        { paths: searched, withIgnored: false },
        'a list given as it is weighs the same',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('over IGNORED_LISTED_AT_MOST_SEARCHED searched files, the list with the ignored ones is never asked for: the searched ones are indexed', () => {
    const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-limits-'));
    try {
      // (files already weighed as missing, which weigh nothing, are not statted: only the count matters here)
      const searched = Array.from({ length: IGNORED_LISTED_AT_MOST_SEARCHED + 1 }, (_, i) => nodePath.join(dir, `f${i}.ts`));
      let asked = 0;
      const withIgnored = () => {
        asked++;
        return [...searched, nodePath.join(dir, 'ignored.js')];
      };
      const limits = { maxFiles: 1_000_000, maxIndexedBytes: 1 << 20 };
      const weighed = () => new Map(searched.map((path) => [path, undefined]));
      assert.deepStrictEqual(indexedFilesOf(searched, withIgnored, 1 << 20, limits, weighed()), { paths: searched, withIgnored: false });
      assert.strictEqual(asked, 0);
      const fewer = searched.slice(1);
      assert.strictEqual(indexedFilesOf(fewer, withIgnored, 1 << 20, limits, weighed()).withIgnored, true, 'at the bound, it is');
      assert.strictEqual(asked, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the limits name the setting to raise', () => {
    assert.strictEqual(overLimits(10, 100, { maxFiles: 10, maxIndexedBytes: 100 }), undefined);
    assert.match(overLimits(11, 100, { maxFiles: 10, maxIndexedBytes: 100 }) ?? '', /grepTools\.index\.maxFiles/);
    assert.match(overLimits(10, 101, { maxFiles: 10, maxIndexedBytes: 100 }) ?? '', /grepTools\.index\.maxIndexedBytes/);
  });
});
