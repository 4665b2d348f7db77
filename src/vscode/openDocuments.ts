/**
 * Open editors as the person sees them (SPEC §5): the text of every `file:` document with unsaved
 * changes, keyed by its absolute path. The engine searches that text instead of the file on disk
 * (`SearchEnvironment.overrides`); a document of a virtual workspace folder is keyed by its URI's path, as
 * that folder's files are. Untitled documents have no path and are never listed here.
 */
import * as vscode from 'vscode';
import { virtualFolders, virtualPath, virtualUri } from './virtualFolders';

export function dirtyDocuments(): Map<string, string> {
  const texts = new Map<string, string>();
  const virtual = virtualFolders();
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.isClosed) continue;
    if (document.uri.scheme === 'file') texts.set(document.uri.fsPath, document.getText());
    // A document of a virtual workspace folder: keyed by the path the engine gives that folder's files.
    else if (virtualUri(virtualPath(document.uri), virtual)?.toString() === document.uri.toString()) texts.set(virtualPath(document.uri), document.getText());
  }
  return texts;
}
