/** Reads the `grepTools.*` settings afresh for each search, so a change applies without a reload. */
import * as vscode from 'vscode';
import { DEFAULT_CONFIG, type EngineConfig } from '../engine/config';

function integer(section: vscode.WorkspaceConfiguration, key: keyof EngineConfig, minimum: number): number {
  const value = section.get<unknown>(key);
  const fallback = DEFAULT_CONFIG[key] as number;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum ? value : fallback;
}

export function readEngineConfig(): EngineConfig {
  const section = vscode.workspace.getConfiguration('grepTools');
  const denied = section.get<unknown>('deniedPaths');
  return {
    ...DEFAULT_CONFIG,
    maxResults: integer(section, 'maxResults', 1),
    maxResultsCap: integer(section, 'maxResultsCap', 1),
    maxFileSize: integer(section, 'maxFileSize', 1),
    maxLineLength: integer(section, 'maxLineLength', 20),
    timeoutSeconds: integer(section, 'timeoutSeconds', 1),
    respectGitignore: section.get<unknown>('respectGitignore') !== false,
    deniedPaths:
      Array.isArray(denied) && denied.every((rule) => typeof rule === 'string') ? (denied as string[]) : [...DEFAULT_CONFIG.deniedPaths],
  };
}
