/**
 * What a chat call may search outside the workspace: only what the person was shown a confirmation for,
 * for that very input, once, within half an hour; the latest preparation of an input is the one that
 * counts, and a long session's oldest preparations are forgotten.
 */
import * as assert from 'assert';
import { Confirmations } from '../../../../src/engine/guard/confirmations';

describe('engine/guard/confirmations: what the person confirmed', () => {
  const input = { pattern: 'password', path: '../outside' };
  const pending = { decision: 'pending', resolved: '/home/me/outside' };
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('a confirmed outside path may be searched once, where the confirmation said it leads', () => {
    const confirmations = new Confirmations(clock);
    confirmations.record('grep', input, pending);
    assert.deepStrictEqual(confirmations.take('grep', input), { allowOutside: true, target: '/home/me/outside' });
    assert.deepStrictEqual(confirmations.take('grep', input), { allowOutside: false }, 'taken: a second invoke needs its own confirmation');
  });

  it('nothing may reach outside where no confirmation was shown: granted, denied, or never prepared', () => {
    const confirmations = new Confirmations(clock);
    confirmations.record('grep', input, { decision: 'granted' });
    assert.deepStrictEqual(confirmations.take('grep', input), { allowOutside: false });
    confirmations.record('grep', input, { decision: 'denied', resolved: '/home/me/.ssh' });
    assert.deepStrictEqual(confirmations.take('grep', input), { allowOutside: false });
    assert.deepStrictEqual(confirmations.take('glob', { pattern: '**' }), { allowOutside: false });
  });

  it('covers only the tool and input it was shown for', () => {
    const confirmations = new Confirmations(clock);
    confirmations.record('grep', input, pending);
    assert.deepStrictEqual(confirmations.take('glob', input), { allowOutside: false }, 'another tool');
    assert.deepStrictEqual(confirmations.take('grep', { ...input, path: '../other' }), { allowOutside: false }, 'another path');
    assert.deepStrictEqual(confirmations.take('grep', { ...input, include: '*' }), { allowOutside: false }, 'another field');
    assert.strictEqual(confirmations.take('grep', { ...input }).allowOutside, true, 'an equal input');
  });

  it('the latest preparation of an input counts: prepared again without a confirmation, it may not reach outside', () => {
    const confirmations = new Confirmations(clock);
    confirmations.record('grep', input, pending);
    confirmations.record('grep', input, { decision: 'granted' });
    assert.deepStrictEqual(confirmations.take('grep', input), { allowOutside: false });
    confirmations.record('grep', input, pending);
    confirmations.record('grep', input, { decision: 'pending', resolved: '/elsewhere' });
    assert.deepStrictEqual(confirmations.take('grep', input), { allowOutside: true, target: '/elsewhere' });
  });

  it('a confirmation half an hour old no longer counts', () => {
    const confirmations = new Confirmations(clock);
    confirmations.record('grep', input, pending);
    now += 30 * 60 * 1000;
    assert.strictEqual(confirmations.take('grep', input).allowOutside, true, 'exactly 30 minutes');
    confirmations.record('grep', input, pending);
    now += 30 * 60 * 1000 + 1;
    assert.deepStrictEqual(confirmations.take('grep', input), { allowOutside: false });
  });

  it('keeps the latest 256 preparations: an older one is forgotten, a newer one kept', () => {
    const confirmations = new Confirmations(clock);
    for (let i = 0; i < 300; i++) confirmations.record('grep', { pattern: `p${i}` }, pending);
    assert.strictEqual(confirmations.take('grep', { pattern: 'p0' }).allowOutside, false);
    assert.strictEqual(confirmations.take('grep', { pattern: 'p43' }).allowOutside, false);
    assert.strictEqual(confirmations.take('grep', { pattern: 'p44' }).allowOutside, true);
    assert.strictEqual(confirmations.take('grep', { pattern: 'p299' }).allowOutside, true);
  });
});
