/**
 * The index's query algebra: `and` / `or` of trigram keys with `all` and `none`, simplified as they are
 * built (flattened, duplicates dropped, `all` / `none` absorbed), mean what the plain boolean formula means
 * for any file (property), and `containing` asks for every trigram of a string.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { ALL, and, containing, containingAny, NONE, or, type Query } from '../../../../src/engine/index/query';
import { trigramKeys } from '../../../../src/engine/index/fold';

/** Whether a file holding the keys `held` may match the query. */
function admits(query: Query, held: ReadonlySet<number>): boolean {
  switch (query.op) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'trigram':
      return held.has(query.key);
    case 'and':
      return query.args.every((arg) => admits(arg, held));
    case 'or':
      return query.args.some((arg) => admits(arg, held));
  }
}

/** A formula as written, before any simplification. */
type Formula = { all: true } | { none: true } | { key: number } | { and: Formula[] } | { or: Formula[] };

const formula: fc.Arbitrary<Formula> = fc.letrec<{ formula: Formula }>((tie) => ({
  formula: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<Formula>({ all: true }),
    fc.constant<Formula>({ none: true }),
    fc.integer({ min: 0, max: 5 }).map((key): Formula => ({ key })),
    fc.array(tie('formula'), { maxLength: 4 }).map((args): Formula => ({ and: args })),
    fc.array(tie('formula'), { maxLength: 4 }).map((args): Formula => ({ or: args })),
  ),
})).formula;

function build(f: Formula): Query {
  if ('all' in f) return ALL;
  if ('none' in f) return NONE;
  if ('key' in f) return { op: 'trigram', key: f.key };
  if ('and' in f) return and(f.and.map(build));
  return or(f.or.map(build));
}

function truth(f: Formula, held: ReadonlySet<number>): boolean {
  if ('all' in f) return true;
  if ('none' in f) return false;
  if ('key' in f) return held.has(f.key);
  if ('and' in f) return f.and.every((arg) => truth(arg, held));
  return f.or.some((arg) => truth(arg, held));
}

describe('index: the query algebra', () => {
  it('a built query admits exactly the files the formula as written admits (property)', () => {
    fc.assert(
      fc.property(formula, fc.uniqueArray(fc.integer({ min: 0, max: 5 })), (f, keys) => {
        const held = new Set(keys);
        assert.strictEqual(admits(build(f), held), truth(f, held));
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });

  it('absorbs all and none, flattens nested operators and drops repeated arguments', () => {
    const a: Query = { op: 'trigram', key: 1 };
    const b: Query = { op: 'trigram', key: 2 };
    const c: Query = { op: 'trigram', key: 3 };
    assert.deepStrictEqual(and([]), ALL);
    assert.deepStrictEqual(or([]), NONE);
    assert.deepStrictEqual(and([a, NONE, b]), NONE);
    assert.deepStrictEqual(or([a, ALL, b]), ALL);
    assert.deepStrictEqual(and([ALL, a]), a);
    assert.deepStrictEqual(or([NONE, a]), a);
    assert.deepStrictEqual(and([a, and([b, c]), a]), { op: 'and', args: [a, b, c] });
    assert.deepStrictEqual(or([or([a, b]), c, b]), { op: 'or', args: [a, b, c] });
    assert.deepStrictEqual(and([or([a, b]), or([a, b])]), { op: 'or', args: [a, b] });
  });

  it('containing asks for every trigram of the string, any file below three characters; containingAny for one of them', () => {
    const keys = trigramKeys('abcd');
    assert.deepStrictEqual(containing('abcd'), { op: 'and', args: keys.map((key) => ({ op: 'trigram', key })) });
    assert.deepStrictEqual(containing('ab'), ALL);
    assert.deepStrictEqual(containingAny(['ab', 'abcd']), ALL);
    assert.deepStrictEqual(containingAny([]), NONE);
    assert.deepStrictEqual(containingAny(['abc', 'xyz']), {
      op: 'or',
      args: [containing('abc'), containing('xyz')],
    });
  });
});
