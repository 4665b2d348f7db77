/**
 * The planner's query algebra (src/engine/index/query.ts) with the folded literals kept as strings
 * instead of trigram keys: what the bench's sparse n-gram prototype covers with its own grams.
 */
export type Query =
  | { op: 'all' }
  | { op: 'none' }
  | { op: 'literal'; text: string }
  | { op: 'and'; args: Query[] }
  | { op: 'or'; args: Query[] };

export const ALL: Query = { op: 'all' };
export const NONE: Query = { op: 'none' };

function dedupe(args: Query[]): Query[] {
  const seen = new Set<string>();
  return args.filter((arg) => {
    const key = JSON.stringify(arg);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function and(args: Query[]): Query {
  const flat: Query[] = [];
  for (const arg of args) {
    if (arg.op === 'none') return NONE;
    if (arg.op === 'all') continue;
    if (arg.op === 'and') flat.push(...arg.args);
    else flat.push(arg);
  }
  const unique = dedupe(flat);
  return unique.length === 0 ? ALL : unique.length === 1 ? unique[0] : { op: 'and', args: unique };
}

export function or(args: Query[]): Query {
  const flat: Query[] = [];
  for (const arg of args) {
    if (arg.op === 'all') return ALL;
    if (arg.op === 'none') continue;
    if (arg.op === 'or') flat.push(...arg.args);
    else flat.push(arg);
  }
  const unique = dedupe(flat);
  return unique.length === 0 ? NONE : unique.length === 1 ? unique[0] : { op: 'or', args: unique };
}

/** As query.ts: shorter than 3 units gives nothing usable. */
export function containing(folded: string): Query {
  return folded.length < 3 ? ALL : { op: 'literal', text: folded };
}

export function containingAny(strings: Iterable<string>): Query {
  return or([...strings].map(containing));
}
