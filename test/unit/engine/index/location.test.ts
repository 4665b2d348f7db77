/** Where an index is kept, under path.posix and path.win32 whatever platform runs the test. */
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as nodePath from 'path';
import { InputError } from '../../../../src/engine/api/errors';
import { darwinPath } from '../../../../src/engine/guard/paths';
import { checkIndexDir, defaultIndexDir } from '../../../../src/engine/index/location';

describe('index location under both path flavours', () => {
  it('under path.win32, one index for a folder whatever the case of its letters (VS Code gives c:\\ws, a command line C:\\ws)', () => {
    const cache = 'C:\\Users\\dev\\AppData\\Local';
    const upper = defaultIndexDir(['C:\\Users\\dev\\ws'], cache, nodePath.win32);
    assert.strictEqual(defaultIndexDir(['c:\\users\\DEV\\ws'], cache, nodePath.win32), upper);
    assert.strictEqual(defaultIndexDir(['C:/Users/dev/ws/'], cache, nodePath.win32), upper, 'separators and a trailing one');
    assert.notStrictEqual(defaultIndexDir(['C:\\Users\\dev\\ws2'], cache, nodePath.win32), upper);
    assert.ok(upper.startsWith(`${cache}\\grep-tools\\index\\`), upper);
  });

  it('under path.posix, names that differ in case are different folders, and the key is as before', () => {
    const cache = '/home/dev/.cache';
    assert.notStrictEqual(defaultIndexDir(['/home/dev/ws'], cache, nodePath.posix), defaultIndexDir(['/home/dev/WS'], cache, nodePath.posix));
    // The key of existing indexes on Linux and macOS is unchanged: the folders' JSON as given.
    const hash = createHash('sha256')
      .update(JSON.stringify(['/home/dev/ws']))
      .digest('hex')
      .slice(0, 16);
    assert.strictEqual(defaultIndexDir(['/home/dev/ws'], cache, nodePath.posix), `/home/dev/.cache/grep-tools/index/${hash}`);
  });

  it('refuses an index directory inside a workspace folder, however Windows or macOS spells it', () => {
    for (const dir of ['C:\\Users\\dev\\ws\\.index', 'c:\\users\\dev\\WS\\.index', 'C:/Users/dev/ws/x/idx']) {
      assert.throws(
        () => checkIndexDir(dir, ['C:\\Users\\dev\\ws'], nodePath.win32),
        (error: Error) => error instanceof InputError && /inside the workspace folder/.test(error.message),
        dir,
      );
    }
    checkIndexDir('C:\\Users\\dev\\idx', ['C:\\Users\\dev\\ws'], nodePath.win32);
    checkIndexDir('/home/dev/WS/idx', ['/home/dev/ws'], nodePath.posix);
    assert.throws(() => checkIndexDir('/home/dev/ws/idx', ['/home/dev/ws'], nodePath.posix), /inside the workspace folder/);
    // macOS names the same folder in any case.
    assert.throws(() => checkIndexDir('/users/DEV/WS/idx', ['/Users/dev/ws'], darwinPath), /inside the workspace folder/);
  });
});
