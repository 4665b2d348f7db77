/**
 * The path arithmetic every decision and every answer's path goes through, under POSIX and Windows
 * rules whatever the platform: what lies inside a folder (and what only shares its name's start), the
 * '/'-separated path a rule or a glob is matched against, how an answer spells a file's absolute path,
 * the innermost folder holding a path, and a real path with its fallback.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import * as nodePath from 'path';
import {
  below,
  flavourName,
  flavourNamed,
  innermost,
  isInside,
  realPathOf,
  realPathOfSync,
  relativePosix,
  samePath,
  type PathFlavour,
} from '../../../../src/engine/guard/paths';
import { Fixture } from '../../fixture';

const { posix, win32 } = nodePath;

describe('engine/guard/paths: path arithmetic under each flavour', () => {
  it('a folder holds what lies below it, not a sibling whose name only starts the same, nor its parent', () => {
    assert.ok(isInside('/ws/src/a.ts', '/ws', posix));
    assert.ok(isInside('/ws', '/ws', posix), 'a folder holds itself');
    assert.ok(isInside('/ws/..hidden/a', '/ws', posix), "a name starting with '..' is still below");
    assert.ok(!isInside('/ws2/a.ts', '/ws', posix), '/ws2 is not inside /ws');
    assert.ok(!isInside('/ws-other', '/ws', posix));
    assert.ok(!isInside('/', '/ws', posix));
    assert.ok(!isInside('/ws/../etc/passwd', '/ws', posix), 'a path climbing out is outside');
    assert.ok(isInside('C:\\ws\\src\\a.ts', 'C:\\ws', win32));
    assert.ok(isInside('c:\\WS\\Src', 'C:\\ws', win32), 'Windows names are the same whatever their case');
    assert.ok(!isInside('C:\\ws2\\a.ts', 'C:\\ws', win32));
    assert.ok(!isInside('D:\\ws\\a.ts', 'C:\\ws', win32), 'another drive is outside');
    assert.ok(!isInside('/WS/a.ts', '/ws', posix), 'POSIX names differ by case');
  });

  it('two spellings of one place are the same path: on Windows whatever the case, on POSIX only as written', () => {
    assert.ok(samePath('C:\\Users\\me\\ws', 'c:\\users\\ME\\ws', win32));
    assert.ok(samePath('C:\\ws\\', 'C:\\ws', win32), 'a trailing separator');
    assert.ok(!samePath('/home/me/ws', '/home/me/WS', posix));
    assert.ok(samePath('/home/me/ws/', '/home/me/ws', posix));
    assert.ok(!samePath('/ws', '/ws/src', posix));
  });

  it("a path below a folder is written from it with '/', whatever the flavour's separator", () => {
    assert.strictEqual(relativePosix('/ws', '/ws/src/a.ts', posix), 'src/a.ts');
    assert.strictEqual(relativePosix('/ws/', '/ws/src/a.ts', posix), 'src/a.ts', 'a folder given with its trailing separator');
    assert.strictEqual(relativePosix('/ws', '/ws', posix), '', 'the folder itself');
    assert.strictEqual(relativePosix('/ws', '/other/b.ts', posix), '../other/b.ts', 'outside it, the way there');
    assert.strictEqual(relativePosix('/ws', '/ws2/b.ts', posix), '../ws2/b.ts', 'a sibling sharing the name start is not cut as a prefix');
    assert.strictEqual(relativePosix('C:\\ws', 'C:\\ws\\src\\deep\\a.ts', win32), 'src/deep/a.ts');
    assert.strictEqual(relativePosix('c:\\WS', 'C:\\ws\\src\\a.ts', win32), 'src/a.ts', 'spelled in another case on Windows');
    assert.strictEqual(relativePosix('C:\\ws', 'C:\\other\\b.ts', win32), '../other/b.ts');
  });

  it('an answer spells every absolute path one way: the flavour\'s separator, or "/" for a virtual folder', () => {
    assert.strictEqual(below('/ws', 'src/a.ts', posix), '/ws/src/a.ts');
    assert.strictEqual(below('/ws/', 'src/a.ts', posix), '/ws/src/a.ts');
    assert.strictEqual(below('C:\\ws', 'src/deep/a.ts', win32), 'C:\\ws\\src\\deep\\a.ts', 'never C:\\ws/src/deep/a.ts');
    assert.strictEqual(below('C:\\', 'a.ts', win32), 'C:\\a.ts', 'below a drive root');
    assert.strictEqual(below('/mem/ws', 'src/a.ts', win32), '/mem/ws/src/a.ts', "a virtual folder's path keeps '/' on Windows too");
    assert.strictEqual(below('\\\\server\\share', 'a/b.ts', win32), '\\\\server\\share\\a\\b.ts', 'a network share');
  });

  for (const [name, flavour, dirs] of [
    ['posix', posix, ['/', '/ws', '/home/me/ws/']],
    ['win32', win32, ['C:\\', 'C:\\ws', 'D:\\Users\\me\\ws\\', '\\\\server\\share\\ws']],
  ] as Array<[string, PathFlavour, string[]]>) {
    it(`${name}: a path written below a folder is inside it and reads back as it was written (property)`, () => {
      const segment = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9 ._-]{0,7}$/).filter((s) => !s.endsWith('.') && !s.endsWith(' '));
      fc.assert(
        fc.property(fc.constantFrom(...dirs), fc.array(segment, { minLength: 1, maxLength: 5 }), (dir, segments) => {
          const relative = segments.join('/');
          const absolute = below(dir, relative, flavour);
          assert.ok(isInside(absolute, dir, flavour), `${absolute} inside ${dir}`);
          assert.strictEqual(relativePosix(dir, absolute, flavour), relative);
          assert.ok(!absolute.slice(dir.length).includes(flavour.sep === '/' ? '\\' : '/'), `${absolute} mixes separators`);
          assert.strictEqual(innermost(absolute, [dir], flavour), 0);
        }),
        { numRuns: 300, seed: 20261126 },
      );
    });
  }

  it('the innermost folder holding a path is the longest that holds it, whatever the order of the folders', () => {
    const roots = ['/ws', '/ws/packages/app', '/ws/packages', '/other'];
    assert.strictEqual(innermost('/ws/packages/app/src/a.ts', roots, posix), 1);
    assert.strictEqual(innermost('/ws/packages/lib/b.ts', roots, posix), 2);
    assert.strictEqual(innermost('/ws/README.md', roots, posix), 0);
    assert.strictEqual(innermost('/other', roots, posix), 3, 'a folder itself');
    assert.strictEqual(innermost('/ws-extra/a.ts', roots, posix), -1, 'held by none');
    assert.strictEqual(innermost('c:\\WS\\Pkg\\a.ts', ['C:\\ws', 'C:\\ws\\pkg'], win32), 1);
  });

  it('a flavour named for the workers is the one it was named from', () => {
    assert.strictEqual(flavourNamed('win32'), win32);
    assert.strictEqual(flavourNamed('posix'), posix);
    assert.strictEqual(flavourNamed(undefined).sep, nodePath.sep, "absent: this platform's");
    assert.strictEqual(flavourName(win32), 'win32');
    assert.strictEqual(flavourName(posix), 'posix');
    assert.strictEqual(flavourNamed(flavourName(nodePath)).sep, nodePath.sep, "this platform's, named and back");
  });

  describe('real paths', () => {
    const fx = new Fixture();
    after(() => fx.remove());

    it('are what the file system says, and the fallback (or nothing) where nothing is there', async () => {
      const file = fx.write('dir/a.txt', 'a');
      const roundabout = [fx.root, 'dir', '..', 'dir', 'a.txt'].join(nodePath.sep);
      assert.strictEqual(realPathOfSync(roundabout), file);
      assert.strictEqual(await realPathOf(roundabout), file);
      const missing = fx.path('dir/missing.txt');
      assert.strictEqual(realPathOfSync(missing), undefined);
      assert.strictEqual(await realPathOf(missing), undefined);
      assert.strictEqual(realPathOfSync(missing, missing), missing);
      assert.strictEqual(await realPathOf(missing, 'fallback'), 'fallback');
      assert.strictEqual(realPathOfSync(nodePath.join(file, 'below-a-file')), undefined, 'a path through a file leads nowhere');
    });
  });
});
