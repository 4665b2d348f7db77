/**
 * Listing a directory as the walkers and the audit list one: its entries with their kinds and the real
 * path of the directory listed, the same with and without holding the caller's thread; a file, or a
 * path with nothing there, is refused as readdir refuses it. Alike through /proc (Linux) and by name
 * (where there is no /proc: macOS, Windows; run here too).
 */
import * as assert from 'assert';
import * as nodePath from 'path';
import { type OpenedDirectory } from '../../../../src/engine/source/directory';
import { Fixture } from '../../fixture';
import { LISTERS } from './listers';

/** The entries as a person would read them: name, and '/' after a directory's. */
const names = (opened: OpenedDirectory) => opened.entries.map((entry) => `${entry.name}${entry.isDirectory() ? '/' : ''}`).sort();

for (const { how, lister } of LISTERS)
  describe(`engine/source/directory: listing a directory ${how}`, () => {
    const { listDirectory, listDirectorySync } = lister;
    const fx = new Fixture('grep-tools-directory-');
    before(() => fx.files({ 'ws/a.ts': 'a\n', 'ws/.hidden': 'h\n', 'ws/sub/b.ts': 'b\n', 'ws/empty/.keep': '' }));
    after(() => fx.remove());

    it('gives its entries, hidden ones included, with their kinds, and its real path; alike with and without holding the thread', async () => {
      const sync = listDirectorySync(fx.path('ws'), false);
      assert.deepStrictEqual(names(sync), ['.hidden', 'a.ts', 'empty/', 'sub/']);
      assert.strictEqual(sync.real, fx.path('ws'));
      const async = await listDirectory(fx.path('ws'), false);
      assert.deepStrictEqual(names(async), names(sync));
      assert.strictEqual(async.real, sync.real);
    });

    it('names the directory it listed by its real path, however the path given was spelled', async () => {
      const roundabout = [fx.path('ws'), 'sub', '..', 'sub'].join(nodePath.sep); // (path.join would tidy it)
      assert.strictEqual(listDirectorySync(roundabout, false).real, fx.path('ws/sub'));
      assert.strictEqual((await listDirectory(roundabout, true)).real, fx.path('ws/sub'));
      assert.deepStrictEqual(names(await listDirectory(roundabout, false)), ['b.ts']);
    });

    it('refuses a file and a path with nothing there, as readdir does', async () => {
      assert.throws(() => listDirectorySync(fx.path('ws/a.ts'), false), { code: 'ENOTDIR' });
      await assert.rejects(listDirectory(fx.path('ws/a.ts'), true), { code: 'ENOTDIR' });
      assert.throws(() => listDirectorySync(fx.path('ws/missing'), true), { code: 'ENOENT' });
      await assert.rejects(listDirectory(fx.path('ws/missing'), false), { code: 'ENOENT' });
    });
  });
