import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import { folderPath, invokeJson, listedInParts, untilReplayed, type GlobAnswer, type GrepAnswer, extensionApi } from '../helpers';
import { waitUntil } from '../../support/waitUntil';
import { ResidentListings, type BaseListing } from '../../../src/vscode/sources/residentListing';
import { CLOCK_MARGIN_MS } from '../../../src/vscode/sources/storedListing';

describe('the resident listing of the workspace', () => {
  const dir = () => path.join(folderPath(0), 'resident-tmp');
  const file = (relative: string) => path.join(dir(), relative);
  const write = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
    fs.writeFileSync(file(relative), text);
  };
  let api: GrepToolsApi;

  const matching = async (pattern: string) =>
    (await invokeJson<GrepAnswer>('grep', { pattern, fixed_strings: true, output_mode: 'files_with_matches', max_results: 2000 })).files;

  const residentMatching = (pattern: string) => untilReplayed(api.listings, () => matching(pattern));

  /** The answers to these questions, asked one after the other. */
  const answersTo = async (questions: ReadonlyArray<['grep' | 'glob', object]>) => {
    const answers: unknown[] = [];
    for (const [tool, input] of questions) answers.push(await invokeJson<GrepAnswer | GlobAnswer>(tool, input));
    return answers;
  };

  let markers = 0;
  /**
   * Resolves once the file watcher has delivered the events of every write made so far: it writes a file
   * under resident-tmp/.git (a denied path, whose events leave the listings resident) and waits for a
   * watcher of its own to report it, events coming in order. On a loaded machine the watcher reports a
   * write seconds later: an earlier test's 1,000 deletions could otherwise drop the listing in the
   * middle of a test that counts listings.
   */
  async function eventsDelivered(): Promise<void> {
    fs.mkdirSync(file('.git'), { recursive: true });
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir()), '.git/*'));
    const written = new Set<string>();
    let seen = false;
    watcher.onDidCreate((uri) => (seen ||= written.has(path.basename(uri.fsPath))));
    try {
      // A new watcher starts watching a moment after it is made: a marker written before then is never
      // reported, so another is written each half second until one is (events come in order).
      await waitUntil(
        () => {
          if (seen) return true;
          const name = `marker-${++markers}`;
          written.add(name);
          fs.writeFileSync(file(`.git/${name}`), '');
          return false;
        },
        () => 'the watcher reported a marker written under .git',
        20_000,
        500,
      );
    } finally {
      watcher.dispose();
    }
  }

  before(async () => {
    api = await extensionApi();
    write('.gitignore', 'hidden.txt\n');
    write('a.txt', 'resident-7c2e one\n');
    write('hidden.txt', 'resident-7c2e hidden\n');
    write('deep/b.txt', 'resident-7c2e two\n');
  });
  after(() => fs.rmSync(dir(), { recursive: true, force: true }));

  it('answers a repeated grep and glob exactly as a call that lists the workspace afresh', async () => {
    const questions: Array<['grep' | 'glob', object]> = [
      ['grep', { pattern: 'resident-7c2e' }],
      ['grep', { pattern: 'resident-\\w+', output_mode: 'count' }],
      ['grep', { pattern: 'RESIDENT', case_insensitive: true, include: '*.txt' }],
      ['grep', { pattern: 'zq_nothing_like_this_qz', fixed_strings: true }],
      ['glob', { pattern: '**/*.txt' }],
    ];
    for (const [tool, input] of questions) {
      api.listings.invalidate();
      const listed = await invokeJson<GrepAnswer | GlobAnswer>(tool, input);
      const replayed = await untilReplayed(api.listings, () => invokeJson<GrepAnswer | GlobAnswer>(tool, input));
      assert.deepStrictEqual(replayed, listed, `${tool} ${JSON.stringify(input)}`);
    }
  });

  it("answers an include, a glob and a folder below the top from the whole folder's resident listing, without a listing of their own, as their own listing answers them", async () => {
    const questions: Array<['grep' | 'glob', object]> = [
      ['grep', { pattern: 'resident-7c2e', include: '*.txt' }],
      ['grep', { pattern: 'resident-\\w+', include: 'resident-tmp/deep/**', output_mode: 'count' }],
      ['grep', { pattern: 'resident-7c2e', include: '{resident-tmp/deep,nowhere}/*.txt', include_ignored: true }],
      ['grep', { pattern: 'zq_nothing_like_this_qz', fixed_strings: true, include: '**/*.txt' }],
      ['glob', { pattern: '**/*.txt' }],
      ['glob', { pattern: 'resident-tmp/*' }],
      ['glob', { pattern: 'no-such-dir-4e1/*.txt' }],
      ['glob', { pattern: 'hidden.txt', include_ignored: true }],
      ['grep', { pattern: 'resident-7c2e', path: 'resident-tmp' }],
      ['grep', { pattern: 'resident-\\w+', path: 'resident-tmp/deep', output_mode: 'count' }],
      ['grep', { pattern: 'resident-7c2e', path: 'resident-tmp', include_ignored: true, include: '*.txt' }],
      ['grep', { pattern: 'zq_nothing_like_this_qz', fixed_strings: true, path: 'resident-tmp' }],
      ['grep', { pattern: 'TODO', path: 'src' }],
      ['glob', { pattern: '**/*.txt', path: 'resident-tmp' }],
      ['glob', { pattern: '*', path: 'resident-tmp/deep' }],
    ];
    // Each question listed on its own: no listing of the whole folder is held (resident-tmp/.git, a denied
    // directory each counts, made first by eventsDelivered's marker).
    await eventsDelivered();
    const own: unknown[] = [];
    for (const [tool, input] of questions) {
      api.listings.invalidate();
      own.push(await invokeJson<GrepAnswer | GlobAnswer>(tool, input));
    }
    // Only the whole folder's listings (without and with the ignored files) resident. A file event the
    // watcher reports late (an earlier test's), or a directory changed too recently to be relied on, drops
    // them meanwhile: the questions are then asked again, in a round that nothing disturbed.
    for (let round = 1; ; round++) {
      api.listings.invalidate();
      await residentMatching('resident-7c2e');
      await untilReplayed(api.listings, () => invokeJson<GrepAnswer>('grep', { pattern: 'resident-7c2e', include_ignored: true }));
      await eventsDelivered();
      const before = { ...api.listings.counts };
      const answers = await answersTo(questions);
      const after = api.listings.counts;
      if (after.dropped !== before.dropped || after.changed !== before.changed) {
        assert.ok(round < 5, `a round of the questions without a listing dropped (${JSON.stringify(after)})`);
        continue;
      }
      assert.deepStrictEqual(answers, own);
      assert.strictEqual(after.listed, before.listed, `no listing made (${JSON.stringify(after)})`);
      assert.ok(after.replayed > before.replayed, 'the resident listings were replayed');
      break;
    }
  });

  it("a folder below the top is listed on its own when the whole folder's resident listing must be made again (more directories changed than it reads again); the next call of the whole folder makes that one", async () => {
    write('left/kept.txt', 'resident-7c2e left\n');
    for (let i = 0; i < 70; i++) write(`left/d${i}/x.txt`, '');
    const below = () => invokeJson<GlobAnswer>('glob', { pattern: '*.txt', path: 'resident-tmp/left' });
    try {
      await residentMatching('resident-7c2e');
      await eventsDelivered();
      api.listings.lastAgain = undefined;
      const before = { ...api.listings.counts };
      for (let i = 0; i < 70; i++) write(`left/d${i}/y.txt`, '');
      // A listing begun within CLOCK_MARGIN_MS of a directory's change does not rely on it: one made from
      // now on does, and is replayed by the next call unless something changed again.
      const written = Date.now();
      await waitUntil(
        () => Date.now() > written + CLOCK_MARGIN_MS + 100,
        () => 'the clock margin passed',
        10_000,
      );
      // Asked until the watcher's reports reach the listing, whose directories are then looked at.
      let answer: GlobAnswer | undefined;
      for (const deadline = Date.now() + 20_000; api.listings.lastAgain === undefined;) {
        assert.ok(Date.now() < deadline, 'the listing was found to need making again within 20 s of the writes');
        answer = await below();
      }
      assert.match(api.listings.lastAgain ?? '', /more than 64 of its directories changed/);
      assert.deepStrictEqual(answer?.files, [file('left/kept.txt')]);
      // The folder below made its own listing, not the whole folder's: the whole folder's call makes that one.
      const belowMade = { ...api.listings.counts };
      assert.ok(belowMade.listed > before.listed, JSON.stringify({ before, belowMade }));
      assert.ok((await matching('resident-7c2e')).includes(file('left/kept.txt')));
      const counts = api.listings.counts;
      assert.strictEqual(counts.listed, belowMade.listed + 1, JSON.stringify({ belowMade, counts }));
    } finally {
      fs.rmSync(file('left'), { recursive: true, force: true });
    }
  });

  it('calls made together share one listing, with the same answer', async () => {
    await residentMatching('resident-7c2e');
    await eventsDelivered();
    api.listings.invalidate();
    const listed = api.listings.counts.listed;
    const answers = await Promise.all([1, 2, 3].map(() => invokeJson<GrepAnswer>('grep', { pattern: 'resident-7c2e' })));
    assert.strictEqual(api.listings.counts.listed, listed + 1, 'one listing made for three calls');
    assert.deepStrictEqual(answers, [answers[0], answers[0], answers[0]]);
  });

  it('an edit saved on disk, a file created, deleted and renamed are each in the next call', async () => {
    assert.deepStrictEqual(await residentMatching('resident-7c2e'), [file('a.txt'), file('deep/b.txt')]);
    write('a.txt', 'edited, no longer the token\n');
    assert.deepStrictEqual(await matching('resident-7c2e'), [file('deep/b.txt')], 'an edit');
    await residentMatching('resident-7c2e');
    write('deep/new.txt', 'resident-7c2e new\n');
    assert.deepStrictEqual(await matching('resident-7c2e'), [file('deep/b.txt'), file('deep/new.txt')], 'a file created');
    await residentMatching('resident-7c2e');
    fs.renameSync(file('deep/new.txt'), file('deep/renamed.txt'));
    assert.deepStrictEqual(await matching('resident-7c2e'), [file('deep/b.txt'), file('deep/renamed.txt')], 'a file renamed');
    await residentMatching('resident-7c2e');
    fs.rmSync(file('deep/b.txt'));
    assert.deepStrictEqual(await matching('resident-7c2e'), [file('deep/renamed.txt')], 'a file deleted');
  });

  it('a file created or deleted in a listed directory, or created below an excluded one, is taken into the resident listing without listing the folder again', async () => {
    await residentMatching('resident-7c2e');
    await eventsDelivered();
    const before = { ...api.listings.counts };
    write('deep/patched.txt', 'resident-7c2e patched\n');
    assert.ok((await matching('resident-7c2e')).includes(file('deep/patched.txt')), 'the created file is found');
    write('node_modules/pkg/left-out.txt', 'resident-7c2e excluded\n');
    fs.rmSync(file('deep/patched.txt'));
    const after = await matching('resident-7c2e');
    assert.ok(!after.includes(file('deep/patched.txt')), 'the deleted file is gone');
    assert.ok(!after.includes(file('node_modules/pkg/left-out.txt')), 'the file below node_modules (search.exclude) is left out');
    await eventsDelivered();
    await matching('resident-7c2e');
    const counts = api.listings.counts;
    assert.strictEqual(counts.listed, before.listed, `no listing made: ${JSON.stringify({ before, counts, why: api.listings.lastAgain })}`);
    assert.ok(counts.patched >= before.patched + 2, `the listing was read again where it changed: ${JSON.stringify({ before, counts })}`);
    fs.rmSync(file('node_modules'), { recursive: true });
  });

  it('a directory made with files, renamed and deleted is taken into the resident listing without listing the folder again', async () => {
    await residentMatching('resident-7c2e');
    await eventsDelivered();
    const before = { ...api.listings.counts };
    const below = async (dir: string) =>
      (await matching('resident-7c2e')).filter((path): path is string => typeof path === 'string' && path.startsWith(file(dir))).sort();
    write('made/inner/one.txt', 'resident-7c2e one\n');
    write('made/two.txt', 'resident-7c2e two\n');
    assert.deepStrictEqual(await below('made'), [file('made/inner/one.txt'), file('made/two.txt')], 'a directory made with files');
    fs.renameSync(file('made'), file('moved'));
    assert.deepStrictEqual(await below('m'), [file('moved/inner/one.txt'), file('moved/two.txt')], 'renamed');
    fs.rmSync(file('moved'), { recursive: true });
    assert.deepStrictEqual(await below('m'), [], 'deleted');
    await eventsDelivered();
    await matching('resident-7c2e');
    const counts = api.listings.counts;
    assert.strictEqual(counts.listed, before.listed, `no listing made: ${JSON.stringify({ before, counts, why: api.listings.lastAgain })}`);
    assert.ok(counts.patched >= before.patched + 3, `the listing was read again where it changed: ${JSON.stringify({ before, counts })}`);
  });

  it('a .gitignore written, changed and removed below the top is applied by the next call without listing the folder again', async () => {
    write('rules/kept.txt', 'resident-7c2e rules\n');
    write('rules/out/x.txt', 'resident-7c2e rules\n');
    write('rules/y.log', 'resident-7c2e rules\n');
    const [kept, x, log] = ['rules/kept.txt', 'rules/out/x.txt', 'rules/y.log'].map(file);
    const below = async () =>
      (await matching('resident-7c2e')).filter((path): path is string => typeof path === 'string' && path.startsWith(file('rules'))).sort();
    try {
      assert.deepStrictEqual(await untilReplayed(api.listings, below), [kept, x, log]);
      await eventsDelivered();
      const before = { ...api.listings.counts };
      write('rules/.gitignore', 'out/\n');
      assert.deepStrictEqual(await below(), [kept, log], 'a .gitignore written leaves out a directory');
      write('rules/.gitignore', '*.log\n');
      assert.deepStrictEqual(await below(), [kept, x], 'changed: the directory it left out is back, the .log file left out');
      fs.rmSync(file('rules/.gitignore'));
      assert.deepStrictEqual(await below(), [kept, x, log], 'removed: nothing left out');
      await eventsDelivered();
      await matching('resident-7c2e');
      const counts = api.listings.counts;
      assert.strictEqual(counts.listed, before.listed, `no listing made: ${JSON.stringify({ before, counts, why: api.listings.lastAgain })}`);
      assert.ok(counts.patched >= before.patched + 3, `the listing was read again where it changed: ${JSON.stringify({ before, counts })}`);
    } finally {
      fs.rmSync(file('rules'), { recursive: true, force: true });
    }
  });

  it('a .gitignore changed in place is applied by the next call', async () => {
    assert.ok(!(await residentMatching('resident-7c2e')).includes(file('hidden.txt')));
    fs.writeFileSync(file('.gitignore'), '# nothing ignored\n');
    assert.ok((await matching('resident-7c2e')).includes(file('hidden.txt')), 'no longer ignored');
    await residentMatching('resident-7c2e');
    fs.writeFileSync(file('.gitignore'), 'hidden.txt\n');
    assert.ok(!(await matching('resident-7c2e')).includes(file('hidden.txt')), 'ignored again');
  });

  it('a linked directory whose link is retargeted further along its chain (no listed directory changes) is listed afresh', async () => {
    write('targets/a/x.txt', 'chain-3f9a in a\n');
    write('targets/b/y.txt', 'chain-3f9a in b\n');
    // resident-tmp/linked -> <outside>/current -> resident-tmp/targets/a: the middle link lies in no listed directory.
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'grep-tools-chain-'));
    try {
      fs.symlinkSync(file('targets/a'), path.join(outside, 'current'));
      fs.symlinkSync(path.join(outside, 'current'), file('linked'));
      const before = await residentMatching('chain-3f9a');
      assert.ok(before.includes(file('linked/x.txt')) && !before.includes(file('linked/y.txt')), JSON.stringify(before));
      const retargeted = path.join(outside, 'next');
      fs.symlinkSync(file('targets/b'), retargeted);
      fs.renameSync(retargeted, path.join(outside, 'current'));
      const after = await matching('chain-3f9a');
      assert.ok(after.includes(file('linked/y.txt')), `the new target's file is found through the link: ${JSON.stringify(after)}`);
      assert.ok(!after.includes(file('linked/x.txt')), `the old target's file is gone: ${JSON.stringify(after)}`);
    } finally {
      fs.rmSync(file('linked'), { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('1,000 files created at once, as a branch switch does, are all in the next call, and gone in the one after their removal', async () => {
    const matched = async () => (await invokeJson<GrepAnswer>('grep', { pattern: 'burst-91d4', fixed_strings: true, output_mode: 'count' })).files_matched;
    await untilReplayed(api.listings, matched);
    for (let i = 0; i < 1000; i++) write(`burst/${i % 10}/f${i}.txt`, `burst-91d4 ${i}\n`);
    assert.strictEqual(await matched(), 1000);
    await untilReplayed(api.listings, matched);
    fs.rmSync(file('burst'), { recursive: true });
    assert.strictEqual(await matched(), 0);
  });

  it('a file git writes under .git (a denied path) leaves the listing resident', async () => {
    await eventsDelivered(); // (it makes .git)
    await residentMatching('resident-7c2e');
    await eventsDelivered(); // a file written under .git, reported
    const before = api.listings.counts.replayed;
    await matching('resident-7c2e');
    assert.strictEqual(api.listings.counts.replayed, before + 1, 'the call after the watcher reported the file replayed the listing');
  });

  it('is listed in parts by the first search, which finds every file, in the order and with the counts one listing of the whole folder gives', async function () {
    this.timeout(90_000);
    // Every line of every file; include '**/*' names the same files, and is listed by one findFiles call.
    const everything = { pattern: '^', output_mode: 'count', max_results: 2000 } as const;
    // A dot file at the top: listed by the part of the files at the top, as by the whole folder's listing.
    const dotFile = path.join(folderPath(0), '.parts-top.txt');
    fs.writeFileSync(dotFile, 'at the top\n');
    // Directories named as another part's directory (src/, docs/), which each part's listing leaves out
    // at the top only: their files are listed by the part they lie in.
    const nested = ['docs/src/parts-nested.txt', 'src/docs/parts-nested.txt'].map((relative) => path.join(folderPath(0), relative));
    const builds = api.index.builds;
    for (const file of nested) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'nested\n');
    }
    // The index lists the workspace again for these new files (every listing is made in parts while
    // counted): counted only once it is done, the parts counted are the search's alone.
    await waitUntil(
      () => api.index.builds > builds && !api.index.refreshing,
      () => `the index's build for the new files (builds ${api.index.builds}, refreshing ${api.index.refreshing})`,
      45_000,
    );
    try {
      for (const includeIgnored of [false, true]) {
        const search = (include?: string) => invokeJson<GrepAnswer>('grep', { ...everything, include_ignored: includeIgnored, include });
        const first = await listedInParts(api.listings, () => search());
        assert.strictEqual(first.inParts, 1, `the first search listed the folder in parts (${JSON.stringify(api.listings.counts)})`);
        const { result: whole, inParts } = await listedInParts(api.listings, () => search('**/*'));
        assert.strictEqual(inParts, 0, 'an include is listed whole');
        const parts = first.result;
        assert.ok(parts.files.length > 5, `files in several top-level directories: ${JSON.stringify(parts.files)}`);
        assert.ok(JSON.stringify(parts.files).includes('.parts-top.txt'), 'the dot file at the top');
        for (const file of nested) assert.ok(JSON.stringify(parts.files).includes(path.relative(folderPath(0), file)), `${file} is listed`);
        assert.deepStrictEqual(parts.files, whole.files, `include_ignored ${includeIgnored}`);
        assert.deepStrictEqual([parts.files_searched, parts.skipped], [whole.files_searched, whole.skipped], `include_ignored ${includeIgnored}`);
      }
    } finally {
      fs.rmSync(dotFile, { force: true });
      for (const file of nested) fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it("a listing no search takes as it comes (an empty answer's checks, a glob) is made in parts too, and answers as one listing of the whole folder", async () => {
    const questions: Array<['grep' | 'glob', object]> = [
      ['grep', { pattern: 'no-such-text-5d1e', fixed_strings: true }],
      ['glob', { pattern: '**/*.txt' }],
    ];
    const answers = () => answersTo(questions);
    api.listings.invalidate();
    const whole = await answers();
    const { result: parts, inParts } = await listedInParts(api.listings, answers);
    // The empty answer's search, and its check of the ignored files: each lists the whole folder.
    assert.ok(inParts >= 2, `both in parts: ${JSON.stringify(api.listings.counts)}`);
    assert.deepStrictEqual(parts, whole);
  });

  it('a search.exclude change applies to the next call', async () => {
    const settings = vscode.workspace.getConfiguration('search');
    const previous = settings.inspect<Record<string, boolean>>('exclude')?.globalValue;
    write('excluded-here/c.txt', 'resident-7c2e excluded\n');
    try {
      assert.ok((await residentMatching('resident-7c2e')).includes(file('excluded-here/c.txt')));
      await settings.update('exclude', { ...(previous ?? {}), '**/excluded-here': true }, vscode.ConfigurationTarget.Global);
      assert.ok(!(await matching('resident-7c2e')).includes(file('excluded-here/c.txt')));
    } finally {
      await settings.update('exclude', previous, vscode.ConfigurationTarget.Global);
    }
  });
});

describe('the resident listings kept at once', () => {
  /** A listing of `count` files with no directory to check again: replayed while kept. */
  const listingOf = (count: number): BaseListing => ({
    files: Array.from({ length: count }, (_, i) => ({ path: `/ws/f${i}.ts`, relative: `f${i}.ts` })),
    pruned: [],
    warnings: [],
    directories: [],
  });

  /** Resident listings keeping 10 files besides the most used listing; `get` makes a listing of `count` files when not kept. */
  function kept() {
    const listings = new ResidentListings(undefined, { listings: 32, files: 10 });
    const get = (key: string, count: number, inUse: string[] = []) =>
      listings.get(
        key,
        () => false,
        () => Promise.resolve(listingOf(count)),
        new Set(inUse),
      );
    return { listings, get };
  }

  it("the whole workspace's listing is not pushed out by the ones other calls make (a glob's)", async () => {
    const { listings, get } = kept();
    try {
      assert.strictEqual((await get('workspace', 20)).made, true);
      for (const glob of ['a', 'b', 'c']) assert.strictEqual((await get(glob, 5)).made, true);
      assert.strictEqual((await get('workspace', 20)).made, false, 'the workspace is replayed');
      assert.strictEqual((await get('c', 5)).made, false, 'the newest glob listings are kept beside it');
      assert.strictEqual((await get('a', 5)).made, true, 'the oldest glob listing made room');
    } finally {
      listings.dispose();
    }
  });

  it("a listing an empty answer's check makes never pushes out the one its own search replays", async () => {
    const { listings, get } = kept();
    try {
      assert.strictEqual((await get('search', 20)).made, true);
      assert.strictEqual((await get('other', 8)).made, true);
      // The check's listing (15 files, more than the 10 kept besides the search's) is made, but not kept in their place.
      assert.strictEqual((await get('check', 15, ['search', 'other'])).made, true);
      assert.strictEqual((await get('search', 20)).made, false, 'the search is still replayed after the check');
      assert.strictEqual((await get('other', 8)).made, false);
      assert.strictEqual((await get('check', 15, ['search'])).made, true, 'the check lists again, pushing out the other call');
      assert.strictEqual((await get('other', 8)).made, true);
      // A larger listing another call makes once (the index's, with the ignored files) does not take the most used one's place.
      assert.strictEqual((await get('bigger', 30)).made, true);
      assert.strictEqual((await get('search', 20)).made, false, 'the most used listing stays');
      assert.strictEqual((await get('bigger', 30)).made, true, 'the larger one was not kept');
    } finally {
      listings.dispose();
    }
  });

  it('a listing being checked for a replay is still held, and a call asking meanwhile shares the check instead of listing again', async () => {
    const { listings, get } = kept();
    try {
      assert.strictEqual((await get('workspace', 20)).made, true);
      const before = { ...listings.counts };
      // The check waits for the file events queued so far: both calls ask while it runs.
      const first = get('workspace', 20);
      assert.ok(listings.holds('workspace'), 'held while it is checked: an include asking now takes it instead of a listing of its own');
      const second = get('workspace', 20);
      const [one, two] = await Promise.all([first, second]);
      assert.deepStrictEqual([one.made, two.made], [false, false]);
      assert.strictEqual(one.listing, two.listing);
      assert.deepStrictEqual([listings.counts.listed, listings.counts.replayed], [before.listed, before.replayed + 1]);
      assert.ok(listings.holds('workspace'));
    } finally {
      listings.dispose();
    }
  });
});
