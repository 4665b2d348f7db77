import * as assert from 'assert';
import { DEFAULT_EXCLUDES } from '../../../../src/engine/api/config';
import { gitignoreIgnoresCase, GitignoreRules } from '../../../../src/engine/source/gitignore';
import { readIgnoreFileSync } from '../../../../src/engine/source/ignoreFile';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, grepJson, makeEnv } from '../../fixture';

describe('gitignore rules', () => {
  const fx = new Fixture();
  before(() => {
    fx.files({
      '.gitignore': 'build/\n*.log\n!keep.log\n/rootonly.txt\n',
      'src/.gitignore': 'generated.ts\n!important.log\n',
      'src/deep/.gitignore': '!generated.ts\n',
    });
  });
  after(() => fx.remove());

  const rules = () => new GitignoreRules(fx.root);

  it('applies a root rule at any depth and a negation after it', () => {
    assert.strictEqual(rules().ignoresFile('app.log'), true);
    assert.strictEqual(rules().ignoresFile('src/x/app.log'), true);
    assert.strictEqual(rules().ignoresFile('keep.log'), false);
    assert.strictEqual(rules().ignoresFile('src/keep.log'), false);
  });

  it('anchors a rule with a leading slash to its own directory', () => {
    assert.strictEqual(rules().ignoresFile('rootonly.txt'), true);
    assert.strictEqual(rules().ignoresFile('src/rootonly.txt'), false);
  });

  it('lets a deeper .gitignore override a shallower one, both ways', () => {
    assert.strictEqual(rules().ignoresFile('src/important.log'), false, 'src/.gitignore re-includes it');
    assert.strictEqual(rules().ignoresFile('src/generated.ts'), true);
    assert.strictEqual(rules().ignoresFile('src/deep/generated.ts'), false, 'src/deep/.gitignore re-includes it');
    assert.strictEqual(rules().ignoresFile('lib/generated.ts'), false, 'src/.gitignore does not apply outside src');
  });

  it('ignores everything inside an ignored directory, which no negation can re-include', () => {
    assert.strictEqual(rules().ignoresFile('build/out.js'), true);
    assert.strictEqual(rules().ignoresFile('src/build/keep.log'), true);
    assert.strictEqual(rules().ignoresFile('build.js'), false, 'build/ names directories only');
  });

  it('the rules a walk adds as it meets each .gitignore give the same answers for the entries it walks', () => {
    const walk = new GitignoreRules(fx.root, { hasFile: () => false });
    const add = (dir: string) => {
      const read = readIgnoreFileSync(dir ? `${fx.root}/${dir}` : fx.root);
      if (read.kind === 'text') walk.add(dir, read.text);
      return read.kind === 'text';
    };
    assert.strictEqual(add(''), true);
    assert.strictEqual(walk.ignoresEntry('build', true), true);
    assert.strictEqual(walk.ignoresEntry('build', false), false);
    assert.strictEqual(add('src'), true);
    assert.strictEqual(walk.ignoresEntry('src/important.log', false), false);
    assert.strictEqual(walk.ignoresEntry('src/generated.ts', false), true);
    assert.strictEqual(walk.ignoresEntry('lib/generated.ts', false), false, 'src/.gitignore does not apply outside src');
    assert.strictEqual(add('lib'), false, 'no .gitignore there');
  });
  it('rules read through a reader (a virtual file system) give the same answers, for files and directories', () => {
    const texts = new Map([
      ['', 'build/\n*.log\n!keep.log\n/rootonly.txt\n'],
      ['src', 'generated.ts\n!important.log\n'],
      ['src/deep', '!generated.ts\n'],
    ]);
    const read: string[] = [];
    const virtual = new GitignoreRules('', { hasFile: (dir) => texts.has(dir), read: (dir) => (read.push(dir), texts.get(dir)) });
    for (const file of [
      'app.log',
      'keep.log',
      'rootonly.txt',
      'src/rootonly.txt',
      'src/important.log',
      'src/generated.ts',
      'src/deep/generated.ts',
      'build/out.js',
      'src/build/keep.log',
    ]) {
      assert.strictEqual(virtual.ignoresFile(file), rules().ignoresFile(file), file);
    }
    assert.strictEqual(virtual.ignoresFile('build', true), true, 'build/ names a directory');
    assert.strictEqual(virtual.ignoresFile('build', false), false);
    assert.strictEqual(virtual.ignoresFile('src/build', true), true);
    assert.deepStrictEqual(read.sort(), ['', 'src', 'src/deep'], 'each .gitignore read once');
  });

  describe('case, as git matches it on each platform', () => {
    it('is matched with its case on Linux, ignoring it on Windows and macOS (core.ignorecase as git init sets it)', () => {
      assert.strictEqual(gitignoreIgnoresCase('linux'), false);
      assert.strictEqual(gitignoreIgnoresCase('win32'), true);
      assert.strictEqual(gitignoreIgnoresCase('darwin'), true);
      assert.strictEqual(gitignoreIgnoresCase(), gitignoreIgnoresCase(process.platform), 'this platform by default');
    });

    const texts = new Map([
      ['', 'build/\n*.log\n!Keep.log\n/Root.txt\n'],
      ['src', 'Generated.ts\n'],
    ]);
    const rules = (ignoreCase: boolean) => new GitignoreRules('', { hasFile: (dir) => texts.has(dir), read: (dir) => texts.get(dir), ignoreCase });
    const cases: Array<[string, boolean, boolean]> = [
      // path, ignored under the Linux rule, ignored under the Windows and macOS rule
      ['build/x.ts', true, true],
      ['Build/x.ts', false, true],
      ['BUILD/deep/x.ts', false, true],
      ['src/Build/x.ts', false, true],
      ['app.log', true, true],
      ['APP.LOG', false, true],
      ['Keep.log', false, false],
      ['keep.log', true, false],
      ['Root.txt', true, true],
      ['root.txt', false, true],
      ['src/Generated.ts', true, true],
      ['src/generated.ts', false, true],
      ['lib/generated.ts', false, false],
    ];
    for (const [path, linux, other] of cases) {
      it(`${path}: ${linux ? 'ignored' : 'searched'} under the Linux rule, ${other ? 'ignored' : 'searched'} under the Windows and macOS rule`, () => {
        assert.strictEqual(rules(false).ignoresFile(path), linux);
        assert.strictEqual(rules(true).ignoresFile(path), other);
      });
    }

    it("the CLI's walker applies the rule of the platform it is given", async () => {
      const fx = new Fixture();
      try {
        // No build/ beside Build/: on a file system that ignores case (Windows, and wine's view of Linux) they are one directory.
        fx.files({ '.gitignore': 'build/\n', 'Build/x.ts': 'needle\n', 'src/b.ts': 'needle\n' });
        const found = async (platform: NodeJS.Platform) => {
          const source = new NodeFileSource(DEFAULT_EXCLUDES, platform);
          assert.strictEqual(source.gitignoreIgnoresCase, platform !== 'linux');
          return (await grepJson({ pattern: 'needle', output_mode: 'files_with_matches' }, { ...makeEnv(fx.root), source })).files;
        };
        assert.deepStrictEqual(await found('linux'), [fx.path('Build/x.ts'), fx.path('src/b.ts')]);
        assert.deepStrictEqual(await found('win32'), [fx.path('src/b.ts')]);
        assert.deepStrictEqual(await found('darwin'), [fx.path('src/b.ts')]);
      } finally {
        fx.remove();
      }
    });
  });
});
