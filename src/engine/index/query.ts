/**
 * A query over the index: which files may hold a match, as AND / OR of trigram keys. `all` is every file
 * (nothing usable: the search reads everything), `none` is no file (the pattern cannot match).
 */
import { trigramKeys } from './fold';

export type Query = { op: 'all' } | { op: 'none' } | { op: 'trigram'; key: number } | { op: 'and'; args: Query[] } | { op: 'or'; args: Query[] };

export const ALL: Query = { op: 'all' };
export const NONE: Query = { op: 'none' };

function keyOf(query: Query): string {
  return JSON.stringify(query);
}

function dedupe(args: Query[]): Query[] {
  const seen = new Set<string>();
  return args.filter((arg) => {
    const key = keyOf(arg);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every one of `args`: `all` drops out, `none` wins, nested ANDs are flattened. */
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

/** Any one of `args`: `all` wins, `none` drops out, nested ORs are flattened. */
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

/** A file holding `folded` (already folded) holds each of its trigrams; shorter than 3: any file. */
export function containing(folded: string): Query {
  return and(trigramKeys(folded).map((key) => ({ op: 'trigram', key })));
}

/** A file holding one of the strings (already folded). */
export function containingAny(strings: Iterable<string>): Query {
  return or([...strings].map(containing));
}
