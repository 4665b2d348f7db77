import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { Minimatch } from 'minimatch';
import { comparePaths } from '../../../../src/engine/globset/globs';
import { enclosingTop, groupInclude, levelsInclude, otherDirectories, partsOf, type FolderParts } from '../../../../src/engine/source/folderParts';
import { Fixture, rel } from '../../fixture';

describe('engine/folderParts', () => {
  let fx: Fixture;
  const write = (relative: string) => fx.write(relative, `${relative}\n`);
  /** Every file below the folder, from its root. */
  const filesOf = (dir: string) =>
    fs
      .readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => rel(dir, nodePath.join(entry.parentPath, entry.name)));

  beforeEach(() => {
    fx = new Fixture('grep-tools-parts-');
  });
  afterEach(() => fx.remove());
  const none = () => false;

  /**
   * Asserts that the parts' includes name every file of the folder (but those below `notEntered`) once,
   * and that no part is told to leave out a directory holding a file it names.
   */
  const assertCovers = (parts: FolderParts, notEntered = (_file: string) => false) => {
    const includes = [levelsInclude(parts.levels), ...parts.groups.map(groupInclude)];
    const leftOut = [otherDirectories(parts), ...parts.groups.map((group) => otherDirectories(parts, group))];
    // (as findFiles reads a pattern relative to the folder: `*` names the files at its top only)
    const matchers = includes.map((include) => {
      // (one expression for a glob's braces, as minimatch's match would try each alternative in turn)
      const compiled = new Minimatch(include, { dot: true }).makeRe();
      return (file: string) => compiled !== false && compiled.test(file);
    });
    const named = includes.join(' ');
    for (const file of filesOf(fx.root).filter((file) => !notEntered(file))) {
      assert.strictEqual(matchers.filter((matches) => matches(file)).length, 1, `${file} is named by one part (${named})`);
      const part = matchers.findIndex((matches) => matches(file));
      const outside = leftOut[part].find((dir) => file.startsWith(`${dir}/`));
      assert.strictEqual(outside, undefined, `${file}: its part (${includes[part]}) does not leave out ${outside}`);
    }
    // Each part leaves out every directory of the others.
    assert.deepStrictEqual(leftOut[0], parts.groups.flat());
    parts.groups.forEach((group, i) => assert.deepStrictEqual([...leftOut[i + 1], ...group].sort(), parts.groups.flat().sort()));
    return includes;
  };

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
    const parts = await partsOf(fx.root, (dir) => dir === '.git');
    assert.deepStrictEqual(parts, { levels: ['', 'repo', 'repo/src'], groups: [['repo/src/a'], ['repo/src/b'], ['repo/src/c']], files: 8 });
    const includes = assertCovers(parts, (file) => file.startsWith('.git/'));
    assert.deepStrictEqual(includes, ['{*,repo/*,repo/src/*}', 'repo/src/a/**', 'repo/src/b/**', 'repo/src/c/**']);
  });

  it('splits the directory where most files lie, and groups the directories by weight, siblings of it among them', async () => {
    write('README.md');
    for (const file of ['docs/a.md', 'docs/b.md', 'tools/t.sh', 'packages/package.json']) write(file);
    for (let p = 0; p < 10; p++) for (let f = 0; f < 3; f++) write(`packages/p${p}/src/f${f}.ts`);
    const parts = await partsOf(fx.root, none);
    assert.deepStrictEqual(parts?.levels, ['', 'packages']);
    const units = parts.groups.flat();
    assert.deepStrictEqual(units, ['docs', ...Array.from({ length: 10 }, (_, p) => `packages/p${p}`), 'tools']);
    assert.strictEqual(parts.groups.length, 8);
    const includes = assertCovers(parts);
    assert.ok(
      includes.some((include) => include.startsWith('{docs,packages/')),
      `a group of directories of different parents is named by their paths: ${includes.join(' ')}`,
    );
    // About equal weight: no group holds more than twice a share (33 files in 8 groups).
    const weightOf = (group: string[]) => filesOf(fx.root).filter((file) => group.some((dir) => file.startsWith(`${dir}/`))).length;
    for (const group of parts.groups) assert.ok(weightOf(group) <= 9, `${group.join(',')}: ${weightOf(group)} files`);
  });

  it('splits a folder of several directories of about equal weight at its top, in PARTS groups in path order', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `d${i}`);
    for (const name of names) write(`${name}/f.txt`);
    write('d1.txt');
    const parts = await partsOf(fx.root, none);
    assert.deepStrictEqual(parts?.levels, ['']);
    assert.strictEqual(parts.groups.length, 8);
    assert.deepStrictEqual(
      parts.groups.flat(),
      [...names].sort((a, b) => comparePaths(`${a}/`, `${b}/`)),
    );
    assert.strictEqual(groupInclude(parts.groups[0]), `{${parts.groups[0].join(',')}}/**`);
    assert.strictEqual(levelsInclude(parts.levels), '*');
    assertCovers(parts);
  });

  it('lists whole a folder with no directory or a glob character at its top; does not split a directory holding one', async () => {
    write('only.txt');
    assert.strictEqual(await partsOf(fx.root, none), undefined, 'no directory');
    write('one/a/x.txt');
    write('one/b/y.txt');
    write('one/b/z.txt');
    write('two/w.txt');
    assert.deepStrictEqual(await partsOf(fx.root, none), { levels: ['', 'one'], groups: [['one/a'], ['one/b'], ['two']], files: 5 });
    write('one/c{d}/z.txt');
    assert.deepStrictEqual(
      await partsOf(fx.root, none),
      { levels: [''], groups: [['one'], ['two']], files: 6 },
      'a name findFiles would read as a glob in one/',
    );
    write('t{x}/z.txt');
    assert.strictEqual(await partsOf(fx.root, none), undefined, 'a name findFiles would read as a glob at the top');
  });

  it('a folder of more directories than it reads is split by estimated weights, and its parts still name every file once', async () => {
    // (10 directories read at most: the folder, a/ and b/, then not a/'s 30)
    for (let d = 0; d < 30; d++) write(`a/d${d}/f.txt`);
    write('b/g.txt');
    const parts = await partsOf(fx.root, none, 10);
    assert.deepStrictEqual(parts?.levels, ['', 'a'], 'a/, whose directories were not read, still weighs the most');
    assert.strictEqual(parts.groups.length, 8);
    assertCovers(parts);
  });

  it('a larger folder is listed in more parts, about 25,000 files each', async () => {
    // 40 directories of one file and 80 directories each, those not read: 80 entries a directory read, so
    // each of the 40 weighs 1 + 80 * 80 files, 256,040 in all: 11 parts (8 below 200,000 files).
    for (let t = 0; t < 40; t++) {
      write(`t${t}/f.txt`);
      for (let d = 0; d < 80; d++) fs.mkdirSync(nodePath.join(fx.root, `t${t}`, `d${d}`));
    }
    const parts = await partsOf(fx.root, none, 41);
    assert.strictEqual(parts?.files, 256_040);
    assert.strictEqual(parts.groups.length, 11);
    for (const group of parts.groups) assert.ok(group.length >= 3 && group.length <= 4, `${group.join(',')}: 3 or 4 of the 40 directories`);
    assertCovers(parts);
  });

  it('does not split a directory into more than a part can leave out (256): each part would walk the whole folder', async () => {
    // big/ holds most files, but in 300 directories: split, the parts would name 301 directories and leave none out.
    for (let d = 0; d < 300; d++) write(`big/d${d}/f.txt`);
    write('small/g.txt');
    const parts = await partsOf(fx.root, none);
    assert.deepStrictEqual(parts, { levels: [''], groups: [['big'], ['small']], files: 301 });
    assert.deepStrictEqual(otherDirectories(parts, ['small']), ['big'], "small/'s part does not walk big/");
    assertCovers(parts);
  });

  it('a larger folder of more directories at its top than a part can leave out stays in 8 parts, each walking the whole folder', async () => {
    // (the folder alone read: 500 entries, so each of its 500 directories weighs 500 files, 250,000 in all)
    for (let d = 0; d < 500; d++) write(`d${d}/f.txt`);
    const parts = await partsOf(fx.root, none, 1);
    assert.strictEqual(parts?.files, 250_000);
    assert.strictEqual(parts.groups.length, 8);
    assert.strictEqual(parts.groups.flat().length, 500);
    assert.deepStrictEqual(otherDirectories(parts), []);
  });

  it('weighs the files a folder holds, past the directories it reads by the average of those read', async () => {
    for (let d = 0; d < 4; d++) for (let f = 0; f < 3; f++) write(`a/d${d}/f${f}.txt`);
    write('a/x.txt');
    write('top.txt');
    assert.strictEqual((await partsOf(fx.root, none))?.files, 14, 'every directory read: every file counted');
    // (the folder and a/ read: 2 + 5 entries, 3.5 a directory; a/'s 4 directories not read weigh 3.5 each)
    assert.strictEqual((await partsOf(fx.root, none, 2))?.files, 1 + 1 + 4 * 3.5);
  });

  it('otherDirectories: none past 256, where each listed file would be tested against every name', () => {
    const many: FolderParts = {
      levels: [''],
      groups: [Array.from({ length: 200 }, (_, i) => `a${i}`), Array.from({ length: 57 }, (_, i) => `b${i}`)],
      files: 257,
    };
    assert.strictEqual(otherDirectories(many, many.groups[1]).length, 200);
    assert.deepStrictEqual(otherDirectories(many), [], 'the first part, with 257 to leave out, walks the whole folder');
  });

  it('enclosingTop: the directory a part names that is a directory or holds it', () => {
    const tops = new Set(['repo/src/a', 'repo/src/b']);
    assert.deepStrictEqual(
      ['repo/src/a', 'repo/src/a/deep', 'repo/src', 'repo/src/ab', 'repo', ''].map((dir) => enclosingTop(tops, dir) !== undefined),
      [true, true, false, false, false, false],
    );
    assert.strictEqual(enclosingTop(tops, 'repo/src/b/x/y'), 'repo/src/b');
  });
});
