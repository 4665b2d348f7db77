import * as fs from 'fs';
import * as assert from 'assert';
import { answerGlob } from '../../../../src/engine/answer/globAnswer';
import type { SearchEnvironment } from '../../../../src/engine/run/environment';
import { Fixture, folders, globJson, globRaw, makeEnv, native, rejectsWith, rel, type GlobAnswer } from '../../fixture';

const NO_SKIPS = { binary: 0, too_large: 0, denied: 0, unreadable: 0, outside_workspace: 0 };

describe('engine/glob (answerGlob + printGlob)', () => {
  let fx: Fixture;
  let ws: string;
  let env: SearchEnvironment;

  before(() => {
    fx = new Fixture();
    ws = fx.mkdir('ws');
    fx.files({
      'ws/index.ts': '',
      'ws/README.md': '',
      'ws/src/a.ts': '',
      'ws/src/b.tsx': '',
      'ws/src/c.js': '',
      'ws/src/lib/deep/d.ts': '',
      'ws/src/lib/e.test.ts': '',
      'ws/docs/guide.md': '',
      'ws/.github/workflows/ci.yml': '',
      'ws/node_modules/pkg/index.ts': '',
      'ws/.env': '',
      'ws/config/.envrc': '',
      'ws/keys/server.pem': '',
      'ws/.git/HEAD': '',
    });
    env = makeEnv(ws);
  });

  after(() => fx.remove());

  const names = (json: GlobAnswer) => json.files.map((f) => rel(ws, f));

  it('prints the documented fields', async () => {
    // Nothing that says nothing: no default mode, no count (files.length), no zero counters, no timing.
    assert.deepStrictEqual(await globRaw({ pattern: '*.ts' }, env), { root: ws, files: [native(`${ws}/index.ts`)] });
    // base_path when a path was given.
    assert.deepStrictEqual((await globRaw({ pattern: '*.ts', path: 'src' }, env)).base_path, native(`${ws}/src`));
    assert.deepStrictEqual((await globRaw({ pattern: '\\.ts$', mode: 'regex', max_results: 1 }, env)).mode, 'regex');
  });

  it('a pattern that matches directories says so, with the files each holds and the call that lists them', async () => {
    const json = await globJson({ pattern: '**/lib' }, env);
    assert.deepStrictEqual(json.files, []);
    assert.deepStrictEqual(json.notes, [
      `"**/lib" matches 1 directory, and glob lists files only: ${native('src/lib')} (2 files). List their files with {"pattern":"**/lib/**"}.`,
    ]);
    assert.deepStrictEqual(names(await globJson({ pattern: '**/lib/**' }, env)), ['src/lib/deep/d.ts', 'src/lib/e.test.ts']);
    // A denied directory is never named (keys/ holds only a denied file; .git is denied).
    assert.deepStrictEqual((await globJson({ pattern: '{keys,.git}' }, env)).notes, [
      'No file matches "{keys,.git}" under the base path; skipped 1 denied by policy.',
    ]);
  });

  it('a listing of one directory names its subdirectories, with their files', async () => {
    const json = await globJson({ pattern: 'src/*' }, env);
    assert.deepStrictEqual(names(json), ['src/a.ts', 'src/b.tsx', 'src/c.js']);
    assert.deepStrictEqual(json.notes, [
      'Not listed, as glob lists files only: 1 directory (files in each): src/lib/ (2). List their files with {"pattern":"src/*/**"}.',
    ]);
  });

  it('sort "mtime" gives each file its modification time, newest first', async () => {
    fs.utimesSync(fx.path('ws/src/a.ts'), new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:05Z'));
    fs.utimesSync(fx.path('ws/src/c.js'), new Date('2026-02-02T03:04:05Z'), new Date('2026-02-02T03:04:05Z'));
    fs.utimesSync(fx.path('ws/src/b.tsx'), new Date('2025-12-31T23:59:59Z'), new Date('2025-12-31T23:59:59Z'));
    const json = await globRaw({ pattern: 'src/*', sort: 'mtime' }, env);
    // Each path mapped to its time, newest first (JSON keeps the order of an object's keys).
    assert.deepStrictEqual(Object.entries(json.files as object), [
      [native(`${ws}/src/c.js`), '2026-02-02T03:04:05Z'],
      [native(`${ws}/src/a.ts`), '2026-01-02T03:04:05Z'],
      [native(`${ws}/src/b.tsx`), '2025-12-31T23:59:59Z'],
    ]);
  });

  it('"*.ts" matches only in the base directory; "**/*.ts" at any depth', async () => {
    assert.deepStrictEqual(names(await globJson({ pattern: '*.ts' }, env)), ['index.ts']);
    assert.deepStrictEqual(names(await globJson({ pattern: '**/*.ts' }, env)), ['index.ts', 'src/a.ts', 'src/lib/deep/d.ts', 'src/lib/e.test.ts']);
    assert.deepStrictEqual(names(await globJson({ pattern: 'src/*' }, env)), ['src/a.ts', 'src/b.tsx', 'src/c.js']);
  });

  it('supports braces, ? and character classes, and matches dot directories', async () => {
    assert.deepStrictEqual(names(await globJson({ pattern: 'src/**/*.{ts,tsx}' }, env)), ['src/a.ts', 'src/b.tsx', 'src/lib/deep/d.ts', 'src/lib/e.test.ts']);
    assert.deepStrictEqual(names(await globJson({ pattern: 'src/?.[jt]s' }, env)), ['src/a.ts', 'src/c.js']);
    assert.deepStrictEqual(names(await globJson({ pattern: '**/*.yml' }, env)), ['.github/workflows/ci.yml']);
  });

  it('never lists denied files, and leaves out node_modules unless include_ignored', async () => {
    const all = names(await globJson({ pattern: '**' }, env));
    assert.deepStrictEqual(all, [
      '.github/workflows/ci.yml',
      'README.md',
      'config/.envrc',
      'docs/guide.md',
      'index.ts',
      'src/a.ts',
      'src/b.tsx',
      'src/c.js',
      'src/lib/deep/d.ts',
      'src/lib/e.test.ts',
    ]);
    const ignored = await globJson({ pattern: '**', include_ignored: true }, env);
    assert.ok(names(ignored).includes('node_modules/pkg/index.ts'));
    for (const path of names(ignored)) assert.ok(!/(^|\/)(\.env$|server\.pem$|\.git\/)/.test(path), path);
    assert.deepStrictEqual(names(await globJson({ pattern: '**/.env', include_ignored: true }, env)), []);
  });

  it('max_depth limits how deep below the base to look (1 = the base only)', async () => {
    assert.deepStrictEqual(names(await globJson({ pattern: '**/*.ts', max_depth: 1 }, env)), ['index.ts']);
    assert.deepStrictEqual(names(await globJson({ pattern: '**/*.ts', max_depth: 2 }, env)), ['index.ts', 'src/a.ts']);
    assert.strictEqual((await globJson({ pattern: '**/*.ts', max_depth: 0 }, env)).total, 4, '0 = unlimited');
  });

  it('path sets the base; patterns are relative to it', async () => {
    const json = await globJson({ pattern: '*.ts', path: 'src/lib/deep' }, env);
    assert.strictEqual(json.base_path, native(`${ws}/src/lib/deep`));
    assert.deepStrictEqual(json.files, [native(`${ws}/src/lib/deep/d.ts`)]);
  });

  it('an absolute glob uses its static prefix as the base', async () => {
    const json = await globJson({ pattern: `${ws}/src/**/*.ts` }, env);
    assert.strictEqual(json.base_path, native(`${ws}/src`));
    assert.deepStrictEqual(names(json), ['src/a.ts', 'src/lib/deep/d.ts', 'src/lib/e.test.ts']);
    assert.strictEqual(json.pattern, undefined, "the pattern is the call's own input: not echoed");
    // The same base given as path too is fine; a different one is an error.
    assert.strictEqual((await globJson({ pattern: `${ws}/src/*.ts`, path: `${ws}/src` }, env)).total, 1);
    await rejectsWith(
      answerGlob({ pattern: `${ws}/src/*.ts`, path: 'docs' }, env),
      /^Give either an absolute glob or "path", not both: pattern ".*\/src\/\*\.ts" already names the base .*[\\/]src\.$/,
    );
  });

  it('refuses an absolute glob outside the workspace', async () => {
    await rejectsWith(answerGlob({ pattern: `${fx.root}/*.ts` }, env), /which is outside every workspace folder/);
  });

  it('mode regex tests a JavaScript regex against the base-relative path', async () => {
    const json = await globJson({ pattern: '\\.test\\.ts$|^docs/', mode: 'regex' }, env);
    assert.strictEqual(json.mode, 'regex');
    assert.deepStrictEqual(names(json), ['docs/guide.md', 'src/lib/e.test.ts']);
    await rejectsWith(
      answerGlob({ pattern: '(', mode: 'regex' }, env),
      /^Invalid regular expression "\(": .*Hint: in mode "regex" the pattern is a JavaScript regex tested against the base-relative path/,
    );
  });

  it('sort mtime lists the newest first (ties by path)', async () => {
    fx.touch('ws/src/a.ts', 1_000_000);
    fx.touch('ws/src/lib/deep/d.ts', 3_000_000);
    fx.touch('ws/index.ts', 2_000_000);
    fx.touch('ws/src/lib/e.test.ts', 2_000_000);
    const json = await globJson({ pattern: '**/*.ts', sort: 'mtime' }, env);
    assert.deepStrictEqual(names(json), ['src/lib/deep/d.ts', 'index.ts', 'src/lib/e.test.ts', 'src/a.ts']);
  });

  it('pages with max_results and offset, disjoint and gap-free', async () => {
    const all = names(await globJson({ pattern: '**' }, env));
    const seen: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const json: GlobAnswer = await globJson({ pattern: '**', max_results: 4, offset }, env);
      assert.ok(json.files.length <= 4);
      assert.strictEqual(json.total, all.length);
      if (json.next_offset !== undefined) {
        assert.strictEqual(json.truncated, true);
        assert.strictEqual(json.next_offset, offset + 4);
        assert.deepStrictEqual(json.notes, [
          `Showing files ${offset + 1}-${offset + 4} of ${all.length}. Call again with offset ${offset + 4} for more, or narrow the search.`,
        ]);
      } else {
        assert.strictEqual(json.truncated, false);
        assert.deepStrictEqual(json.notes, []);
      }
      seen.push(...names(json));
      offset = json.next_offset;
    }
    assert.deepStrictEqual(seen, all);
    const past = await globJson({ pattern: '**', offset: 50 }, env);
    assert.deepStrictEqual(past.notes, [`offset 50 is past the last result: there are ${all.length} files. Use an offset below that.`]);
  });

  it('suggests the recursive form when a pattern without / found nothing at the base', async () => {
    const json = await globJson({ pattern: '*.md', path: 'src' }, env);
    assert.strictEqual(json.total, 0);
    assert.deepStrictEqual(json.notes, ['No file matches "*.md" under the base path.'], 'nothing deeper either: no suggestion');
    const deeper = await globJson({ pattern: '*.tsx' }, env);
    assert.deepStrictEqual(deeper.files, []);
    assert.deepStrictEqual(deeper.notes, [
      '"*.tsx" matches only directly in the base directory and found nothing there; "**/*.tsx" finds 1 files at any depth.',
    ]);
    // .env is denied at the base; the second look (**/.env*) passes it again but must not count it twice.
    const hidden = await globJson({ pattern: '.env*' }, env);
    assert.deepStrictEqual(hidden.files, []);
    assert.deepStrictEqual(hidden.skipped, { ...NO_SKIPS, denied: 1 });
    assert.deepStrictEqual(hidden.notes, [
      '".env*" matches only directly in the base directory and found nothing there; "**/.env*" finds 1 files at any depth.',
    ]);
  });

  it('explains an empty result when nothing matches at any depth', async () => {
    const json = await globJson({ pattern: '*.rs' }, env);
    assert.deepStrictEqual(json.notes, ['No file matches "*.rs" under the base path.']);
    assert.deepStrictEqual(json.skipped, NO_SKIPS, 'denied files the pattern would not match are not counted');
    const denied = await globJson({ pattern: '**/*.pem' }, env);
    // keys/server.pem, and the .git directory, which could hold a .pem and is not listed.
    assert.deepStrictEqual(denied.notes, ['No file matches "**/*.pem" under the base path; skipped 2 denied by policy.']);
  });

  it('refuses backslashes and invalid input, naming the field', async () => {
    await rejectsWith(answerGlob({ pattern: 'src\\*.ts' }, env), /^Invalid glob "src\\\\\*\.ts": use '\/' as the path separator, not '\\'\.$/);
    await rejectsWith(globJson({ pattern: '*', max_depth: -1 }, env), /^Invalid glob input: "max_depth" must be an integer >= 0/);
    await rejectsWith(answerGlob({ pattern: '*', path: '.env' }, env), /permission denied by policy/);
    await rejectsWith(answerGlob({ pattern: '*', path: 'nope' }, env), /^Path not found: "nope"/);
  });

  it('lists every workspace folder in folder order', async () => {
    const second = fx.mkdir('second');
    fx.files({ 'second/z.ts': '', 'second/a.ts': '' });
    const json = await globJson({ pattern: '*.ts' }, makeEnv(folders(second, ws)));
    assert.strictEqual(json.base_path, undefined, 'all folders: the default, not repeated');
    assert.deepStrictEqual(json.files, [native(`${second}/a.ts`), native(`${second}/z.ts`), native(`${ws}/index.ts`)]);
    const selected = await globJson({ pattern: '*.ts', path: 'ws/src' }, makeEnv(folders(second, ws)));
    assert.deepStrictEqual(selected.files, [native(`${ws}/src/a.ts`)]);
  });
});
