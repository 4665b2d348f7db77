/**
 * The policy settings (`grepTools.deniedPaths`, `grepTools.allowedPaths`) merged across VS Code's
 * setting levels (docs/security.md, "Adding rules").
 */
import type { EngineConfig } from '../api/config';

/** A list setting as VS Code's `inspect` gives it: each level's value, unchecked. */
export interface SettingLevels {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/**
 * The policy settings merged so that a workspace can only narrow what is searched, never widen it (a
 * cloned repository's .vscode/settings.json must not switch off the protection of ~/.ssh or .env):
 * - deniedPaths: the user's list (or the defaults), plus any rules the workspace or folder settings add;
 * - allowedPaths: the user's list when not empty, otherwise the folder's or workspace's list.
 */
export function mergePolicy(
  denied: SettingLevels | undefined,
  allowed: SettingLevels | undefined,
  defaults: readonly string[],
): Pick<EngineConfig, 'deniedPaths' | 'allowedPaths'> {
  const userDenied = stringList(denied?.globalValue) ?? [...defaults];
  const addedDenied = [denied?.workspaceValue, denied?.workspaceFolderValue].flatMap((value) => stringList(value) ?? []);
  const userAllowed = stringList(allowed?.globalValue) ?? [];
  const workspaceAllowed = stringList(allowed?.workspaceFolderValue) ?? stringList(allowed?.workspaceValue) ?? [];
  return {
    deniedPaths: [...new Set([...userDenied, ...addedDenied])],
    allowedPaths: userAllowed.length > 0 ? userAllowed : workspaceAllowed,
  };
}
