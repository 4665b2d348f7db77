/** Opening a result of the Command Palette search: its file, with the first match on the line selected. */
import * as vscode from 'vscode';
import { uriOf } from '../shared';
import { firstMatch } from '../text';

/** Opens a result with its first match on the line selected (the line start when the file changed since). */
export async function openMatch(file: string, line: number, regex: RegExp | undefined, toSide: boolean): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(uriOf(file));
  const index = Math.min(Math.max(line - 1, 0), document.lineCount - 1);
  const text = document.lineAt(index).text;
  const span = regex ? firstMatch(text, regex) : undefined;
  const selection = span ? new vscode.Selection(index, span[0], index, span[1]) : new vscode.Selection(index, 0, index, 0);
  return vscode.window.showTextDocument(document, {
    selection,
    preview: !toSide,
    preserveFocus: toSide,
    viewColumn: toSide ? vscode.ViewColumn.Beside : undefined,
  });
}
