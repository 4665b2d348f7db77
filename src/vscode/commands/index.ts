/** The Command Palette commands, and a log line whenever a grepTools setting changes (it applies to the next search). */
import * as vscode from 'vscode';
import { readEngineConfig } from '../settings';
import { registerFindFiles } from './findFiles';
import { registerSearchText } from './searchText';
import type { Services } from '../services';

export function registerCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, services: Services): vscode.Disposable[] {
  return [
    registerSearchText(context, log, services),
    registerFindFiles(context, log, services),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('grepTools')) log.info(`settings changed; the next search uses ${JSON.stringify(readEngineConfig())}`);
    }),
  ];
}
