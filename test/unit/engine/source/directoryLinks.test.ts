/**
 * Listing a directory that is a symbolic link: refused unless the link is to be followed (a walker
 * judges the link first, and follows only what it allowed), and then named by where it leads, so what
 * is listed is judged where it really is. Alike through /proc (Linux) and by name (where there is no
 * /proc: macOS, Windows; run here too).
 */
import * as assert from 'assert';
import { Fixture } from '../../fixture';
import { LISTERS } from './listers';

for (const { how, lister } of LISTERS)
  describe(`engine/source/directory through a symbolic link, ${how}`, () => {
    const { listDirectory, listDirectorySync } = lister;
    const fx = new Fixture('grep-tools-directory-links-');
    before(() => {
      fx.files({ 'outside/secret.txt': 's\n', 'ws/a.ts': 'a\n' });
      fx.symlink(fx.path('outside'), 'ws/linked');
      fx.symlink('linked', 'ws/chained');
    });
    after(() => fx.remove());

    it('refuses a link not to be followed, with and without holding the thread', async () => {
      for (const link of ['ws/linked', 'ws/chained']) {
        // Opened with O_NOFOLLOW | O_DIRECTORY: Linux answers ENOTDIR, other systems ELOOP; refused by name: ELOOP.
        assert.throws(() => listDirectorySync(fx.path(link), false), { code: /^(ENOTDIR|ELOOP)$/ }, link);
        await assert.rejects(listDirectory(fx.path(link), false), { code: /^(ENOTDIR|ELOOP)$/ }, link);
      }
    });

    it('a link to be followed is listed and named by where it leads, at the end of its chain', async () => {
      for (const link of ['ws/linked', 'ws/chained']) {
        const sync = listDirectorySync(fx.path(link), true);
        assert.strictEqual(sync.real, fx.path('outside'), link);
        assert.deepStrictEqual(
          sync.entries.map((entry) => entry.name),
          ['secret.txt'],
        );
        assert.strictEqual((await listDirectory(fx.path(link), true)).real, fx.path('outside'), link);
      }
    });

    it('a directory holding a link is listed with the link as a link, not followed', () => {
      const entry = listDirectorySync(fx.path('ws'), false).entries.find((e) => e.name === 'linked');
      assert.ok(entry?.isSymbolicLink() && !entry.isDirectory());
    });
  });
