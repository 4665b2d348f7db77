import * as assert from 'assert';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { decide } from '../../../../src/engine/guard/guard';
import { deniedPathRule } from '../../../../src/engine/guard/scope';
import { closestName, nameDistance, notFoundHint, type PathHintContext } from '../../../../src/engine/guard/pathHint';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, folders } from '../../fixture';
import { FsRecorder } from '../../recorder';

describe('engine/pathHint (the hint of "Path not found")', () => {
  let fx: Fixture;
  let ws: string;
  /** The absolute path of a '/'-separated path below the workspace folder, spelled by the platform. */
  const at = (relative: string) => nodePath.join(ws, ...relative.split('/'));
  const source = new NodeFileSource();
  const ctx = (): PathHintContext => ({
    folders: folders(ws),
    kind: (path) => source.kind(path),
    hidden: (absolute, root) => deniedPathRule(absolute, root, DEFAULT_DENIED_PATHS) !== undefined,
  });
  const message = async (path: string) => {
    const decision = await decide(path, {
      folders: folders(ws),
      config: { deniedPaths: [...DEFAULT_DENIED_PATHS], allowedPaths: [] },
      kind: (p) => source.kind(p),
    });
    return decision.kind === 'invalid' ? decision.message : `not invalid: ${decision.kind}`;
  };

  before(() => {
    fx = new Fixture('grep-tools-hint-');
    ws = fx.mkdir('ws');
    fx.files({
      'ws/src/components/Button.tsx': 'x\n',
      'ws/src/utils/format.ts': 'x\n',
      'ws/README.md': 'x\n',
      'ws/server.pem': 'KEY\n',
      'ws/server.pen': 'x\n',
      'ws/tools/crates/searcher/lib.rs': 'x\n',
      'ws/tools/crates/searcher/src/mod.rs': 'x\n',
      'ws/secrets/crates/searcher/key.rs': 'x\n',
      'outside/secret-plans/a.txt': 'x\n',
    });
  });

  after(() => fx.remove());

  it('measures names by edit distance, ignoring case, with transpositions', () => {
    assert.strictEqual(nameDistance('components', 'compnents'), 1);
    assert.strictEqual(nameDistance('utils', 'utlis'), 1);
    assert.strictEqual(nameDistance('README.md', 'readme.md'), 0);
    assert.strictEqual(closestName('compnents', ['assets', 'components', 'composer']), 'components');
    assert.strictEqual(closestName('src', ['lib', 'test']), undefined, 'nothing close enough');
    assert.strictEqual(closestName('x', ['x']), undefined, 'not the same name');
  });

  it('names the path meant when a name on the way is misspelled, at any depth', async () => {
    assert.strictEqual(await notFoundHint(at('src/compnents'), ctx()), ` Did you mean ${at('src/components')}?`);
    assert.strictEqual(await notFoundHint(at('src/compnents/Button.tsx'), ctx()), ` Did you mean ${at('src/components/Button.tsx')}?`);
    assert.strictEqual(await notFoundHint(at('scr/utils/fromat.ts'), ctx()), ` Did you mean ${at('src/utils/format.ts')}?`);
    assert.strictEqual(await notFoundHint(at('readme.md'), ctx()), ` Did you mean ${at('README.md')}?`, 'a case difference');
  });

  it('otherwise names the nearest existing directory (not the workspace folder, which the message names)', async () => {
    assert.strictEqual(await notFoundHint(at('src/components/nothing/here'), ctx()), ` The nearest existing directory is ${at('src/components')}.`);
    assert.strictEqual(await notFoundHint(at('zzz/yyy'), ctx()), '');
    assert.strictEqual(await notFoundHint(at('README.md/x'), ctx()), ` The nearest existing path is ${at('README.md')}, a file.`);
  });

  it('never suggests a denied entry, nor lists outside the workspace', async () => {
    assert.strictEqual(await notFoundHint(at('server.pex'), ctx()), ` Did you mean ${at('server.pen')}?`, 'not server.pem');
    const recorder = new FsRecorder();
    await recorder.record(() => notFoundHint(fx.path('outside/secret-plams'), ctx()));
    assert.deepStrictEqual(recorder.listed(), []);
    assert.deepStrictEqual(recorder.opened(), []);
  });

  it('when the first folder is left out: the existing paths that end with the path, or whose first name is close, with the files they hold; never a denied one', async () => {
    assert.strictEqual(
      await notFoundHint(at('crates/searcher'), ctx()),
      ` Did you mean ${at('tools/crates/searcher')} (2 files)?`,
      'not secrets/crates/searcher',
    );
    assert.strictEqual(await notFoundHint(at('crate/searcher'), ctx()), ` Did you mean ${at('tools/crates/searcher')} (2 files)?`);
    assert.strictEqual(await notFoundHint(at('searcher/src/mod.rs'), ctx()), ` Did you mean ${at('tools/crates/searcher/src/mod.rs')} (a file)?`);
    assert.strictEqual(await notFoundHint(at('crates/nothing'), ctx()), '');
    const recorder = new FsRecorder();
    await recorder.record(() => notFoundHint(at('crates/searcher'), ctx()));
    assert.ok(
      recorder.listed().every((path) => !path.includes('secrets')),
      `never lists a denied directory: ${recorder.listed().join(', ')}`,
    );
  });

  it('is part of the guard\'s "Path not found" message', async () => {
    assert.strictEqual(
      await message('src/compnents'),
      `Path not found: "src/compnents" (resolved to ${at('src/compnents')}). Did you mean ${at('src/components')}? Check the path, or omit "path" to search the whole workspace.`,
    );
    assert.strictEqual(
      await message(at('src/utils/nope.ts')),
      `Path not found: ${JSON.stringify(at('src/utils/nope.ts'))} (resolved to ${at('src/utils/nope.ts')}). The nearest existing directory is ${at('src/utils')}. Check the path, or omit "path" to search the whole workspace.`,
    );
  });
});
