/**
 * The audit of a listing made by someone else (VS Code's findFiles): the listed files that may be read
 * are kept, in their order; what lies in a denied directory is dropped and counted as the Node walker
 * would count it; an excluded directory holding nothing listed is neither entered nor counted. Only the
 * directories holding listed files are read, and no file.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { Minimatch } from 'minimatch';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import type { Candidate } from '../../../../src/engine/api/types';
import { auditListing, caseInsensitiveGlob, type AuditOptions } from '../../../../src/engine/source/audit';
import type { PrunedEntry } from '../../../../src/engine/source/fileSource';
import { Fixture } from '../../fixture';
import { FsRecorder } from '../../recorder';

describe('engine/source/audit: a listing made by someone else, checked', () => {
  let fx: Fixture;
  let ws: string;
  beforeEach(() => {
    fx = new Fixture('grep-tools-audit-');
    ws = fx.mkdir('ws');
    fx.files({
      'ws/README.md': 'r\n',
      'ws/src/a.ts': 'a\n',
      'ws/src/gen/g.ts': 'g\n',
      'ws/lib/deep/b.ts': 'b\n',
      'ws/.git/HEAD': 'ref\n',
      'ws/node_modules/m/index.js': 'm\n',
      'ws/build/out.js': 'o\n',
    });
  });
  afterEach(() => fx.remove());

  const candidates = (dir: string, relatives: string[]): Candidate[] =>
    relatives.map((relative) => ({ path: nodePath.join(dir, ...relative.split('/')), relative }));
  const audit = async (relatives: string[], options: Partial<AuditOptions> = {}, base = { root: ws, base: ws, folderIndex: 0 }) => {
    const pruned: PrunedEntry[] = [];
    const recorder = new FsRecorder();
    const kept = await recorder.record(() =>
      auditListing(base, 0, candidates(base.base, relatives), { granted: [], denied: DEFAULT_DENIED_PATHS, excluded: () => false, pruned, ...options }),
    );
    return {
      kept: kept.map((file) => file.relative),
      pruned: pruned.map((entry) => `${entry.reason} ${entry.relative}${entry.directory ? '/' : ''}`).sort(),
      opened: recorder.opened(),
      listed: recorder.listed(),
    };
  };

  it('keeps every file of a listing that reaches nothing it may not, in its order, reading only the directories holding them', async () => {
    const listing = ['src/a.ts', 'README.md', 'lib/deep/b.ts'];
    const result = await audit(listing);
    assert.deepStrictEqual(result.kept, listing);
    assert.deepStrictEqual(result.opened, [], 'no file opened');
    assert.deepStrictEqual(result.listed, [ws, fx.path('ws/lib'), fx.path('ws/lib/deep'), fx.path('ws/src')].sort());
    assert.deepStrictEqual(result.pruned, ['denied .git/'], 'a denied directory is counted, as the walker counts it');
  });

  it('an empty listing reads its base only, and counts what the walker prunes there', async () => {
    assert.deepStrictEqual(await audit([]), { kept: [], pruned: ['denied .git/'], opened: [], listed: [ws] });
  });

  it('drops what a listing holds in a denied directory (an exclude the lister was not given) and counts it', async () => {
    const result = await audit(['.git/HEAD', 'src/a.ts']);
    assert.deepStrictEqual(result.kept, ['src/a.ts']);
    assert.deepStrictEqual(result.pruned, ['denied .git/']);
    assert.ok(!result.listed.includes(fx.path('ws/.git')), 'the denied directory is not read');
  });

  it('an excluded directory holding nothing listed is neither entered nor counted; one holding listed files is checked and kept', async () => {
    const excludedAsked: string[] = [];
    const excluded = (fromRoot: string) => (excludedAsked.push(fromRoot), /(^|\/)(node_modules|build)$/.test(fromRoot));
    const result = await audit(['build/out.js', 'src/a.ts'], { excluded });
    assert.deepStrictEqual(result.kept, ['build/out.js', 'src/a.ts'], 'listed in an excluded directory: the lister was asked for it');
    assert.deepStrictEqual(result.pruned, ['denied .git/']);
    assert.ok(!result.listed.includes(fx.path('ws/node_modules')), 'not entered');
    assert.ok(excludedAsked.includes('node_modules'));
  });

  it('judges excludes by the path from the folder when the search starts below it', async () => {
    const excludedAsked: string[] = [];
    const result = await audit(
      ['a.ts'],
      { excluded: (fromRoot) => (excludedAsked.push(fromRoot), false) },
      { root: ws, base: fx.path('ws/src'), folderIndex: 0 },
    );
    assert.deepStrictEqual(result.kept, ['a.ts']);
    assert.deepStrictEqual(excludedAsked, ['src/gen'], 'asked of directories, from the folder');
    assert.deepStrictEqual(result.listed, [fx.path('ws/src')]);
  });

  it('a glob made case-insensitive matches a name whatever the case of its letters, and keeps its character classes (property)', () => {
    assert.strictEqual(caseInsensitiveGlob('**/*.TS'), '**/*.[tT][sS]');
    assert.strictEqual(caseInsensitiveGlob('[A-Z]x'), '[A-Z][xX]', 'a class is left as written');
    assert.strictEqual(caseInsensitiveGlob('a[b'), '[aA][[bB]', 'an unclosed bracket is a character');
    assert.strictEqual(caseInsensitiveGlob('**/.ssh'), '**/.[sS][sS][hH]');
    assert.strictEqual(caseInsensitiveGlob('**/[Ss]ecret{s,z}'), '**/[Ss][eE][cC][rR][eE][tT]{[sS],[zZ]}', 'braces kept');
    const name = fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/);
    fc.assert(
      fc.property(name, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), (literal, upper) => {
        const glob = new Minimatch(caseInsensitiveGlob(literal), { dot: true });
        const variant = [...literal].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('');
        assert.ok(glob.match(variant), `${caseInsensitiveGlob(literal)} matches ${variant}`);
        assert.ok(!glob.match(`${variant}x`));
      }),
      { numRuns: 300, seed: 20261126 },
    );
  });
});
