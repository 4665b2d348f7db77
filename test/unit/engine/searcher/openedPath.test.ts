/**
 * What an open descriptor really is: on Linux, the real path of what was opened, however its name was
 * spelled and wherever it was moved since; where the system cannot tell (no /proc, or a descriptor not
 * open), the caller's fallback answers.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { descriptorPath, HAS_PROC, openedRealPath } from '../../../../src/engine/searcher/openedPath';
import { Fixture } from '../../fixture';

describe('engine/searcher/openedPath', () => {
  const fx = new Fixture('grep-tools-opened-');
  before(() => fx.files({ 'ws/src/a.ts': 'a\n' }));
  after(() => fx.remove());

  /** Runs `use` on `path` opened for reading. */
  function withOpen<T>(path: string, use: (fd: number) => T): T {
    const fd = fs.openSync(path, 'r');
    try {
      return use(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  it('a descriptor not open is answered by the fallback', () => {
    const fd = fs.openSync(fx.path('ws/src/a.ts'), 'r');
    fs.closeSync(fd);
    assert.strictEqual(
      openedRealPath(fd, () => 'the fallback'),
      'the fallback',
    );
  });

  if (HAS_PROC) {
    it('names the file opened by its real path, however its name was spelled, without asking the fallback', () => {
      const roundabout = [fx.path('ws'), 'src', '..', 'src', 'a.ts'].join(nodePath.sep);
      const real = withOpen(roundabout, (fd) => openedRealPath(fd, () => assert.fail('the fallback was asked')));
      assert.strictEqual(real, fx.path('ws/src/a.ts'));
    });

    it('names the file where it is now when it was renamed after it was opened (what is open, not the name)', () => {
      fx.write('ws/moved/.keep');
      const real = withOpen(fx.path('ws/src/a.ts'), (fd) => {
        fs.renameSync(fx.path('ws/src/a.ts'), fx.path('ws/moved/b.ts'));
        return openedRealPath(fd, () => fx.path('ws/src/a.ts'));
      });
      fs.renameSync(fx.path('ws/moved/b.ts'), fx.path('ws/src/a.ts'));
      assert.strictEqual(real, fx.path('ws/moved/b.ts'));
    });

    it('gives a path an open directory can be listed through', () => {
      const dir = fs.openSync(fx.path('ws/src'), fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
      try {
        assert.deepStrictEqual(fs.readdirSync(descriptorPath(dir)), ['a.ts']);
      } finally {
        fs.closeSync(dir);
      }
    });
  } else {
    it('without /proc, the fallback names every open file', () => {
      assert.strictEqual(
        withOpen(fx.path('ws/src/a.ts'), (fd) => openedRealPath(fd, () => 'the fallback')),
        'the fallback',
      );
    });
  }
});
