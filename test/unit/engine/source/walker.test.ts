import * as assert from 'assert';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import type { FileQuery, PrunedEntry } from '../../../../src/engine/source/fileSource';
import type { SearchBase } from '../../../../src/engine/guard/roots';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, rel } from '../../fixture';

describe('engine/walker (NodeFileSource)', () => {
  let fx: Fixture;
  let outside: Fixture;
  const source = new NodeFileSource();

  before(() => {
    fx = new Fixture();
    outside = new Fixture('grep-tools-outside-');
    outside.write('secret.txt', 'outside\n');
    fx.files({
      'README.md': '# readme\n',
      'src/a.ts': 'a\n',
      'src/lib/b.ts': 'b\n',
      '.github/ci.yml': 'ci\n',
      '.env': 'TOKEN=1\n',
      'node_modules/pkg/index.js': 'module\n',
      'sub/node_modules/x.js': 'nested module\n',
      'bower_components/c.js': 'bower\n',
      '.git/config': '[core]\n',
      '.ssh/id': 'key\n',
      'secrets/db.txt': 'password\n',
      '.DS_Store': 'junk',
    });
    fx.symlink(outside.root, 'link-out');
    fx.symlink(outside.path('secret.txt'), 'file-out.txt');
    fx.symlink('src', 'link-in');
    fx.symlink('.env', 'innocent.txt');
    fx.write('loopdir/l.txt', 'l\n');
    fx.symlink('.', 'loopdir/self');
    fx.symlink('does-not-exist', 'dangling');
  });

  after(() => {
    fx.remove();
    outside.remove();
  });

  const base = (path = fx.root): SearchBase => ({ root: fx.root, base: path, folderIndex: 0 });
  const list = async (query: Partial<FileQuery> = {}, bases = [base()]) => {
    const pruned: PrunedEntry[] = [];
    const perBase = await source.list({ bases, includeIgnored: false, respectGitignore: true, ...query }, DEFAULT_DENIED_PATHS, pruned, () => false);
    const prunedAs = (reason: PrunedEntry['reason']) =>
      pruned
        .filter((entry) => entry.reason === reason)
        .map((entry) => entry.relative)
        .sort();
    return { perBase, pruned, prunedAs, relatives: perBase.map((files) => files.map((c) => c.relative).sort()) };
  };

  it('tells files from directories and missing paths', async () => {
    assert.strictEqual(await source.kind(fx.path('src/a.ts')), 'file');
    assert.strictEqual(await source.kind(fx.path('src')), 'directory');
    assert.strictEqual(await source.kind(fx.path('nope')), undefined);
    assert.strictEqual(await source.kind(fx.path('dangling')), undefined);
  });

  it('reads modification times (0 when missing)', async () => {
    fx.touch('README.md', 1_600_000_000);
    assert.strictEqual(await source.mtime(fx.path('README.md')), 1_600_000_000_000);
    assert.strictEqual(await source.mtime(fx.path('nope')), 0);
  });

  it('lists files with base-relative paths, skipping default excludes and denied directories', async () => {
    const { relatives, perBase, prunedAs } = await list();
    assert.deepStrictEqual(relatives[0], [
      '.env', // a denied *file* is left to filterCandidates, which counts it
      '.github/ci.yml',
      'README.md',
      'link-in/a.ts',
      'link-in/lib/b.ts',
      'loopdir/l.txt',
      'src/a.ts',
      'src/lib/b.ts',
    ]);
    const readme = perBase[0].find((c) => c.relative === 'README.md');
    assert.strictEqual(readme?.path, fx.path('README.md'));
    assert.deepStrictEqual(prunedAs('outside_workspace'), ['file-out.txt', 'link-out'], 'links whose real path leaves the root');
    // Denied directories are noted, not entered; innocent.txt is a link to .env.
    assert.deepStrictEqual(prunedAs('denied'), ['.git', '.ssh', 'innocent.txt', 'secrets']);
    assert.deepStrictEqual(prunedAs('unreadable'), []);
  });

  it('never enters a denied directory, even with include_ignored', async () => {
    const { relatives } = await list({ includeIgnored: true });
    for (const path of relatives[0]) assert.ok(!/^(\.git|\.ssh|secrets)\//.test(path), path);
    assert.ok(relatives[0].includes('node_modules/pkg/index.js'));
    assert.ok(relatives[0].includes('sub/node_modules/x.js'));
    assert.ok(relatives[0].includes('bower_components/c.js'));
    assert.ok(relatives[0].includes('.DS_Store'));
  });

  it('follows a symlink that stays inside the root, and survives a symlink loop', async () => {
    const { relatives } = await list();
    assert.ok(relatives[0].includes('link-in/a.ts'));
    assert.ok(!relatives[0].some((path) => path.includes('self/')), 'the link back to its own directory is not walked');
  });

  it('lists a file base as that one file', async () => {
    const { perBase } = await list({}, [base(fx.path('src/lib/b.ts'))]);
    assert.deepStrictEqual(perBase, [[{ path: fx.path('src/lib/b.ts'), relative: 'b.ts' }]]);
  });

  it('lists paths relative to a directory base, one list per base in base order', async () => {
    const { relatives } = await list({}, [base(fx.path('src/lib')), base(fx.path('.github'))]);
    assert.deepStrictEqual(relatives, [['b.ts'], ['ci.yml']]);
  });

  it('stops when cancelled', async () => {
    const perBase = await source.list({ bases: [base()], includeIgnored: false, respectGitignore: true }, DEFAULT_DENIED_PATHS, [], () => true);
    assert.deepStrictEqual(perBase, [[]]);
  });

  it('uses the excludes it was given', async () => {
    const custom = new NodeFileSource(['**/src']);
    const perBase = await custom.list({ bases: [base()], includeIgnored: false, respectGitignore: true }, DEFAULT_DENIED_PATHS, [], () => false);
    const relatives = perBase[0].map((c) => rel(fx.root, c.path)).sort();
    assert.ok(!relatives.some((p) => p.startsWith('src/')));
    assert.ok(relatives.includes('node_modules/pkg/index.js'));
  });
});
