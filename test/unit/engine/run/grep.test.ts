import * as assert from 'assert';
import * as nodePath from 'path';
import { CancelledError } from '../../../../src/engine/api/errors';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { escapeRegExp } from '../../../../src/engine/matcher/matcher';
import {
  contentFiles,
  countFiles,
  Fixture,
  flatMatches,
  folders,
  grepJson,
  grepRaw,
  grepText,
  native,
  makeEnv,
  pathFiles,
  rejectsWith,
  rel,
  type GrepAnswer,
} from '../../fixture';

const NO_SKIPS = { binary: 0, too_large: 0, denied: 0, unreadable: 0, outside_workspace: 0 };

/** The answer as the model receives it: no timing, nothing filled in. */
const stable = (input: unknown, env: SearchEnvironment) => grepRaw(input, env);

const AUTH_PY = [
  'import os',
  '# Validate credentials',
  'def authenticate(self, username, password):',
  '    return False',
  '',
  'def logout(self):',
  '    pass',
  '',
].join('\n');

describe('engine/grep (answerGrep + printGrep)', () => {
  let fx: Fixture;
  let basic: string;
  let env: SearchEnvironment;

  before(() => {
    fx = new Fixture();
    basic = fx.mkdir('basic');
    fx.files({
      'basic/src/auth.py': AUTH_PY,
      'basic/src/app.ts': "import { authenticate } from './auth';\nauthenticate(user); authenticate(admin);\nconsole.log('done');\n",
      'basic/docs/guide.md': 'Call authenticate() first.\n',
      'basic/notes.txt': 'nothing here\n',
    });
    env = makeEnv(basic);
  });

  after(() => fx.remove());

  const p = (relative: string) => fx.path(`basic/${relative}`);

  describe('output modes', () => {
    it('content: matching lines grouped by file, in path order, with exact totals', async () => {
      assert.deepStrictEqual(await stable({ pattern: 'authenticate' }, env), {
        files: {
          [p('docs/guide.md')]: ['1: Call authenticate() first.'],
          [p('src/app.ts')]: ["1: import { authenticate } from './auth';", '2: authenticate(user); authenticate(admin);'],
          [p('src/auth.py')]: ['3 def: def authenticate(self, username, password):'],
        },
        files_searched: 4,
        root: basic,
      });
      // In path order.
      const json = await grepRaw({ pattern: 'authenticate' }, env);
      assert.deepStrictEqual(Object.keys(json.files as object), [p('docs/guide.md'), p('src/app.ts'), p('src/auth.py')]);
    });

    it('content is the default and prints its fields in the documented order, without the default output_mode', async () => {
      // The pattern is the call's own input: the model's answer leaves it out (docs/tools.md).
      assert.strictEqual(await grepText({ pattern: 'absent-zz' }, env), `root: ${basic}\nfiles_searched: 4`);
      const cut = (await grepText({ pattern: 'authenticate', max_results: 1 }, env)).split('\n');
      const fields = cut.slice(0, cut.indexOf('')).map((line) => line.slice(0, line.indexOf(':')));
      assert.deepStrictEqual(fields, ['root', 'total_matches', 'returned_matches', 'files_matched', 'files_searched', 'next_offset']);
      assert.deepStrictEqual(cut.slice(cut.indexOf('')), [
        '',
        native('src/auth.py'),
        '3 def: def authenticate(self, username, password):',
        '',
        cut[cut.length - 2],
        cut[cut.length - 1],
      ]);
      assert.match(cut[cut.length - 2], /^note: Showing matches 1-1 of 4\./);
      assert.match(cut[cut.length - 1], /^note: 2 more matching files are not on this page: /);
    });

    it('files_with_matches: only the paths of matching files', async () => {
      assert.deepStrictEqual(await stable({ pattern: 'authenticate', output_mode: 'files_with_matches' }, env), {
        output_mode: 'files_with_matches',
        files: [p('docs/guide.md'), p('src/app.ts'), p('src/auth.py')],
        files_searched: 4,
        root: basic,
      });
    });

    it('count: matching lines per file (several matches on a line count once)', async () => {
      assert.deepStrictEqual(await stable({ pattern: 'authenticate', output_mode: 'count' }, env), {
        output_mode: 'count',
        files: { [p('docs/guide.md')]: 1, [p('src/app.ts')]: 2, [p('src/auth.py')]: 1 },
        total_matches: 4,
        files_searched: 4,
        root: basic,
      });
    });

    it('gives the same answer on every run (stable order)', async () => {
      const first = await stable({ pattern: 'a', output_mode: 'files_with_matches' }, env);
      const second = await stable({ pattern: 'a', output_mode: 'files_with_matches' }, env);
      assert.deepStrictEqual(second, first);
    });
  });

  describe('pattern options', () => {
    it('is case-sensitive by default; case_insensitive and a leading (?i) ignore case', async () => {
      assert.strictEqual((await grepJson({ pattern: 'AUTHENTICATE' }, env)).total_matches, 0);
      assert.strictEqual((await grepJson({ pattern: 'AUTHENTICATE', case_insensitive: true }, env)).total_matches, 4);
      const inline = await grepJson({ pattern: '(?i)AUTHENTICATE' }, env);
      assert.strictEqual(inline.total_matches, 4);
      assert.strictEqual(inline.pattern, undefined, "the pattern is the call's own input: not echoed");
    });

    it('fixed_strings searches the text literally', async () => {
      const literal = await grepJson({ pattern: 'authenticate()', fixed_strings: true }, env);
      assert.deepStrictEqual(flatMatches(literal, basic), ['docs/guide.md:1:Call authenticate() first.']);
      // As a regex, "()" is an empty group: every authenticate matches.
      assert.strictEqual((await grepJson({ pattern: 'authenticate()' }, env)).total_matches, 4);
    });

    it('word matches whole words only', async () => {
      const json = await grepJson({ pattern: 'auth', word: true }, env);
      assert.deepStrictEqual(flatMatches(json, basic), ["src/app.ts:1:import { authenticate } from './auth';"]);
    });

    it('multiline: a match spanning lines is one result at its first line', async () => {
      const json = await grepJson({ pattern: 'credentials\\ndef \\w+', multiline: true }, env);
      assert.deepStrictEqual(contentFiles(json), [
        { file: p('src/auth.py'), matches: [{ line: 2, text: '# Validate credentials\ndef authenticate(self, username, password):' }] },
      ]);
      assert.strictEqual(json.total_matches, 1);
      assert.strictEqual((await grepJson({ pattern: 'credentials\\ndef' }, env)).total_matches, 0, 'no match across lines without multiline');
    });

    it('invert_match reports the lines that do not match', async () => {
      const json = await grepJson({ pattern: 'def|return|pass', path: 'src/auth.py', invert_match: true }, env);
      assert.deepStrictEqual(flatMatches(json, basic), ['src/auth.py:1:import os', 'src/auth.py:2:# Validate credentials', 'src/auth.py:5:']);
      assert.strictEqual(json.total_matches, 3);
      const count = await grepJson({ pattern: 'def|return|pass', path: 'src/auth.py', invert_match: true, output_mode: 'count' }, env);
      assert.deepStrictEqual(countFiles(count), [{ file: p('src/auth.py'), count: 3 }]);
    });

    it('context_lines adds before/after lines; overlapping windows are merged, no line repeated', async () => {
      const json = await grepJson({ pattern: '^def', path: 'src', context_lines: 2 }, env);
      assert.deepStrictEqual(contentFiles(json), [
        {
          file: p('src/auth.py'),
          matches: [
            { line: 3, text: 'def authenticate(self, username, password):', before: ['import os', '# Validate credentials'], after: ['    return False', ''] },
            { line: 6, text: 'def logout(self):', after: ['    pass'] },
          ],
        },
      ]);
      assert.strictEqual(json.total_matches, 2, 'context lines are not results');
      assert.strictEqual(json.returned_matches, 2);
    });

    it('before_lines and after_lines override context_lines', async () => {
      const json = await grepJson({ pattern: '^def logout', context_lines: 2, before_lines: 0, after_lines: 1 }, env);
      assert.deepStrictEqual(contentFiles(json)[0].matches, [{ line: 6, text: 'def logout(self):', after: ['    pass'], defines: true }]);
      const before = await grepJson({ pattern: '^def logout', before_lines: 1 }, env);
      assert.deepStrictEqual(contentFiles(before)[0].matches, [{ line: 6, text: 'def logout(self):', before: [''], defines: true }]);
    });

    it('max_matches_per_file stops each file after that many lines, and totals count what was taken', async () => {
      const json = await grepJson({ pattern: 'authenticate', max_matches_per_file: 1 }, env);
      assert.deepStrictEqual(flatMatches(json, basic), [
        'docs/guide.md:1:Call authenticate() first.',
        "src/app.ts:1:import { authenticate } from './auth';",
        'src/auth.py:3:def authenticate(self, username, password):',
      ]);
      assert.strictEqual(json.total_matches, 3);
      const count = await grepJson({ pattern: 'authenticate', max_matches_per_file: 1, output_mode: 'count' }, env);
      assert.deepStrictEqual(
        countFiles(count).map((f) => f.count),
        [1, 1, 1],
      );
    });

    it('refuses an invalid regex with the reason and the fix', async () => {
      await rejectsWith(
        answerGrep({ pattern: 'authenticate(' }, env),
        /^Invalid regular expression "authenticate\(": Unterminated group\. Hint: .*fixed_strings: true/,
      );
    });

    it('refuses invalid input naming the field', async () => {
      await rejectsWith(grepJson({ pattern: 'x', context: 2 }, env), /^Invalid grep input: unknown field "context"\. Allowed fields: .*context_lines/);
      await rejectsWith(grepJson({ pattern: 'x', output_mode: 'lines' }, env), /"output_mode" must be one of "content", "files_with_matches", "count"/);
    });
  });

  describe('include and exclude', () => {
    let tree: string;
    let treeEnv: SearchEnvironment;
    before(() => {
      tree = fx.mkdir('globs');
      fx.files({
        'globs/top.ts': 'HIT\n',
        'globs/src/a.ts': 'HIT\n',
        'globs/src/a.test.ts': 'HIT\n',
        'globs/src/ui/App.tsx': 'HIT\n',
        'globs/src/ui/deep/er/b.ts': 'HIT\n',
        'globs/src/py/m.py': 'HIT\n',
        'globs/docs/readme.md': 'HIT\n',
        'globs/.env': 'HIT\n',
        'globs/certs/k.pem': 'HIT\n',
      });
      treeEnv = makeEnv(tree);
    });

    const found = async (input: Record<string, unknown>) =>
      pathFiles(await grepJson({ pattern: 'HIT', output_mode: 'files_with_matches', ...input }, treeEnv)).map((f) => rel(tree, f));

    it('a glob without / matches the file name at any depth', async () => {
      assert.deepStrictEqual(await found({ include: '*.ts' }), ['src/a.test.ts', 'src/a.ts', 'src/ui/deep/er/b.ts', 'top.ts']);
    });

    it('a glob with / is anchored at the search base', async () => {
      assert.deepStrictEqual(await found({ include: 'src/*.ts' }), ['src/a.test.ts', 'src/a.ts']);
      assert.deepStrictEqual(await found({ include: 'src/**/*.{ts,tsx}' }), ['src/a.test.ts', 'src/a.ts', 'src/ui/App.tsx', 'src/ui/deep/er/b.ts']);
      assert.deepStrictEqual(await found({ include: '**/*.md' }), ['docs/readme.md']);
    });

    it('is relative to path when path is given', async () => {
      assert.deepStrictEqual(await found({ path: 'src', include: 'ui/*.tsx' }), ['src/ui/App.tsx']);
    });

    it('exclude skips files (a name glob at any depth, a path glob from the base)', async () => {
      assert.deepStrictEqual(await found({ include: '*.ts', exclude: '*.test.ts' }), ['src/a.ts', 'src/ui/deep/er/b.ts', 'top.ts']);
      assert.deepStrictEqual(await found({ exclude: 'src/**' }), ['docs/readme.md', 'top.ts']);
    });

    it('counts as denied only the files include would have searched', async () => {
      assert.deepStrictEqual((await grepJson({ pattern: 'HIT', include: '*.ts' }, treeEnv)).skipped, NO_SKIPS);
      const pem = await grepJson({ pattern: 'HIT', include: '*.pem' }, treeEnv);
      assert.deepStrictEqual(pem.files, []);
      assert.deepStrictEqual(pem.skipped, { ...NO_SKIPS, denied: 1 });
      assert.deepStrictEqual(pem.notes, ['The include glob "*.pem" matched no file under the search path; skipped 1 denied by policy.']);
      assert.strictEqual((await grepJson({ pattern: 'HIT' }, treeEnv)).skipped.denied, 2);
    });

    it('says when the include glob matched no file', async () => {
      const json = await grepJson({ pattern: 'HIT', include: '*.rs' }, treeEnv);
      assert.deepStrictEqual(json.files, []);
      assert.strictEqual(json.files_searched, 0);
      assert.deepStrictEqual(json.notes, ['The include glob "*.rs" matched no file under the search path.']);
    });

    it('refuses a glob with backslashes, naming the field', async () => {
      await rejectsWith(answerGrep({ pattern: 'HIT', include: 'src\\*.ts' }, treeEnv), /^Invalid include glob "src\\\\\*\.ts": use '\/' as the path separator/);
      await rejectsWith(answerGrep({ pattern: 'HIT', exclude: 'a\\b' }, treeEnv), /^Invalid exclude glob/);
    });
  });

  describe('results, paging and limits', () => {
    let pages: string;
    let pagesEnv: SearchEnvironment;
    const ALL = [
      'a.txt:1:hit a1',
      'a.txt:2:hit a2',
      'a.txt:3:hit a3',
      'a.txt:4:hit a4',
      'b.txt:1:hit b1',
      'b.txt:2:hit b2',
      'b.txt:3:hit b3',
      'c.txt:1:hit c1',
      'c.txt:2:hit c2',
      'c.txt:3:hit c3',
      'c.txt:4:hit c4',
      'c.txt:5:hit c5',
    ];

    before(() => {
      pages = fx.mkdir('pages');
      const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `hit ${prefix}${i + 1}`).join('\n') + '\n';
      fx.files({ 'pages/a.txt': lines('a', 4), 'pages/b.txt': lines('b', 3), 'pages/c.txt': lines('c', 5), 'pages/none.txt': 'miss\n' });
      pagesEnv = makeEnv(pages);
    });

    it('returns everything when it fits', async () => {
      const json = await grepJson({ pattern: 'hit' }, pagesEnv);
      assert.deepStrictEqual(flatMatches(json, pages), ALL);
      assert.strictEqual(json.truncated, false);
      assert.strictEqual('next_offset' in json, false);
    });

    it('stops at max_results, keeps exact totals, and says how to get the rest', async () => {
      const json = await grepJson({ pattern: 'hit', max_results: 5 }, pagesEnv);
      assert.deepStrictEqual(flatMatches(json, pages), ALL.slice(0, 5));
      assert.strictEqual(json.total_matches, 12);
      assert.strictEqual(json.returned_matches, 5);
      assert.strictEqual(json.files_searched, 4);
      assert.strictEqual(json.files_matched, 3);
      assert.strictEqual(json.truncated, true);
      assert.strictEqual(json.next_offset, 5);
      assert.deepStrictEqual(json.notes, [
        'Showing matches 1-5 of 12. Call again with offset 5 for more, or narrow the search.',
        `1 more matching file is not on this page: c.txt (5; 1: "hit c1"). All of them: {"pattern":"hit","output_mode":"files_with_matches"}, or "count" for lines per file.`,
      ]);
    });

    it('pages with offset = next_offset: pages are disjoint and leave no gap', async () => {
      const seen: string[] = [];
      let offset: number | undefined = 0;
      let calls = 0;
      while (offset !== undefined) {
        const json: GrepAnswer = await grepJson({ pattern: 'hit', max_results: 5, offset }, pagesEnv);
        const page = flatMatches(json, pages);
        assert.strictEqual(json.returned_matches, page.length);
        assert.strictEqual(json.total_matches, 12);
        seen.push(...page);
        assert.strictEqual(json.truncated, json.next_offset !== undefined);
        if (json.next_offset !== undefined) assert.strictEqual(json.next_offset, offset + page.length);
        offset = json.next_offset;
        calls++;
      }
      assert.strictEqual(calls, 3);
      assert.deepStrictEqual(seen, ALL);
    });

    it('an offset inside a file starts at the right line', async () => {
      const json = await grepJson({ pattern: 'hit', offset: 6, max_results: 3 }, pagesEnv);
      assert.deepStrictEqual(flatMatches(json, pages), ['b.txt:3:hit b3', 'c.txt:1:hit c1', 'c.txt:2:hit c2']);
      assert.deepStrictEqual(json.notes, [
        'Showing matches 7-9 of 12. Call again with offset 9 for more, or narrow the search.',
        `1 more matching file is not on this page: a.txt (4). All of them: {"pattern":"hit","output_mode":"files_with_matches"}, or "count" for lines per file.`,
      ]);
    });

    it('says so when offset is past the last result', async () => {
      const json = await grepJson({ pattern: 'hit', offset: 20 }, pagesEnv);
      assert.deepStrictEqual(json.files, []);
      assert.strictEqual(json.returned_matches, 0);
      assert.strictEqual(json.total_matches, 12);
      assert.strictEqual(json.truncated, false);
      assert.deepStrictEqual(json.notes, ['offset 20 is past the last result: there are 12 matches. Use an offset below that.']);
    });

    it('pages files in files_with_matches and count modes', async () => {
      const first = await grepJson({ pattern: 'hit', output_mode: 'files_with_matches', max_results: 2 }, pagesEnv);
      assert.deepStrictEqual(
        pathFiles(first).map((f) => rel(pages, f)),
        ['a.txt', 'b.txt'],
      );
      assert.strictEqual(first.next_offset, 2);
      assert.deepStrictEqual(first.notes, ['Showing files 1-2 of 3. Call again with offset 2 for more, or narrow the search.']);
      const second = await grepJson({ pattern: 'hit', output_mode: 'files_with_matches', max_results: 2, offset: 2 }, pagesEnv);
      assert.deepStrictEqual(
        pathFiles(second).map((f) => rel(pages, f)),
        ['c.txt'],
      );
      assert.strictEqual(second.truncated, false);

      const count = await grepJson({ pattern: 'hit', output_mode: 'count', max_results: 1, offset: 1 }, pagesEnv);
      assert.deepStrictEqual(countFiles(count), [{ file: fx.path('pages/b.txt'), count: 3 }]);
      assert.strictEqual(count.total_matches, 12, 'count mode totals every matching line');
      assert.strictEqual(count.returned_files, 1);
      assert.strictEqual(count.next_offset, 2);
    });

    it('defaults max_results to grepTools.maxResults and caps it at grepTools.maxResultsCap', async () => {
      const byDefault = await grepJson({ pattern: 'hit' }, makeEnv(pages, { config: { maxResults: 4 } }));
      assert.strictEqual(byDefault.returned_matches, 4);
      assert.strictEqual(byDefault.next_offset, 4);
      const capped = await grepJson({ pattern: 'hit', max_results: 1000 }, makeEnv(pages, { config: { maxResultsCap: 3 } }));
      assert.strictEqual(capped.returned_matches, 3);
      assert.strictEqual(capped.total_matches, 12);
    });

    it('pages content with context without repeating lines inside a page', async () => {
      const json = await grepJson({ pattern: 'hit c[24]', path: 'c.txt', context_lines: 1 }, pagesEnv);
      assert.deepStrictEqual(contentFiles(json)[0].matches, [
        { line: 2, text: 'hit c2', before: ['hit c1'], after: ['hit c3'] },
        { line: 4, text: 'hit c4', after: ['hit c5'] },
      ]);
    });

    it('stops when the search is cancelled', async () => {
      const error = await rejectsWith(answerGrep({ pattern: 'hit' }, makeEnv(pages, { isCancelled: () => true })), /^The search was cancelled\.$/);
      assert.ok(error instanceof CancelledError);
    });

    it('returns what it has with timed_out and a note when the time limit is hit', async () => {
      // A negative limit makes the deadline already past, without waiting.
      const json = await grepJson({ pattern: 'hit' }, makeEnv(pages, { config: { timeoutSeconds: -1 } }));
      assert.strictEqual(json.timed_out, true);
      assert.strictEqual(json.files_searched, 0);
      assert.match(
        json.notes[0],
        /^The search timed out after \d+ s; results and totals cover only the files searched before then\. Narrow it with path or include\.$/,
      );
    });
  });

  describe('encodings, binary, size and long lines', () => {
    let enc: string;
    before(() => {
      enc = fx.mkdir('enc');
      fx.write('enc/binary.dat', Buffer.concat([Buffer.from('TODO bin'), Buffer.from([0]), Buffer.from('TODO\n')]));
      fx.write('enc/late-nul.txt', Buffer.concat([Buffer.from('TODO first\n'), Buffer.alloc(9000, 0x61), Buffer.from([0]), Buffer.from('\nTODO last\n')]));
      fx.write('enc/bom8.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('TODO bom8 é\n')]));
      fx.write('enc/utf16le.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first\r\nTODO le ü\r\n', 'utf16le')]));
      fx.write('enc/utf16be.txt', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('TODO be ü\n', 'utf16le').swap16()]));
      fx.write('enc/crlf.txt', 'one\r\nTODO crlf\r\nthree\r\n');
      fx.write('enc/huge.txt', 'TODO ' + 'x'.repeat(20000) + '\n');
      fx.write('enc/long.txt', 'short\n' + 'y'.repeat(1000) + 'TODO' + 'z'.repeat(1000) + '\n');
    });

    it('decodes BOM/UTF-16 files, skips binary and oversize files, clips long lines', async () => {
      const json = await grepJson({ pattern: 'TODO', context_lines: 1 }, makeEnv(enc, { config: { maxFileSize: 15000 } }));
      const byName = new Map(contentFiles(json).map((f) => [rel(enc, f.file), f.matches]));
      assert.deepStrictEqual([...byName.keys()], ['bom8.txt', 'crlf.txt', 'late-nul.txt', 'long.txt', 'utf16be.txt', 'utf16le.txt']);
      assert.deepStrictEqual(byName.get('bom8.txt'), [{ line: 1, text: 'TODO bom8 é' }]);
      assert.deepStrictEqual(byName.get('crlf.txt'), [{ line: 2, text: 'TODO crlf', before: ['one'], after: ['three'] }]);
      assert.deepStrictEqual(byName.get('utf16le.txt'), [{ line: 2, text: 'TODO le ü', before: ['first'] }]);
      assert.deepStrictEqual(byName.get('utf16be.txt'), [{ line: 1, text: 'TODO be ü' }]);
      assert.deepStrictEqual(
        byName.get('late-nul.txt')?.map((m) => [m.line, m.text]),
        [
          [1, 'TODO first'],
          [3, 'TODO last'],
        ],
      );
      const [long] = byName.get('long.txt') ?? [];
      assert.strictEqual(long.line, 2);
      assert.deepStrictEqual(long.before, ['short']);
      assert.ok(long.text.startsWith('…') && long.text.endsWith('…'), 'cut on both sides, marked with …');
      assert.ok(long.text.includes('TODO'), 'the window holds the match');
      assert.strictEqual(long.text.length, 500 + 2, 'grepTools.maxLineLength characters plus the two marks');
      assert.deepStrictEqual(json.skipped, { ...NO_SKIPS, binary: 1, too_large: 1 });
      assert.strictEqual(json.files_searched, 6);
      assert.strictEqual(json.files_matched, 6);
    });

    it('explains a search with no match, naming what was skipped', async () => {
      const json = await grepJson({ pattern: 'absent' }, makeEnv(enc, { config: { maxFileSize: 15000 } }));
      // The counts are fields; the note says what only checking the large file tells.
      assert.strictEqual(json.files_searched, 6);
      assert.deepStrictEqual(json.notes, ['1 file was skipped as over grepTools.maxFileSize (15000 bytes); checked, 1 without a match.']);
    });

    it('uses the configured maxLineLength', async () => {
      const json = await grepJson({ pattern: 'TODO', path: 'long.txt' }, makeEnv(enc, { config: { maxLineLength: 40 } }));
      const [match] = contentFiles(json)[0].matches;
      assert.strictEqual(match.text.length, 42);
      assert.ok(match.text.includes('TODO'));
    });
  });

  describe('denied paths and default excludes', () => {
    let den: string;
    let denEnv: SearchEnvironment;
    before(() => {
      den = fx.mkdir('denied');
      fx.files({
        'denied/.env': 'TODO env\n',
        'denied/config/.env.local': 'TODO env local\n',
        'denied/certs/server.pem': 'TODO pem\n',
        'denied/.ssh/id_rsa': 'TODO ssh\n',
        'denied/.git/config': 'TODO git\n',
        'denied/pkg/.git/HEAD': 'TODO nested git\n',
        'denied/secrets/db.txt': 'TODO secret\n',
        'denied/src/ok.ts': 'TODO ok\n',
        'denied/node_modules/m/index.js': 'TODO module\n',
      });
      denEnv = makeEnv(den);
    });

    it('never reports denied files, and counts the denied files it passed', async () => {
      const json = await grepJson({ pattern: 'TODO' }, denEnv);
      assert.deepStrictEqual(flatMatches(json, den), ['src/ok.ts:1:TODO ok']);
      // .env, config/.env.local, certs/server.pem, and the directories .ssh, .git and secrets, each counted
      // once and never entered (a link to a denied file counts too: grepLinks.test.ts). pkg/.git is not
      // counted: pkg holds nothing else the search selected, and VS Code's findFiles, which never lists pkg,
      // could not count it either.
      assert.strictEqual(json.skipped.denied, 6);
    });

    it('keeps denied files out even with include_ignored or an include that names them', async () => {
      const ignored = await grepJson({ pattern: 'TODO', include_ignored: true, output_mode: 'files_with_matches' }, denEnv);
      assert.deepStrictEqual(
        pathFiles(ignored).map((f) => rel(den, f)),
        ['node_modules/m/index.js', 'src/ok.ts'],
      );
      const named = await grepJson({ pattern: 'TODO', include: '{.env,*.pem,id_rsa,config,HEAD}', include_ignored: true }, denEnv);
      assert.deepStrictEqual(named.files, []);
    });

    it('refuses a denied path with "permission denied by policy" and the rule', async () => {
      const cases: Array<[string, string, string?]> = [
        ['.env', '**/.env'],
        ['config/.env.local', '**/.env.*'],
        ['certs/server.pem', '**/*.pem'],
        ['.ssh', '**/.ssh/**'],
        ['.ssh/id_rsa', '**/id_rsa*'],
        ['.ssh/known_hosts', '**/.ssh/**'], // denied before existence is even checked
        ['.git', '**/.git/**'],
        ['pkg/.git/HEAD', '**/.git/**'],
        ['secrets', '**/secrets/**'],
        ['src/../.env', '**/.env'], // '..' is resolved first
        ['.ENV', '**/.env'], // rules ignore case
      ];
      for (const [path, rule, leadsTo] of cases) {
        const where = leadsTo ? ` (it leads to ${leadsTo})` : '';
        await rejectsWith(
          answerGrep({ pattern: 'TODO', path }, denEnv),
          new RegExp(
            `^${escapeRegExp(`permission denied by policy: "${path}"${where} matches "${rule}" (grepTools.deniedPaths).`)} Secrets, keys and \\.git are never searched or listed, whatever the input says; search another path\\.$`,
          ),
        );
      }
    });

    it('skips node_modules (files.exclude / search.exclude defaults) unless include_ignored', async () => {
      const json = await grepJson({ pattern: 'module' }, denEnv);
      assert.strictEqual(json.total_matches, 0);
      assert.strictEqual(json.files_searched, 1);
      const ignored = await grepJson({ pattern: 'module', include_ignored: true }, denEnv);
      assert.deepStrictEqual(flatMatches(ignored, den), ['node_modules/m/index.js:1:TODO module']);
    });

    it('searches an excluded directory that path names explicitly', async () => {
      const json = await grepJson({ pattern: 'module', path: 'node_modules' }, denEnv);
      assert.deepStrictEqual(flatMatches(json, den), ['node_modules/m/index.js:1:TODO module']);
    });
  });

  describe('workspace folders and paths', () => {
    let one: string;
    let two: string;
    let outside: string;
    before(() => {
      one = fx.mkdir('multi/one');
      two = fx.mkdir('multi/two');
      outside = fx.mkdir('outside');
      fx.files({
        'multi/one/src/x.ts': 'TODO one x\n',
        'multi/one/README.md': 'TODO one readme\n',
        'multi/two/src/x.ts': 'TODO two x\n',
        'multi/two/only-two.md': 'TODO only two\n',
        'outside/o.txt': 'TODO outside\n',
      });
    });

    it('searches every folder, in folder order, and lists the bases', async () => {
      const json = await grepJson({ pattern: 'TODO' }, makeEnv(folders(two, one)));
      assert.strictEqual(json.base_path, undefined, 'all folders: the default, not repeated');
      assert.deepStrictEqual(
        contentFiles(json).map((f) => f.file),
        [nodePath.join(two, 'only-two.md'), nodePath.join(two, 'src', 'x.ts'), nodePath.join(one, 'README.md'), nodePath.join(one, 'src', 'x.ts')],
      );
    });

    it('a leading folder name selects that folder', async () => {
      const json = await grepJson({ pattern: 'TODO', path: 'two/src' }, makeEnv(folders(one, two)));
      assert.strictEqual(json.base_path, nodePath.join(two, 'src'));
      assert.deepStrictEqual(flatMatches(json, fx.path('multi')), ['two/src/x.ts:1:TODO two x']);
    });

    it('a relative path is looked up in each folder in order', async () => {
      const env2 = makeEnv(folders(one, two));
      assert.deepStrictEqual(flatMatches(await grepJson({ pattern: 'TODO', path: 'only-two.md' }, env2), fx.path('multi')), [
        'two/only-two.md:1:TODO only two',
      ]);
      assert.deepStrictEqual(flatMatches(await grepJson({ pattern: 'TODO', path: 'src/x.ts' }, env2), fx.path('multi')), ['one/src/x.ts:1:TODO one x']);
    });

    it('accepts an absolute path inside a folder and reports absolute file paths', async () => {
      const file = nodePath.join(two, 'src', 'x.ts');
      const json = await grepJson({ pattern: 'TODO', path: file }, makeEnv(folders(one, two)));
      assert.deepStrictEqual(contentFiles(json), [{ file, matches: [{ line: 1, text: 'TODO two x' }] }]);
    });

    it('refuses a path outside every folder, naming the resolved path and the folders', async () => {
      const env1 = makeEnv(one);
      const message = escapeRegExp(
        `resolves to ${outside}, which is outside every workspace folder (${one}). Searching outside the workspace needs the user's confirmation. Search inside the workspace, or ask the user to open that folder.`,
      );
      await rejectsWith(answerGrep({ pattern: 'TODO', path: outside }, env1), new RegExp(`^${escapeRegExp(`Path ${JSON.stringify(outside)} `)}${message}$`));
      await rejectsWith(answerGrep({ pattern: 'TODO', path: '../../outside' }, env1), new RegExp(`^${escapeRegExp('Path "../../outside" ')}${message}$`));
    });

    it('searches outside the workspace when allowed (the person confirmed)', async () => {
      const json = await grepJson({ pattern: 'TODO', path: outside }, makeEnv(one, { allowOutside: true }));
      assert.strictEqual(json.base_path, outside);
      assert.deepStrictEqual(contentFiles(json), [{ file: nodePath.join(outside, 'o.txt'), matches: [{ line: 1, text: 'TODO outside' }] }]);
    });

    it('reports a path that does not exist, with the nearest existing directory and the fix', async () => {
      await rejectsWith(
        answerGrep({ pattern: 'TODO', path: 'src/nope' }, makeEnv(one)),
        new RegExp(
          `^${escapeRegExp(`Path not found: "src/nope" (resolved to ${nodePath.join(one, 'src', 'nope')}). The nearest existing directory is ${nodePath.join(one, 'src')}. Check the path, or omit "path" to search the whole workspace.`)}$`,
        ),
      );
    });
  });
});
