/** Wires the tools into VS Code. */
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { registerCommands } from './vscode/commands';
import type { ResidentListings } from './vscode/sources/residentListing';
import { Services } from './vscode/services';
import { ListingStore } from './vscode/sources/storedListing';
import { readEngineConfig } from './vscode/settings';
import { globTool, grepTool, type GlobTool, type GrepTool } from './vscode/tools/tools';
import { indexedFiles, indexedFilesWithIgnored, indexedFolders } from './vscode/index/indexedFiles';
import { WorkspaceIndexer, type IndexState } from './vscode/index/workspaceIndexer';

/** What `activate` returns (`vscode.extensions.getExtension(...).exports`): the tool objects, for tests. */
export interface GrepToolsApi {
  tools: { grep: GrepTool; glob: GlobTool };
  /** The folders' listings kept between calls: how many were replayed and made, and a way to drop them. */
  listings: Pick<ResidentListings, 'counts' | 'invalidate' | 'partsFrom' | 'lastAgain'>;
  /** The content index's build: its phase, progress and last outcome. */
  index: IndexState;
}

export function activate(context: vscode.ExtensionContext): GrepToolsApi {
  const log = vscode.window.createOutputChannel('Grep Tools', { log: true });
  const storageDir = context.storageUri?.scheme === 'file' ? context.storageUri.fsPath : undefined;
  const version = String((context.extension.packageJSON as { version?: unknown }).version);
  const services = new Services(storageDir === undefined ? undefined : new ListingStore(nodePath.join(storageDir, 'listings'), version), (line) =>
    log.info(line),
  );
  const tools = { grep: grepTool(log, services), glob: globTool(log, services) };
  context.subscriptions.push(
    log,
    vscode.lm.registerTool('grep', tools.grep),
    vscode.lm.registerTool('glob', tools.glob),
    ...registerCommands(context, log, services),
    services,
  );
  // The search threads start now, in the background (a few tens of milliseconds each): the first search does not wait for them.
  services.searchPool(readEngineConfig().definitions).warm();
  const indexer = (services.indexer = new WorkspaceIndexer({
    storageDir,
    folders: indexedFolders,
    listFiles: (slices) => indexedFiles(services, false, slices),
    listWithIgnored: (searched) => indexedFilesWithIgnored(services, searched),
    maxFileSize: () => readEngineConfig().maxFileSize,
    log,
  }));
  return {
    tools,
    // Made by the first listing (Services.residentListings).
    get listings() {
      return services.residentListings();
    },
    index: indexer.state,
  };
}

export function deactivate(): void {}
