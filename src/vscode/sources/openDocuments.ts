/**
 * Open editors as the person sees them (docs/reference.md, "The workspace as you see it"):
 *
 * - `dirtyDocuments`: the text of every `file:` document with unsaved changes, keyed by its absolute
 *   path. The engine searches that text instead of the file on disk (`Corpus.overrides`, engine/run/environment.ts); a
 *   document of a virtual workspace folder is keyed by its URI's path, as that folder's files are.
 * - `untitledDocuments`: every open untitled document (never saved), as plain data for the engine
 *   (`Permission.untitled`), which searches one only when a `path` names it.
 */
import * as vscode from 'vscode';
import type { UntitledDocument } from '../../engine/guard/untitled';
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

/**
 * The open untitled documents. One whose URI has an absolute path (`untitled:/ws/new.ts`, as VS Code
 * names an unsaved editor for a file not created yet) will be saved there; any other is named by its
 * URI's path (`untitled:Untitled-1` → `Untitled-1`). The text is read only when the engine searches it.
 */
export function untitledDocuments(): UntitledDocument[] {
  return vscode.workspace.textDocuments
    .filter((document) => document.uri.scheme === 'untitled' && !document.isClosed)
    .map((document) => {
      const { uri } = document;
      const associatedPath = uri.path.startsWith('/') ? vscode.Uri.from({ scheme: 'file', path: uri.path }).fsPath : undefined;
      const name = associatedPath === undefined ? uri.path : uri.path.slice(uri.path.lastIndexOf('/') + 1);
      return { uri: uri.toString(), name, ...(associatedPath !== undefined ? { associatedPath } : {}), text: () => document.getText() };
    });
}
