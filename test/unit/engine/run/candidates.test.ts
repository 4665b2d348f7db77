import * as assert from 'assert';
import type { Candidate } from '../../../../src/engine/api/types';
import { DEFAULT_EXCLUDES } from '../../../../src/engine/api/config';
import { ListingSource, recordListing } from '../../../../src/engine/index/listing';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import type { FileQuery, FileSource, PrunedEntry } from '../../../../src/engine/source/fileSource';
import { Fixture, grepJson, makeEnv } from '../../fixture';

/** The query of a grep with no path and no include over the one folder `root`. */
const wholeWorkspace = (root: string): FileQuery => ({
  bases: [{ base: root, root, folderIndex: 0 }],
  include: '**',
  includeIgnored: false,
  respectGitignore: true,
  granted: [root],
});
/**
 * A source that keeps each listing it made and hands back the very same lists until told the tree
 * changed, as VS Code's resident listings do (residentListing.ts).
 */
class KeptListings implements FileSource {
  private readonly inner = new NodeFileSource();
  private readonly kept = new Map<string, { perBase: Candidate[][]; pruned: PrunedEntry[] }>();
  kind = (absolute: string) => this.inner.kind(absolute);
  mtime = (absolute: string) => this.inner.mtime(absolute);

  async list(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Promise<Candidate[][]> {
    const key = JSON.stringify([query.bases, query.include, query.includeIgnored, denied]);
    let listing = this.kept.get(key);
    if (!listing) {
      const made: PrunedEntry[] = [];
      listing = { perBase: await this.inner.list(query, denied, made, isCancelled), pruned: made };
      this.kept.set(key, listing);
    }
    pruned.push(...listing.pruned);
    return listing.perBase;
  }

  changed(): void {
    this.kept.clear();
  }
}

describe('engine/run/candidates: a listing handed back unchanged is filtered once per filter', () => {
  const fx = new Fixture();
  after(() => fx.remove());

  it('gives the same answer, skipped counts included, on every call; a new listing brings the new files', async () => {
    fx.files({ 'src/a.ts': 'TODO a\n', 'src/b.js': 'TODO b\n', 'lib/c.ts': 'TODO c\n', 'src/.env': 'TODO=secret\n' });
    const source = new KeptListings();
    const env = { ...makeEnv(fx.root), source };
    const ts = { pattern: 'TODO', output_mode: 'files_with_matches', include: '*.ts' } as const;
    const all = { pattern: 'TODO', output_mode: 'files_with_matches' } as const;
    const first = await grepJson(all, env);
    assert.deepStrictEqual(first.files, [fx.path('lib/c.ts'), fx.path('src/a.ts'), fx.path('src/b.js')]);
    assert.strictEqual(first.skipped.denied, 1);
    assert.deepStrictEqual(await grepJson(all, env), first);
    // Another filter over the same lists is its own.
    assert.deepStrictEqual((await grepJson(ts, env)).files, [fx.path('lib/c.ts'), fx.path('src/a.ts')]);
    assert.deepStrictEqual(await grepJson(all, env), first);
    // The source still hands back its old listing: the new file is not in it until the listing is made again.
    fx.files({ 'src/d.ts': 'TODO d\n' });
    assert.deepStrictEqual((await grepJson(ts, env)).files, [fx.path('lib/c.ts'), fx.path('src/a.ts')]);
    source.changed();
    assert.deepStrictEqual((await grepJson(ts, env)).files, [fx.path('lib/c.ts'), fx.path('src/a.ts'), fx.path('src/d.ts')]);
  });
});

describe('engine/run/candidates: a replayed recorded listing (the CLI) is filtered once per filter too', () => {
  const fx = new Fixture();
  after(() => fx.remove());

  it('answers as the walk does, filter by filter, and lists the same arrays on every replay', async () => {
    fx.files({
      'src/a.ts': 'TODO a\n',
      'src/b.js': 'TODO b\n',
      'lib/c.ts': 'TODO c\n',
      'src/.env': 'TODO=secret\n',
      'dist/d.ts': 'TODO d\n',
      '.gitignore': 'dist/\n',
    });
    const walked = makeEnv(fx.root);
    const query = wholeWorkspace(fx.root);
    const { listing } = recordListing(walked.source, query, walked.config.deniedPaths, () => false, Date.now() + 60_000);
    assert.ok(listing, 'the listing was recorded');
    const source = new ListingSource(new NodeFileSource(), [listing], () => true);
    const replayed = { ...walked, source };
    const inputs = [
      { pattern: 'TODO', output_mode: 'files_with_matches' },
      { pattern: 'TODO', output_mode: 'files_with_matches', include: '*.ts' },
      { pattern: 'TODO', output_mode: 'count', exclude: 'lib/**' },
    ] as const;
    for (const input of [...inputs, ...inputs]) assert.deepStrictEqual(await grepJson(input, replayed), await grepJson(input, walked), JSON.stringify(input));
    assert.strictEqual(source.replayed, 6);
    assert.ok(source.holds(query, walked.config.deniedPaths));
    assert.strictEqual(source.holds({ ...query, includeIgnored: true }, walked.config.deniedPaths), false, 'include_ignored walks');
    const again = await source.list(query, walked.config.deniedPaths, [], () => false);
    assert.strictEqual(again, await source.list(query, walked.config.deniedPaths, [], () => false));
    assert.deepStrictEqual(
      again[0].map((file) => file.relative),
      ['.gitignore', 'lib/c.ts', 'src/.env', 'src/a.ts', 'src/b.js'],
    );
  });
});

describe('engine/run/candidates: a listing slower than the time limit', () => {
  const fx = new Fixture();
  after(() => fx.remove());

  it('answers at the limit, timed out with nothing searched, instead of waiting for the listing; the next call finds the files', async () => {
    fx.files({ 'src/a.ts': 'TODO a\n' });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const inner = new NodeFileSource();
    let listed = 0;
    // Its first listing finishes only when released (a workspace of 500,000 files listed by findFiles).
    const slow: FileSource = {
      kind: (absolute) => inner.kind(absolute),
      mtime: (absolute) => inner.mtime(absolute),
      list: async (...args) => {
        if (listed++ === 0) await released;
        return inner.list(...args);
      },
    };
    const started = Date.now();
    const json = await grepJson({ pattern: 'TODO' }, { ...makeEnv(fx.root, { config: { timeoutSeconds: 0.2 } }), source: slow });
    assert.strictEqual(json.timed_out, true);
    assert.strictEqual(json.files_searched, 0);
    assert.ok(Date.now() - started < 5000, 'answered at the time limit, not when the listing finished');
    assert.match(json.notes[0], /^The search timed out after/);
    release();
    const again = await grepJson({ pattern: 'TODO' }, { ...makeEnv(fx.root), source: slow });
    assert.strictEqual(again.total_matches, 1);
  });
});

describe('engine/run/candidates: a recorded listing and the .gitignore case rule', () => {
  const fx = new Fixture();
  after(() => fx.remove());

  it('is replayed only under the .gitignore case rule it was made with: one made under another (an older index) walks', async () => {
    fx.files({ 'Build/x.ts': 'TODO x\n', '.gitignore': 'build/\n', 'src/a.ts': 'TODO a\n' });
    const query = wholeWorkspace(fx.root);
    const denied = makeEnv(fx.root).config.deniedPaths;
    const linux = new NodeFileSource(DEFAULT_EXCLUDES, 'linux');
    const { listing } = recordListing(linux, query, denied, () => false, Date.now() + 60_000);
    assert.ok(listing, 'the listing was recorded');
    assert.strictEqual(listing.gitignoreIgnoresCase, false);
    assert.ok(listing.relatives.includes('Build/x.ts'), 'build/ does not hide Build/ under the Linux rule');
    assert.ok(new ListingSource(linux, [listing], () => true).holds(query, denied));
    const windows = new ListingSource(new NodeFileSource(DEFAULT_EXCLUDES, 'win32'), [listing], () => true);
    assert.strictEqual(windows.holds(query, denied), false);
    const [files] = await windows.list(query, denied, [], () => false);
    assert.ok(!files.some((file) => file.relative === 'Build/x.ts'), 'walked under the Windows rule');
    const older = { ...listing, gitignoreIgnoresCase: undefined };
    assert.strictEqual(new ListingSource(linux, [older], () => true).holds(query, denied), false, 'a listing that does not say its rule');
  });
});
