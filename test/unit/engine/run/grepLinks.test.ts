/** grep meets symbolic links: one to a denied file is denied, one leading out of the workspace is skipped or refused. */
import * as assert from 'assert';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { contentFiles, Fixture, folders, grepJson, makeEnv, rejectsWith } from '../../fixture';
import { escapeRegExp } from '../../../../src/engine/matcher/matcher';

describe('engine/grep through symbolic links', () => {
  let fx: Fixture;
  let den: string;
  let one: string;
  let two: string;
  let outside: string;

  before(() => {
    fx = new Fixture();
    den = fx.mkdir('denied');
    one = fx.mkdir('multi/one');
    two = fx.mkdir('multi/two');
    outside = fx.mkdir('outside');
    fx.files({
      'denied/.env': 'TODO env\n',
      'denied/src/ok.ts': 'TODO ok\n',
      'multi/one/src/x.ts': 'TODO one x\n',
      'multi/two/src/x.ts': 'TODO two x\n',
      'outside/o.txt': 'TODO outside\n',
    });
    fx.symlink('.env', 'denied/notes.txt');
    fx.symlink(outside, 'multi/one/link-out');
    fx.symlink('../../outside/o.txt', 'multi/one/o-link.txt');
  });

  after(() => fx.remove());

  it('a link to a denied file is judged by where it leads: counted as denied, and refused by name', async () => {
    const json = await grepJson({ pattern: 'TODO' }, makeEnv(den));
    assert.deepStrictEqual(
      contentFiles(json).map((file) => file.file),
      [fx.path('denied/src/ok.ts')],
    );
    assert.strictEqual(json.skipped.denied, 2, '.env and notes.txt');
    await rejectsWith(
      answerGrep({ pattern: 'TODO', path: 'notes.txt' }, makeEnv(den)),
      new RegExp(
        `^${escapeRegExp(`permission denied by policy: "notes.txt" (it leads to ${fx.path('denied/.env')}) matches "**/.env" (grepTools.deniedPaths).`)}`,
      ),
    );
  });

  it('links that lead outside are skipped and counted, and refused when path names them', async () => {
    const json = await grepJson({ pattern: 'TODO' }, makeEnv(folders(two, one)));
    assert.strictEqual(contentFiles(json).length, 2);
    assert.strictEqual(json.skipped.outside_workspace, 2, 'link-out and o-link.txt');
    const message = escapeRegExp(`, which is outside every workspace folder (${one}).`);
    await rejectsWith(
      answerGrep({ pattern: 'TODO', path: 'link-out' }, makeEnv(one)),
      new RegExp(`^Path "link-out" resolves to ${escapeRegExp(outside)}${message}`),
    );
    await rejectsWith(
      answerGrep({ pattern: 'TODO', path: 'o-link.txt' }, makeEnv(one)),
      new RegExp(`^Path "o-link\\.txt" resolves to ${escapeRegExp(fx.path('outside/o.txt'))}${message}`),
    );
  });
});
