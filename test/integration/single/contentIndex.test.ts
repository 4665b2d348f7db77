import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import { folderPath, invokeJson, waitUntil, whileProbing, type GrepAnswer, extensionApi } from '../helpers';

describe('the content index in the extension host', () => {
  const dir = () => path.join(folderPath(0), 'index-tmp');
  const file = (relative: string) => path.join(dir(), relative);
  const write = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
    fs.writeFileSync(file(relative), text);
  };
  let api: GrepToolsApi;
  const grep = (input: object) => invokeJson<GrepAnswer>('grep', input);

  /** Waits until a build that started after now has finished (its files are then settled by the index). */
  async function nextBuild(): Promise<void> {
    const builds = api.index.builds;
    await waitUntil(
      () => api.index.builds !== builds,
      () => `an index build finished (${JSON.stringify({ ...api.index, last: undefined, lastUse: undefined })}; builds ${builds} before)`,
    );
    assert.strictEqual(api.index.phase, 'ready');
  }

  /** Waits until the index's state satisfies `done` (a build after a change of settings). */
  async function until(what: string, done: () => boolean): Promise<void> {
    await waitUntil(done, () => `${what} (phase ${api.index.phase})`);
  }

  const setEnabled = (value: boolean | undefined) =>
    vscode.workspace.getConfiguration('grepTools').update('index.enabled', value, vscode.ConfigurationTarget.Global);

  before(async function () {
    this.timeout(90_000);
    api = await extensionApi();
    write('a.ts', 'export function alpha() { return "index-4e1a"; }\n');
    write('b.txt', 'nothing to see\n');
    write('deep/c.md', 'Index-4E1A in capitals\nTODO: more\n');
    const built = nextBuild();
    await built;
    // Files written within two seconds of a build are not relied on: wait for one that settles them.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    fs.writeFileSync(file('touch.txt'), 'x\n');
    await nextBuild();
  });
  after(async () => {
    await setEnabled(undefined);
    fs.rmSync(dir(), { recursive: true, force: true });
  });

  it('answers a handful of questions exactly as without the index, and settles files without reading them', async () => {
    const questions = [
      { pattern: 'index-4e1a', fixed_strings: true },
      { pattern: 'INDEX-4e1a', fixed_strings: true, case_insensitive: true },
      { pattern: 'alpha\\(\\)', output_mode: 'count' },
      { pattern: '\\bTODO\\b', output_mode: 'files_with_matches' },
      { pattern: 'zq_no_such_thing_qz', fixed_strings: true },
    ];
    for (const input of questions) {
      await setEnabled(true);
      const indexed = await grep(input);
      const use = api.index.lastUse;
      assert.ok(use && use.settled > 0, `${JSON.stringify(input)}: the index settled files (${JSON.stringify(use)})`);
      await setEnabled(false);
      const scanned = await grep(input);
      assert.strictEqual(api.index.lastUse, undefined, 'without the index nothing is settled');
      assert.deepStrictEqual(indexed, scanned, JSON.stringify(input));
    }
    await setEnabled(undefined);
  });

  it("is stored in the extension's storage, outside the workspace", () => {
    const stored = api.index.dir;
    // The table (index.bin) and the segment files it names: what the index takes on disk.
    const onDisk =
      stored === undefined
        ? 0
        : fs
            .readdirSync(stored)
            .filter((name) => name === 'index.bin' || name.startsWith('postings-'))
            .reduce((sum, name) => sum + fs.statSync(path.join(stored, name)).size, 0);
    assert.ok(
      stored !== undefined && fs.existsSync(path.join(stored, 'index.bin')) && onDisk === api.index.last?.indexBytes,
      `index.bin and its segments in ${stored} (${onDisk} bytes)`,
    );
    const relative = path.relative(folderPath(0), stored);
    assert.ok(relative.startsWith('..') || path.isAbsolute(relative), `${stored} is outside the workspace folder`);
  });

  it('is built in a process of its own, which ends with the build', async () => {
    // Its memory is its own: the extension host, which every extension shares, does not hold it.
    assert.ok((api.index.buildPeakRss ?? 0) > 1 << 20, `the build process's peak memory: ${api.index.buildPeakRss}`);
    // The extension host's child processes (a process's parent is the fourth field of /proc/<pid>/stat).
    const read = (file: string) => {
      try {
        return fs.readFileSync(file, 'utf8');
      } catch {
        return ''; // (ended meanwhile)
      }
    };
    const children = () =>
      fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && read(`/proc/${pid}/stat`).split(') ')[1]?.split(' ')[1] === String(process.pid));
    const commandLine = (pid: string) => read(`/proc/${pid}/cmdline`);
    const building = () => children().filter((pid) => commandLine(pid).includes('indexProcess.js'));
    // (a refresh may follow the last build: its process ends with it too)
    await waitUntil(
      () => building().length === 0 && api.index.phase === 'ready',
      () => `the build processes ${building().join(', ')} ended (phase ${api.index.phase})`,
    );
  });

  it('a file edited on disk after it was indexed is read afresh by the next call', async () => {
    const before = await grep({ pattern: 'fresh-77c0', fixed_strings: true, output_mode: 'files_with_matches' });
    assert.deepStrictEqual(before.files, []);
    assert.ok(api.index.lastUse && api.index.lastUse.settled > 0, 'b.txt was settled by the index');
    fs.writeFileSync(file('b.txt'), 'now fresh-77c0\n');
    const after = await grep({ pattern: 'fresh-77c0', fixed_strings: true, output_mode: 'files_with_matches' });
    assert.deepStrictEqual(after.files, [file('b.txt')]);
  });

  it('above grepTools.index.maxIndexedBytes keeps the file list only, stores no content, and answers exactly the same', async function () {
    this.timeout(120_000);
    const questions = [
      { pattern: 'index-4e1a', fixed_strings: true },
      { pattern: 'INDEX-4e1a', fixed_strings: true, case_insensitive: true, output_mode: 'count' },
      { pattern: 'zq_no_such_thing_qz', fixed_strings: true },
    ];
    const indexed: GrepAnswer[] = [];
    for (const input of questions) indexed.push(await grep(input));
    const limit = (value: number | undefined) =>
      vscode.workspace.getConfiguration('grepTools').update('index.maxIndexedBytes', value, vscode.ConfigurationTarget.Global);
    await limit(100);
    try {
      await until('a build keeping the file list only', () => api.index.phase === 'listOnly');
      assert.match(api.index.listOnly ?? '', /more than grepTools\.index\.maxIndexedBytes/);
      assert.ok(!fs.existsSync(path.join(api.index.dir!, 'index.bin')), 'no content index on disk');
      // A build over the limits does not list the workspace again with its ignored files (no index could hold them).
      const [builds, ignoredListings] = [api.index.builds, api.index.ignoredListings];
      write('over-limits.txt', 'plain words\n');
      await until('another build, still over the limits', () => api.index.builds > builds && api.index.phase === 'listOnly');
      assert.strictEqual(api.index.ignoredListings, ignoredListings);
      fs.rmSync(file('over-limits.txt'));
      for (const [i, input] of questions.entries()) {
        assert.deepStrictEqual(await grep(input), indexed[i], JSON.stringify(input));
        assert.strictEqual(api.index.lastUse, undefined, 'no index answered');
      }
    } finally {
      await limit(undefined);
    }
    await until('the content index built again once the limit is lifted', () => api.index.phase === 'ready');
    await grep(questions[0]);
    assert.ok(api.index.lastUse && api.index.lastUse.settled > 0, 'the index answers again');
  });

  it('the extension host answers a command within 100 ms while the index builds', async function () {
    this.timeout(120_000);
    const text = 'const value = 1;\n'.repeat(200);
    for (let i = 0; i < 3000; i++) write(`many/${i % 30}/f${i}.ts`, `${text}// mark ${i}\n`);
    const { probes, worstMs } = await whileProbing(() => nextBuild());
    assert.ok(probes > 5, `probed ${probes} times`);
    assert.ok(worstMs < 100, `worst command round trip ${worstMs} ms`);
    assert.ok((api.index.last?.files ?? 0) >= 3000, `the build indexed the new files (${api.index.last?.files})`);
  });
});
