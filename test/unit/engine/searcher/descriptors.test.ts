/**
 * Opening with few file descriptors left (descriptors.ts): opens short of descriptors are tried again,
 * other failures are not; listings keep a bounded number open; and the audit of a listing wider than
 * the descriptor limit (a process started with a low RLIMIT_NOFILE) keeps every file.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { mapAtMost, openRetrying, openRetryingSync, outOfDescriptors } from '../../../../src/engine/searcher/descriptors';

const failure = (code: string) => Object.assign(new Error(code), { code });

describe('engine/descriptors', () => {
  it('tells running out of descriptors from a file that cannot be opened', () => {
    assert.strictEqual(outOfDescriptors(failure('EMFILE')), true);
    assert.strictEqual(outOfDescriptors(failure('ENFILE')), true);
    assert.strictEqual(outOfDescriptors(failure('EACCES')), false);
    assert.strictEqual(outOfDescriptors(undefined), false);
  });

  it('tries an open again while descriptors are short, and reports any other failure at once', async () => {
    let tries = 0;
    assert.strictEqual(await openRetrying(async () => (++tries < 3 ? Promise.reject(failure('EMFILE')) : 'opened')), 'opened');
    assert.strictEqual(tries, 3);
    tries = 0;
    await assert.rejects(
      openRetrying(async () => (++tries, Promise.reject(failure('ENOENT')))),
      /ENOENT/,
    );
    assert.strictEqual(tries, 1);
    tries = 0;
    assert.strictEqual(
      openRetryingSync(() => {
        if (++tries < 3) throw failure('ENFILE');
        return 'opened';
      }),
      'opened',
    );
    assert.throws(
      () =>
        openRetryingSync(() => {
          throw failure('EACCES');
        }),
      /EACCES/,
    );
  });

  it('reports EMFILE once the waits are spent, rather than waiting without end', async () => {
    const waits: number[] = [];
    let tries = 0;
    const open = async () => (++tries, Promise.reject(failure('EMFILE')));
    await assert.rejects(
      openRetrying(open, async (ms) => void waits.push(ms)),
      /EMFILE/,
    );
    const waited = waits.reduce((sum, ms) => sum + ms, 0);
    assert.ok(waited >= 2000 && waited < 6000, `waited ${waited} ms`);
    assert.strictEqual(tries, waits.length + 1, 'one try after each wait');
    assert.ok(
      waits.every((ms, i) => i === 0 || ms >= waits[i - 1]),
      `the waits grow: ${waits.join(', ')}`,
    );
  });

  it('maps with at most `limit` calls under way, results in order', async () => {
    let running = 0;
    let most = 0;
    const results = await mapAtMost(
      Array.from({ length: 100 }, (_, i) => i),
      7,
      async (i) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return i * 2;
      },
    );
    assert.deepStrictEqual(
      results,
      Array.from({ length: 100 }, (_, i) => i * 2),
    );
    assert.strictEqual(most, 7);
    assert.deepStrictEqual(await mapAtMost([], 7, async () => 1), []);
  });

  it('audits a listing with more directories on one level than the process may open, keeping every file', function () {
    this.timeout(60_000);
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'grep-tools-wide-unit-'));
    try {
      const dirs = 600;
      for (let i = 0; i < dirs; i++) {
        fs.mkdirSync(path.join(ws, `d${i}`, 'src'), { recursive: true });
        fs.writeFileSync(path.join(ws, `d${i}`, 'src', 'a.txt'), 'x\n');
      }
      const audit = require.resolve('../../../../src/engine/source/audit');
      const script = `
        const { auditListing } = require(${JSON.stringify(audit)});
        const ws = ${JSON.stringify(ws)};
        const files = Array.from({ length: ${dirs} }, (_, i) => ({ path: ws + '/d' + i + '/src/a.txt', relative: 'd' + i + '/src/a.txt' }));
        const pruned = [];
        auditListing({ root: ws, base: ws }, 0, files, { granted: [], denied: [], excluded: () => false, pruned })
          .then((kept) => console.log(JSON.stringify({ kept: kept.length, pruned: pruned.length })));`;
      // 200 descriptors: Node and its threads hold some; a level of 600 directories opened at once would not fit.
      const run = spawnSync('prlimit', ['--nofile=200:200', '--', process.execPath, '-e', script], { encoding: 'utf8' });
      assert.strictEqual(run.status, 0, run.stderr);
      assert.deepStrictEqual(JSON.parse(run.stdout), { kept: dirs, pruned: 0 });
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
