import * as assert from 'assert';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import * as nodePath from 'path';
import { filterCandidates, includeToGlob, listingBelow, type PrunedEntry } from '../../../../src/engine/source/fileSource';
import type { SearchBase } from '../../../../src/engine/guard/roots';
import { emptySkips, type Candidate } from '../../../../src/engine/api/types';

const candidate = (base: string, relative: string): Candidate => ({ path: `${base}/${relative}`, relative });

describe('engine/fileSource', () => {
  describe('includeToGlob', () => {
    it('hands sources a recursive glob for a name glob, and the glob itself otherwise', () => {
      assert.strictEqual(includeToGlob(undefined), '**');
      assert.strictEqual(includeToGlob(''), '**');
      assert.strictEqual(includeToGlob('*.ts'), '**/*.ts');
      assert.strictEqual(includeToGlob('*.{ts,tsx}'), '**/*.{ts,tsx}');
      assert.strictEqual(includeToGlob('src/*.ts'), 'src/*.ts');
      assert.strictEqual(includeToGlob('./src/**/*.ts'), 'src/**/*.ts');
    });
  });

  describe('filterCandidates', () => {
    const a: SearchBase = { root: '/w/a', base: '/w/a', folderIndex: 0 };
    const b: SearchBase = { root: '/w/b', base: '/w/b', folderIndex: 1 };

    it('sorts each base by path and keeps the base order', async () => {
      const skipped = emptySkips();
      const result = await filterCandidates(
        [b, a],
        [
          [candidate('/w/b', 'z.ts'), candidate('/w/b', 'a/x.ts')],
          [candidate('/w/a', 'src/b.ts'), candidate('/w/a', 'src/a.ts'), candidate('/w/a', 'README.md')],
        ],
        { denied: DEFAULT_DENIED_PATHS },
        skipped,
      );
      assert.deepStrictEqual(
        result.map((c) => c.path),
        ['/w/b/a/x.ts', '/w/b/z.ts', '/w/a/README.md', '/w/a/src/a.ts', '/w/a/src/b.ts'],
      );
      assert.deepStrictEqual(skipped, emptySkips());
    });

    it('drops denied files and counts them', async () => {
      const skipped = emptySkips();
      const result = await filterCandidates(
        [a],
        [['.env', 'config/.env.production', 'keys/server.pem', 'src/app.ts', '.git/config'].map((r) => candidate('/w/a', r))],
        { denied: DEFAULT_DENIED_PATHS },
        skipped,
      );
      assert.deepStrictEqual(
        result.map((c) => c.relative),
        ['src/app.ts'],
      );
      assert.strictEqual(skipped.denied, 4);
    });

    it('judges denied paths from the workspace folder, not the search base', async () => {
      // Searching /w/a/secrets/sub: the file is "x.txt" below the base but "secrets/sub/x.txt" in the folder.
      const base: SearchBase = { root: '/w/a', base: '/w/a/secrets/sub', folderIndex: 0 };
      const skipped = emptySkips();
      const result = await filterCandidates([base], [[{ path: '/w/a/secrets/sub/x.txt', relative: 'x.txt' }]], { denied: DEFAULT_DENIED_PATHS }, skipped);
      assert.deepStrictEqual(result, []);
      assert.strictEqual(skipped.denied, 1);
    });

    it('applies include and exclude to the base-relative path; a name glob matches at any depth', async () => {
      const files = [['src/a.ts', 'src/a.test.ts', 'src/deep/b.ts', 'docs/c.md', 'top.ts'].map((r) => candidate('/w/a', r))];
      const run = async (include?: string, exclude?: string) =>
        (await filterCandidates([a], files, { include, exclude, denied: DEFAULT_DENIED_PATHS }, emptySkips())).map((c) => c.relative);
      assert.deepStrictEqual(await run('*.ts'), ['src/a.test.ts', 'src/a.ts', 'src/deep/b.ts', 'top.ts']);
      assert.deepStrictEqual(await run('src/*.ts'), ['src/a.test.ts', 'src/a.ts']);
      assert.deepStrictEqual(await run('*.ts', '*.test.ts'), ['src/a.ts', 'src/deep/b.ts', 'top.ts']);
      assert.deepStrictEqual(await run(undefined, 'src/**'), ['docs/c.md', 'top.ts']);
      assert.deepStrictEqual(await run('**/*.{md,ts}', 'src/deep/**'), ['docs/c.md', 'src/a.test.ts', 'src/a.ts', 'top.ts']);
    });

    it('counts what sources pruned where every source can see it: in the base, or beside a selected file', async () => {
      const pruned: PrunedEntry[] = [
        { base: 0, relative: '.git', reason: 'denied', directory: true },
        { base: 0, relative: 'src/.ssh', reason: 'denied', directory: true },
        { base: 0, relative: 'lonely/.git', reason: 'denied', directory: true }, // lonely holds no selected file
        { base: 0, relative: 'src/out', reason: 'outside_workspace', directory: true },
        { base: 0, relative: 'src/out', reason: 'outside_workspace', directory: true }, // reported twice, counted once
        { base: 0, relative: 'docs/link.md', reason: 'outside_workspace', directory: false },
      ];
      const files = [[candidate('/w/a', 'src/x.ts'), candidate('/w/a', 'docs/d.md')]];
      const count = async (include?: string) => {
        const skipped = emptySkips();
        await filterCandidates([a], files, { include, denied: DEFAULT_DENIED_PATHS, pruned }, skipped);
        return [skipped.denied, skipped.outside_workspace];
      };
      assert.deepStrictEqual(await count(), [2, 2]);
      // include *.ts: the .md link is not asked for; directories may hold a .ts. docs holds no selected file.
      assert.deepStrictEqual(await count('*.ts'), [2, 1]);
      // include src/**: only what lies under src counts.
      assert.deepStrictEqual(await count('src/**'), [1, 1]);
    });

    it('with an allow-list, keeps only allowed files and counts the others as denied', async () => {
      const skipped = emptySkips();
      const files = [['src/a.ts', 'docs/b.md', 'README.md'].map((r) => candidate('/w/a', r))];
      const result = await filterCandidates([a], files, { denied: DEFAULT_DENIED_PATHS, allowed: ['src/**', '*.md'] }, skipped);
      assert.deepStrictEqual(
        result.map((c) => c.relative),
        ['README.md', 'docs/b.md', 'src/a.ts'],
      );
      const narrow = emptySkips();
      assert.deepStrictEqual(
        (await filterCandidates([a], files, { denied: DEFAULT_DENIED_PATHS, allowed: ['src/**'] }, narrow)).map((c) => c.relative),
        ['src/a.ts'],
      );
      assert.strictEqual(narrow.denied, 2);
    });

    it('judges a confirmed outside base from the file system root, so /home/me/.aws/credentials stays denied', async () => {
      const base: SearchBase = { root: '/home/me/.aws', base: '/home/me/.aws', folderIndex: -1 };
      const skipped = emptySkips();
      const result = await filterCandidates(
        [base],
        [
          [
            { path: '/home/me/.aws/credentials', relative: 'credentials' },
            { path: '/home/me/.aws/config', relative: 'config' },
          ],
        ],
        { denied: DEFAULT_DENIED_PATHS },
        skipped,
      );
      assert.deepStrictEqual(
        result.map((c) => c.relative),
        ['config'],
      );
      assert.strictEqual(skipped.denied, 1);
    });

    it('lists a file found under two bases once, in the first base', async () => {
      const inner: SearchBase = { root: '/w/a', base: '/w/a/src', folderIndex: 0 };
      const result = await filterCandidates(
        [a, inner],
        [[candidate('/w/a', 'src/x.ts')], [{ path: '/w/a/src/x.ts', relative: 'x.ts' }]],
        { denied: DEFAULT_DENIED_PATHS },
        emptySkips(),
      );
      assert.deepStrictEqual(result, [{ path: '/w/a/src/x.ts', relative: 'src/x.ts' }]);
    });
  });

  describe('listingBelow', () => {
    const root = nodePath.resolve('/ws');
    const at = (relative: string) => nodePath.join(root, ...relative.split('/'));
    const listing = {
      files: ['a.ts', 'src/b.ts', 'src/lib/c.ts', 'srcs/d.ts'].map((relative) => ({ path: at(relative), relative })),
      pruned: [
        { base: 0, relative: 'src/.env', reason: 'denied', directory: false },
        { base: 0, relative: 'secrets', reason: 'denied', directory: true },
      ] as PrunedEntry[],
      warnings: ['a line'],
      directories: [root, at('src'), at('src/lib'), at('srcs')],
    };

    it('gives the files and pruned entries below a directory of the listing, relative to it, the same arrays each time', async () => {
      const part = await listingBelow(listing, root, at('src'));
      assert.deepStrictEqual(part, {
        files: [
          { path: at('src/b.ts'), relative: 'b.ts' },
          { path: at('src/lib/c.ts'), relative: 'lib/c.ts' },
        ],
        pruned: [{ base: 0, relative: '.env', reason: 'denied', directory: false }],
        warnings: ['a line'],
      });
      assert.strictEqual(await listingBelow(listing, root, at('src')), part);
      assert.deepStrictEqual((await listingBelow(listing, root, at('src/lib')))?.files, [{ path: at('src/lib/c.ts'), relative: 'c.ts' }]);
    });

    it('gives nothing for a directory the listing does not hold as spelled', async () => {
      assert.strictEqual(await listingBelow(listing, root, at('SRC')), undefined);
      assert.strictEqual(await listingBelow(listing, root, at('secrets')), undefined);
    });
  });
});
