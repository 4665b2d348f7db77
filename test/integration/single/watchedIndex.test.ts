/**
 * The watched index (workspaceIndexer.ts): once built with its files' directories watched, a search
 * skips the files it rules out without taking their stamps. A change written through the workspace is
 * seen by the very next search (the search waits for the file events already queued); a change no
 * event reports (here a write through a hard link in `node_modules/*`, which VS Code's watcher excludes
 * and ours does not watch) is found by the background audit, which then makes searches read the file.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { GrepToolsApi } from '../../../src/extension';
import { folderPath, invokeJson, waitUntil, type GrepAnswer, extensionApi } from '../helpers';

describe('the watched content index in the extension host', () => {
  const dir = () => path.join(folderPath(0), 'watch-tmp');
  const file = (relative: string) => path.join(dir(), relative);
  let api: GrepToolsApi;
  /** The files a grep finds the text in. */
  const count = async (pattern: string) => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern, fixed_strings: true, output_mode: 'count' });
    return answer.files_matched ?? Object.keys(answer.files).length;
  };

  /**
   * Waits for a build that holds the workspace's files, made with their directories watched, and relies on
   * each of them: a build that read one just as it was written holds it unread (a recent write) until the
   * refresh that reads it again, and while a build runs no file is vouched for. A question no file answers
   * then reads none (each asks other text: none is remembered).
   */
  let probe = 0;
  const untilSettled = async () => {
    const settlesAll = async () => {
      await invokeJson<GrepAnswer>('grep', { pattern: `absent-5c2e-${probe++}`, fixed_strings: true, output_mode: 'count' });
      return api.index.phase === 'ready' && api.index.watched && api.index.lastUse?.read === 0;
    };
    for (;;) {
      const seen = { builds: api.index.builds, refreshes: api.index.contentRefreshes };
      if (await settlesAll()) break;
      await waitUntil(
        () => api.index.builds > seen.builds || api.index.contentRefreshes > seen.refreshes,
        () =>
          `a watched index that reads no file for a question none answers (phase ${api.index.phase}, watched ${api.index.watched}, last use ${JSON.stringify(api.index.lastUse)})`,
        60_000,
      );
    }
  };

  before(async function () {
    this.timeout(90_000);
    api = await extensionApi();
    fs.mkdirSync(path.join(dir(), 'node_modules', 'pkg'), { recursive: true });
    fs.writeFileSync(file('edited.txt'), 'watch-old-5c2e\n');
    fs.writeFileSync(file('linked.txt'), 'link-old-5c2e\n');
    for (const name of ['r1', 'r2', 'r3']) fs.writeFileSync(file(`${name}.txt`), 'repeat-7d1f one\nrepeat-7d1f two\n');
    fs.linkSync(file('linked.txt'), file('node_modules/pkg/linked.txt'));
    await untilSettled();
    assert.strictEqual(await count('link-old-5c2e'), 1, 'the linked file is indexed and found (its node_modules twin is excluded)');
  });

  after(() => fs.rmSync(dir(), { recursive: true, force: true }));

  it('asks a repeated question, or for its next page, without reading its files again, until one changes', async () => {
    const question = { pattern: 'repeat-7d1f', max_results: 2 };
    const first = await invokeJson<GrepAnswer>('grep', question);
    assert.strictEqual(first.total_matches, 6);
    const readFirst = api.index.lastUse?.read ?? -1;
    assert.deepStrictEqual(await invokeJson<GrepAnswer>('grep', question), first, 'the same answer');
    // (files reached through a symlink, which the index never vouches for, are read every time)
    const readAgain = api.index.lastUse?.read ?? -1;
    assert.strictEqual(readAgain, readFirst - 3, `the three files holding it are not read again (${readFirst}, then ${readAgain})`);
    const next = await invokeJson<GrepAnswer>('grep', { ...question, offset: 2 });
    assert.deepStrictEqual(
      next.files,
      [
        {
          file: file('r2.txt'),
          matches: [
            { line: 1, text: 'repeat-7d1f one' },
            { line: 2, text: 'repeat-7d1f two' },
          ],
        },
      ],
      'the next page',
    );
    assert.strictEqual(api.index.lastUse?.read, readAgain, 'nor for its next page');
    fs.writeFileSync(file('r2.txt'), 'repeat-7d1f changed\n');
    const changed = await invokeJson<GrepAnswer>('grep', { ...question, offset: 2 });
    assert.strictEqual(changed.total_matches, 5, 'the changed file is searched at once');
    assert.strictEqual(api.index.lastUse?.read, readAgain + 1, 'and only it is read');
  });

  it('sees a change written through the workspace in the very next search', async () => {
    for (let i = 0; i < 5; i++) {
      fs.writeFileSync(file('edited.txt'), `watch-new-5c2e-${i}\n`);
      assert.strictEqual(await count(`watch-new-5c2e-${i}`), 1, `write ${i} is searched at once`);
      assert.strictEqual(await count('watch-old-5c2e'), 0, `the old text is gone after write ${i}`);
    }
  });

  it('refreshes a change of content by reading only the changed files again, relying on the watcher meanwhile', async function () {
    this.timeout(60_000);
    const before = { builds: api.index.builds, refreshes: api.index.contentRefreshes };
    const phases = new Set<string>();
    const watching = setInterval(() => phases.add(`${api.index.phase}${api.index.watched ? '' : ' unwatched'}`), 20);
    try {
      fs.writeFileSync(file('edited.txt'), 'watch-refreshed-5c2e\n');
      assert.strictEqual(await count('watch-refreshed-5c2e'), 1, 'searched at once, before any refresh');
      await waitUntil(
        () => api.index.contentRefreshes > before.refreshes,
        () => `a content refresh (${JSON.stringify(api.index)})`,
        30_000,
      );
    } finally {
      clearInterval(watching);
    }
    assert.deepStrictEqual([...phases], ['ready'], 'the index stayed ready and watched: the workspace was not listed again');
    assert.strictEqual(api.index.builds, before.builds, 'and no build listed the workspace again');
    assert.ok(
      api.index.last && api.index.last.read >= 1 && api.index.last.read <= 3,
      `only the changed files were read again (${JSON.stringify(api.index.last)})`,
    );
    assert.strictEqual(await count('watch-refreshed-5c2e'), 1, 'the new text is found after the refresh');
    assert.strictEqual(await count('watch-new-5c2e'), 0, 'and the old is not');
  });

  it('replays the file list without statting its directories while no entry appears or goes, and lists a new file at once', async () => {
    await count('watch-old-5c2e'); // the listing checked once with the watcher in place
    const vouched = api.listings.counts.vouched;
    await count('watch-old-5c2e');
    assert.ok(api.listings.counts.vouched > vouched, `the listing was replayed on the watcher's word (${JSON.stringify(api.listings.counts)})`);
    for (let i = 0; i < 3; i++) {
      fs.writeFileSync(file(`added-${i}.txt`), `added-5c2e-${i}\n`);
      assert.strictEqual(await count(`added-5c2e-${i}`), 1, `a file created just before the search is searched (${i})`);
    }
    fs.rmSync(file('added-0.txt'));
    assert.strictEqual(await count('added-5c2e-0'), 0, 'a file removed just before the search is not');
  });

  it('relies on the watcher while a refresh lists and builds the workspace again, and sees an edit made meanwhile', async function () {
    this.timeout(120_000);
    for (const name of ['k1', 'k2', 'k3']) fs.writeFileSync(file(`${name}.txt`), 'kept-9b3a\n');
    await untilSettled();
    const question = { pattern: 'kept-9b3a', fixed_strings: true, output_mode: 'count' };
    await invokeJson<GrepAnswer>('grep', question);
    await invokeJson<GrepAnswer>('grep', question);
    assert.strictEqual(api.index.lastUse?.read, 0, 'asked again, its three files are not read: the outcomes are remembered');
    // A new entry: the next refresh lists the workspace again and builds a new index in a process of its own. Questions asked
    // while it builds rely on the watcher as before (the index it replaces is still the one searched): remembered outcomes
    // serve, and a file edited meanwhile is read.
    const seen: string[] = [];
    for (let attempt = 0; ; attempt++) {
      assert.ok(attempt < 10, `questions asked while a build ran (${seen.join('; ')})`);
      const builds = api.index.builds;
      fs.writeFileSync(file(`shape-9b3a-${attempt}.txt`), 'x\n');
      await waitUntil(
        () => api.index.phase === 'building' || api.index.builds > builds,
        () => `a build (${JSON.stringify(api.index)})`,
        30_000,
        1,
      );
      const building = () => api.index.phase === 'building' && api.index.builds === builds;
      if (!building()) continue;
      const asked = await invokeJson<GrepAnswer>('grep', question);
      const askedUse = api.index.lastUse;
      fs.writeFileSync(file('k2.txt'), `kept-9b3a\nkept-9b3a ${attempt}\n`);
      const edited = await invokeJson<GrepAnswer>('grep', question);
      const editedUse = api.index.lastUse;
      if (!building()) {
        seen.push(`attempt ${attempt}: the build ended before the questions did`);
        fs.writeFileSync(file('k2.txt'), 'kept-9b3a\n');
        await untilSettled();
        await invokeJson<GrepAnswer>('grep', question);
        continue;
      }
      assert.deepStrictEqual(
        [asked.total_matches, askedUse?.read, edited.total_matches, editedUse?.read],
        [3, 1, 4, 2],
        'while the build ran: of the files, only the new one (not in the index yet) read for the question asked again, then the edited one too, its new line counted',
      );
      assert.strictEqual(api.index.watched, true);
      break;
    }
  });

  it('finds by its audit a change no file event reported, and searches then read the file', async function () {
    this.timeout(120_000);
    // The earlier tests' changes refresh the index: while a refresh runs the file would be read for that, not found by the audit.
    await untilSettled();
    const changed = api.index.audit.changed;
    // The same inode written through a path neither watcher reports: the workspace's file changed unseen.
    fs.writeFileSync(file('node_modules/pkg/linked.txt'), 'link-new-5c2e\n');
    const deadline = Date.now() + 30_000;
    while ((await count('link-new-5c2e')) !== 1) {
      assert.ok(Date.now() < deadline, `the audit found the change within 30 s (audit ${JSON.stringify(api.index.audit)})`);
      // Leaves the extension host idle for a moment: the audit runs when no search does.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.ok(api.index.audit.changed > changed, `the audit counted the change (${JSON.stringify(api.index.audit)})`);
    assert.strictEqual(await count('link-old-5c2e'), 0);
  });
});
