/**
 * What a search is given, as the callers build it: a call's deadline from grepTools.timeoutSeconds, a
 * log that writes each line once, and the guard's decision in this environment (the workspace folders,
 * the consent to an outside path, the confirmed target, the caller's hint).
 */
import * as assert from 'assert';
import { authorizeSearch, deadlineFrom, onceEach } from '../../../../src/engine/run/environment';
import { Fixture, makeEnv, rejectsWith } from '../../fixture';

describe('engine/run/environment', () => {
  const fx = new Fixture('grep-tools-environment-');
  before(() => fx.files({ 'ws/src/a.ts': 'a\n', 'ws/.env': 'SECRET=1\n', 'outside/b.ts': 'b\n', 'elsewhere/c.ts': 'c\n' }));
  after(() => fx.remove());

  it("a call's deadline is grepTools.timeoutSeconds after it starts", () => {
    assert.strictEqual(deadlineFrom({ timeoutSeconds: 30 }, 1_000_000), 1_030_000);
    assert.strictEqual(deadlineFrom({ timeoutSeconds: 0.5 }, 1_000_000), 1_000_500);
  });

  it('the log gets each distinct line once, in the order first written', () => {
    const lines: string[] = [];
    const warn = onceEach((line) => lines.push(line));
    for (const line of ['skipped a/.gitignore', 'skipped b/.gitignore', 'skipped a/.gitignore', 'skipped b/.gitignore', 'skipped c']) warn(line);
    assert.deepStrictEqual(lines, ['skipped a/.gitignore', 'skipped b/.gitignore', 'skipped c']);
  });

  it('grants the workspace, and a path inside it, with the folder among the granted real paths', async () => {
    const env = makeEnv(fx.path('ws'));
    const whole = await authorizeSearch(undefined, env);
    assert.ok(whole.kind === 'files');
    assert.deepStrictEqual(whole.granted, [fx.path('ws')]);
    const inside = await authorizeSearch('src', env);
    assert.ok(inside.kind === 'files');
    assert.deepStrictEqual(
      inside.bases.map((base) => base.base),
      [fx.path('ws/src')],
    );
  });

  it("refuses a denied path by the rule it matches, whatever the caller's consent", async () => {
    await rejectsWith(authorizeSearch('.env', makeEnv(fx.path('ws'), { allowOutside: true })), /permission denied by policy/, /\*\*\/\.env/);
  });

  it("refuses an outside path without consent, telling the caller's own way to consent when it has one", async () => {
    const env = makeEnv(fx.path('ws'));
    await rejectsWith(authorizeSearch(fx.path('outside'), env), /outside every workspace folder/, /ask the user to open that folder/);
    const hint = 'pass --allow-outside to search it';
    await rejectsWith(
      authorizeSearch(fx.path('outside'), { ...env, outsideHint: hint }),
      /outside every workspace folder/,
      /pass --allow-outside to search it/,
    );
  });

  it('with consent, searches an outside path (granted beside the folder) unless it now leads elsewhere than the confirmed target', async () => {
    const env = makeEnv(fx.path('ws'), { allowOutside: true });
    const outside = await authorizeSearch(fx.path('outside'), { ...env, confirmedTarget: fx.path('outside') });
    assert.ok(outside.kind === 'files');
    assert.deepStrictEqual(outside.granted, [fx.path('ws'), fx.path('outside')]);
    await rejectsWith(
      authorizeSearch(fx.path('elsewhere'), { ...env, confirmedTarget: fx.path('outside') }),
      /now resolves to .*elsewhere, not to .*outside, which the user confirmed/,
    );
  });
});
