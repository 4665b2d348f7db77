/** planner.ts over literalQuery.ts (bench/ngrams.mjs bundles it so: the `literal-planner` module). */
// @ts-expect-error resolved by the bench's esbuild plugin
export { planRegex as planLiterals } from 'literal-planner';
