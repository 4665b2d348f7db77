/** The engine's view of VS Code for one search: folders, file source, settings, pool, open editors, index. */
import * as vscode from 'vscode';
import type { SearchEnvironment } from '../engine/run/environment';
import { readFileCapped } from '../engine/searcher/reader';
import { readEngineConfig } from './settings';
import { FindFilesSource } from './sources/findFilesSource';
import { dirtyDocuments, untitledDocuments } from './sources/openDocuments';
import { virtualPath } from './sources/virtualFolders';
import type { Services } from './services';

/** The environment of one search, through the extension's services; `allowOutside` when the person confirmed an outside path. */
export function environment(services: Services, token: vscode.CancellationToken, allowOutside = false): SearchEnvironment {
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
      name: folder.name,
      path: folder.uri.scheme === 'file' ? folder.uri.fsPath : virtualPath(folder.uri),
    })),
    source: new FindFilesSource(token, services.residentListings(), services.searchPool().listDirectories),
    config: readEngineConfig(),
    readFile: readFileCapped,
    allowOutside,
    isCancelled: () => token.isCancellationRequested,
    onCancelled: (listener) => token.onCancellationRequested(listener),
    pool: services.searchPool(),
    overrides: dirtyDocuments(),
    untitled: untitledDocuments(),
    index: services.indexer?.search(),
  };
}
