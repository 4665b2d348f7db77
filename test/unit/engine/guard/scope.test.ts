import * as assert from 'assert';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import {
  allowList,
  deniedFromTop,
  deniedPathRule,
  deniedRelativeRule,
  judgeOpened,
  judgeReal,
  policyRoot,
  type ReadScope,
} from '../../../../src/engine/guard/scope';

const denied = [...DEFAULT_DENIED_PATHS];

describe('engine/guard/scope: what may be read where it really is', () => {
  describe('denied rules', () => {
    it('names the rule a root-relative file matches, whatever its case', () => {
      assert.strictEqual(deniedRelativeRule('.env', denied), '**/.env');
      assert.strictEqual(deniedRelativeRule('config/prod.key', denied), '**/*.key');
      assert.strictEqual(deniedRelativeRule('deploy/ID_RSA', denied), '**/id_rsa*');
      assert.strictEqual(deniedRelativeRule('src/environment.ts', denied), undefined);
    });

    it('a `/**` rule hides its directory too, and the rule is named as written', () => {
      const rules = ['**/secrets/**'];
      assert.strictEqual(deniedRelativeRule('app/secrets/token.txt', rules), '**/secrets/**');
      assert.strictEqual(deniedRelativeRule('app/secrets', rules), '**/secrets/**', 'the directory itself');
      assert.strictEqual(deniedRelativeRule('app/secrets.md', rules), undefined);
    });

    it('from a root: the root itself never matches; from the file system root, an outside file keeps its rules', () => {
      assert.strictEqual(deniedPathRule('/ws/.env', '/ws', denied), '**/.env');
      assert.strictEqual(deniedPathRule('/ws/secrets', '/ws/secrets', ['**/secrets/**']), undefined, 'a base the person chose is not hidden from itself');
      assert.strictEqual(deniedFromTop('/home/me/.aws/credentials', ['**/.aws/credentials']), '**/.aws/credentials');
      assert.strictEqual(deniedFromTop('/home/me/notes.txt', denied), undefined);
    });

    it('policyRoot: a workspace base is judged from its folder, an outside one from the file system root', () => {
      assert.strictEqual(policyRoot({ root: '/ws', base: '/ws/src', folderIndex: 0 }), '/ws');
      assert.strictEqual(policyRoot({ root: '/home/me/.aws', base: '/home/me/.aws', folderIndex: -1 }), '/');
    });
  });

  describe('allowList', () => {
    it('is undefined when empty: everything not denied may be read', () => {
      assert.strictEqual(allowList([]), undefined);
    });

    it('a rule with a slash matches from the root; one without matches a name anywhere', () => {
      const allowed = allowList(['src/**', '*.md'])!;
      assert.strictEqual(allowed.file('src/deep/a.ts'), true);
      assert.strictEqual(allowed.file('docs/guide/intro.md'), true);
      assert.strictEqual(allowed.file('lib/a.ts'), false);
      assert.strictEqual(allowList(['./src/**'])!.file('src/a.ts'), true, 'a leading ./ is the root');
    });

    it('a directory may be entered when it may hold an allowed file', () => {
      const allowed = allowList(['src/app/**'])!;
      assert.strictEqual(allowed.directory(''), true, 'the root');
      assert.strictEqual(allowed.directory('src'), true, 'on the way');
      assert.strictEqual(allowed.directory('src/app/models'), true, 'inside');
      assert.strictEqual(allowed.directory('lib'), false);
      assert.strictEqual(allowList(['*.md'])!.directory('any/where'), true, 'a name rule may match in any directory');
    });
  });

  describe('judgeReal / judgeOpened', () => {
    const scope: ReadScope = { granted: ['/ws', '/other/folder'], denied };

    it('a real path in a granted root and not denied may be read', () => {
      assert.strictEqual(judgeOpened('/ws/src/a.ts', scope), undefined);
      assert.strictEqual(judgeOpened('/other/folder/b.ts', scope), undefined);
    });

    it('a real path outside every granted root is outside the workspace, whatever name led to it', () => {
      assert.strictEqual(judgeOpened('/etc/passwd', scope), 'outside_workspace');
      assert.strictEqual(judgeOpened('/wsx/a.ts', scope), 'outside_workspace', 'a sibling sharing a prefix is outside');
    });

    it('a real path inside that a denied rule matches is denied', () => {
      assert.strictEqual(judgeOpened('/ws/config/.env', scope), 'denied');
      assert.strictEqual(judgeReal('/ws/certs/server.pem', scope, false), 'denied');
    });

    it('a rule matched only from the file system root still denies (a confirmed outside base keeps its rules)', () => {
      const outside: ReadScope = { granted: ['/home/me/.aws'], denied: ['**/.aws/credentials'] };
      assert.strictEqual(judgeOpened('/home/me/.aws/credentials', outside), 'denied');
      assert.strictEqual(judgeOpened('/home/me/.aws/config', outside), undefined);
    });

    it('with an allow-list, a file outside it is denied, and a directory only when it cannot hold an allowed file', () => {
      const narrow: ReadScope = { granted: ['/ws'], denied, allowed: ['src/**'] };
      assert.strictEqual(judgeReal('/ws/src/a.ts', narrow, false), undefined);
      assert.strictEqual(judgeReal('/ws/lib/a.ts', narrow, false), 'denied');
      assert.strictEqual(judgeReal('/ws/src', narrow, true), undefined);
      assert.strictEqual(judgeReal('/ws/lib', narrow, true), 'denied');
      assert.strictEqual(judgeReal('/ws/src/.env', narrow, false), 'denied', 'the denied rules still apply inside the allow-list');
    });

    it('the innermost granted root holding the path is the one the allow-list is judged from', () => {
      const nested: ReadScope = { granted: ['/ws', '/ws/packages/app'], denied, allowed: ['index.ts'] };
      assert.strictEqual(judgeReal('/ws/packages/app/index.ts', nested, false), undefined);
      assert.strictEqual(judgeReal('/ws/packages/app/other.ts', nested, false), 'denied');
    });
  });
});
