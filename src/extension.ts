/** Wires the tools into VS Code. */
import * as vscode from 'vscode';
import { registerCommands } from './vscode/commands';
import { disposeResidentListings, residentListings, type ResidentListings } from './vscode/residentListing';
import { disposeSharedPool } from './vscode/searchPool';
import { GlobTool, GrepTool } from './vscode/tools';

/** What `activate` returns (`vscode.extensions.getExtension(...).exports`): the tool objects, for tests. */
export interface GrepToolsApi {
  tools: { grep: GrepTool; glob: GlobTool };
  /** The folders' listings kept between calls: how many were replayed and made, and a way to drop them. */
  listings: Pick<ResidentListings, 'counts' | 'invalidate'>;
}

export function activate(context: vscode.ExtensionContext): GrepToolsApi {
  const log = vscode.window.createOutputChannel('Grep Tools', { log: true });
  const tools = { grep: new GrepTool(log), glob: new GlobTool(log) };
  context.subscriptions.push(
    log,
    vscode.lm.registerTool('grep', tools.grep),
    vscode.lm.registerTool('glob', tools.glob),
    ...registerCommands(context, log),
    { dispose: disposeSharedPool },
    { dispose: disposeResidentListings },
  );
  return { tools, listings: residentListings() };
}

export function deactivate(): void {}
