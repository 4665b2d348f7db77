import * as assert from 'assert';
import * as nodePath from 'path';
import { isInside } from '../../../../src/engine/guard/paths';
import { resolveBases, type WorkspaceFolder } from '../../../../src/engine/guard/roots';
import { InputError } from '../../../../src/engine/api/errors';

const api: WorkspaceFolder = { name: 'api', path: '/ws/api' };
const web: WorkspaceFolder = { name: 'web', path: '/ws/web' };

/** An `exists` over a fixed set of absolute paths. */
const existing =
  (...paths: string[]) =>
  async (absolute: string) =>
    paths.includes(absolute);
const nothing = existing();

async function inputError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof InputError, `expected an InputError, got ${String(error)}`);
    return error.message;
  }
  return assert.fail('expected an InputError');
}

describe('engine/roots', () => {
  describe('isInside', () => {
    it('is true for the folder itself and paths below it', () => {
      assert.ok(isInside('/ws/api', '/ws/api'));
      assert.ok(isInside('/ws/api/src/a.ts', '/ws/api'));
    });

    it('is false for siblings that share a prefix, parents and escapes', () => {
      assert.ok(!isInside('/ws/api2/a.ts', '/ws/api'));
      assert.ok(!isInside('/ws', '/ws/api'));
      assert.ok(!isInside('/ws/api/../web', '/ws/api'));
      assert.ok(isInside('/ws/api/..foo', '/ws/api'), 'a name starting with .. is still inside');
    });
  });

  describe('resolveBases', () => {
    it('searches every workspace folder, in folder order, when path is absent, empty or "."', async () => {
      for (const path of [undefined, '', '.']) {
        assert.deepStrictEqual(await resolveBases(path, [web, api], nothing), [
          { root: '/ws/web', base: '/ws/web', folderIndex: 0 },
          { root: '/ws/api', base: '/ws/api', folderIndex: 1 },
        ]);
      }
    });

    it('needs an open folder to search everything or a relative path', async () => {
      assert.strictEqual(
        await inputError(resolveBases(undefined, [], nothing)),
        'No workspace folder is open: open a folder, or pass an absolute "path" to search.',
      );
      assert.strictEqual(
        await inputError(resolveBases('src', [], nothing)),
        'Relative "path" "src" needs an open workspace folder: open a folder, or pass an absolute path.',
      );
    });

    it('resolves a relative path against the single folder, trailing slash or not', async () => {
      assert.deepStrictEqual(await resolveBases('src/lib/', [api], nothing), [{ root: '/ws/api', base: '/ws/api/src/lib', folderIndex: 0 }]);
      assert.deepStrictEqual(await resolveBases('./src', [api], nothing), [{ root: '/ws/api', base: '/ws/api/src', folderIndex: 0 }]);
    });

    it('in a multi-root workspace, a leading folder name selects that folder', async () => {
      assert.deepStrictEqual(await resolveBases('web/src', [api, web], nothing), [{ root: '/ws/web', base: '/ws/web/src', folderIndex: 1 }]);
      assert.deepStrictEqual(await resolveBases('web', [api, web], nothing), [{ root: '/ws/web', base: '/ws/web', folderIndex: 1 }]);
    });

    it('in a multi-root workspace, finds a relative path in the folder where it exists', async () => {
      assert.deepStrictEqual(await resolveBases('src/page.tsx', [api, web], existing('/ws/web/src/page.tsx')), [
        { root: '/ws/web', base: '/ws/web/src/page.tsx', folderIndex: 1 },
      ]);
    });

    it('resolves a path found nowhere against the first folder (so "not found" names it)', async () => {
      assert.deepStrictEqual(await resolveBases('missing', [api, web], nothing), [{ root: '/ws/api', base: '/ws/api/missing', folderIndex: 0 }]);
    });

    it('resolves an absolute path to the folder holding it, the innermost when folders nest', async () => {
      const nested: WorkspaceFolder = { name: 'inner', path: '/ws/api/packages/inner' };
      assert.deepStrictEqual(await resolveBases('/ws/web/src', [api, web], nothing), [{ root: '/ws/web', base: '/ws/web/src', folderIndex: 1 }]);
      assert.deepStrictEqual(await resolveBases('/ws/api/packages/inner/x', [api, nested], nothing), [
        { root: '/ws/api/packages/inner', base: '/ws/api/packages/inner/x', folderIndex: 1 },
      ]);
    });

    it('marks a path outside every folder (absolute, or escaping with ..) with folderIndex -1', async () => {
      assert.deepStrictEqual(await resolveBases('/etc', [api], nothing), [{ root: '/etc', base: '/etc', folderIndex: -1 }]);
      assert.deepStrictEqual(await resolveBases('../web/src', [api], nothing), [{ root: '/ws/web/src', base: '/ws/web/src', folderIndex: -1 }]);
      assert.deepStrictEqual(await resolveBases('/ws/api/../../etc', [api], nothing), [{ root: '/etc', base: '/etc', folderIndex: -1 }]);
    });

    it('expands ~ to the home directory', async () => {
      const home = process.env.HOME ?? '/';
      assert.deepStrictEqual(await resolveBases('~/notes', [api], nothing), [
        { root: nodePath.join(home, 'notes'), base: nodePath.join(home, 'notes'), folderIndex: -1 },
      ]);
    });

    it('refuses Windows-style paths and NUL characters with the fix', async () => {
      assert.strictEqual(await inputError(resolveBases('src\\lib', [api], nothing)), `Invalid "path" "src\\\\lib": use '/' as the separator, e.g. "src/lib".`);
      const drive =
        'this is a Windows drive path, and the workspace is on a POSIX file system. Pass an absolute path such as "/home/...", or a path relative to a workspace folder with \'/\' separators.';
      assert.strictEqual(await inputError(resolveBases('C:/src', [api], nothing)), `Invalid "path" "C:/src": ${drive}`);
      assert.strictEqual(await inputError(resolveBases('C:\\Users\\me', [api], nothing)), `Invalid "path" "C:\\\\Users\\\\me": ${drive}`);
      assert.strictEqual(await inputError(resolveBases('a\0b', [api], nothing)), 'Invalid "path": it contains a NUL character.');
    });
  });
});
