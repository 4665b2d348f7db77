/**
 * A file reached through a symlink (its real path is not its path below its folder) is held by the index
 * as `linked`: never settled, and never served from what an earlier search found, even where every
 * directory is watched, since a change of its target is no event in its directory.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as nodePath from 'path';
import { byteBudget } from '../../../../src/engine/answer/budget';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { renderGrep } from '../../../../src/engine/answer/printer';
import type { GrepInput } from '../../../../src/engine/api/types';
import { currentIndexPrejudge, RecentResults } from '../../../../src/engine/index/prejudge';
import { loadIndex } from '../../../../src/engine/index/store';
import { SearchPool } from '../../../../src/engine/pool/pool';
import type { SearchEnvironment } from '../../../../src/engine/run/environment';
import { buildWorkspaceIndex, openWorkspaceIndex } from '../../../../src/engine/run/workspaceIndex';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { makeEnv } from '../../fixture';
import { age } from './age';
import { vouchingBy } from './vouchingBy';

describe('index: a file reached through a symlink', function () {
  this.timeout(60_000);
  const pool = new SearchPool(2);
  after(() => pool.dispose());

  const run = async (input: GrepInput, env: SearchEnvironment) => {
    const report = await answerGrep(input, env);
    return { text: await renderGrep(report, byteBudget(env.config.maxOutputBytes)), read: report.indexed?.read ?? -1 };
  };

  it('a file reached through a symlink is read by every search, its directory watched or not: a change of its target is no event there', async () => {
    const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-linked-'));
    const index = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'grep-tools-linked-index-'));
    try {
      fs.mkdirSync(nodePath.join(dir, 'src'));
      fs.mkdirSync(nodePath.join(dir, 'elsewhere'));
      fs.writeFileSync(nodePath.join(dir, 'elsewhere/target.txt'), 'needle before\n');
      fs.writeFileSync(nodePath.join(dir, 'src/plain.txt'), 'needle plain\n');
      fs.symlinkSync('../elsewhere/target.txt', nodePath.join(dir, 'src/alias.txt'));
      age(dir);
      const root = { ...makeEnv(dir), pool };
      await buildWorkspaceIndex(root, index);
      const stored = loadIndex(index)!;
      assert.strictEqual(stored.index.entry(nodePath.join(dir, 'src/alias.txt'))?.file.kind, 'linked');
      const recent = new RecentResults();
      // Every file vouched for, as when every directory of the workspace is watched and no event came.
      const workspace = openWorkspaceIndex(index, [dir], new NodeFileSource())!;
      const env = Object.defineProperty({ ...root, source: workspace.source }, 'index', {
        get: () => currentIndexPrejudge(() => stored.index, { vouching: vouchingBy(() => true), recent, stampsInWorkers: true }),
      });
      const input = { pattern: 'needle', include: 'src/**' };
      const first = await run(input, env);
      fs.writeFileSync(nodePath.join(dir, 'elsewhere/target.txt'), 'needle after\n'); // no event in src/
      const again = await run(input, env);
      assert.match(again.text, /needle after/, 'the target changed: the answer says so');
      assert.strictEqual(again.read, first.read - 1, 'the plain file is remembered, the linked one read again');
      stored.close();
      workspace.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(index, { recursive: true, force: true });
    }
  });
});
