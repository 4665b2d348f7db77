/**
 * Untitled editors (never saved) in the real extension host: grep searches one from its text when
 * `path` names it (its URI, its name, or the path it will be saved to), and never otherwise; glob says
 * how to search it instead. The directory and files this suite needs are created and removed here.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { openMatch } from '../../../src/vscode/commands/searchText/opening';
import type { GrepToolsApi } from '../../../src/extension';
import { folderPath, invokeError, invokeJson, type GrepAnswer, extensionApi } from '../helpers';

const TOKEN = `untitled-token-${process.pid}`;

/** Opens an untitled editor holding `text`: a new one (`Untitled-N`), or at an `untitled:` URI with a file path. */
async function openUntitled(text: string, uri?: vscode.Uri): Promise<vscode.TextDocument> {
  if (uri === undefined) return vscode.workspace.openTextDocument({ content: text, language: 'plaintext' });
  const document = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(document.uri, new vscode.Position(0, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the text is typed into the editor');
  assert.strictEqual(document.uri.scheme, 'untitled');
  return document;
}

describe('untitled editors', () => {
  const dir = () => path.join(folderPath(0), 'untitled-tmp');
  const outsideDir = path.join(os.tmpdir(), `grep-tools-untitled-${process.pid}`);
  const documents: vscode.TextDocument[] = [];
  let scratch: vscode.TextDocument;
  let draft: vscode.TextDocument;
  let parsed: vscode.TextDocument;
  let outside: vscode.TextDocument;
  let api: GrepToolsApi;

  before(async () => {
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(path.join(dir(), 'on-disk.ts'), `// ${TOKEN} on disk\n`);
    scratch = await openUntitled(`first line\n${TOKEN} in a scratch editor\nlast line\n`);
    // An untitled editor with a file path, as VS Code opens one for a file not created yet.
    draft = await openUntitled(`export const draft = "${TOKEN}";\n`, vscode.Uri.file(path.join(dir(), 'new.ts')).with({ scheme: 'untitled' }));
    parsed = await openUntitled(`${TOKEN} parsed\n`, vscode.Uri.parse(`untitled:${path.join(dir(), 'parsed.md')}`));
    outside = await openUntitled(`${TOKEN} would be saved outside\n`, vscode.Uri.file(path.join(outsideDir, 'notes.md')).with({ scheme: 'untitled' }));
    documents.push(scratch, draft, parsed, outside);
    api = await extensionApi();
  });

  after(async () => {
    for (const document of documents) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
    fs.rmSync(dir(), { recursive: true, force: true });
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  it('grep searches an untitled editor named by its URI, and names it so in the answer', async () => {
    const uri = scratch.uri.toString();
    assert.match(uri, /^untitled:Untitled-\d+$/);
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, path: uri, context_lines: 1 });
    assert.strictEqual(answer.base_path, uri);
    assert.deepStrictEqual(answer.files, [
      { file: uri, matches: [{ line: 2, text: `${TOKEN} in a scratch editor`, before: ['first line'], after: ['last line'] }] },
    ]);
    assert.deepStrictEqual([answer.total_matches, answer.returned_matches, answer.files_searched, answer.files_matched, answer.truncated], [1, 1, 1, 1, false]);
    assert.deepStrictEqual(answer.skipped, { binary: 0, too_large: 0, denied: 0, unreadable: 0, outside_workspace: 0 });
  });

  it("grep searches it by its tab name, and the answer's name can be passed back as path", async () => {
    const name = scratch.uri.path;
    assert.match(name, /^Untitled-\d+$/);
    const files = await invokeJson<GrepAnswer>('grep', { pattern: 'line', path: name, output_mode: 'count' });
    assert.deepStrictEqual(files.files, [{ file: scratch.uri.toString(), count: 2 }]);
    const again = await invokeJson<GrepAnswer>('grep', { pattern: 'last', path: (files.files[0] as { file: string }).file });
    assert.deepStrictEqual(again.files, [{ file: scratch.uri.toString(), matches: [{ line: 3, text: 'last line' }] }]);
  });

  it('grep searches one with a file path by that path, absolute or relative, while nothing is on disk there', async () => {
    const expected = [{ file: draft.uri.toString(), matches: [{ line: 1, text: `export const draft = "${TOKEN}";` }] }];
    for (const named of [path.join(dir(), 'new.ts'), 'untitled-tmp/new.ts', draft.uri.toString()]) {
      const answer = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, path: named });
      assert.deepStrictEqual(answer.files, expected, named);
      assert.strictEqual(answer.files_searched, 1, named);
    }
    const viaParse = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, path: path.join(dir(), 'parsed.md'), output_mode: 'files_with_matches' });
    assert.deepStrictEqual(viaParse.files, [parsed.uri.toString()]);
    assert.strictEqual(parsed.uri.toString(), `untitled:${path.join(dir(), 'parsed.md')}`);
  });

  it('one that would be saved outside the workspace is searched without a confirmation: nothing on disk is read', async () => {
    const where = path.join(outsideDir, 'notes.md');
    const prepared = await api.tools.grep.prepareInvocation({ input: { pattern: TOKEN, path: where } }, new vscode.CancellationTokenSource().token);
    assert.strictEqual(prepared.confirmationMessages, undefined);
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, path: where });
    assert.deepStrictEqual(answer.files, [{ file: outside.uri.toString(), matches: [{ line: 1, text: `${TOKEN} would be saved outside` }] }]);
  });

  it('is not searched unless path names it', async () => {
    const workspace = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, output_mode: 'files_with_matches' });
    assert.deepStrictEqual(workspace.files, [path.join(dir(), 'on-disk.ts')]);
    const directory = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, path: 'untitled-tmp', output_mode: 'files_with_matches' });
    assert.deepStrictEqual(directory.files, [path.join(dir(), 'on-disk.ts')], 'the directory it would be saved in: only the file on disk');
    assert.strictEqual(directory.files_searched, 1);
  });

  it('a file created on disk at its path wins; its URI still names the editor', async () => {
    const target = path.join(dir(), 'new.ts');
    fs.writeFileSync(target, `// ${TOKEN} saved elsewhere meanwhile\n`);
    try {
      const onDisk = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, path: 'untitled-tmp/new.ts' });
      assert.deepStrictEqual(onDisk.files, [{ file: target, matches: [{ line: 1, text: `// ${TOKEN} saved elsewhere meanwhile` }] }]);
      const inEditor = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, path: draft.uri.toString(), output_mode: 'count' });
      assert.deepStrictEqual(inEditor.files, [{ file: draft.uri.toString(), count: 1 }]);
    } finally {
      fs.rmSync(target);
    }
  });

  it('denied rules judge the path it would be saved to', async () => {
    const secret = await openUntitled(`KEY=${TOKEN}\n`, vscode.Uri.file(path.join(dir(), '.env')).with({ scheme: 'untitled' }));
    documents.push(secret);
    for (const named of [secret.uri.toString(), 'untitled-tmp/.env']) {
      assert.match(
        await invokeError('grep', { pattern: TOKEN, path: named }),
        /^permission denied by policy: .* matches "\*\*\/\.env" \(grepTools\.deniedPaths\)/,
        named,
      );
    }
  });

  it('glob says it lists files on disk, and gives the grep call that searches the editor', async () => {
    const uri = scratch.uri.toString();
    assert.strictEqual(
      await invokeError('glob', { pattern: '*', path: uri }),
      `glob lists files on disk, and ${JSON.stringify(uri)} is an untitled (unsaved) editor, ${uri}, with no file on disk. ` +
        `To search its text, call grep with this path: {"pattern":"<text to find>","path":${JSON.stringify(uri)}}. To list files, give glob a directory as "path".`,
    );
  });

  it('an untitled: path that names no open editor lists the open ones', async () => {
    const message = await invokeError('grep', { pattern: TOKEN, path: 'untitled:Untitled-999' });
    assert.match(message, /^No untitled \(unsaved\) editor "untitled:Untitled-999" is open; the open ones are /);
    for (const document of [scratch, draft]) assert.ok(message.includes(JSON.stringify(document.uri.toString())), message);
  });

  it('a result in an untitled editor opens that editor with the match selected (Command Palette)', async () => {
    const editor = await openMatch(scratch.uri.toString(), 2, new RegExp(TOKEN), false);
    assert.strictEqual(editor.document.uri.toString(), scratch.uri.toString());
    assert.strictEqual(editor.document.getText(editor.selection), TOKEN);
    assert.strictEqual(editor.selection.start.line, 1);
  });
});
