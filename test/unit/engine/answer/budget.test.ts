import * as assert from 'assert';
import { byteBudget, describeBudget, fitToBudget, type BudgetCut, type OutputBudget } from '../../../../src/engine/answer/budget';

/** A toy answer: n items of 10 bytes, plus a note when cut. */
function toy(items: number) {
  let renders = 0;
  const render = (shown: number, cut: BudgetCut | undefined) => {
    renders++;
    return JSON.stringify({
      items: Array.from({ length: shown }, (_, i) => `item-${String(i).padStart(3, '0')}`),
      ...(cut ? { note: `cut at ${cut.shown}` } : {}),
    });
  };
  return { render, renders: () => renders, items };
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('engine/budget', () => {
  it('returns the whole text when it fits, without a cut', async () => {
    const t = toy(5);
    const fitted = await fitToBudget(t.items, t.render, byteBudget(10_000));
    assert.strictEqual(fitted.cut, undefined);
    assert.strictEqual(JSON.parse(fitted.text).items.length, 5);
    assert.strictEqual(t.renders(), 1);
  });

  it('keeps the most whole items that fit, and the text stays valid JSON within the budget', async () => {
    for (const limit of [40, 100, 333, 1000, 5000]) {
      const t = toy(500);
      const fitted = await fitToBudget(t.items, t.render, byteBudget(limit));
      const json = JSON.parse(fitted.text) as { items: string[]; note: string };
      const shown = fitted.cut!.shown;
      assert.strictEqual(json.items.length, shown);
      assert.strictEqual(json.note, `cut at ${shown}`);
      assert.ok(bytes(fitted.text) <= limit, `${bytes(fitted.text)} <= ${limit}`);
      assert.ok(bytes(t.render(shown + 1, { shown: shown + 1, budget: byteBudget(limit) })) > limit, 'one more item would not fit');
      assert.ok(t.renders() <= 2 + Math.ceil(Math.log2(500)) + 1, `bisection: ${t.renders()} renders`);
    }
  });

  it('measures UTF-8 bytes, not characters', async () => {
    const render = (shown: number, cut: BudgetCut | undefined) => JSON.stringify({ items: Array(shown).fill('ééééé'), cut: cut?.shown });
    const fitted = await fitToBudget(10, render, byteBudget(60));
    assert.ok(bytes(fitted.text) <= 60);
    assert.ok(fitted.text.length < 60 - 10, 'counted as two bytes each');
  });

  it('falls back to zero items (the smallest valid answer) when nothing fits', async () => {
    const t = toy(3);
    const fitted = await fitToBudget(t.items, t.render, byteBudget(5));
    assert.deepStrictEqual(JSON.parse(fitted.text), { items: [], note: 'cut at 0' });
    assert.strictEqual(fitted.cut!.shown, 0);
  });

  it('never cuts an answer that has no results', async () => {
    const t = toy(0);
    assert.deepStrictEqual(await fitToBudget(0, t.render, byteBudget(5)), { text: '{"items":[]}' });
  });

  it('counts tokens with the given tokenizer', async () => {
    const counted: string[] = [];
    const budget: OutputBudget = {
      kind: 'tokens',
      limit: 50,
      count: async (text) => {
        counted.push(text);
        return Math.ceil(text.length / 4);
      },
      fallbackBytes: 1_000_000,
    };
    const t = toy(100);
    const fitted = await fitToBudget(t.items, t.render, budget);
    assert.ok(Math.ceil(fitted.text.length / 4) <= 50);
    assert.ok(Math.ceil(t.render(fitted.cut!.shown + 1, fitted.cut).length / 4) > 50);
    assert.ok(counted.length <= 9, `${counted.length} token counts`);
    assert.strictEqual(describeBudget(budget), '50 tokens');
  });

  it('falls back to the byte budget when counting tokens fails', async () => {
    const budget: OutputBudget = { kind: 'tokens', limit: 10, count: () => Promise.reject(new Error('no tokenizer')), fallbackBytes: 200 };
    const t = toy(100);
    const fitted = await fitToBudget(t.items, t.render, budget);
    assert.ok(bytes(fitted.text) <= 200);
    assert.ok(fitted.cut!.shown > 5, 'the byte budget, not the token budget, applied');
    assert.deepStrictEqual(fitted.cut!.budget, byteBudget(200));
    assert.strictEqual(describeBudget(fitted.cut!.budget), '200 bytes');
  });
});
