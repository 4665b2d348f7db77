import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import * as vscode from 'vscode';
import { parseAnswer } from '../../support/answers';
import { invokeJson, invokeText, type GlobAnswer, type GrepAnswer } from '../helpers';

/**
 * A workspace on a virtual file system: the memfs: provider of the test extension
 * test/fixtures/memfs-extension. Its files are named by their URI's path (memfs:/ws/src/main.ts →
 * /ws/src/main.ts), listed and read through workspace.fs.
 */
const repo = path.resolve(__dirname, '..', '..', '..', '..');

describe('a workspace on a virtual file system (memfs:)', () => {
  const subscriptions: vscode.Disposable[] = [];
  after(() => subscriptions.forEach((subscription) => subscription.dispose()));
  // The provider of the test extension, registered in this extension host when mocha loads this file
  // (before the common suite runs): code-server loads one development extension per window, ours.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the fixture extension's own module, loaded as it is
  const memfs = require(path.resolve(repo, 'test', 'fixtures', 'memfs-extension', 'extension.js')) as {
    FILES: Record<string, string | Uint8Array>;
    reads: string[];
    activate(context: { subscriptions: vscode.Disposable[] }): void;
  };
  memfs.activate({ subscriptions });

  before(() => {
    assert.strictEqual(vscode.workspace.workspaceFolders?.[0]?.uri.toString(), 'memfs:/ws');
  });

  it("grep finds the provider's files; excluded, gitignored, denied and binary files are skipped (and the last two counted)", async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'memfs-token-4e1a', path: 'ws' });
    assert.deepStrictEqual(answer.base_path, '/ws');
    assert.deepStrictEqual(answer.files, [
      { file: '/ws/README.md', matches: [{ line: 2, text: 'memfs-token-4e1a in the readme' }] },
      { file: '/ws/src/main.ts', matches: [{ line: 1, text: "export const value = 'memfs-token-4e1a';" }] },
    ]);
    assert.strictEqual(answer.files_searched, 5, '.gitignore, README.md, src/keep.log, src/main.ts, src/util.ts');
    assert.strictEqual(answer.skipped.binary, 1, 'data.bin');
    assert.strictEqual(answer.skipped.denied, 1, '.env');
  });

  it('the answers are the ones the same files give on disk (the CLI on a copy)', async () => {
    const twin = fs.mkdtempSync(path.join(os.tmpdir(), 'memfs-twin-'));
    try {
      for (const [file, content] of Object.entries(memfs.FILES)) {
        fs.mkdirSync(path.dirname(path.join(twin, file)), { recursive: true });
        fs.writeFileSync(path.join(twin, file), content);
      }
      const inputs: Array<['grep' | 'glob', Record<string, unknown>]> = [
        ['grep', { pattern: 'memfs-token-4e1a', context_lines: 1 }],
        ['grep', { pattern: 'TODO|export', output_mode: 'count' }],
        ['glob', { pattern: '**' }],
      ];
      const cli = path.join(repo, 'dist', 'cli.js');
      // The virtual call names its folder ("path": "ws"), the CLI's searches its only folder: base_path is one
      // difference; the other, that this workspace's folders (memfs:/ws and a folder on disk) share no
      // directory, so its answers name whole paths where the CLI's name them below its folder.
      const fields = (text: string, folder?: string) => {
        const { base_path: _base, root: _root, ...rest } = parseAnswer(text);
        return folder === undefined ? rest : JSON.parse(JSON.stringify(rest).split(folder).join('/ws'));
      };
      for (const [tool, input] of inputs) {
        const onDisk = (await promisify(execFile)(process.execPath, [cli, tool, JSON.stringify(input), '--workspace', path.join(twin, 'ws')])).stdout.trim();
        const virtual = await invokeText(tool, { ...input, path: 'ws' });
        assert.ok(!virtual.startsWith('root: '), virtual);
        assert.deepStrictEqual(fields(virtual), fields(onDisk, path.join(twin, 'ws')), `${tool} ${JSON.stringify(input)}`);
      }
    } finally {
      fs.rmSync(twin, { recursive: true, force: true });
    }
  });

  it('grep with a path, an include and the count mode', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'export', path: 'ws/src', include: '*.ts', output_mode: 'count' });
    assert.deepStrictEqual(answer.files, [
      { file: '/ws/src/main.ts', count: 1 },
      { file: '/ws/src/util.ts', count: 1 },
    ]);
  });

  it("glob lists the provider's files and reads none but .gitignore; grep reads only what it searches", async () => {
    memfs.reads.length = 0;
    const answer = await invokeJson<GlobAnswer>('glob', { pattern: '**/*.ts' });
    assert.deepStrictEqual(memfs.reads, ['/ws/.gitignore'], 'glob opened only the rules it applies');
    memfs.reads.length = 0;
    const grep = await invokeJson<GrepAnswer>('grep', { pattern: 'readme', path: 'ws', include: '*.md' });
    assert.strictEqual(grep.files.length, 1);
    assert.deepStrictEqual(memfs.reads, ['/ws/.gitignore', '/ws/README.md'], 'grep read the rules and the one file its include selects');
    assert.deepStrictEqual(answer.files, ['/ws/src/main.ts', '/ws/src/util.ts']);
    const all = await invokeJson<GlobAnswer>('glob', { pattern: '**', path: 'ws' });
    assert.deepStrictEqual(all.files, ['/ws/.gitignore', '/ws/README.md', '/ws/data.bin', '/ws/src/keep.log', '/ws/src/main.ts', '/ws/src/util.ts']);
  });

  it('a .gitignore over 256 KB is not read, and its rules are not applied', async () => {
    const uri = (file: string) => vscode.Uri.parse(`memfs:/ws/big/${file}`);
    await vscode.workspace.fs.writeFile(uri('.gitignore'), Buffer.from(`x.txt\n${'#'.repeat(300_000)}\n`));
    await vscode.workspace.fs.writeFile(uri('x.txt'), Buffer.from('x\n'));
    try {
      memfs.reads.length = 0;
      const answer = await invokeJson<GlobAnswer>('glob', { pattern: '**', path: 'ws/big' });
      assert.deepStrictEqual(answer.files, ['/ws/big/.gitignore', '/ws/big/x.txt']);
      assert.ok(!memfs.reads.includes('/ws/big/.gitignore'), `read: ${memfs.reads.join(', ')}`);
    } finally {
      for (const file of ['.gitignore', 'x.txt', '']) await vscode.workspace.fs.delete(uri(file));
    }
  });

  it('.gitignore files apply as git applies them, unless include_ignored or search.useIgnoreFiles: false', async () => {
    const ignored = ['/ws/build/out.js', '/ws/src/debug.log'];
    const find = async (input: Record<string, unknown>) =>
      (await invokeJson<GrepAnswer>('grep', { pattern: 'memfs-token-4e1a', output_mode: 'files_with_matches', ...input })).files as unknown as string[];
    assert.deepStrictEqual(await find({ path: 'ws/src' }), ['/ws/src/main.ts'], "the folder's .gitignore applies below it, to a base below it too");
    assert.deepStrictEqual((await invokeJson<GlobAnswer>('glob', { pattern: '**/*.log', path: 'ws' })).files, ['/ws/src/keep.log'], '!keep.log re-includes it');
    const all = await find({ path: 'ws', include_ignored: true });
    for (const file of ignored) assert.ok(all.includes(file), `include_ignored finds ${file}`);
    await vscode.workspace.getConfiguration('search').update('useIgnoreFiles', false, vscode.ConfigurationTarget.Workspace);
    try {
      const unignored = await find({ path: 'ws' });
      for (const file of ignored) assert.ok(unignored.includes(file), `search.useIgnoreFiles false finds ${file}`);
      assert.ok(!unignored.includes('/ws/node_modules/dep/index.js'), 'search.exclude still applies');
    } finally {
      await vscode.workspace.getConfiguration('search').update('useIgnoreFiles', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('beside a file: folder, both are searched in folder order: the virtual one through workspace.fs, the other from disk', async () => {
    const alpha = vscode.workspace.workspaceFolders![1].uri.fsPath;
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'memfs-token-4e1a|Shared helper', output_mode: 'files_with_matches' });
    assert.strictEqual(answer.base_path, undefined, 'all folders: the default, not repeated');
    assert.deepStrictEqual(answer.files, ['/ws/README.md', '/ws/src/main.ts', path.join(alpha, 'lib', 'math.js')]);
    const glob = await invokeJson<GlobAnswer>('glob', { pattern: '**/*.{ts,js}' });
    assert.deepStrictEqual(glob.files, ['/ws/src/main.ts', '/ws/src/util.ts', path.join(alpha, 'lib', 'math.js')]);
  });

  it('an unsaved editor on the virtual file system is searched as the person sees it', async () => {
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse('memfs:/ws/src/util.ts'));
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), '// memfs-unsaved-5b7c\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'memfs-unsaved-5b7c' });
      assert.ok(document.isDirty, 'the change is still unsaved');
      assert.deepStrictEqual(answer.files, [{ file: '/ws/src/util.ts', matches: [{ line: 1, text: '// memfs-unsaved-5b7c' }] }]);
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
