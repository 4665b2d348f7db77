/**
 * The output budget (docs/tools.md, "Notes"): the text a model receives stays within `tokenizationOptions.tokenBudget`
 * (measured with the model's `countTokens`) when VS Code gives one, otherwise within
 * `grepTools.maxOutputBytes`. Whole results are dropped from the end until the answer fits, so no value is
 * ever cut and the text is always a whole answer; the answer then says where to continue.
 *
 * The fitting is a binary search over how many results are kept: O(log n) renders of at most n results.
 */

export type OutputBudget =
  | { kind: 'bytes'; limit: number }
  | {
      kind: 'tokens';
      limit: number;
      count(text: string): Promise<number>;
      /** Used instead when counting tokens fails (bytes). */
      fallbackBytes: number;
    };

export function byteBudget(limit: number): OutputBudget {
  return { kind: 'bytes', limit };
}

/** The budget as a note names it: "51200 bytes", "4000 tokens". */
export function describeBudget(budget: OutputBudget): string {
  return `${budget.limit} ${budget.kind}`;
}

/** How far a budget cut the results: `shown` of the page's results fit. */
export interface BudgetCut {
  shown: number;
  budget: OutputBudget;
}

/**
 * Renders `results` results, or when that is over the budget the most results that fit. `render(n, cut)`
 * is the text with the first `n` results; `cut` is set when results were dropped, so the text can say so.
 * When not even zero results fit, the zero-result text is returned (it is the smallest valid answer);
 * an answer without results is returned as it is.
 */
export async function fitToBudget(
  results: number,
  render: (shown: number, cut: BudgetCut | undefined) => string,
  budget: OutputBudget,
): Promise<{ text: string; cut?: BudgetCut }> {
  if (budget.kind === 'tokens') {
    try {
      return await fit(results, render, budget, (text) => budget.count(text));
    } catch {
      // The model's tokenizer is not available: fall back to the byte budget.
      const bytes = byteBudget(budget.fallbackBytes);
      return fit(results, render, bytes, (text) => Buffer.byteLength(text, 'utf8'));
    }
  }
  return fit(results, render, budget, (text) => Buffer.byteLength(text, 'utf8'));
}

async function fit(
  results: number,
  render: (shown: number, cut: BudgetCut | undefined) => string,
  budget: OutputBudget,
  measure: (text: string) => number | Promise<number>,
): Promise<{ text: string; cut?: BudgetCut }> {
  const whole = render(results, undefined);
  // With no result to drop there is nothing to cut: the answer is as small as it gets.
  if (results === 0 || (await measure(whole)) <= budget.limit) return { text: whole };
  // Every text with a cut carries the same note, whose numbers only grow with `shown`: the size is
  // monotonic in `shown`, so the largest `shown` that fits is found by bisection.
  const cutText = (shown: number) => render(shown, { shown, budget });
  let lo = 0; // the answer is in [lo, hi]; lo = 0 is the floor even when it does not fit
  let hi = results - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((await measure(cutText(mid))) <= budget.limit) lo = mid;
    else hi = mid - 1;
  }
  return { text: cutText(lo), cut: { shown: lo, budget } };
}
