/** The Command Palette commands, and a log line whenever a grepTools setting changes (it applies to the next search). */
import * as vscode from 'vscode';
import { readEngineConfig } from '../settings';
import { registerFindFiles } from './findFiles';
import { registerSearchText } from './searchText';

export function registerCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    registerSearchText(context, log),
    registerFindFiles(context, log),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('grepTools')) log.info(`settings changed; the next search uses ${JSON.stringify(readEngineConfig())}`);
    }),
  ];
}
