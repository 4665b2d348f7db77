/**
 * A grep answer as the printer receives it: the search's report, and the checks it needs, run only
 * when they can help: an empty answer says what a changed call would find, an empty or cut one whether
 * the files over the size limit hold the pattern, a cut first page the first lines of the files it
 * hides; an invalid regex is refused with what its literal reading finds. (Cancellation: run/cancellation.test.ts.)
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { InputError } from '../../../../src/engine/api/errors';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { Fixture, makeEnv } from '../../fixture';

describe('engine/answer/grepAnswer', () => {
  const fx = new Fixture('grep-tools-grep-answer-');
  before(() =>
    fx.files({
      'src/user.ts': 'export class UserService {}\nconst a = 1;\n',
      'src/app.ts': "import { UserService } from './user';\nnew UserService();\n",
      'src/other.ts': 'UserService.find();\n',
      'big/huge.log': `${'x'.repeat(2000)}\nneedle in a large file\n`,
    }),
  );
  after(() => fx.remove());
  const env = (maxFileSize = 1024) => makeEnv(fx.root, { config: { maxFileSize } });

  it('an answer with every match on its page carries no checks', async () => {
    const answer = await answerGrep({ pattern: 'UserService' }, env());
    assert.strictEqual(answer.totalResults, 4);
    assert.strictEqual(answer.nextOffset, undefined);
    assert.deepStrictEqual([answer.diagnostics, answer.firstLines, answer.largeFilesCheck], [undefined, undefined, undefined]);
  });

  it('an empty answer says what ignoring case would find', async () => {
    const answer = await answerGrep({ pattern: 'userservice', output_mode: 'files_with_matches' }, env());
    assert.strictEqual(answer.totalResults, 0);
    assert.strictEqual(answer.diagnostics?.caseInsensitive?.files, 3);
  });

  it('an empty answer says whether the files over grepTools.maxFileSize hold the pattern, and where first', async () => {
    const answer = await answerGrep({ pattern: 'needle' }, env());
    assert.strictEqual(answer.totalResults, 0);
    assert.deepStrictEqual(answer.largeFilesCheck?.limit, 1024);
    assert.deepStrictEqual(
      answer.largeFilesCheck?.checked.map((finding) => [finding.file, finding.size, finding.first?.line]),
      [[fx.path('big/huge.log'), 2024, 2]],
    );
    const within = await answerGrep({ pattern: 'needle' }, env(1 << 20));
    assert.strictEqual(within.totalResults, 1);
    assert.strictEqual(within.largeFilesCheck, undefined);
  });

  it('the check of a file over the limit is not searched again while the file is unchanged, and is once it changes', async () => {
    fx.write('big/second.log', `${'y'.repeat(2000)}\nthe pin in the second file\n`);
    // Reads of the file with room for it (the search itself only finds it over the limit).
    let reads = 0;
    const plain = env();
    const counted = {
      ...plain,
      readFile: (path: string, maxSize: number, ...rest: unknown[]) => {
        if (path.endsWith('second.log') && maxSize > 1024) reads++;
        return plain.readFile(path, maxSize, ...(rest as []));
      },
    };
    const first = (answer: Awaited<ReturnType<typeof answerGrep>>) =>
      answer.largeFilesCheck?.checked.find((finding) => finding.file.endsWith('second.log'))?.first;
    assert.deepStrictEqual(first(await answerGrep({ pattern: 'pin' }, counted)), { line: 2, text: 'the pin in the second file' });
    const once = reads;
    assert.ok(once > 0);
    assert.deepStrictEqual(first(await answerGrep({ pattern: 'pin' }, counted)), { line: 2, text: 'the pin in the second file' });
    assert.strictEqual(reads, once, 'the unchanged file is not read again for the check');
    fx.write('big/second.log', `${'y'.repeat(3000)}\n\nthe pin moved\n`);
    assert.deepStrictEqual(first(await answerGrep({ pattern: 'pin' }, counted)), { line: 3, text: 'the pin moved' });
    fs.rmSync(fx.path('big/second.log'));
  });

  it('a cut first page names the first line of the files it hides; the next page does not', async () => {
    const first = await answerGrep({ pattern: 'UserService', max_results: 1 }, env());
    assert.strictEqual(first.nextOffset, 1);
    const shown = first.files.map((entry) => (typeof entry === 'string' ? entry : entry.file));
    const hidden = [...(first.firstLines?.keys() ?? [])].filter((file) => !shown.includes(file));
    assert.ok(hidden.length >= 2, `first lines of ${[...(first.firstLines?.keys() ?? [])].join(', ')}`);
    assert.deepStrictEqual(first.firstLines?.get(fx.path('src/other.ts')), { line: 1, text: 'UserService.find();' });
    const next = await answerGrep({ pattern: 'UserService', max_results: 1, offset: 1 }, env());
    assert.strictEqual(next.firstLines, undefined);
  });

  it('refuses an invalid regex, saying what the pattern finds as literal text and the call to make', async () => {
    await assert.rejects(
      answerGrep({ pattern: 'UserService(' }, env()),
      (error: unknown) =>
        error instanceof InputError &&
        /As literal text the pattern matches/.test(error.message) &&
        error.message.includes('Call again with {"pattern":"UserService(","fixed_strings":true}'),
    );
  });
});
