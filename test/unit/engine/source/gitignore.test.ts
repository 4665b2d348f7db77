import * as assert from 'assert';
import { GitignoreRules } from '../../../../src/engine/source/gitignore';
import { readIgnoreFileSync } from '../../../../src/engine/source/ignoreFile';
import { Fixture } from '../../fixture';

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
    const walk = new GitignoreRules(fx.root, () => false);
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
    const virtual = new GitignoreRules(
      '',
      (dir) => texts.has(dir),
      (dir) => (read.push(dir), texts.get(dir)),
    );
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
});
