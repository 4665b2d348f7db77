import * as assert from 'assert';
import type { Candidate } from '../../../../src/engine/api/types';
import { DEFAULT_EXCLUDES } from '../../../../src/engine/api/config';
import { ListingSource, recordListing } from '../../../../src/engine/index/listing';
import { openCandidates } from '../../../../src/engine/run/candidates';
import type { ArrivingCandidates } from '../../../../src/engine/source/arriving';
import { emptySkips } from '../../../../src/engine/api/types';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import type { FileQuery, FileSource, PrunedEntry } from '../../../../src/engine/source/fileSource';
import { Fixture, globJson, grepJson, makeEnv } from '../../fixture';

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

  it('a glob asked again looks only at the names its pattern may match (the literal start and end), with the same answer', async () => {
    fx.files({ 'lib/c.ts': '', 'lib/d.js': '', 'src/e.ts': '', 'docs/f.md': '' });
    /** Which listed names were looked at, by path (each candidate counts the reads of its name). */
    const looked = new Set<string>();
    const counted = new WeakMap<Candidate[], Candidate[]>();
    class CountingListings extends KeptListings {
      override async list(query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean): Promise<Candidate[][]> {
        return (await super.list(query, denied, pruned, isCancelled)).map((files) => {
          let kept = counted.get(files);
          if (!kept) {
            kept = files.map(({ path, relative }) => ({
              path,
              get relative() {
                looked.add(path);
                return relative;
              },
            }));
            counted.set(files, kept);
          }
          return kept;
        });
      }
    }
    const env = { ...makeEnv(fx.root), source: new CountingListings() };
    const input = { pattern: 'lib/*.ts' };
    const first = await globJson(input, env);
    assert.deepStrictEqual(first.files, [fx.path('lib/c.ts')]);
    assert.ok(looked.has(fx.path('docs/f.md')), 'the first time every name is looked at');
    looked.clear();
    assert.deepStrictEqual(await globJson(input, env), first);
    // (lib/d.js for the directories the pattern matches: lib/*.ts/**, whose names start with "lib")
    assert.deepStrictEqual([...looked].sort(), [fx.path('lib/c.ts'), fx.path('lib/d.js')], 'asked again, only the names that start with "lib"');
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

  /** A source whose first listing (or the one numbered `slow`) finishes only when released (a workspace of 500,000 files listed by findFiles). */
  const slowListing = (slow = 0) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const inner = new NodeFileSource();
    let listed = 0;
    const source: FileSource = {
      kind: (absolute) => inner.kind(absolute),
      mtime: (absolute) => inner.mtime(absolute),
      list: async (...args) => {
        if (listed++ === slow) await released;
        return inner.list(...args);
      },
    };
    return { source, release };
  };

  it('answers at the limit, timed out with nothing searched, instead of waiting for the listing; the next call finds the files', async () => {
    fx.files({ 'src/a.ts': 'TODO a\n' });
    const { source, release } = slowListing();
    const started = Date.now();
    const json = await grepJson({ pattern: 'TODO' }, { ...makeEnv(fx.root, { config: { timeoutSeconds: 0.2 } }), source });
    assert.strictEqual(json.timed_out, true);
    assert.strictEqual(json.files_searched, 0);
    assert.ok(Date.now() - started < 5000, 'answered at the time limit, not when the listing finished');
    assert.match(json.notes[0], /^The search timed out after/);
    release();
    const again = await grepJson({ pattern: 'TODO' }, { ...makeEnv(fx.root), source });
    assert.strictEqual(again.total_matches, 1);
  });

  it('glob too: answers at the limit, timed out with no path, and says the listing had not finished; the next call lists the files', async () => {
    fx.files({ 'src/b.ts': '' });
    for (const mode of ['glob', 'regex'] as const) {
      const input = { pattern: mode === 'glob' ? 'src/b.ts' : 'b\\.ts$', mode };
      const { source, release } = slowListing();
      const started = Date.now();
      const json = await globJson(input, { ...makeEnv(fx.root, { config: { timeoutSeconds: 0.2 } }), source });
      assert.ok(Date.now() - started < 5000, `${mode}: answered at the time limit, not when the listing finished`);
      assert.strictEqual(json.timed_out, true, mode);
      assert.deepStrictEqual([json.files, json.total], [[], 0], mode);
      assert.match(json.notes[0], /^The call timed out after 0 s, before the listing of the paths under the base path had finished: no path was tested/, mode);
      assert.strictEqual(json.notes.length, 1, `${mode}: no other note beside it: ${json.notes.join(' | ')}`);
      release();
      const again = await globJson(input, { ...makeEnv(fx.root), source });
      assert.strictEqual(again.total, 1, mode);
    }
  });

  it('glob: a check behind a note that the limit stops (the directories a pattern names, listed second) is left out; the files, all listed, are not said to be timed out', async () => {
    fx.files({ 'src/b.ts': '' });
    const { source, release } = slowListing(1);
    const json = await globJson({ pattern: 'src/b.ts' }, { ...makeEnv(fx.root, { config: { timeoutSeconds: 0.2 } }), source });
    release();
    assert.deepStrictEqual([json.files, json.timed_out, json.notes], [[fx.path('src/b.ts')], undefined, []]);
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

/**
 * A source that lists as VS Code's does the first time (FindFilesSource.listInOrder): the walker's files
 * in the final order, handed over two at a time, each run on a later turn of the event loop; the last
 * run waits for `release`. `fail` makes the listing fail after its first run.
 */
class ArrivingListing implements FileSource {
  private readonly inner = new NodeFileSource();
  readonly handed: string[][] = [];
  release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  constructor(private readonly fail = false) {}
  kind = (absolute: string) => this.inner.kind(absolute);
  mtime = (absolute: string) => this.inner.mtime(absolute);
  list = (query: FileQuery, denied: readonly string[], pruned: PrunedEntry[], isCancelled: () => boolean) =>
    this.inner.list(query, denied, pruned, isCancelled);

  async listInOrder(
    query: FileQuery,
    denied: readonly string[],
    pruned: PrunedEntry[],
    isCancelled: () => boolean,
    onFiles: (base: number, files: readonly Candidate[]) => void,
  ): Promise<boolean> {
    const [files] = await this.inner.list(query, denied, pruned, isCancelled);
    const sorted = [...files].sort((a, b) => (a.relative < b.relative ? -1 : 1));
    for (let at = 0; at < sorted.length; at += 2) {
      if (at + 2 >= sorted.length) await this.released;
      else await new Promise((resolve) => setImmediate(resolve));
      if (this.fail && at > 0) throw new Error('the listing failed');
      const run = sorted.slice(at, at + 2);
      this.handed.push(run.map((file) => file.relative));
      onFiles(0, run);
    }
    return true;
  }
}

describe('engine/run/candidates: candidates that arrive while the search runs', () => {
  const fx = new Fixture();
  after(() => fx.remove());
  before(() =>
    fx.files({ 'a/1.ts': 'TODO 1\n', 'a/2.ts': 'no\n', 'b/3.ts': 'TODO 3\nTODO 3b\n', 'b/.env': 'TODO=secret\n', 'c/4.ts': 'TODO 4\n', 'd/5.ts': 'TODO 5\n' }),
  );

  it('answers as the whole listing does, page by page, skipped counts included', async () => {
    for (const input of [
      { pattern: 'TODO', output_mode: 'content' },
      { pattern: 'TODO', output_mode: 'count' },
      { pattern: 'TODO', output_mode: 'content', max_results: 2, offset: 2 },
    ]) {
      const arriving = new ArrivingListing();
      arriving.release();
      const expected = await grepJson(input, { ...makeEnv(fx.root), source: new KeptListings() });
      assert.deepStrictEqual(await grepJson(input, { ...makeEnv(fx.root), source: arriving }), expected, JSON.stringify(input));
      assert.ok(arriving.handed.length > 1, 'the files came in runs');
    }
  });

  it('reads the first files before the last ones are listed', async () => {
    const arriving = new ArrivingListing();
    const read: string[] = [];
    const env = { ...makeEnv(fx.root), source: arriving };
    const readFile = env.readFile;
    env.readFile = (path, ...rest) => {
      read.push(path);
      // The last run is let through once the first file was read.
      if (read.length === 1) arriving.release();
      return readFile(path, ...rest);
    };
    const answer = await grepJson({ pattern: 'TODO', output_mode: 'files_with_matches' }, env);
    assert.deepStrictEqual(
      answer.files,
      ['a/1.ts', 'b/3.ts', 'c/4.ts', 'd/5.ts'].map((file) => fx.path(file)),
    );
    assert.strictEqual(read[0], fx.path('a/1.ts'));
  });

  it('filters a long run a time slice at a time: the thread gets turns, and every file arrives in order', async () => {
    // One run of 200,000 files, as findFiles hands a large folder over: filtered at once, it held the extension host's thread for 200 ms at 500,000 files.
    const root = fx.path('');
    const run: Candidate[] = Array.from({ length: 200_000 }, (_, i) => {
      const relative = `m${String(i).padStart(6, '0')}/${i % 10 === 0 ? '.env' : 'f.ts'}`;
      return { path: `${root}/${relative}`, relative };
    });
    const arrivedAtTurns: number[] = [];
    let handed!: () => void;
    const listed = new Promise<void>((resolve) => (handed = resolve));
    const source: FileSource = {
      kind: async () => 'directory',
      mtime: async () => 0,
      list: async () => [run],
      async listInOrder(_query, _denied, _pruned, _isCancelled, onFiles) {
        await listed;
        onFiles(0, run);
        // How many had arrived at each turn of the event loop until all were in.
        const turn = () => {
          arrivedAtTurns.push(candidates.items.length);
          if (!candidates.done) setImmediate(turn);
        };
        setImmediate(turn);
        return true;
      },
    };
    const skipped = emptySkips();
    const env = { ...makeEnv(root), source };
    // (the source hands its run over once `candidates` is set: `handed`)
    const candidates = (await openCandidates([{ root, base: root, folderIndex: 0 }], { includeIgnored: false }, env, skipped, true)) as ArrivingCandidates;
    handed();
    while (!candidates.done) await candidates.arrival(1000);
    const kept = run.filter((_, i) => i % 10 !== 0);
    assert.deepStrictEqual(candidates.items, kept, 'every file but the denied ones, in order');
    assert.strictEqual(skipped.denied, 20_000);
    assert.ok(
      arrivedAtTurns.some((count) => count > 0 && count < kept.length),
      `the thread had turns while the run was filtered: ${arrivedAtTurns.join(', ')}`,
    );
  });

  it('fails with the listing when it fails part way, rather than answering with the files it had', async () => {
    const arriving = new ArrivingListing(true);
    arriving.release();
    await assert.rejects(grepJson({ pattern: 'TODO' }, { ...makeEnv(fx.root), source: arriving }), /the listing failed/);
  });
});
