/** Reads the `grepTools.*` settings afresh for each search, so a change applies without a reload. */
import * as vscode from 'vscode';
import { DEFAULT_CONFIG, type EngineConfig } from '../engine/config';

function integer(section: vscode.WorkspaceConfiguration, key: keyof EngineConfig, minimum: number): number {
  const value = section.get<unknown>(key);
  const fallback = DEFAULT_CONFIG[key] as number;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum ? value : fallback;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/**
 * The policy settings, read so that a workspace can only narrow what is searched, never widen it: a
 * cloned repository's .vscode/settings.json must not switch off the protection of ~/.ssh or .env.
 * - deniedPaths: the user's list (or the defaults), plus any rules the workspace or folder settings add;
 * - allowedPaths: the user's list when not empty, otherwise the workspace's (or folder's) list.
 */
export function policySettings(section: vscode.WorkspaceConfiguration): Pick<EngineConfig, 'deniedPaths' | 'allowedPaths'> {
  const denied = section.inspect<unknown>('deniedPaths');
  const userDenied = stringList(denied?.globalValue) ?? [...DEFAULT_CONFIG.deniedPaths];
  const addedDenied = [denied?.workspaceValue, denied?.workspaceFolderValue].flatMap((value) => stringList(value) ?? []);
  const allowed = section.inspect<unknown>('allowedPaths');
  const userAllowed = stringList(allowed?.globalValue) ?? [];
  const workspaceAllowed = stringList(allowed?.workspaceFolderValue) ?? stringList(allowed?.workspaceValue) ?? [];
  return {
    deniedPaths: [...new Set([...userDenied, ...addedDenied])],
    allowedPaths: userAllowed.length > 0 ? userAllowed : workspaceAllowed,
  };
}

export function readEngineConfig(): EngineConfig {
  const section = vscode.workspace.getConfiguration('grepTools');
  return {
    ...DEFAULT_CONFIG,
    maxResults: integer(section, 'maxResults', 1),
    maxResultsCap: integer(section, 'maxResultsCap', 1),
    maxFileSize: integer(section, 'maxFileSize', 1),
    maxLineLength: integer(section, 'maxLineLength', 20),
    timeoutSeconds: integer(section, 'timeoutSeconds', 1),
    respectGitignore: section.get<unknown>('respectGitignore') !== false,
    ...policySettings(section),
  };
}
