/**
 * The CLI's index: `index` builds it outside the workspace (the given --index-dir, or the user's cache
 * directory) and says what it did; grep then prints the same answer with the index as without it,
 * after edits too; an --index-dir inside the workspace is refused and nothing is written there.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { main } from '../../src/cli';
import { parseAnswer } from '../support/answers';
import { defaultIndexDir } from '../../src/engine/index/location';
import { age } from '../unit/engine/index/age';
import { Fixture } from '../unit/fixture';

describe('cli: the content index', () => {
  let fx: Fixture;
  let ws: string;
  let indexDir: string;

  before(() => {
    fx = new Fixture('grep-tools-index-cli-');
    ws = fx.mkdir('ws');
    indexDir = fx.path('index');
    fx.files({
      'ws/src/app.ts': 'const a = 1; // TODO tidy\n',
      'ws/README.md': 'TODO docs\n',
      'ws/.env': 'TODO secret\n',
      'ws/lib/util.ts': 'export const b = 2;\n',
    });
    age(ws);
  });
  after(() => fx.remove());

  it('builds the index in --index-dir and reports what it read', async () => {
    const result = await main(['index', '--workspace', ws, '--index-dir', indexDir]);
    assert.strictEqual(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout ?? '');
    assert.strictEqual(summary.files, 3); // .env is never read
    assert.strictEqual(summary.read, 3);
    assert.strictEqual(summary.listing, true);
    assert.ok(fs.existsSync(nodePath.join(indexDir, 'index.bin')));
    assert.deepStrictEqual(fs.readdirSync(ws).sort(), ['.env', 'README.md', 'lib', 'src']);
    const again = JSON.parse((await main(['index', '--workspace', ws, '--index-dir', indexDir])).stdout ?? '');
    assert.deepStrictEqual([again.read, again.kept], [0, 3]);
  });

  it('answers exactly as without the index, before and after an edit', async () => {
    for (const input of ['{"pattern":"TODO"}', '{"pattern":"export const","output_mode":"count"}', '{"pattern":"nothing like this"}']) {
      const on = await main(['grep', input, '--workspace', ws, '--index-dir', indexDir]);
      const off = await main(['grep', input, '--workspace', ws, '--no-index']);
      assert.strictEqual(on.stdout, off.stdout, input);
    }
    fx.write('ws/lib/util.ts', 'export const b = 2; // TODO later\n');
    fx.write('ws/lib/new.ts', 'TODO new\n');
    const on = await main(['grep', '{"pattern":"TODO","output_mode":"files_with_matches"}', '--workspace', ws, '--index-dir', indexDir]);
    assert.deepStrictEqual(parseAnswer(on.stdout ?? '').files, [`${ws}/README.md`, `${ws}/lib/new.ts`, `${ws}/lib/util.ts`, `${ws}/src/app.ts`]);
  });

  it('over --max-files keeps the file list only (its recorded listing, when it can be relied on; no content), says why, and answers exactly as without it', async () => {
    const dir = fx.path('index-list-only');
    const result = await main(['index', '--workspace', ws, '--index-dir', dir, '--max-files', '2']);
    assert.strictEqual(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout ?? '');
    assert.match(summary.listOnly, /^\d+ files, more than grepTools\.index\.maxFiles \(2\)$/);
    assert.deepStrictEqual([summary.files, summary.read], [0, 0], 'no file content is indexed');
    for (const input of [{ pattern: 'TODO' }, { pattern: 'const', output_mode: 'count' }]) {
      const indexed = await main(['grep', JSON.stringify(input), '--workspace', ws, '--index-dir', dir]);
      const plain = await main(['grep', JSON.stringify(input), '--workspace', ws, '--no-index']);
      assert.deepStrictEqual(indexed, plain, JSON.stringify(input));
    }
    const refused = await main(['index', '--workspace', ws, '--index-dir', dir, '--max-files', 'many']);
    assert.strictEqual(refused.code, 1);
    assert.match(refused.stderr ?? '', /unknown argument "--max-files"/);
  });

  it('accepts --no-index for glob too, so one command line serves both tools', async () => {
    const plain = await main(['glob', '{"pattern":"**/*.ts"}', '--workspace', ws]);
    const noIndex = await main(['glob', '{"pattern":"**/*.ts"}', '--workspace', ws, '--no-index']);
    assert.strictEqual(noIndex.code, 0, noIndex.stderr);
    assert.strictEqual(noIndex.stdout, plain.stdout);
  });

  it('refuses an --index-dir inside the workspace, naming the fix, and writes nothing there', async () => {
    const inside = nodePath.join(ws, '.index');
    const result = await main(['index', '--workspace', ws, '--index-dir', inside]);
    assert.strictEqual(result.code, 1);
    assert.match(
      result.stderr ?? '',
      /The index directory .*\.index is inside the workspace folder .*ws, and nothing is written in the workspace\. Pass an --index-dir outside it/,
    );
    assert.ok(!fs.existsSync(inside));
  });

  it('says when the index directory cannot be written, and how to fix it', async () => {
    const file = fx.write('not-a-directory', 'x');
    const result = await main(['index', '--workspace', ws, '--index-dir', nodePath.join(file, 'index')]);
    assert.strictEqual(result.code, 1);
    assert.match(
      result.stderr ?? '',
      /^The index could not be written in .*not-a-directory\/index \(ENOTDIR\)\. Pass an --index-dir that can be written, outside the workspace\.$/,
    );
  });

  it('keeps the default index in the user cache directory, one per set of folders', () => {
    const dir = defaultIndexDir([ws], '/home/someone/.cache');
    assert.match(dir, /^\/home\/someone\/\.cache\/grep-tools\/index\/[0-9a-f]{16}$/);
    assert.notStrictEqual(dir, defaultIndexDir([ws, fx.path('other')], '/home/someone/.cache'));
  });
});
