import * as assert from 'assert';
import { homedir } from 'os';
import * as nodePath from 'path';
import { isInside, type PathFlavour } from '../../../../src/engine/guard/paths';
import { isHomeOrRoot, resolveBases, type WorkspaceFolder } from '../../../../src/engine/guard/roots';
import { InputError } from '../../../../src/engine/api/errors';

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

/** Each test runs under both flavours, whatever the platform: the folders below `/ws` or `C:\ws`. */
const flavours: Array<[string, PathFlavour, string]> = [
  ['path.posix', nodePath.posix, '/'],
  ['path.win32', nodePath.win32, 'C:\\'],
];

for (const [flavourName, flavour, top] of flavours) {
  describe(`engine/roots under ${flavourName}`, () => {
    /** An absolute path below the top of the file system, spelled by the flavour. */
    const at = (...segments: string[]) => flavour.join(top, ...segments);
    const api: WorkspaceFolder = { name: 'api', path: at('ws', 'api') };
    const web: WorkspaceFolder = { name: 'web', path: at('ws', 'web') };
    const resolve = (path: string | undefined, folders: WorkspaceFolder[], exists: (absolute: string) => Promise<boolean>) =>
      resolveBases(path, folders, exists, flavour);

    describe('isInside', () => {
      it('is true for the folder itself and paths below it', () => {
        assert.ok(isInside(at('ws', 'api'), at('ws', 'api'), flavour));
        assert.ok(isInside(at('ws', 'api', 'src', 'a.ts'), at('ws', 'api'), flavour));
      });

      it('is false for siblings that share a prefix, parents and escapes', () => {
        assert.ok(!isInside(at('ws', 'api2', 'a.ts'), at('ws', 'api'), flavour));
        assert.ok(!isInside(at('ws'), at('ws', 'api'), flavour));
        assert.ok(!isInside(at('ws', 'api', '..', 'web'), at('ws', 'api'), flavour));
        assert.ok(isInside(at('ws', 'api', '..foo'), at('ws', 'api'), flavour), 'a name starting with .. is still inside');
      });
    });

    describe('resolveBases', () => {
      it('searches every workspace folder, in folder order, when path is absent, empty or "."', async () => {
        for (const path of [undefined, '', '.']) {
          assert.deepStrictEqual(await resolve(path, [web, api], nothing), [
            { root: at('ws', 'web'), base: at('ws', 'web'), folderIndex: 0 },
            { root: at('ws', 'api'), base: at('ws', 'api'), folderIndex: 1 },
          ]);
        }
      });

      it('needs an open folder to search everything or a relative path', async () => {
        assert.strictEqual(
          await inputError(resolve(undefined, [], nothing)),
          'No workspace folder is open: open a folder, or pass an absolute "path" to search.',
        );
        assert.strictEqual(
          await inputError(resolve('src', [], nothing)),
          'Relative "path" "src" needs an open workspace folder: open a folder, or pass an absolute path.',
        );
      });

      it('resolves a relative path against the single folder, trailing slash or not', async () => {
        assert.deepStrictEqual(await resolve('src/lib/', [api], nothing), [{ root: at('ws', 'api'), base: at('ws', 'api', 'src', 'lib'), folderIndex: 0 }]);
        assert.deepStrictEqual(await resolve('./src', [api], nothing), [{ root: at('ws', 'api'), base: at('ws', 'api', 'src'), folderIndex: 0 }]);
      });

      it('in a multi-root workspace, a leading folder name selects that folder', async () => {
        assert.deepStrictEqual(await resolve('web/src', [api, web], nothing), [{ root: at('ws', 'web'), base: at('ws', 'web', 'src'), folderIndex: 1 }]);
        assert.deepStrictEqual(await resolve('web', [api, web], nothing), [{ root: at('ws', 'web'), base: at('ws', 'web'), folderIndex: 1 }]);
      });

      it('in a multi-root workspace, finds a relative path in the folder where it exists', async () => {
        assert.deepStrictEqual(await resolve('src/page.tsx', [api, web], existing(at('ws', 'web', 'src', 'page.tsx'))), [
          { root: at('ws', 'web'), base: at('ws', 'web', 'src', 'page.tsx'), folderIndex: 1 },
        ]);
      });

      it('resolves a path found nowhere against the first folder (so "not found" names it)', async () => {
        assert.deepStrictEqual(await resolve('missing', [api, web], nothing), [{ root: at('ws', 'api'), base: at('ws', 'api', 'missing'), folderIndex: 0 }]);
      });

      it('resolves an absolute path to the folder holding it, the innermost when folders nest', async () => {
        const nested: WorkspaceFolder = { name: 'inner', path: at('ws', 'api', 'packages', 'inner') };
        assert.deepStrictEqual(await resolve(at('ws', 'web', 'src'), [api, web], nothing), [
          { root: at('ws', 'web'), base: at('ws', 'web', 'src'), folderIndex: 1 },
        ]);
        assert.deepStrictEqual(await resolve(at('ws', 'api', 'packages', 'inner', 'x'), [api, nested], nothing), [
          { root: at('ws', 'api', 'packages', 'inner'), base: at('ws', 'api', 'packages', 'inner', 'x'), folderIndex: 1 },
        ]);
      });

      it('marks a path outside every folder (absolute, or escaping with ..) with folderIndex -1', async () => {
        assert.deepStrictEqual(await resolve(at('etc'), [api], nothing), [{ root: at('etc'), base: at('etc'), folderIndex: -1 }]);
        assert.deepStrictEqual(await resolve('../web/src', [api], nothing), [{ root: at('ws', 'web', 'src'), base: at('ws', 'web', 'src'), folderIndex: -1 }]);
        assert.deepStrictEqual(await resolve(at('ws', 'api', '..', '..', 'etc'), [api], nothing), [{ root: at('etc'), base: at('etc'), folderIndex: -1 }]);
      });

      it('expands ~ to the home directory', async () => {
        const home = at('home', 'dev');
        assert.deepStrictEqual(await resolveBases('~/notes', [api], nothing, flavour, () => home), [
          { root: flavour.join(home, 'notes'), base: flavour.join(home, 'notes'), folderIndex: -1 },
        ]);
        assert.deepStrictEqual(await resolveBases('~', [api], nothing, flavour, () => home), [{ root: home, base: home, folderIndex: -1 }]);
      });

      it('refuses a NUL character', async () => {
        assert.strictEqual(await inputError(resolve('a\0b', [api], nothing)), 'Invalid "path": it contains a NUL character.');
      });

      if (flavour.sep === '/') {
        it('refuses Windows-style paths with the fix', async () => {
          assert.strictEqual(await inputError(resolve('src\\lib', [api], nothing)), `Invalid "path" "src\\\\lib": use '/' as the separator, e.g. "src/lib".`);
          const drive =
            'this is a Windows drive path, and the workspace is on a POSIX file system. Pass an absolute path such as "/home/...", or a path relative to a workspace folder with \'/\' separators.';
          assert.strictEqual(await inputError(resolve('C:/src', [api], nothing)), `Invalid "path" "C:/src": ${drive}`);
          assert.strictEqual(await inputError(resolve('C:\\Users\\me', [api], nothing)), `Invalid "path" "C:\\\\Users\\\\me": ${drive}`);
        });
      } else {
        it("takes '\\' and '/' alike, and refuses a drive-relative path with the absolute spelling to use", async () => {
          assert.deepStrictEqual(await resolve('src\\lib/x\\', [api], nothing), [
            { root: at('ws', 'api'), base: at('ws', 'api', 'src', 'lib', 'x'), folderIndex: 0 },
          ]);
          assert.strictEqual(
            await inputError(resolve('C:src', [api], nothing)),
            'Invalid "path" "C:src": a drive-relative path depends on the drive\'s current directory. Pass an absolute path such as "C:\\\\src", or a path relative to a workspace folder.',
          );
        });

        it("reads a root-relative path on the workspace folder's drive, not the process's current one", async () => {
          const folder: WorkspaceFolder = { name: 'ws', path: 'D:\\work\\ws' };
          assert.deepStrictEqual(await resolve('\\work\\ws\\src', [folder], nothing), [{ root: folder.path, base: 'D:\\work\\ws\\src', folderIndex: 0 }]);
          const share: WorkspaceFolder = { name: 'ws', path: '\\\\server\\share\\ws' };
          assert.deepStrictEqual(await resolve('/ws/.env', [share], nothing), [{ root: share.path, base: '\\\\server\\share\\ws\\.env', folderIndex: 0 }]);
        });
      }
    });
  });
}

describe('engine/roots: ~ on this platform', () => {
  it('is the home directory the platform reports, also where HOME is not set (on Windows, USERPROFILE)', async () => {
    const folder: WorkspaceFolder = { name: 'ws', path: nodePath.resolve('ws') };
    const saved = process.env.HOME;
    delete process.env.HOME;
    try {
      const [base] = await resolveBases('~/.ssh', [folder], nothing);
      assert.strictEqual(base.base, nodePath.join(homedir(), '.ssh'));
      assert.notStrictEqual(base.base, nodePath.resolve('/', '.ssh'), 'not the .ssh at the top of the drive');
    } finally {
      if (saved !== undefined) process.env.HOME = saved;
    }
  });
});

describe('engine/roots: a folder opened by chance (isHomeOrRoot)', () => {
  it('is the home directory or a root, however spelled; a project below either is not', () => {
    const home = () => '/home/ada';
    assert.strictEqual(isHomeOrRoot('/home/ada', nodePath.posix, home), true);
    assert.strictEqual(isHomeOrRoot('/home/ada/', nodePath.posix, home), true);
    assert.strictEqual(isHomeOrRoot('/home/ada/code/..', nodePath.posix, home), true);
    assert.strictEqual(isHomeOrRoot('/', nodePath.posix, home), true);
    assert.strictEqual(isHomeOrRoot('/home/ada/code', nodePath.posix, home), false);
    assert.strictEqual(isHomeOrRoot('/home', nodePath.posix, home), false);
    const winHome = () => 'C:\\Users\\ada';
    assert.strictEqual(isHomeOrRoot('C:\\', nodePath.win32, winHome), true);
    assert.strictEqual(isHomeOrRoot('D:\\', nodePath.win32, winHome), true);
    assert.strictEqual(isHomeOrRoot('C:\\Users\\ada\\', nodePath.win32, winHome), true);
    assert.strictEqual(isHomeOrRoot('C:\\Users\\ada\\repo', nodePath.win32, winHome), false);
  });
});
