/**
 * The guard meets symbolic links: a name is judged where it really leads (out of the workspace, into
 * it, to a denied file, nowhere), by `decide`, `authorize`, `judgeLink`, `prepareMessages` and the audit
 * of a listing made by someone else; stats and real paths only, nothing opened.
 */
import * as assert from 'assert';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { authorize, decide, type GuardContext } from '../../../../src/engine/guard/guard';
import { prepareMessages } from '../../../../src/engine/guard/invocation';
import { judgeLink } from '../../../../src/engine/guard/links';
import { outsideMessage } from '../../../../src/engine/guard/messages';
import type { WorkspaceFolder } from '../../../../src/engine/guard/roots';
import { auditListing } from '../../../../src/engine/source/audit';
import type { PrunedEntry } from '../../../../src/engine/source/fileSource';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, folders } from '../../fixture';
import { FsRecorder } from '../../recorder';

describe('engine/guard through symbolic links', () => {
  let fx: Fixture;
  let ws: string;
  let outside: string;
  const source = new NodeFileSource();
  const context = (list: WorkspaceFolder[]): GuardContext => ({
    folders: list,
    config: { deniedPaths: [...DEFAULT_DENIED_PATHS], allowedPaths: [] },
    kind: (path) => source.kind(path),
  });

  before(() => {
    fx = new Fixture('grep-tools-guard-links-');
    ws = fx.mkdir('ws');
    outside = fx.mkdir('outside');
    fx.files({ 'ws/src/a.ts': 'a\n', 'ws/.env': 'x\n', 'outside/o.txt': 'o\n' });
    fx.symlink(outside, 'ws/out-link');
    fx.symlink('.env', 'ws/env-link');
    fx.symlink(fx.path('ws/src'), 'outside/into-ws');
    fx.symlink('does-not-exist', 'ws/dangling');
  });

  after(() => fx.remove());

  it('leaves a link out of every folder pending, naming where it really leads', async () => {
    const pending = await decide('out-link', context(folders(ws)));
    assert.ok(pending.kind === 'pending', pending.kind);
    assert.strictEqual(pending.requested, 'out-link');
    assert.strictEqual(pending.resolved, outside);
    assert.strictEqual(pending.message, outsideMessage('out-link', outside, folders(ws)));
  });

  it('grants an outside path that really leads into a folder, searched where it leads', async () => {
    assert.deepStrictEqual(await decide(fx.path('outside/into-ws'), context(folders(ws))), {
      kind: 'granted',
      bases: [{ root: ws, base: fx.path('ws/src'), folderIndex: 0 }],
    });
  });

  it('denies a link by where it leads, even when outside paths are allowed', async () => {
    const decision = await decide('env-link', context(folders(ws)));
    assert.strictEqual(
      decision.kind === 'denied' ? decision.message : decision.kind,
      `permission denied by policy: "env-link" (it leads to ${fx.path('ws/.env')}) matches "**/.env" (grepTools.deniedPaths). Secrets, keys and .git are never searched or listed, whatever the input says; search another path.`,
    );
    await assert.rejects(authorize('env-link', { ...context(folders(ws)), allowOutside: true }), /permission denied by policy/);
  });

  it('reports a dangling link as not found', async () => {
    const decision = await decide('dangling', context(folders(ws)));
    assert.strictEqual(
      decision.kind === 'invalid' ? decision.message : decision.kind,
      `Path not found: "dangling" (resolved to ${fx.path('ws/dangling')}). Check the path, or omit "path" to search the whole workspace.`,
    );
  });

  it('the confirmation names the link and where it resolves', async () => {
    const grep = await prepareMessages('grep', { pattern: 'password', path: 'out-link' }, context(folders(ws)));
    assert.strictEqual(grep.decision, 'pending');
    assert.strictEqual(grep.resolved, outside);
    assert.match(
      grep.confirmation?.message ?? '',
      new RegExp(`files in \`out-link\`, which resolves to \`${outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``),
    );
  });

  it('opens and lists nothing while deciding on links', async () => {
    const recorder = new FsRecorder();
    await recorder.record(async () => {
      for (const path of ['out-link', 'env-link', fx.path('outside/into-ws')]) await decide(path, context(folders(ws)));
      await prepareMessages('grep', { pattern: 'x', path: 'out-link' }, context(folders(ws)));
    });
    assert.deepStrictEqual(recorder.accesses, []);
  });

  it('judgeLink follows links into a granted root, refuses the rest, and stats only', () => {
    assert.deepStrictEqual(judgeLink(fx.path('ws/out-link'), { granted: [ws], denied: DEFAULT_DENIED_PATHS }), {
      kind: 'outside',
      real: outside,
      directory: true,
    });
    assert.deepStrictEqual(judgeLink(fx.path('ws/out-link'), { granted: [ws, outside], denied: DEFAULT_DENIED_PATHS }), {
      kind: 'follow',
      real: outside,
      directory: true,
      file: false,
    });
    assert.deepStrictEqual(judgeLink(fx.path('ws/env-link'), { granted: [ws], denied: DEFAULT_DENIED_PATHS }), {
      kind: 'denied',
      real: fx.path('ws/.env'),
      directory: false,
    });
    assert.deepStrictEqual(judgeLink(fx.path('ws/dangling'), { granted: [ws], denied: DEFAULT_DENIED_PATHS }), { kind: 'dangling' });
  });

  it('auditListing drops files behind links that leave the granted roots or lead to denied places, and notes them as the walker would', async () => {
    const audit = fx.mkdir('audit');
    fx.files({ 'audit/src/a.ts': '', 'audit/.git/HEAD': '', 'audit/keep/k.ts': '', 'audit/node_modules/m.js': '', 'audit/.SSH/id': '' });
    fx.symlink(outside, 'audit/src/out');
    fx.symlink(fx.path('audit/.git'), 'audit/keep/git-link');
    fx.symlink(outside, 'audit/node_modules/out');
    const base = { root: audit, base: audit, folderIndex: 0 };
    // As findFiles (following symlinks) would answer.
    const listed = ['src/a.ts', 'src/out/o.txt', 'keep/k.ts', 'keep/git-link/HEAD'].map((relative) => ({ path: nodePath.join(audit, relative), relative }));
    const pruned: PrunedEntry[] = [];
    const recorder = new FsRecorder();
    const kept = await recorder.record(() =>
      auditListing(base, 0, listed, { granted: [], denied: DEFAULT_DENIED_PATHS, excluded: (fromRoot) => /(^|\/)node_modules$/.test(fromRoot), pruned }),
    );
    assert.deepStrictEqual(
      kept.map((c) => c.relative),
      ['src/a.ts', 'keep/k.ts'],
    );
    assert.deepStrictEqual(pruned.map((e) => `${e.reason} ${e.relative} ${e.directory}`).sort(), [
      'denied .SSH true',
      'denied .git true',
      'denied keep/git-link true',
      'outside_workspace src/out true',
    ]);
    assert.deepStrictEqual(recorder.opened(), [], 'no file opened');
    assert.deepStrictEqual(recorder.listed(), [audit, fx.path('audit/keep'), fx.path('audit/src')], 'only the directories holding listed files');
  });
});
