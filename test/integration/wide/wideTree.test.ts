/**
 * A workspace wider than the extension host's file descriptors: one level of the tree holds more
 * directories than the process may keep open at once (the runner starts code-server with a descriptor
 * limit below that count, scripts/test.mjs). Every file must still be searched, listed and indexed: a
 * listing that opened all of a level's directories at once lost the subtrees whose open failed (EMFILE),
 * and with them most of the workspace, answering with fewer files and matches without a word.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { GrepToolsApi } from '../../../src/extension';
import { comparePaths } from '../../../src/engine/globset/globs';
import { folderPath, invokeJson, listedInParts, waitUntil, type GlobAnswer, type GrepAnswer, extensionApi } from '../helpers';

/** The marker every `src/index.ts` of the workspace holds once (scripts/test.mjs, wideWorkspace). */
const MARKER = 'wide-needle-4e1d';

/** The files on disk below `dir`, walked here with Node (the truth the answers are held to), but for .git/, which files.exclude leaves out. */
function filesOnDisk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !path.relative(dir, entry.parentPath).split(path.sep).includes('.git'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('a workspace with more directories on one level than the extension host may open at once', () => {
  let api: GrepToolsApi;
  let files: string[];
  let markers: number;

  before(async function () {
    this.timeout(60_000);
    api = await extensionApi();
    files = filesOnDisk(folderPath());
    markers = files.filter((file) => file.endsWith(`${path.sep}index.ts`)).length;
    const widest = fs.readdirSync(path.join(folderPath(), 'packages')).length;
    assert.ok(widest > 2000, `the workspace's packages/ holds ${widest} directories, more than the descriptor limit the runner sets`);
  });

  const grep = (input: object) => invokeJson<GrepAnswer>('grep', input);

  async function expectExact(when: string): Promise<void> {
    const found = await grep({ pattern: MARKER, fixed_strings: true, output_mode: 'count', max_results: 1 });
    assert.strictEqual(found.files_matched, markers, `${when}: every file holding the marker is found`);
    assert.strictEqual(found.total_matches, markers, `${when}: every marker is counted`);
    assert.strictEqual(found.files_searched, files.length, `${when}: every file on disk is searched`);
    assert.strictEqual(found.skipped?.unreadable ?? 0, 0, `${when}: nothing is unreadable (${JSON.stringify(found.skipped)})`);
    const none = await grep({ pattern: 'zq-no-such-text-qz', fixed_strings: true });
    assert.strictEqual(none.files_searched, files.length, `${when}: an empty answer searched every file`);
    const listed = await invokeJson<GlobAnswer>('glob', { pattern: '**/index.ts', max_results: 1 });
    assert.strictEqual(listed.total, markers, `${when}: glob lists every index.ts`);
  }

  it('searches every file before the index is built', async function () {
    this.timeout(120_000);
    await expectExact('before the index');
  });

  it('listed in parts (split at packages/, where most files lie; docs/ in a group with some of its directories), every file is searched, in path order', async function () {
    this.timeout(120_000);
    const { inParts } = await listedInParts(api.listings, async () => {
      await expectExact('listed in parts');
      // Files of the levels (README.md at the top, packages/package.json) and of every group, docs/ among them, in one answer.
      const found = await grep({ pattern: '^# The wide|^\\{\\}$|package (0|300|600|900|1200|1500|1800|2100|2399)$', output_mode: 'files_with_matches' });
      const picked = [
        'README.md',
        'docs/guide.md',
        'packages/package.json',
        ...[0, 300, 600, 900, 1200, 1500, 1800, 2100, 2399].map((i) => `packages/pkg${String(i).padStart(4, '0')}/src/index.ts`),
      ];
      const expected = picked.sort(comparePaths).map((relative) => path.join(folderPath(), relative));
      assert.deepStrictEqual(found.files, expected, 'in path order, the files of the levels among those of the groups');
    });
    assert.ok(inParts > 0, 'listed in parts');
  });

  it('indexes every file, and the indexed searches stay exact', async function () {
    this.timeout(300_000);
    await waitUntil(
      () => api.index.builds > 0 || api.index.phase === 'failed' || api.index.phase === 'listOnly',
      () => `the first index build ended (phase ${api.index.phase}, ${api.index.done}/${api.index.total})`,
      240_000,
      200,
    );
    assert.strictEqual(api.index.phase, 'ready', `the index is ready (${api.index.listOnly ?? ''})`);
    assert.strictEqual(api.index.last?.files, files.length, 'the index holds every file on disk');
    await expectExact('with the index');
    assert.ok(api.index.lastUse && api.index.lastUse.settled > 0, `the index settled files (${JSON.stringify(api.index.lastUse)})`);
  });
});
