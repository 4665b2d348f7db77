/** Reads the `grepTools.index.*` settings afresh for each build, so a change applies without a reload. */
import * as vscode from 'vscode';
import { DEFAULT_INDEX_LIMITS, type IndexLimits } from '../../engine/index/limits';

function positive(section: vscode.WorkspaceConfiguration, key: keyof IndexLimits): number {
  const value = section.get<unknown>(`index.${key}`);
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : DEFAULT_INDEX_LIMITS[key];
}

export function indexEnabled(): boolean {
  return vscode.workspace.getConfiguration('grepTools').get<unknown>('index.enabled') !== false;
}

/** Whether the workspace is listed as the window opens (`grepTools.listWorkspaceOnOpen`), so the first search replays that listing. */
export function listOnOpenEnabled(): boolean {
  return vscode.workspace.getConfiguration('grepTools').get<unknown>('listWorkspaceOnOpen') !== false;
}

export function readIndexLimits(): IndexLimits {
  const section = vscode.workspace.getConfiguration('grepTools');
  return { maxIndexedBytes: positive(section, 'maxIndexedBytes'), maxFiles: positive(section, 'maxFiles') };
}
