import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as nodePath from 'path';
import { comparePaths, compileGlob } from '../../../../src/engine/globset/globs';
import { groupInclude, levelsInclude, partsOf, withinTops } from '../../../../src/engine/source/folderParts';

describe('engine/folderParts', () => {
  let root: string;
  const write = (relative: string) => {
    fs.mkdirSync(nodePath.dirname(nodePath.join(root, relative)), { recursive: true });
    fs.writeFileSync(nodePath.join(root, relative), `${relative}\n`);
  };
  /** Every file below the folder, from its root. */
  const filesOf = (dir: string) =>
    fs
      .readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => nodePath.relative(dir, nodePath.join(entry.parentPath, entry.name)).split(nodePath.sep).join('/'));

  beforeEach(() => {
    root = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-parts-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const none = () => false;

  it('goes down a chain of single directories to the first that holds several, and its parts name every file once', async () => {
    // (.git, which the listing does not enter, is not a directory of the chain: the folder holds one other, repo)
    for (const file of [
      'top.txt',
      '.dot',
      '.git/config',
      'repo/README.md',
      'repo/src/x.ts',
      'repo/src/zz.ts',
      'repo/src/a/1.ts',
      'repo/src/b/deep/2.ts',
      'repo/src/c/3.ts',
    ])
      write(file);
    const parts = await partsOf(root, (dir) => dir === '.git');
    assert.deepStrictEqual(parts, { levels: ['', 'repo', 'repo/src'], groups: [['repo/src/a'], ['repo/src/b'], ['repo/src/c']] });
    const includes = [levelsInclude(parts.levels), ...parts.groups.map((group) => groupInclude('repo/src', group))];
    assert.deepStrictEqual(includes, ['{*,repo/*,repo/src/*}', 'repo/src/a/**', 'repo/src/b/**', 'repo/src/c/**']);
    const matchers = includes.map((include) => compileGlob(include, 'include'));
    for (const file of filesOf(root).filter((file) => !file.startsWith('.git/')))
      assert.strictEqual(matchers.filter((matches) => matches(file)).length, 1, `${file} is named by one part`);
  });

  it('splits a folder of several directories at its top, in PARTS groups in path order', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `d${i}`);
    for (const name of names) write(`${name}/f.txt`);
    write('d1.txt');
    const parts = await partsOf(root, none);
    assert.deepStrictEqual(parts?.levels, ['']);
    assert.strictEqual(parts.groups.length, 8);
    assert.deepStrictEqual(
      parts.groups.flat(),
      [...names].sort((a, b) => comparePaths(`${a}/`, `${b}/`)),
    );
    assert.strictEqual(groupInclude('', parts.groups[0]), `{${parts.groups[0].join(',')}}/**`);
    assert.strictEqual(levelsInclude(parts.levels), '*');
  });

  it('lists whole a folder with no directory, a symlink or a glob character on the way, or a chain deeper than it goes', async () => {
    write('only.txt');
    assert.strictEqual(await partsOf(root, none), undefined, 'no directory');
    write('one/a/x.txt');
    write('one/b/y.txt');
    fs.symlinkSync(nodePath.join(root, 'one', 'a'), nodePath.join(root, 'one', 'link'));
    assert.strictEqual(await partsOf(root, none), undefined, 'a symlink on the way');
    fs.rmSync(nodePath.join(root, 'one', 'link'));
    assert.deepStrictEqual(await partsOf(root, none), { levels: ['', 'one'], groups: [['one/a'], ['one/b']] });
    write('one/c{d}/z.txt');
    assert.strictEqual(await partsOf(root, none), undefined, 'a name findFiles would read as a glob');
    fs.rmSync(nodePath.join(root, 'one'), { recursive: true });
    write(`${Array.from({ length: 12 }, (_, i) => `l${i}`).join('/')}/a/x.txt`);
    assert.strictEqual(await partsOf(root, none), undefined, 'a chain deeper than it goes');
  });

  it('withinTops: a directory in or below one the part names', () => {
    const tops = new Set(['repo/src/a', 'repo/src/b']);
    assert.deepStrictEqual(
      ['repo/src/a', 'repo/src/a/deep', 'repo/src', 'repo/src/ab', 'repo', ''].map((dir) => withinTops(tops, dir)),
      [true, true, false, false, false, false],
    );
  });
});
