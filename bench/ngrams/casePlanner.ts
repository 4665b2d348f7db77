/** planner.ts over literalQuery.ts, literals kept in their case (bench/ngrams.mjs bundles it: `case-planner`). */
// @ts-expect-error resolved by the bench's esbuild plugin
export { planRegex as planCaseLiterals } from 'case-planner';
