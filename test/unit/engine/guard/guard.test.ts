import * as assert from 'assert';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import { authorize, decide, type GuardContext } from '../../../../src/engine/guard/guard';
import { outsideMessage } from '../../../../src/engine/guard/messages';
import { allowList } from '../../../../src/engine/guard/scope';
import type { WorkspaceFolder } from '../../../../src/engine/guard/roots';
import { InputError } from '../../../../src/engine/api/errors';
import { untitledNotFoundMessage, type UntitledDocument } from '../../../../src/engine/guard/untitled';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, folders } from '../../fixture';
import { FsRecorder } from '../../recorder';

describe('engine/guard', () => {
  let fx: Fixture;
  let ws: string;
  let outside: string;
  const source = new NodeFileSource();
  /** Absolute paths below the workspace folder and the outside directory, spelled by the platform. */
  const at = (relative: string) => nodePath.join(ws, ...relative.split('/'));
  const out = (relative: string) => nodePath.join(outside, ...relative.split('/'));
  const context = (list: WorkspaceFolder[], config: Partial<GuardContext['config']> = {}): GuardContext => ({
    folders: list,
    config: { deniedPaths: [...DEFAULT_DENIED_PATHS], allowedPaths: [], ...config },
    kind: (path) => source.kind(path),
  });

  before(() => {
    fx = new Fixture('grep-tools-guard-');
    ws = fx.mkdir('ws');
    outside = fx.mkdir('outside');
    fx.files({ 'ws/src/a.ts': 'a\n', 'ws/docs/d.md': 'd\n', 'ws/.env': 'x\n', 'outside/o.txt': 'o\n', 'outside/.ssh/id': 'k\n', 'ws/.ssh/config': 'c\n' });
  });

  after(() => fx.remove());

  describe('decide', () => {
    it('grants the workspace folders, and any path inside one', async () => {
      assert.deepStrictEqual(await decide(undefined, context(folders(ws))), { kind: 'granted', bases: [{ root: ws, base: ws, folderIndex: 0 }] });
      for (const path of ['src', 'src/', './src', at('src'), 'docs/../src', 'ws/src']) {
        assert.deepStrictEqual(await decide(path, context(folders(ws))), { kind: 'granted', bases: [{ root: ws, base: at('src'), folderIndex: 0 }] }, path);
      }
    });

    it('leaves a path outside every folder pending, naming it (a link: guardLinks.test.ts)', async () => {
      const pending = await decide('../outside', context(folders(ws)));
      assert.strictEqual(pending.kind, 'pending');
      assert.ok(pending.kind === 'pending');
      assert.strictEqual(pending.requested, '../outside');
      assert.strictEqual(pending.resolved, outside);
      assert.strictEqual(pending.message, outsideMessage('../outside', outside, folders(ws)));
      for (const path of [outside, '../outside', [ws, '..', 'outside', 'o.txt'].join(nodePath.sep)])
        assert.strictEqual((await decide(path, context(folders(ws)))).kind, 'pending', path);
    });

    it('denies a path, or where its symlink leads, by the first matching rule', async () => {
      const denied = async (path: string) => {
        const decision = await decide(path, context(folders(ws)));
        assert.strictEqual(decision.kind, 'denied', path);
        return decision.kind === 'denied' ? [decision.rule, decision.message] : [];
      };
      assert.deepStrictEqual(await denied('.env'), [
        '**/.env',
        'permission denied by policy: ".env" matches "**/.env" (grepTools.deniedPaths). Secrets, keys and .git are never searched or listed, whatever the input says; search another path.',
      ]);
      assert.strictEqual((await denied(out('.ssh')))[0], '**/.ssh/**', 'an outside path is judged from /');
      assert.strictEqual((await denied('.ssh/nope'))[0], '**/.ssh/**', 'denied before existence is checked');
    });

    it('reports what cannot be searched at all', async () => {
      const message = async (path: string | undefined, list = folders(ws)) => {
        const decision = await decide(path, context(list));
        return decision.kind === 'invalid' ? decision.message : `not invalid: ${decision.kind}`;
      };
      assert.strictEqual(
        await message('nope'),
        `Path not found: "nope" (resolved to ${at('nope')}). Check the path, or omit "path" to search the whole workspace.`,
      );
      assert.strictEqual(await message(undefined, []), 'No workspace folder is open: open a folder, or pass an absolute "path" to search.');
      assert.strictEqual(await message('src', []), 'Relative "path" "src" needs an open workspace folder: open a folder, or pass an absolute path.');
      assert.strictEqual(
        await message(undefined, folders(fx.path('gone'))),
        `Workspace folder not found: ${fx.path('gone')} does not exist. Open an existing folder, or pass an absolute "path".`,
      );
      if (nodePath.sep === '/') assert.match(await message('src\\a.ts'), /^Invalid "path" "src\\\\a\.ts": use '\/' as the separator, e\.g\. "src\/a\.ts"\.$/);
      else assert.match(await message('C:src'), /^Invalid "path" "C:src": a drive-relative path depends on the drive's current directory/);
      assert.match(await message('~root/x'), /only "~" and "~\/\.\.\." \(your home directory\) are expanded/);
    });

    it('with no workspace open, an absolute path is pending', async () => {
      const decision = await decide(at('src'), context([]));
      assert.strictEqual(decision.kind, 'pending');
      assert.match(decision.kind === 'pending' ? decision.message : '', /outside every workspace folder \(none open\)/);
    });

    it('with an allow-list, refuses a path that cannot hold an allowed file', async () => {
      const ctx = context(folders(ws), { allowedPaths: ['src/**'] });
      assert.strictEqual((await decide('src', ctx)).kind, 'granted');
      assert.strictEqual((await decide('src/a.ts', ctx)).kind, 'granted');
      assert.strictEqual((await decide(undefined, ctx)).kind, 'granted');
      const docs = await decide('docs', ctx);
      assert.strictEqual(docs.kind, 'denied');
      assert.strictEqual(
        docs.kind === 'denied' ? docs.message : '',
        `permission denied by policy: "docs" (${at('docs')}) is not covered by grepTools.allowedPaths ("src/**"). Only files those globs match are searched; search a path below one of them.`,
      );
      assert.strictEqual((await decide('docs', context(folders(ws), { allowedPaths: ['*.md'] }))).kind, 'granted', 'a name glob may match at any depth');
    });

    it('opens and lists nothing while deciding', async () => {
      const recorder = new FsRecorder();
      await recorder.record(async () => {
        for (const path of [undefined, 'src', '.env', outside, out('.ssh/nope')]) await decide(path, context(folders(ws)));
      });
      assert.deepStrictEqual(recorder.accesses, []);
    });

    it('for a path not found, opens nothing and lists at most workspace directories (for a hint)', async () => {
      const recorder = new FsRecorder();
      await recorder.record(async () => {
        for (const path of ['nope', 'src/nope/deeper', '.ssh/nope', out('nope'), '../outside/nope']) await decide(path, context(folders(ws)));
      });
      assert.deepStrictEqual(recorder.opened(), []);
      for (const listed of recorder.listed())
        assert.ok(listed === ws || (listed.startsWith(`${ws}${nodePath.sep}`) && !listed.includes(`${nodePath.sep}.ssh`)), listed);
    });
  });

  describe('decide: untitled editors', () => {
    const doc = (uri: string, associatedPath?: string): UntitledDocument => {
      const path = uri.slice('untitled:'.length);
      return { uri, name: associatedPath ? nodePath.basename(associatedPath) : path, ...(associatedPath ? { associatedPath } : {}), text: () => '' };
    };
    const scratch = doc('untitled:Untitled-1');
    const named = (name: string) => doc(`untitled:${name}`);
    const saveTo = (path: string) => doc(`untitled:${path}`, path);
    const withUntitled = (documents: UntitledDocument[], list = folders(ws), config: Partial<GuardContext['config']> = {}): GuardContext => ({
      ...context(list, config),
      untitled: documents,
    });

    it('an untitled editor is named by its URI, or by its name when nothing in the workspace has it', async () => {
      const docs = [scratch, named('src'), named('b.ts')];
      assert.deepStrictEqual(await decide('untitled:Untitled-1', withUntitled(docs)), { kind: 'untitled', document: scratch });
      assert.deepStrictEqual(await decide('Untitled-1', withUntitled(docs)), { kind: 'untitled', document: scratch });
      assert.deepStrictEqual(await decide('Untitled-1', withUntitled(docs, [])), { kind: 'untitled', document: scratch }, 'also with no folder open');
      assert.deepStrictEqual(await decide('untitled:src', withUntitled(docs)), { kind: 'untitled', document: docs[1] }, 'its URI names it whatever is on disk');
      assert.strictEqual((await decide('src', withUntitled(docs))).kind, 'granted', 'the workspace directory src wins over the editor named src');
      assert.deepStrictEqual(await decide('b.ts', withUntitled(docs)), { kind: 'untitled', document: docs[2] });
      assert.strictEqual(
        (await decide('untitled:Untitled-1', context(folders(ws)))).kind,
        'invalid',
        'without untitled editors (the CLI) it is a path like any other',
      );
    });

    it('one with a file path is named by that path (absolute or relative) when nothing is there on disk', async () => {
      const draft = saveTo(at('src/new.ts'));
      const shadowed = saveTo(at('src/a.ts'));
      const ctx = withUntitled([draft, shadowed]);
      for (const path of [at('src/new.ts'), 'src/new.ts', './src/../src/new.ts', 'ws/src/new.ts', draft.uri]) {
        assert.deepStrictEqual(await decide(path, ctx), { kind: 'untitled', document: draft }, path);
      }
      assert.strictEqual((await decide('new.ts', ctx)).kind, 'invalid', 'its file name alone is not its path');
      assert.deepStrictEqual(
        await decide('src/a.ts', ctx),
        { kind: 'granted', bases: [{ root: ws, base: at('src/a.ts'), folderIndex: 0 }] },
        'a real file wins',
      );
      assert.deepStrictEqual(await decide(shadowed.uri, ctx), { kind: 'untitled', document: shadowed });
    });

    it('in a multi-root workspace, a relative path finds the folder the editor would be saved in', async () => {
      const draft = saveTo(out('notes.md'));
      assert.deepStrictEqual(await decide('notes.md', withUntitled([draft], folders(ws, outside))), { kind: 'untitled', document: draft });
    });

    it('needs no confirmation wherever it would be saved: nothing on disk is read', async () => {
      const draft = saveTo(out('new.md'));
      assert.deepStrictEqual(await decide(out('new.md'), withUntitled([draft])), { kind: 'untitled', document: draft });
      assert.strictEqual((await decide(out('o.txt'), withUntitled([saveTo(out('o.txt'))]))).kind, 'pending', 'a real file outside still asks');
    });

    it('the denied rules judge the path it would be saved to, or its name', async () => {
      const denied = async (path: string, documents: UntitledDocument[]) => {
        const decision = await decide(path, withUntitled(documents));
        return decision.kind === 'denied' ? decision.rule : `not denied: ${decision.kind}`;
      };
      const env = saveTo(at('config/.env'));
      assert.strictEqual(await denied(env.uri, [env]), '**/.env');
      assert.strictEqual(await denied('config/.env', [env]), '**/.env');
      const key = saveTo(out('.ssh/id_new'));
      assert.strictEqual(await denied(key.uri, [key]), '**/.ssh/**', 'outside the folders, judged from /');
      assert.strictEqual(await denied('untitled:server.pem', [named('server.pem')]), '**/*.pem');
      const decision = await decide(env.uri, withUntitled([env]));
      assert.strictEqual(
        decision.kind === 'denied' ? decision.message : '',
        `permission denied by policy: ${JSON.stringify(env.uri)} matches "**/.env" (grepTools.deniedPaths). Secrets, keys and .git are never searched or listed, whatever the input says; search another path.`,
      );
    });

    it('with an allow-list, only one whose path it allows is searched', async () => {
      const inSrc = saveTo(at('src/new.ts'));
      const inDocs = saveTo(at('docs/new.ts'));
      const ctx = withUntitled([scratch, inSrc, inDocs, saveTo(out('x.ts'))], folders(ws), { allowedPaths: ['src/**'] });
      assert.strictEqual((await decide(inSrc.uri, ctx)).kind, 'untitled');
      for (const path of [inDocs.uri, 'untitled:Untitled-1', out('x.ts')]) assert.strictEqual((await decide(path, ctx)).kind, 'denied', path);
    });

    it('an untitled: path that names no open editor is reported as such', async () => {
      const decision = await decide('untitled:Untitled-4', withUntitled([scratch]));
      assert.deepStrictEqual(decision, { kind: 'invalid', message: untitledNotFoundMessage('untitled:Untitled-4', [scratch]) });
    });

    it('authorize hands the document to the search', async () => {
      assert.deepStrictEqual(await authorize('Untitled-1', { ...withUntitled([scratch]), allowOutside: false }), { kind: 'untitled', document: scratch });
    });
  });

  describe('authorize', () => {
    const ctx = (allowOutside: boolean, outsideHint?: string) => ({ ...context(folders(ws)), allowOutside, outsideHint });

    it('returns the bases and the real roots links may lead to', async () => {
      assert.deepStrictEqual(await authorize('src', ctx(false)), { kind: 'files', bases: [{ root: ws, base: at('src'), folderIndex: 0 }], granted: [ws] });
      assert.deepStrictEqual(await authorize(outside, ctx(true)), {
        kind: 'files',
        bases: [{ root: outside, base: outside, folderIndex: -1 }],
        granted: [ws, outside],
      });
    });

    it("refuses an outside path without confirmation, with the caller's advice", async () => {
      await assert.rejects(
        authorize(outside, ctx(false)),
        (error: Error) => error instanceof InputError && error.message === outsideMessage(outside, outside, folders(ws)),
      );
      await assert.rejects(authorize(outside, ctx(false, 'Pass --allow-outside.')), {
        message: `Path ${JSON.stringify(outside)} resolves to ${outside}, which is outside every workspace folder (${ws}). Pass --allow-outside.`,
      });
    });

    it('refuses a denied path even when outside paths are allowed', async () => {
      await assert.rejects(authorize(out('.ssh/id'), ctx(true)), /^InputError: permission denied by policy/);
    });
  });

  describe('allowList', () => {
    it('is undefined when empty, and tells files from directories that may hold them', () => {
      assert.strictEqual(allowList([]), undefined);
      const list = allowList(['src/**', 'docs/*.md', '*.txt']);
      assert.ok(list);
      assert.deepStrictEqual(
        ['src/a.ts', 'docs/a.md', 'docs/deep/a.md', 'x/y/notes.txt', 'lib/a.ts'].map((path) => list.file(path)),
        [true, true, false, true, false],
      );
      const dirs = allowList(['src/**', 'docs/*.md']);
      assert.ok(dirs);
      assert.deepStrictEqual(
        ['', 'src', 'src/deep', 'docs', 'lib'].map((path) => dirs.directory(path)),
        [true, true, true, true, false],
      );
    });
  });
});
