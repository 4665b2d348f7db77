/** The "Path not found" hint meets a symbolic link out of the workspace: it names it, and lists nothing behind it. */
import * as assert from 'assert';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { deniedPathRule } from '../../../../src/engine/guard/scope';
import { notFoundHint, type PathHintContext } from '../../../../src/engine/guard/pathHint';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, folders } from '../../fixture';
import { FsRecorder } from '../../recorder';

describe('engine/pathHint through a symbolic link', () => {
  let fx: Fixture;
  let ws: string;
  const source = new NodeFileSource();
  const ctx = (): PathHintContext => ({
    folders: folders(ws),
    kind: (path) => source.kind(path),
    hidden: (absolute, root) => deniedPathRule(absolute, root, DEFAULT_DENIED_PATHS) !== undefined,
  });

  before(() => {
    fx = new Fixture('grep-tools-hint-links-');
    ws = fx.mkdir('ws');
    fx.files({ 'ws/README.md': 'x\n', 'outside/secret-plans/a.txt': 'x\n' });
    fx.symlink(fx.path('outside'), 'ws/linked');
  });

  after(() => fx.remove());

  it('names the link as the nearest directory, and never lists where it leads outside the workspace', async () => {
    const linked = nodePath.join(ws, 'linked');
    assert.strictEqual(await notFoundHint(nodePath.join(linked, 'secret-plams', 'a.txt'), ctx()), ` The nearest existing directory is ${linked}.`);
    const recorder = new FsRecorder();
    await recorder.record(async () => {
      await notFoundHint(nodePath.join(linked, 'secret-plams'), ctx());
      await notFoundHint(fx.path('outside/secret-plams'), ctx());
    });
    assert.deepStrictEqual(recorder.listed(), []);
    assert.deepStrictEqual(recorder.opened(), []);
  });
});
