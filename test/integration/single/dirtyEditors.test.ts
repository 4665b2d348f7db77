import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { folderPath, invokeJson, type GrepAnswer } from '../helpers';

/** Open editors are searched as the person sees them: unsaved text, not the file on disk (docs/reference.md). */
describe('open editors with unsaved changes', () => {
  const dir = () => path.join(folderPath(0), 'dirty-tmp');
  const file = () => path.join(dir(), 'draft.ts');
  let document: vscode.TextDocument;
  let untitled: vscode.TextDocument;

  before(async () => {
    // This VS Code saves after a delay by default; the person here keeps the change unsaved.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(file(), 'export const saved = "disk-line-7c2e";\nexport const other = 1;\n');
    document = await vscode.workspace.openTextDocument(vscode.Uri.file(file()));
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, document.lineAt(0).range, 'export const unsaved = "editor-line-7c2e";');
    assert.ok(await vscode.workspace.applyEdit(edit), 'the edit applies');
    assert.ok(document.isDirty, 'the editor has unsaved changes');
    assert.match(fs.readFileSync(file(), 'utf8'), /disk-line-7c2e/, 'the file on disk keeps its line');
    untitled = await vscode.workspace.openTextDocument({ content: 'untitled-line-7c2e\n', language: 'plaintext' });
  });

  after(async () => {
    for (const doc of [document, untitled]) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
    fs.rmSync(dir(), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('grep finds the unsaved line and not its on-disk twin', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: '(editor|disk)-line-7c2e' });
    assert.deepStrictEqual(answer.files, [{ file: file(), matches: [{ line: 1, text: 'export const unsaved = "editor-line-7c2e";' }] }]);
    assert.strictEqual(answer.total_matches, 1);
    // The file is still unchanged on disk: only the editor holds the new line.
    assert.match(fs.readFileSync(file(), 'utf8'), /disk-line-7c2e/);
    assert.ok(document.isDirty);
  });

  it('the on-disk line is not found while the editor is dirty, in every output mode', async () => {
    const content = await invokeJson<GrepAnswer>('grep', { pattern: 'disk-line-7c2e' });
    assert.deepStrictEqual(content.files, []);
    const count = await invokeJson<GrepAnswer>('grep', { pattern: '7c2e', output_mode: 'count', path: 'dirty-tmp' });
    assert.deepStrictEqual(count.files, [{ file: file(), count: 1 }]);
    const context = await invokeJson<GrepAnswer>('grep', { pattern: 'editor-line', path: file(), after_lines: 1 });
    assert.deepStrictEqual(context.files, [
      { file: file(), matches: [{ line: 1, text: 'export const unsaved = "editor-line-7c2e";', after: ['export const other = 1;'] }] },
    ]);
  });

  it('an untitled editor is not searched', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'untitled-line-7c2e' });
    assert.deepStrictEqual(answer.files, []);
  });
});
