import * as assert from 'assert';
import * as nodePath from 'path';
import type { GrepInput } from '../../../../src/engine/api/types';
import type { FileSource } from '../../../../src/engine/source/fileSource';
import { type SearchEnvironment } from '../../../../src/engine/run/environment';
import { answerGrep } from '../../../../src/engine/answer/grepAnswer';
import { SearchPool } from '../../../../src/engine/pool/pool';
import { runGrep } from '../../../../src/engine/run/grep';
import { diagnoseGrep, readingChanges } from '../../../../src/engine/answer/diagnostics';
import { Fixture, globJson, grepJson, makeEnv, type GlobAnswer, type GrepAnswer } from '../../fixture';

/** The notes after the first (which says what was searched), the suggestions. */
// An empty grep answer's notes are its suggestions (files, files_searched and skipped say it is empty); glob's first note says so.
const suggestions = (json: GrepAnswer | GlobAnswer) => json.notes.slice('files_searched' in json ? 0 : 1);

/** An environment whose file source counts its listings (each search, or re-run, lists once). */
function counting(env: SearchEnvironment): { env: SearchEnvironment; listings: () => number } {
  let listings = 0;
  const source: FileSource = {
    kind: (path) => env.source.kind(path),
    mtime: (path) => env.source.mtime(path),
    list: (...args) => {
      listings++;
      return env.source.list(...args);
    },
  };
  return { env: { ...env, source }, listings: () => listings };
}

describe('engine/diagnostics (zero results explain themselves, checked)', () => {
  let fx: Fixture;
  let env: SearchEnvironment;
  const p = (relative: string) => fx.path(relative);
  /** A path below the workspace as the answer's notes name it: relative to its root, with the platform's separator. */
  const named = (relative: string) => relative.split('/').join(nodePath.sep);

  before(() => {
    fx = new Fixture('grep-tools-diag-');
    fx.files({
      '.gitignore': 'dist/\n*.log\n',
      'src/userService.ts': 'export class UserService {\n  find(id: string) { return db.users[id]; }\n}\n',
      'src/app.ts': "import { UserService } from './userService';\nconst home = process.env.HOME;\n",
      'src/lib/util.sh': 'echo "$HOME/bin"\n',
      'dist/bundle.js': 'var legacyToken = 1;\n',
      'debug.log': 'legacyToken expired\n',
      'node_modules/pkg/index.js': 'module.exports = legacyToken;\n',
      'docs/README.md': '# Users\n',
      'deep/a/b/c/config.yaml': 'port: 8080\n',
    });
    env = makeEnv(fx.root);
  });

  after(() => fx.remove());

  describe('grep', () => {
    it('suggests ignoring case when that finds matches, with the count, the first match and the call', async () => {
      const json = await grepJson({ pattern: 'userservice', output_mode: 'files_with_matches' }, env);
      assert.deepStrictEqual(json.files, []);
      assert.strictEqual(json.files_searched, 6);
      assert.deepStrictEqual(suggestions(json), [
        `The search is case-sensitive; ignoring case it matches 2 lines in 2 files (first: ${named('src/app.ts')}:1 "import { UserService } from './userService';"). Call again with {"pattern":"userservice","output_mode":"files_with_matches","case_insensitive":true}.`,
      ]);
    });

    it('suggests include_ignored when ignored files hold matches, saying how many (.gitignore and excludes)', async () => {
      const json = await grepJson({ pattern: 'legacyToken', context_lines: 2, offset: 0 }, env);
      assert.deepStrictEqual(suggestions(json), [
        `Files left out by .gitignore, files.exclude or search.exclude hold matches: 3 lines in 3 files (first: ${named('debug.log')}:1 "legacyToken expired"). Call again with {"pattern":"legacyToken","context_lines":2,"include_ignored":true} to search them.`,
      ]);
      // The call it gives finds them.
      const again = await grepJson({ pattern: 'legacyToken', context_lines: 2, include_ignored: true }, env);
      assert.strictEqual(again.total_matches, 3);
    });

    it("checks at most 1,000 candidates, or twice the search's own, with the files left out: a large excluded tree is not read on every empty answer", async function () {
      this.timeout(10_000); // 1,200 files written and read
      const tree = new Fixture('grep-tools-excluded-');
      try {
        // 3 files searched, 1,200 excluded ones (node_modules): a match in the first ones is found, one past the check is not read.
        const modules: Record<string, string> = {};
        for (let i = 0; i < 1200; i++)
          modules[`node_modules/p${String(i).padStart(4, '0')}.js`] = i === 5 ? 'earlyToken\n' : i === 1100 ? 'lateToken\n' : 'x\n';
        tree.files({ ...modules, 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/c.ts': 'c\n' });
        const small = makeEnv(tree.root);
        const early = await grepJson({ pattern: 'earlyToken' }, small);
        assert.deepStrictEqual(suggestions(early), [
          `Files left out by .gitignore, files.exclude or search.exclude hold matches: at least 1 line in 1 file (first: ${named('node_modules/p0005.js')}:1 "earlyToken"). Call again with {"pattern":"earlyToken","include_ignored":true} to search them.`,
        ]);
        const late = await grepJson({ pattern: 'lateToken' }, small);
        assert.deepStrictEqual(suggestions(late), [
          'Files left out by .gitignore, files.exclude or search.exclude are too many to check here; the first ones hold no match. Call again with {"pattern":"lateToken","include_ignored":true} to search them all.',
        ]);
      } finally {
        tree.remove();
      }
    });

    it('reads only the ignored files for that check, none the search has read already (each file once per empty answer)', async () => {
      const tree = new Fixture('grep-tools-ignored-only-');
      try {
        const files: Record<string, string> = { '.gitignore': 'build/\n' };
        for (let i = 0; i < 40; i++) files[`src/f${i}.ts`] = `export const value${i} = ${i};\n`;
        files['build/out.js'] = 'var x = 12345_67890;\n';
        files['node_modules/pkg/index.js'] = 'module.exports = 1;\n';
        tree.files(files);
        const reads: string[] = [];
        const base = makeEnv(tree.root);
        const env: SearchEnvironment = {
          ...base,
          readFile: (path, maxSize, scope) => {
            reads.push(nodePath.relative(tree.root, path).split(nodePath.sep).join('/'));
            return base.readFile(path, maxSize, scope);
          },
        };
        // No letter in the pattern (no case to ignore), nothing a regex reads otherwise: the only check is the ignored files'.
        const json = await grepJson({ pattern: '12345_67890' }, env);
        assert.deepStrictEqual(suggestions(json), [
          `Files left out by .gitignore, files.exclude or search.exclude hold matches: 1 line in 1 file (first: ${named('build/out.js')}:1 "var x = 12345_67890;"). Call again with {"pattern":"12345_67890","include_ignored":true} to search them.`,
        ]);
        const counted = new Map<string, number>();
        for (const read of reads) counted.set(read, (counted.get(read) ?? 0) + 1);
        assert.deepStrictEqual(
          [...counted].filter(([, times]) => times > 1),
          [],
        );
        assert.deepStrictEqual(
          reads.filter((read) => !read.startsWith('src/')),
          ['.gitignore', 'build/out.js', 'node_modules/pkg/index.js'],
        );
        assert.strictEqual(reads.length, 43);
      } finally {
        tree.remove();
      }
    });

    it('suggests literal text when the pattern, read as a regex, cannot match', async () => {
      const json = await grepJson({ pattern: '$HOME/bin' }, env);
      assert.deepStrictEqual(suggestions(json), [
        `As a regular expression the pattern matches nothing ($ is an end-of-line anchor); as literal text it matches 1 line in 1 file (first: ${named('src/lib/util.sh')}:1 "echo \\"$HOME/bin\\""). Call again with {"pattern":"$HOME/bin","fixed_strings":true}.`,
      ]);
    });

    it('checks the literal reading of a half-escaped pattern: its escapes undone, "$" named as an anchor', async () => {
      const dollar = await grepJson({ pattern: '"$HOME\\/bin"' }, env);
      assert.deepStrictEqual(suggestions(dollar), [
        `As a regular expression the pattern matches nothing ($ is an end-of-line anchor); as literal text it matches 1 line in 1 file (first: ${named('src/lib/util.sh')}:1 "echo \\"$HOME/bin\\""). Call again with {"pattern":"\\"$HOME/bin\\"","fixed_strings":true}.`,
      ]);
    });

    it('a file over the size limit: an empty answer says whether the pattern occurs in it, with its size and first matching line', async () => {
      const big = new Fixture('grep-tools-large-');
      try {
        big.files({ 'gen/bundle.js': `${'// filler line\n'.repeat(200)}function createProgram(root) {}\n`, 'src/a.js': 'createProgramme();\n' });
        const small = makeEnv(big.root, { config: { maxFileSize: 1024 } });
        const json = await grepJson({ pattern: '^function createProgram\\(' }, small);
        assert.deepStrictEqual(json.notes, [
          `1 file was skipped as over grepTools.maxFileSize (1024 bytes); the pattern occurs in ${named('gen/bundle.js')} (3 KB, first at line 201: "function createProgram(root) {}"). ` +
            'Read it there with your file-reading tool, or ask the user to raise grepTools.maxFileSize.',
        ]);
        // Absent there too: it says so, briefly.
        const none = await grepJson({ pattern: 'nowhere-zz' }, small);
        assert.deepStrictEqual(none.notes, ['1 file was skipped as over grepTools.maxFileSize (1024 bytes); checked, 1 without a match.']);
      } finally {
        big.remove();
      }
    });

    it('files over the size limit are checked up to 128 MB in all for an empty answer, 32 MB for a cut page', async () => {
      const big = new Fixture('grep-tools-large-budget-');
      try {
        const bundle = `${'// filler line of a generated bundle\n'.repeat((12 * 1024 * 1024) / 37)}const marker_5c1f = 1;\n`;
        for (let i = 1; i <= 5; i++) big.write(`gen/bundle${i}.js`, bundle);
        big.files({ 'src/a.js': 'marker_5c1f();\n', 'src/b.js': 'marker_5c1f();\n' });
        const small = makeEnv(big.root, { config: { maxFileSize: 1024 * 1024 } });
        const notes = async (input: GrepInput) => (await grepJson(input, small)).notes.join('\n');
        // 12 MB each: all five (60 MB) for an empty answer, two (24 MB) for a cut page.
        assert.match(await notes({ pattern: 'marker_5c1f = 1' }), /5 files were skipped[^\n]*bundle5\.js/);
        const cut = await notes({ pattern: 'marker_5c1f', max_results: 1 });
        assert.match(cut, /5 files were skipped[^\n]*bundle2\.js[^\n]*3 not checked/);
        assert.doesNotMatch(cut, /bundle3\.js/);
      } finally {
        big.remove();
      }
    });

    it('an invalid regex that is valid literal text: the error gives the literal count, its first match and the call', async () => {
      await assert.rejects(answerGrep({ pattern: 'users[id' }, env), (error: Error) => {
        assert.strictEqual(
          error.message,
          `Invalid regular expression "users[id": Unterminated character class. Hint: escape special characters such as ( ) [ ] { } * + ? with a backslash, or set fixed_strings: true to search for the text literally. ` +
            `As literal text the pattern matches 1 line in 1 file (first: ${p('src/userService.ts')}:2 "find(id: string) { return db.users[id]; }"). Call again with {"pattern":"users[id","fixed_strings":true}.`,
        );
        return true;
      });
      // Not found literally either: the error alone.
      await assert.rejects(answerGrep({ pattern: 'nowhere(' }, env), (error: Error) =>
        /^Invalid regular expression "nowhere\(": Unterminated group\. Hint: [^.]*\.$/.test(error.message),
      );
    });

    it('suggests the include glob at any depth when the anchored one matched no file', async () => {
      const json = await grepJson({ pattern: 'HOME', include: 'lib/*.sh' }, env);
      assert.deepStrictEqual(json.notes, [
        'The include glob "lib/*.sh" matched no file under the search path.',
        `The include glob "lib/*.sh" is matched from the search path; "**/lib/*.sh" at any depth matches 1 line in 1 file (first: ${named('src/lib/util.sh')}:1 "echo \\"$HOME/bin\\""). Call again with {"pattern":"HOME","include":"**/lib/*.sh"}.`,
      ]);
    });

    it('suggests nothing that checking shows would not help', async () => {
      const json = await grepJson({ pattern: 'no such text anywhere' }, env);
      assert.deepStrictEqual(json.notes, []);
      assert.strictEqual(json.files_searched, 6);
      // Ignoring case is not suggested when the search already ignores case, nor for invert_match.
      const insensitive = await grepJson({ pattern: '(?i)zzz' }, env);
      assert.deepStrictEqual(suggestions(insensitive), []);
    });

    it('runs the checks once each, never checks a check, and not at all when there are results', async () => {
      const probe = counting(env);
      // The search (which counts the case and literal readings itself), then the ignored files' check (listed with and without them, to leave out what the search read).
      await grepJson({ pattern: 'nothing[0]' }, probe.env);
      assert.strictEqual(probe.listings(), 3);
      const found = counting(env);
      await grepJson({ pattern: 'UserService' }, found.env);
      assert.strictEqual(found.listings(), 1);
    });

    for (const withPool of [false, true]) {
      const where = withPool ? 'worker pool' : 'inline reads';
      it(`counts the readings ignoring case and as literal text in the search itself: no file is searched again for them, and the notes are the same (${where})`, async () => {
        const pool = withPool ? new SearchPool(2) : undefined;
        try {
          // An unsaved editor's text is counted too.
          const overrides = new Map([[p('src/app.ts'), "import { UserService } from './userService';\nls $HOME/bin\n"]]);
          const probe = counting({ ...env, ...(pool ? { pool } : {}), overrides });
          const lower = await grepJson({ pattern: 'userservice' }, probe.env);
          assert.deepStrictEqual(suggestions(lower), [
            `The search is case-sensitive; ignoring case it matches 2 lines in 2 files (first: ${named('src/app.ts')}:1 "import { UserService } from './userService';"). Call again with {"pattern":"userservice","case_insensitive":true}.`,
          ]);
          const anchored = await grepJson({ pattern: '$HOME/bin' }, probe.env);
          assert.deepStrictEqual(suggestions(anchored), [
            `As a regular expression the pattern matches nothing ($ is an end-of-line anchor); as literal text it matches 2 lines in 2 files (first: ${named('src/app.ts')}:2 "ls $HOME/bin"). Call again with {"pattern":"$HOME/bin","fixed_strings":true}.`,
          ]);
          // Each: the search, and the ignored files' check; no re-run for the case or the literal reading.
          assert.strictEqual(probe.listings(), 6);
        } finally {
          pool?.dispose();
        }
      });
    }

    it('a reading the search counted gives the same finding as searching again for it, for each pattern', async () => {
      const pool = new SearchPool(2);
      try {
        const withPool: SearchEnvironment = { ...env, pool };
        const patterns = ['userservice', '$HOME/bin', 'USERS\\[ID\\]', 'export CLASS', 'Port: 8080$', 'find\\(id', 'legacytoken', 'Users$', '(?i)nothing'];
        for (const pattern of patterns) {
          const deadline = Date.now() + 30_000;
          const counted = await runGrep({ pattern }, withPool, { deadline, fallbacks: Object.values(readingChanges({ pattern })) });
          const plain = await runGrep({ pattern }, withPool, { deadline });
          assert.strictEqual(plain.fallbacks, undefined);
          assert.deepStrictEqual(
            await diagnoseGrep({ pattern }, counted, withPool, deadline),
            await diagnoseGrep({ pattern }, plain, withPool, deadline),
            pattern,
          );
        }
      } finally {
        pool.dispose();
      }
    });

    it('checks nothing after a time-out: the note says the search timed out', async () => {
      const probe = counting(makeEnv(fx.root, { config: { timeoutSeconds: -1 } }));
      const json = await grepJson({ pattern: 'userservice' }, probe.env);
      assert.strictEqual(json.timed_out, true);
      assert.match(json.notes[0], /^The search timed out after \d+ s/);
      assert.strictEqual(json.files_searched, 0);
      assert.strictEqual(json.notes.length, 1);
      assert.strictEqual(probe.listings(), 1);
    });

    it('stops when cancelled during the checks', async () => {
      let cancelled = false;
      const base = makeEnv(fx.root, { isCancelled: () => cancelled });
      // Cancelled while the first re-run lists its files.
      const source: FileSource = {
        ...base.source,
        kind: (path) => base.source.kind(path),
        mtime: (path) => base.source.mtime(path),
        list: (query, ...rest) => {
          if (query.includeIgnored) cancelled = true;
          return base.source.list(query, ...rest);
        },
      };
      await assert.rejects(answerGrep({ pattern: 'userservice' }, { ...base, source }), /^CancelledError: The search was cancelled\.$/);
    });
  });

  describe('glob', () => {
    it('suggests the files a case-insensitive match finds', async () => {
      const json = await globJson({ pattern: '**/readme.md' }, env);
      assert.deepStrictEqual(suggestions(json), [
        `Glob patterns are case-sensitive; ignoring case the pattern matches 1 file (${named('docs/README.md')}). Use those paths, or spell the pattern as they are spelled.`,
      ]);
    });

    it('suggests include_ignored with the count', async () => {
      const json = await globJson({ pattern: '**/*.js' }, env);
      assert.deepStrictEqual(suggestions(json), [
        `Files left out by .gitignore, files.exclude or search.exclude match: 2 files (${named('dist/bundle.js')}, ${named('node_modules/pkg/index.js')}). Call again with {"pattern":"**/*.js","include_ignored":true} to list them.`,
      ]);
    });

    it('suggests lifting max_depth when the files are deeper', async () => {
      const json = await globJson({ pattern: '**/*.yaml', max_depth: 2 }, env);
      assert.deepStrictEqual(suggestions(json), [
        `max_depth 2 stops above them; at any depth the pattern matches 1 file (${named('deep/a/b/c/config.yaml')}). Call again with {"pattern":"**/*.yaml","max_depth":0}.`,
      ]);
    });

    it('keeps the base of an absolute glob when ignoring case', async () => {
      const json = await globJson({ pattern: `${fx.root}/docs/*.MD` }, env);
      assert.deepStrictEqual(suggestions(json), [
        `Glob patterns are case-sensitive; ignoring case the pattern matches 1 file (${named('docs/README.md')}). Use those paths, or spell the pattern as they are spelled.`,
      ]);
    });

    it('keeps the "**/" suggestion and says nothing more when nothing else helps', async () => {
      const json = await globJson({ pattern: '*.yaml' }, env);
      assert.deepStrictEqual(json.notes, [
        '"*.yaml" matches only directly in the base directory and found nothing there; "**/*.yaml" finds 1 files at any depth.',
      ]);
    });
  });
});
