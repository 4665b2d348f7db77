/** Reads the `grepTools.*` settings afresh for each search, so a change applies without a reload. */
import * as vscode from 'vscode';
import { DEFAULT_CONFIG, type EngineConfig } from '../engine/api/config';
import { mergePolicy } from '../engine/guard/policy';

function integer(section: vscode.WorkspaceConfiguration, key: keyof EngineConfig, minimum: number): number {
  const value = section.get<unknown>(key);
  const fallback = DEFAULT_CONFIG[key] as number;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum ? value : fallback;
}

/** deniedPaths and allowedPaths, merged so that a workspace's settings can only narrow the user's (guard/policy.ts). */
export function policySettings(section: vscode.WorkspaceConfiguration): Pick<EngineConfig, 'deniedPaths' | 'allowedPaths'> {
  return mergePolicy(section.inspect<unknown>('deniedPaths'), section.inspect<unknown>('allowedPaths'), DEFAULT_CONFIG.deniedPaths);
}

export function readEngineConfig(): EngineConfig {
  const section = vscode.workspace.getConfiguration('grepTools');
  return {
    ...DEFAULT_CONFIG,
    maxResults: integer(section, 'maxResults', 1),
    maxResultsCap: integer(section, 'maxResultsCap', 1),
    maxFileSize: integer(section, 'maxFileSize', 1),
    maxOutputBytes: integer(section, 'maxOutputBytes', 1024),
    maxLineLength: integer(section, 'maxLineLength', 20),
    timeoutSeconds: integer(section, 'timeoutSeconds', 1),
    respectGitignore: section.get<unknown>('respectGitignore') !== false,
    definitions: section.get<unknown>('definitions.enabled') !== false,
    ...policySettings(section),
  };
}
