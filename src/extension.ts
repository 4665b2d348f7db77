/** Wires the tools into VS Code. */
import * as vscode from 'vscode';
import { GlobTool, GrepTool } from './vscode/tools';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Grep Tools', { log: true });
  context.subscriptions.push(
    log,
    vscode.lm.registerTool('grep', new GrepTool(log)),
    vscode.lm.registerTool('glob', new GlobTool(log)),
  );
}

export function deactivate(): void {}
