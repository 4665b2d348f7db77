/**
 * A glob answer as the printer receives it: the listing, and, only when it is empty, what a changed
 * call would find (ignoring case, the ignored files, without max_depth), each found by listing again.
 * (Cancellation: run/cancellation.test.ts; mode "regex" stopped at the time limit: pool/pool.test.ts.)
 */
import * as assert from 'assert';
import { answerGlob } from '../../../../src/engine/answer/globAnswer';
import { Fixture, makeEnv } from '../../fixture';

describe('engine/answer/globAnswer', () => {
  const fx = new Fixture('grep-tools-glob-answer-');
  before(() =>
    fx.files({
      '.gitignore': 'dist/\n',
      'src/README.md': '',
      'src/deep/er/notes.md': '',
      'dist/bundle.js': '',
    }),
  );
  after(() => fx.remove());
  const env = () => makeEnv(fx.root);

  it('an answer that lists files carries no checks', async () => {
    const answer = await answerGlob({ pattern: '**/*.md' }, env());
    assert.deepStrictEqual(answer.files, [fx.path('src/README.md'), fx.path('src/deep/er/notes.md')]);
    assert.strictEqual(answer.diagnostics, undefined);
  });

  it('an empty answer says what ignoring case would list', async () => {
    const answer = await answerGlob({ pattern: '**/readme.md' }, env());
    assert.deepStrictEqual(answer.files, []);
    assert.deepStrictEqual(answer.diagnostics?.caseInsensitive?.total, 1);
    assert.deepStrictEqual(answer.diagnostics?.caseInsensitive?.first, [fx.path('src/README.md')]);
    assert.strictEqual(answer.diagnostics?.caseInsensitive?.call.pattern, '**/[rR][eE][aA][dD][mM][eE].[mM][dD]');
  });

  it('an empty answer says what the ignored files and a deeper walk would list', async () => {
    const ignored = await answerGlob({ pattern: '**/*.js' }, env());
    assert.deepStrictEqual(ignored.files, []);
    assert.strictEqual(ignored.diagnostics?.includeIgnored?.total, 1);
    const shallow = await answerGlob({ pattern: '**/notes.md', max_depth: 2 }, env());
    assert.deepStrictEqual(shallow.files, []);
    assert.strictEqual(shallow.diagnostics?.withoutMaxDepth?.total, 1);
  });
});
