/**
 * The index of a workspace as the CLI keeps it: built from the files a search of the whole workspace
 * lists (denied files never, ignored ones too while they are few), refreshed in place (unchanged files
 * not read again), the file list alone above the limits, refused with the fix when it cannot be
 * written; and opened again only for the same folders, where a search then settles files unread.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { CancelledError, InputError } from '../../../../src/engine/api/errors';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { buildWorkspaceIndex, openWorkspaceIndex } from '../../../../src/engine/run/workspaceIndex';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { age } from '../index/age';
import { Fixture, makeEnv } from '../../fixture';

describe('engine/run/workspaceIndex', () => {
  const fx = new Fixture('grep-tools-workspace-index-');
  const indexDir = () => fx.path('index');
  before(() => {
    fx.files({
      'ws/.gitignore': 'build/\n',
      'ws/src/a.ts': 'export const alpha = 1;\n',
      'ws/src/b.ts': 'export const beta = 2;\n',
      'ws/build/out.js': 'var alpha = 1;\n',
      'ws/.env': 'alpha=secret\n',
    });
    age(fx.path('ws'));
  });
  after(() => fx.remove());
  const env = () => makeEnv(fx.path('ws'));

  it('indexes the files searches read and, while they are few, the ignored ones; never a denied one', async () => {
    const summary = await buildWorkspaceIndex(env(), indexDir());
    assert.deepStrictEqual(
      { files: summary.files, read: summary.read, listing: summary.listing, withIgnored: summary.withIgnored, listOnly: summary.listOnly },
      { files: 4, read: 4, listing: true, withIgnored: true, listOnly: undefined }, // .gitignore, a.ts, b.ts, build/out.js
    );
    assert.ok(summary.indexBytes > 0);
  });

  it('refreshes in place: unchanged files are kept, an edited one is read again', async () => {
    await buildWorkspaceIndex(env(), indexDir());
    const unchanged = await buildWorkspaceIndex(env(), indexDir());
    assert.deepStrictEqual([unchanged.read, unchanged.kept, unchanged.files], [0, 4, 4]);
    fs.writeFileSync(fx.path('ws/src/b.ts'), 'export const beta = 22;\n');
    const edited = await buildWorkspaceIndex(env(), indexDir());
    assert.deepStrictEqual([edited.read, edited.kept, edited.files], [1, 3, 4]);
  });

  it('keeps the file list alone, saying why, when the workspace is over the limits', async () => {
    const dir = fx.path('index-small');
    const summary = await buildWorkspaceIndex(env(), dir, { maxFiles: 2, maxIndexedBytes: 1 << 30 });
    assert.deepStrictEqual([summary.files, summary.listing, summary.withIgnored], [0, true, false]);
    assert.strictEqual(summary.listOnly, '3 files, more than grepTools.index.maxFiles (2)');
  });

  it('refuses an index directory it cannot write, naming it and the fix', async () => {
    const blocked = fx.write('not-a-dir', 'a file\n');
    await assert.rejects(
      buildWorkspaceIndex(env(), `${blocked}/index`),
      (error: unknown) =>
        error instanceof InputError &&
        error.message.startsWith(`The index could not be written in ${blocked}/index (`) &&
        error.message.endsWith('Pass an --index-dir that can be written, outside the workspace.'),
    );
  });

  it('a cancelled build is refused as cancelled', async () => {
    await assert.rejects(buildWorkspaceIndex({ ...env(), isCancelled: () => true }, fx.path('index-cancelled')), CancelledError);
  });

  it('opens the index only for the folders it was built for; a search through it settles files unread, with the same answer', async () => {
    age(fx.path('ws'));
    await buildWorkspaceIndex(env(), indexDir());
    assert.strictEqual(openWorkspaceIndex(fx.path('nowhere'), [fx.path('ws')], new NodeFileSource()), undefined);
    assert.strictEqual(openWorkspaceIndex(indexDir(), [fx.path('ws'), fx.path('other')], new NodeFileSource()), undefined);
    const opened = openWorkspaceIndex(indexDir(), [fx.path('ws')], new NodeFileSource());
    assert.ok(opened);
    try {
      const plain = await answerGrep({ pattern: 'alpha', output_mode: 'files_with_matches' }, env());
      const indexed = await answerGrep({ pattern: 'alpha', output_mode: 'files_with_matches' }, { ...env(), index: opened.index, source: opened.source });
      assert.deepStrictEqual(indexed.files, plain.files);
      assert.deepStrictEqual(indexed.indexed?.settled, 2); // .gitignore and b.ts: unchanged, and unable to match
    } finally {
      opened.close();
    }
  });
});
