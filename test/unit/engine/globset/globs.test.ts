import * as assert from 'assert';
import fc from 'fast-check';
import { Minimatch } from 'minimatch';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import {
  comparePaths,
  compileGlob,
  deniedDirectoryGlobs,
  deniedRule,
  GLOB_OPTIONS,
  globMayMatch,
  isNameGlob,
  splitAbsoluteGlob,
  windowsCanonical,
} from '../../../../src/engine/globset/globs';
import { InputError } from '../../../../src/engine/api/errors';

const matches = (glob: string, relative: string) => compileGlob(glob, 'include')(relative);

describe('engine/globs', () => {
  describe('isNameGlob', () => {
    it('is true only for a glob without /', () => {
      assert.strictEqual(isNameGlob('*.ts'), true);
      assert.strictEqual(isNameGlob('*.{ts,tsx}'), true);
      assert.strictEqual(isNameGlob('src/*.ts'), false);
      assert.strictEqual(isNameGlob('**/*.ts'), false);
    });
  });

  describe('compileGlob', () => {
    it('matches a glob without / against the file name at any depth', () => {
      assert.ok(matches('*.ts', 'a.ts'));
      assert.ok(matches('*.ts', 'src/deep/er/a.ts'));
      assert.ok(!matches('*.ts', 'src/a.tsx'));
      assert.ok(matches('package.json', 'packages/x/package.json'));
    });

    it('anchors a glob with / at the base', () => {
      assert.ok(matches('src/*.ts', 'src/a.ts'));
      assert.ok(!matches('src/*.ts', 'src/lib/a.ts'));
      assert.ok(!matches('src/*.ts', 'other/src/a.ts'));
      assert.ok(matches('src/**/*.ts', 'src/lib/deep/a.ts'));
      assert.ok(matches('src/**/*.ts', 'src/a.ts'), '** matches zero directories');
      assert.ok(matches('**/*.ts', 'a.ts'));
    });

    it('supports braces, ?, character classes and dotfiles', () => {
      assert.ok(matches('src/**/*.{ts,tsx}', 'src/ui/App.tsx'));
      assert.ok(matches('*.{ts,tsx}', 'deep/x.ts'));
      assert.ok(!matches('*.{ts,tsx}', 'deep/x.js'));
      assert.ok(matches('?.md', 'docs/a.md'));
      assert.ok(!matches('?.md', 'docs/ab.md'));
      assert.ok(matches('[ab].md', 'b.md'));
      assert.ok(!matches('[ab].md', 'c.md'));
      assert.ok(matches('*.yml', '.github/workflows/ci.yml'), 'dot directories are matched');
      assert.ok(matches('.eslintrc*', 'pkg/.eslintrc.json'));
    });

    it('ignores a leading ./', () => {
      assert.ok(matches('./src/*.ts', 'src/a.ts'));
    });

    it('is case-sensitive', () => {
      assert.ok(!matches('*.TS', 'a.ts'));
    });

    it('refuses backslash separators, naming the field and the fix', () => {
      assert.throws(
        () => compileGlob('src\\*.ts', 'exclude'),
        (error: unknown) => error instanceof InputError && error.message === `Invalid exclude glob "src\\\\*.ts": use '/' as the path separator, not '\\'.`,
      );
    });

    it('refuses a glob that can match nothing', () => {
      assert.throws(() => compileGlob('', 'include'), /^InputError: Invalid include glob "": it matches nothing\.$/);
    });
  });

  describe('deniedRule', () => {
    it('denies the default secrets and .git at any depth', () => {
      const denied: Array<[string, string]> = [
        ['.env', '**/.env'],
        ['app/.env', '**/.env'],
        ['.env.local', '**/.env.*'],
        ['certs/server.pem', '**/*.pem'],
        ['tls.key', '**/*.key'],
        ['home/id_rsa', '**/id_rsa*'],
        ['id_rsa.pub', '**/id_rsa*'],
        ['id_ed25519', '**/id_ed25519*'],
        ['.ssh/config', '**/.ssh/**'],
        ['a/.ssh/known_hosts', '**/.ssh/**'],
        ['secrets/db.txt', '**/secrets/**'],
        ['.aws/credentials', '**/.aws/credentials'],
        ['.netrc', '**/.netrc'],
        ['.git/config', '**/.git/**'],
        ['sub/.git/HEAD', '**/.git/**'],
        ['home/id_ecdsa', '**/id_ecdsa*'],
        ['id_dsa.pub', '**/id_dsa*'],
        ['certs/client.p12', '**/*.p12'],
        ['certs/CLIENT.PFX', '**/*.pfx'],
        ['putty/server.ppk', '**/*.ppk'],
        ['android/release.jks', '**/*.jks'],
        ['android/debug.keystore', '**/*.keystore'],
        ['vault.kdbx', '**/*.kdbx'],
        ['.gnupg/private-keys-v1.d/x.key', '**/*.key'],
        ['.gnupg/pubring.kbx', '**/.gnupg/**'],
        ['.git-credentials', '**/.git-credentials'],
        ['.pgpass', '**/.pgpass'],
        ['.pypirc', '**/.pypirc'],
        ['.npmrc', '**/.npmrc'],
        ['home/.docker/config.json', '**/.docker/config.json'],
        ['.kube/config', '**/.kube/config'],
        ['infra/terraform.tfstate', '**/*.tfstate'],
        ['infra/terraform.tfstate.backup', '**/*.tfstate.*'],
      ];
      for (const [path, rule] of denied) assert.strictEqual(deniedRule(path, DEFAULT_DENIED_PATHS), rule, path);
    });

    it('ignores case, so .ENV and X.PEM are denied too', () => {
      assert.strictEqual(deniedRule('.ENV', DEFAULT_DENIED_PATHS), '**/.env');
      assert.strictEqual(deniedRule('X.PEM', DEFAULT_DENIED_PATHS), '**/*.pem');
    });

    it('allows ordinary files that only look similar', () => {
      for (const path of [
        'src/env.ts',
        'environment.md',
        '.envrc',
        'keys.ts',
        'gitignore',
        '.gitignore',
        'docs/secrets.md',
        'a/ssh/config',
        'docker/config.json',
        'kube/config',
        'tfstate.md',
        'main.tf',
      ]) {
        assert.strictEqual(deniedRule(path, DEFAULT_DENIED_PATHS), undefined, path);
      }
    });

    it("names the first rule minimatch matches (ignoring case), under any spelling of the default rules' names (fast-check)", () => {
      // Minimatch as the reference: each rule as a glob over the lower-cased path, the first one that matches.
      const reference = DEFAULT_DENIED_PATHS.map((rule) => ({ rule, glob: new Minimatch(rule, { dot: true, nocase: true }) }));
      const referenceRule = (path: string) => reference.find(({ glob }) => glob.match(path.toLowerCase()))?.rule;
      const pieces = ['.env', '.ENV', 'Env', '.pem', 'id_rsa', 'ID_RSA', '.ssh', '.SSH', 'secrets', '.aws', 'credentials', '.git', 'config'];
      const more = ['.tfstate', '.TFState', '.', 'x', 'src', 'a-b', 'key', '.key', '.docker', 'config.json', '.kube', '.npmrc', 'é', 'ſ', 'İ'];
      const segment = fc
        .array(fc.constantFrom(...pieces, ...more), { minLength: 1, maxLength: 3 })
        .map((parts) => parts.join(''))
        .filter((name) => name !== '.' && name !== '..');
      fc.assert(
        fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
          const path = segments.join('/');
          // A Windows alias (a trailing dot, ':') is also denied as the name Windows opens: the reference has no such rule.
          if (/:|[. ](?:\/|$)/.test(path)) return;
          assert.strictEqual(deniedRule(path, DEFAULT_DENIED_PATHS), referenceRule(path), path);
        }),
        { numRuns: 3000 },
      );
    });
  });

  describe('globMayMatch', () => {
    it('keeps the paths with the literal text a glob begins and ends with, per brace alternative', () => {
      const kept = (glob: string, paths: string[]) => paths.filter(globMayMatch(glob));
      const paths = ['a/b.d.ts', 'a/b.ts', 'package.json', 'x/package.json', 'lodash/fp.js', 'lodash/fp.ts', 'x/lodash/a.js', 'src/a.tsx'];
      assert.deepStrictEqual(kept('**/*.d.ts', paths), ['a/b.d.ts']);
      assert.deepStrictEqual(kept('**/package.json', paths), ['package.json', 'x/package.json']);
      assert.deepStrictEqual(kept('lodash/*.js', paths), ['lodash/fp.js']);
      assert.deepStrictEqual(kept('**/*.{ts,tsx}', paths), ['a/b.d.ts', 'a/b.ts', 'lodash/fp.ts', 'src/a.tsx']);
      // Nothing literal at either end, or a spelling read another way: every path is kept.
      assert.deepStrictEqual(kept('**/*', paths), paths);
      assert.deepStrictEqual(kept('a//b.ts', paths), paths);
    });

    it('is true for every path minimatch matches (fast-check)', () => {
      // Globs and paths from the same few names, so that many globs match (about one pair in four).
      const globPiece = fc.constantFrom(
        'a',
        'b',
        '.a',
        '.ts',
        '*',
        '?',
        '[ab]',
        '[aA]',
        '[b-c]',
        '[a:]',
        '[a/b]',
        '[ab',
        '[a]]',
        '[ab[ab]',
        '[][ab]',
        '[[:alpha:][ab]',
        '[]a]',
        '[!a]',
        '{a,b}',
        '{,a}',
        '{a}',
        'a{}',
        '{a,b/a}',
        '(',
        '+',
        '!',
        '@',
        '\\',
      );
      const globSegment = fc.oneof(
        fc.constant('**'),
        fc.constant('.'),
        fc.constant(''),
        fc.array(globPiece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
      );
      const pathSegment = fc.constantFrom('a', 'b', '.a', 'ab', 'a.ts', 'b.ts', '{a}', '(a)', '!', '+@', 'ba', 'A', 'aB', 'c', '[ab', 'a]', ':', '[', ']', 'x');
      let matched = 0;
      fc.assert(
        fc.property(fc.array(globSegment, { minLength: 1, maxLength: 4 }), fc.array(pathSegment, { minLength: 1, maxLength: 4 }), (globSegments, segments) => {
          const glob = globSegments.join('/');
          const path = segments.join('/');
          const pattern = glob.replace(/^\.\//, '');
          let matcher: Minimatch;
          try {
            matcher = new Minimatch(pattern, GLOB_OPTIONS);
          } catch {
            return; // (minimatch cannot read some classes beside a '\\', which a glob may not hold: nothing to compare with)
          }
          const regex = matcher.makeRe();
          if (!matcher.match(path) && !(regex && regex.test(path))) return;
          matched++;
          assert.ok(globMayMatch(glob)(path), `${JSON.stringify(glob)} matches ${JSON.stringify(path)}`);
        }),
        { numRuns: 30000 },
      );
      assert.ok(matched > 1000, `${matched} pairs matched`);
    });
  });

  describe('deniedDirectoryGlobs', () => {
    it('turns the rules that hide a whole directory into directory globs', () => {
      assert.deepStrictEqual(deniedDirectoryGlobs(DEFAULT_DENIED_PATHS), ['**/.ssh', '**/secrets', '**/.gnupg', '**/.git']);
    });
  });

  describe('comparePaths', () => {
    it("orders segment by segment, keeping a directory's files together", () => {
      const paths = ['b.ts', 'a/z.ts', 'a.txt', 'a/b/c.ts', 'a-b.ts', 'a/b.ts'];
      assert.deepStrictEqual([...paths].sort(comparePaths), ['a/b/c.ts', 'a/b.ts', 'a/z.ts', 'a-b.ts', 'a.txt', 'b.ts']);
    });

    it('is 0 only for equal paths', () => {
      assert.strictEqual(comparePaths('a/b', 'a/b'), 0);
      assert.ok(comparePaths('a', 'a/b') < 0);
    });
  });

  describe('splitAbsoluteGlob', () => {
    it('splits at the first segment with a glob character', () => {
      assert.deepStrictEqual(splitAbsoluteGlob('/abs/src/**/*.ts'), { base: '/abs/src', rest: '**/*.ts' });
      assert.deepStrictEqual(splitAbsoluteGlob('/abs/*.ts'), { base: '/abs', rest: '*.ts' });
      assert.deepStrictEqual(splitAbsoluteGlob('/abs/{a,b}/x.ts'), { base: '/abs', rest: '{a,b}/x.ts' });
      assert.deepStrictEqual(splitAbsoluteGlob('/*.ts'), { base: '/', rest: '*.ts' });
    });

    it('keeps the last segment as the glob when nothing is special', () => {
      assert.deepStrictEqual(splitAbsoluteGlob('/abs/src/file.ts'), { base: '/abs/src', rest: 'file.ts' });
    });
  });
  it('a denied rule says what minimatch says of the path, ignoring case (property, every default rule and a few others)', () => {
    const rules = [...DEFAULT_DENIED_PATHS, '**/build/*.log', 'config/*.txt', '**/{a,b}.txt', '**/*', '**/*x*', '**/x*y'];
    const segment = fc.constantFrom(
      '.ssh',
      '.SSH',
      'secrets',
      'Secrets',
      'x.pem',
      '.pem',
      'pem',
      'a.KEY',
      '.env',
      '.env.',
      '.env.local',
      '.ENV',
      'id_rsa',
      'id_rsa.pub',
      'ID_RSA',
      'id_ed25519',
      '.git',
      '.aws',
      'credentials',
      '.netrc',
      'build',
      'y.log',
      'config',
      'a.txt',
      'b.txt',
      'src',
      'x.ssh',
      'ssh',
      'xy',
      '.docker',
      'config.json',
      '.kube',
      'x.tfstate',
      'x.tfstate.backup',
      '.gnupg',
      'id_ecdsa',
      'a.P12',
      '.npmrc',
    );
    const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
    // Each rule compiled once (minimatch() compiles on every call).
    const matchers = rules.map((rule) => ({ rule, matcher: new Minimatch(rule, { dot: true, nocase: true, nocomment: true, nonegate: true }) }));
    fc.assert(
      fc.property(path, (relative) => {
        for (const { rule, matcher } of matchers) {
          // As written, or as Windows reads the name (`.env.` opens `.env`): both are denied.
          assert.strictEqual(
            deniedRule(relative, [rule]) === rule,
            matcher.match(relative) || matcher.match(windowsCanonical(relative)),
            `${rule} on ${relative}`,
          );
        }
      }),
      { seed: 11, numRuns: 2000 },
    );
  });
});
