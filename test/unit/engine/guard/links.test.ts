/**
 * Where a symbolic link met during a walk leads, and whether it is followed: to a file or a directory,
 * through a chain of links, nowhere (dangling, a loop); followed only when its real path is granted,
 * not denied and allowed. Deciding stats only: nothing is opened or listed.
 */
import * as assert from 'assert';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { judgeLink, linkVerdict, resolveLinkSync } from '../../../../src/engine/guard/links';
import type { ReadScope } from '../../../../src/engine/guard/scope';
import { Fixture } from '../../fixture';
import { FsRecorder } from '../../recorder';

describe('engine/guard/links: where a link leads, and whether it is followed', () => {
  const fx = new Fixture('grep-tools-links-');
  let ws: string;
  let outside: string;
  const scope = (extra: Partial<ReadScope> = {}): ReadScope => ({ granted: [ws], denied: DEFAULT_DENIED_PATHS, ...extra });

  before(() => {
    ws = fx.mkdir('ws');
    outside = fx.mkdir('outside');
    fx.files({ 'ws/src/a.ts': 'a\n', 'ws/docs/guide.md': 'g\n', 'ws/.ssh/id_rsa': 'k\n', 'outside/o.txt': 'o\n' });
    fx.symlink('src/a.ts', 'ws/to-file');
    fx.symlink(fx.path('ws/src'), 'ws/to-dir');
    fx.symlink('to-file', 'ws/chain'); // chain -> to-file -> src/a.ts
    fx.symlink(outside, 'ws/to-outside');
    fx.symlink(fx.path('outside/o.txt'), 'ws/to-outside-file');
    fx.symlink('.ssh', 'ws/keys');
    fx.symlink('.ssh/id_rsa', 'ws/key-file');
    fx.symlink('nothing-here', 'ws/dangling');
    fx.symlink('loop-b', 'ws/loop-a');
    fx.symlink('loop-a', 'ws/loop-b');
    fx.symlink(fx.path('ws/docs'), 'outside/into-ws');
  });
  after(() => fx.remove());

  it('a link leads to the real path at the end of its chain, a file or a directory', () => {
    assert.deepStrictEqual(resolveLinkSync(fx.path('ws/to-file')), { real: fx.path('ws/src/a.ts'), directory: false, file: true });
    assert.deepStrictEqual(resolveLinkSync(fx.path('ws/to-dir')), { real: fx.path('ws/src'), directory: true, file: false });
    assert.deepStrictEqual(
      resolveLinkSync(fx.path('ws/chain')),
      { real: fx.path('ws/src/a.ts'), directory: false, file: true },
      'a chain ends where its last link leads',
    );
    assert.deepStrictEqual(
      resolveLinkSync(fx.path('ws/src/a.ts')),
      { real: fx.path('ws/src/a.ts'), directory: false, file: true },
      'a plain file leads to itself',
    );
  });

  it('a dangling link, a loop of links and a path that is not there lead nowhere', () => {
    assert.strictEqual(resolveLinkSync(fx.path('ws/dangling')), undefined);
    assert.strictEqual(resolveLinkSync(fx.path('ws/loop-a')), undefined);
    assert.strictEqual(resolveLinkSync(fx.path('ws/missing')), undefined);
    assert.deepStrictEqual(judgeLink(fx.path('ws/loop-a'), scope()), { kind: 'dangling' });
  });

  it('is followed within a granted root, and where it leads is what is searched', () => {
    assert.deepStrictEqual(judgeLink(fx.path('ws/to-dir'), scope()), { kind: 'follow', real: fx.path('ws/src'), directory: true, file: false });
    assert.deepStrictEqual(judgeLink(fx.path('ws/chain'), scope()), { kind: 'follow', real: fx.path('ws/src/a.ts'), directory: false, file: true });
    assert.deepStrictEqual(
      judgeLink(fx.path('outside/into-ws'), scope()),
      { kind: 'follow', real: fx.path('ws/docs'), directory: true, file: false },
      'a link from outside into a root',
    );
  });

  it('leading out of every granted root, it is outside the workspace, file or directory, unless that place was granted', () => {
    assert.deepStrictEqual(judgeLink(fx.path('ws/to-outside'), scope()), { kind: 'outside', real: outside, directory: true });
    assert.deepStrictEqual(judgeLink(fx.path('ws/to-outside-file'), scope()), { kind: 'outside', real: fx.path('outside/o.txt'), directory: false });
    assert.deepStrictEqual(judgeLink(fx.path('ws/to-outside-file'), scope({ granted: [ws, outside] })), {
      kind: 'follow',
      real: fx.path('outside/o.txt'),
      directory: false,
      file: true,
    });
  });

  it('leading to a denied place, it is denied, whatever its own name', () => {
    assert.deepStrictEqual(judgeLink(fx.path('ws/keys'), scope()), { kind: 'denied', real: fx.path('ws/.ssh'), directory: true });
    assert.deepStrictEqual(judgeLink(fx.path('ws/key-file'), scope()), { kind: 'denied', real: fx.path('ws/.ssh/id_rsa'), directory: false });
    assert.deepStrictEqual(judgeLink(fx.path('ws/to-file'), scope({ denied: ['**/*.ts'] })), {
      kind: 'denied',
      real: fx.path('ws/src/a.ts'),
      directory: false,
    });
  });

  it('with an allow-list, it is followed only where the list allows what it leads to', () => {
    const allowed = ['src/**'];
    assert.strictEqual(judgeLink(fx.path('ws/to-file'), scope({ allowed })).kind, 'follow');
    assert.strictEqual(judgeLink(fx.path('ws/to-dir'), scope({ allowed })).kind, 'follow');
    assert.deepStrictEqual(judgeLink(fx.path('outside/into-ws'), scope({ allowed })), { kind: 'denied', real: fx.path('ws/docs'), directory: true });
  });

  it('a target whose real path the file system cannot tell (a virtual one) is where its name says', () => {
    const name = '/mem/ws/link';
    assert.deepStrictEqual(linkVerdict({ real: undefined, directory: false, file: true }, scope(), name), {
      kind: 'follow',
      real: name,
      directory: false,
      file: true,
    });
    assert.deepStrictEqual(linkVerdict(undefined, scope(), name), { kind: 'dangling' });
  });

  it('deciding opens and lists nothing', async () => {
    const recorder = new FsRecorder();
    await recorder.record(async () => {
      for (const name of ['to-file', 'to-dir', 'chain', 'to-outside', 'keys', 'dangling', 'loop-a'])
        judgeLink(nodePath.join(ws, name), scope({ allowed: ['src/**'] }));
    });
    assert.deepStrictEqual(recorder.accesses, []);
  });
});
