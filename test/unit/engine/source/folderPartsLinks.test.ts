import * as assert from 'assert';
import * as fs from 'fs';
import { Fixture } from '../../fixture';
import { partsOf } from '../../../../src/engine/source/folderParts';

describe('engine/folderParts, with symbolic links', () => {
  let fx: Fixture;
  beforeEach(() => {
    fx = new Fixture();
  });
  afterEach(() => fx.remove());
  const none = () => false;

  it('lists whole a folder with a symlink at its top, and does not split a directory holding one (no part would name what lies behind it)', async () => {
    fx.files({ 'one/a/x.txt': 'x\n', 'one/b/y.txt': 'y\n', 'one/b/z.txt': 'z\n', 'two/w.txt': 'w\n' });
    assert.deepStrictEqual(await partsOf(fx.root, none), { levels: ['', 'one'], groups: [['one/a'], ['one/b'], ['two']], files: 4 });
    fx.symlink(fx.path('one/a'), 'link');
    assert.strictEqual(await partsOf(fx.root, none), undefined, 'a symlink at the top');
    fs.rmSync(fx.path('link'));
    fx.symlink(fx.path('one/a'), 'one/link');
    assert.deepStrictEqual(await partsOf(fx.root, none), { levels: [''], groups: [['one'], ['two']], files: 5 }, 'a symlink in one/: one/ is not split');
  });
});
