/**
 * The globs a call gives (`include`, `exclude`, glob's `pattern`): refused when absolute or climbing out
 * of the search path, with a message naming the fix; an absolute glob's static prefix taken as its path.
 */
import * as assert from 'assert';
import * as nodePath from 'path';
import { checkSearchGlob, globRequest } from '../../../../src/engine/guard/globInput';

describe('engine/guard/globInput: the globs a call gives, checked before anything is listed', () => {
  it('refuses globs that are absolute or climb out of the base', () => {
    for (const glob of ['*.ts', 'src/**', '{a,b}/*.md', '..foo/*', 'a..b']) assert.doesNotThrow(() => checkSearchGlob(glob, 'include'), glob);
    assert.throws(
      () => checkSearchGlob('../x/*', 'include'),
      /^InputError: Invalid include glob "\.\.\/x\/\*": '\.\.' cannot climb out of the search path\. Set "path" to the directory to search instead\.$/,
    );
    assert.throws(() => checkSearchGlob('src/../../x', 'exclude'), /^InputError: Invalid exclude glob/);
    assert.throws(() => checkSearchGlob('{src,..}/*', 'glob'), /^InputError: Invalid glob "\{src,\.\.\}\/\*": '\.\.' cannot climb out/);
    assert.throws(
      () => checkSearchGlob('/etc/*', 'include'),
      /^InputError: Invalid include glob "\/etc\/\*": it is matched relative to the search path and cannot name an absolute location/,
    );
    assert.throws(() => checkSearchGlob('~/.ssh/*', 'glob'), /cannot name an absolute location/);
  });

  it('takes the base of an absolute glob as its path (under path.posix; path.win32 in flavours.test.ts)', () => {
    assert.deepStrictEqual(globRequest('/a/b/**/*.ts', undefined, 'glob', nodePath.posix), { pattern: '**/*.ts', path: '/a/b' });
    assert.deepStrictEqual(globRequest('/a/b/**/*.ts', '/a/b', undefined, nodePath.posix), { pattern: '**/*.ts', path: '/a/b' });
    assert.deepStrictEqual(globRequest('src/*.ts', 'x', 'glob', nodePath.posix), { pattern: 'src/*.ts', path: 'x' });
    assert.deepStrictEqual(globRequest('^/x', undefined, 'regex', nodePath.posix), { pattern: '^/x', path: undefined });
    assert.throws(() => globRequest('/a/b/*.ts', '/c', 'glob', nodePath.posix), /^InputError: Give either an absolute glob or "path", not both/);
  });
});
