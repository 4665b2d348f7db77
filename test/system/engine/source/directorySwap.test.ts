/**
 * A directory replaced by a symlink (to a directory outside the workspace, or to its denied .ssh)
 * while glob walks: another process swaps them back and forth as fast as it can, for a bounded time,
 * while glob lists the workspace again and again. No listing may ever hold a name from the outside
 * or the denied directory: the walker lists the directory it opened, without following a link, and
 * judges where that directory really is.
 */
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import { answerGlob } from '../../../../src/engine/answer/globAnswer';
import { Fixture, makeEnv } from '../../../unit/fixture';

/** How long the race runs (the unit suite's share; RACE_MS=60000 for a longer one). */
const RACE_MS = Number(process.env.RACE_MS ?? 3000);
const SWAPPED = ['d1', 'd2', 'd3', 'd4'];
const SUBDIRS = Array.from({ length: 20 }, (_, i) => `sub${i}`);

/** Swaps each `ws/dN` for a link to `targets[k]` and back, until killed. */
const RENAMER = `
const fs = require('fs');
const [ws, ...targets] = process.argv.slice(1);
const dirs = ${JSON.stringify(SWAPPED)};
for (let i = 0; ; i++) {
  const d = ws + '/' + dirs[i % dirs.length];
  try {
    fs.renameSync(d, d + '.real');
    fs.symlinkSync(targets[i % targets.length], d);
    fs.unlinkSync(d);
    fs.renameSync(d + '.real', d);
  } catch {}
}`;

describe('directories swapped for symlinks while glob walks', function () {
  this.timeout(RACE_MS + 30_000);
  const fx = new Fixture('grep-tools-swap-');
  let renamer: ChildProcess | undefined;

  before(() => {
    const files: Record<string, string> = {};
    for (const dir of SWAPPED) for (const sub of SUBDIRS) files[`ws/${dir}/${sub}/inside.txt`] = 'x\n';
    // The outside and denied directories hold the same subdirectories, so a followed link leads deeper too.
    for (const place of ['outside', 'ws/.ssh'])
      for (const sub of ['', ...SUBDIRS]) files[`${place}/${sub ? `${sub}/` : ''}LEAK-${place.replace('ws/', '')}.txt`] = 'x\n';
    fx.files(files);
  });
  after(() => {
    renamer?.kill('SIGKILL');
    fx.remove();
  });

  it(`lists no outside or denied name in ${RACE_MS} ms of swaps`, async () => {
    renamer = spawn(process.execPath, ['-e', RENAMER, fx.path('ws'), fx.path('outside'), fx.path('ws/.ssh')], { stdio: 'ignore' });
    const env = makeEnv(fx.path('ws'));
    const end = Date.now() + RACE_MS;
    let runs = 0;
    let listed = 0;
    const leaks: string[] = [];
    while (Date.now() < end) {
      const report = await answerGlob({ pattern: '**' }, env);
      runs++;
      listed += report.files.length;
      leaks.push(...report.files.filter((file) => file.includes('LEAK-')));
    }
    renamer.kill('SIGKILL');
    console.log(`      ${runs} glob runs, ${listed} paths listed, ${leaks.length} leaked`);
    assert.ok(runs >= 5, `only ${runs} runs`);
    assert.deepStrictEqual(leaks, []);
  });
});
