/** The guard's refusals as the model reads them: what was refused, why, and what to do instead. */
import type { WorkspaceFolder } from './roots';

function quote(rules: readonly string[]): string {
  return rules.map((rule) => JSON.stringify(rule)).join(', ');
}

export function deniedMessage(requested: string, resolved: string, rule: string, real: boolean): string {
  const where = real ? ` (it leads to ${resolved})` : '';
  return (
    `permission denied by policy: ${JSON.stringify(requested)}${where} matches ${JSON.stringify(rule)} (grepTools.deniedPaths). ` +
    'Secrets, keys and .git are never searched or listed, whatever the input says; search another path.'
  );
}

export function deniedFolderMessage(folder: string, rule: string): string {
  return (
    `permission denied by policy: the workspace folder ${folder} is itself a denied place: it matches ${JSON.stringify(rule)} (grepTools.deniedPaths). ` +
    'Its files are never searched or listed; open the project folder instead.'
  );
}

export function notAllowedMessage(requested: string, resolved: string, rules: readonly string[]): string {
  return (
    `permission denied by policy: ${JSON.stringify(requested)} (${resolved}) is not covered by grepTools.allowedPaths (${quote(rules)}). ` +
    'Only files those globs match are searched; search a path below one of them.'
  );
}

/** The error for an outside path when nobody can confirm; `hint` says how to get a confirmation. */
export function outsideMessage(requested: string | undefined, resolved: string, folders: readonly WorkspaceFolder[], hint?: string): string {
  const open = folders.map((f) => f.path).join(', ') || 'none open';
  return (
    `Path ${JSON.stringify(requested ?? resolved)} resolves to ${resolved}, which is outside every workspace folder (${open}). ` +
    (hint ?? "Searching outside the workspace needs the user's confirmation. Search inside the workspace, or ask the user to open that folder.")
  );
}

/** The error when the path no longer leads where the person confirmed (a symlink changed in between). */
export function changedTargetMessage(requested: string, resolved: string, confirmed: string): string {
  return (
    `Path ${JSON.stringify(requested)} now resolves to ${resolved}, not to ${confirmed}, which the user confirmed; nothing was searched. ` +
    'Call the tool again so the user can confirm the new location.'
  );
}
