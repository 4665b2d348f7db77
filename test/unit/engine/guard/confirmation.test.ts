/**
 * What a call learns without the person's confirmation, and what a confirmation covers:
 * - an outside or denied path answers the same whether it exists or not (no existence oracle), also
 *   through a link inside the workspace; once confirmed, a missing path is reported as missing;
 * - a workspace folder that is itself a denied place (.ssh, .git) is not searched;
 * - a confirmed call runs only while its path resolves where the confirmation said (a symlink flipped
 *   between prepareInvocation and invoke is refused), and a call that needed no confirmation when it
 *   was prepared cannot reach outside.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { Confirmations } from '../../../../src/engine/guard/confirmations';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { prepareMessages } from '../../../../src/engine/guard/invocation';
import { guardContext } from '../../../../src/engine/run/environment';
import { Fixture, folders, makeEnv, rejectsWith } from '../../fixture';
import { FsRecorder } from '../../recorder';

describe('confirmation: no existence oracle, denied folders, and what invoke may run', () => {
  const fx = new Fixture('grep-tools-confirm-');
  const ws = fx.path('ws');
  before(() => {
    fx.files({
      'ws/a.txt': 'TOKEN a\n',
      'outside/o.txt': 'TOKEN o\n',
      'other/x.txt': 'TOKEN x\n',
      'home/.ssh/known_hosts': 'TOKEN host\n',
      'home/.git/config': 'TOKEN git\n',
    });
    fx.symlink(fx.path('home/.ssh'), 'ws/sshlink');
    fx.symlink(fx.path('outside'), 'ws/outlink');
    fx.symlink('a.txt', 'ws/flip');
  });
  after(() => fx.remove());

  /** The message with the path's own text taken out, so answers for two names can be compared. */
  async function answer(path: string, allowOutside = false): Promise<string> {
    const error = await rejectsWith(answerGrep({ pattern: 'TOKEN', path }, makeEnv(ws, { allowOutside })), /./);
    return error.message;
  }

  it('an outside path answers alike whether it exists or not, and nothing is listed', async () => {
    const recorder = new FsRecorder();
    const [exists, missing] = await recorder.record(() => Promise.all([answer(fx.path('outside/o.txt')), answer(fx.path('outside/nope.txt'))]));
    assert.match(exists, /^Path ".*[\\/]outside[\\/]o\.txt" resolves to .*[\\/]outside[\\/]o\.txt, which is outside every workspace folder/);
    assert.strictEqual(missing, exists.split('o.txt').join('nope.txt'));
    assert.deepStrictEqual(recorder.accesses, []);
  });

  it('a path through a link to ~/.ssh is denied alike whether it exists or not', async () => {
    const exists = await answer('sshlink/known_hosts');
    const missing = await answer('sshlink/known_hostz');
    assert.match(
      exists,
      /^permission denied by policy: "sshlink\/known_hosts" \(it leads to .*[\\/]home[\\/]\.ssh[\\/]known_hosts\) matches "\*\*\/\.ssh\/\*\*"/,
    );
    assert.strictEqual(missing, exists.split('known_hosts').join('known_hostz'));
  });

  it('a path through a link outside asks alike whether it exists or not; once confirmed, a missing one is reported', async () => {
    const exists = await answer('outlink/o.txt');
    const missing = await answer('outlink/nope.txt');
    assert.strictEqual(missing, exists.split('o.txt').join('nope.txt'));
    const ctx = guardContext(makeEnv(ws));
    assert.strictEqual((await prepareMessages('grep', { pattern: 'x', path: 'outlink/nope.txt' }, ctx)).decision, 'pending');
    assert.match(await answer('outlink/nope.txt', true), /^Path not found: "outlink\/nope\.txt"/);
  });

  it('a workspace folder that is itself .ssh or .git is not searched', async () => {
    for (const folder of ['home/.ssh', 'home/.git']) {
      const recorder = new FsRecorder();
      const env = makeEnv(folders(fx.path(folder)));
      const error = await recorder.record(() =>
        rejectsWith(answerGrep({ pattern: 'TOKEN' }, env), /^permission denied by policy: the workspace folder .* is itself a denied place/),
      );
      assert.ok(error);
      assert.deepStrictEqual(recorder.accesses, [], folder);
    }
    // Beside an ordinary folder, it is left out.
    const report = await answerGrep({ pattern: 'TOKEN', output_mode: 'files_with_matches', include: 'a.txt' }, makeEnv(folders(ws, fx.path('home/.ssh'))));
    assert.deepStrictEqual(report.files, [fx.path('ws/a.txt')]);
    assert.deepStrictEqual(report.basePaths, [ws]);
  });

  it('invoke runs only where the confirmation pointed: a flipped link is refused', async () => {
    const confirmations = new Confirmations();
    const input = { pattern: 'TOKEN', path: 'flip' };
    const ctx = guardContext(makeEnv(ws));
    // Prepared while "flip" leads outside: the person confirms outside/o.txt.
    fs.unlinkSync(fx.path('ws/flip'));
    fs.symlinkSync(fx.path('outside/o.txt'), fx.path('ws/flip'));
    confirmations.record('grep', input, await prepareMessages('grep', input, ctx));
    // Then it flips to another outside file before invoke.
    fs.unlinkSync(fx.path('ws/flip'));
    fs.symlinkSync(fx.path('other/x.txt'), fx.path('ws/flip'));
    const confirmed = confirmations.take('grep', input);
    assert.deepStrictEqual(confirmed, { allowOutside: true, target: fx.path('outside/o.txt') });
    const recorder = new FsRecorder();
    await recorder.record(() =>
      rejectsWith(
        answerGrep(input, { ...makeEnv(ws, { allowOutside: true }), confirmedTarget: confirmed.target }),
        /^Path "flip" now resolves to .*\/other\/x\.txt, not to .*\/outside\/o\.txt, which the user confirmed; nothing was searched/,
      ),
    );
    assert.deepStrictEqual(recorder.opened(), []);
    // Where it still leads there, it runs.
    fs.unlinkSync(fx.path('ws/flip'));
    fs.symlinkSync(fx.path('outside/o.txt'), fx.path('ws/flip'));
    const report = await answerGrep(input, { ...makeEnv(ws, { allowOutside: true }), confirmedTarget: confirmed.target });
    assert.deepStrictEqual(
      report.files.map((file) => (typeof file === 'string' ? file : file.file)),
      [fx.path('ws/flip')],
    );
  });

  it('a call prepared inside the workspace (no confirmation shown) cannot reach outside when invoked', async () => {
    const confirmations = new Confirmations();
    const input = { pattern: 'TOKEN', path: 'flip' };
    fs.unlinkSync(fx.path('ws/flip'));
    fs.symlinkSync('a.txt', fx.path('ws/flip'));
    confirmations.record('grep', input, await prepareMessages('grep', input, guardContext(makeEnv(ws))));
    fs.unlinkSync(fx.path('ws/flip'));
    fs.symlinkSync(fx.path('outside/o.txt'), fx.path('ws/flip'));
    const confirmed = confirmations.take('grep', input);
    assert.deepStrictEqual(confirmed, { allowOutside: false });
    await rejectsWith(answerGrep(input, makeEnv(ws, { allowOutside: confirmed.allowOutside })), /outside every workspace folder/);
    // Taken once: a second invoke of the same input has no confirmation either.
    assert.deepStrictEqual(confirmations.take('grep', input), { allowOutside: false });
  });
});
