/** Helpers for integration tests: call a tool the way an extension would, and read the JSON answer. */
import * as assert from 'assert';
import * as vscode from 'vscode';

/** Invokes a tool through `vscode.lm.invokeTool` and returns the text the model would receive. */
export async function invokeText(tool: 'grep' | 'glob', input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
  assert.strictEqual(result.content.length, 1, 'one text part');
  const part = result.content[0];
  assert.ok(part instanceof vscode.LanguageModelTextPart, 'a LanguageModelTextPart');
  return part.value;
}

/** Invokes a tool and parses its JSON answer. */
export async function invokeJson<T = Record<string, unknown>>(tool: 'grep' | 'glob', input: object): Promise<T> {
  return JSON.parse(await invokeText(tool, input)) as T;
}

/** Invokes a tool that must fail and returns the error message the model would see. */
export async function invokeError(tool: 'grep' | 'glob', input: object): Promise<string> {
  try {
    await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  assert.fail(`${tool} ${JSON.stringify(input)} should have failed`);
}

export function folderPath(index = 0): string {
  const folder = vscode.workspace.workspaceFolders?.[index];
  assert.ok(folder, `workspace folder ${index} is open`);
  return folder.uri.fsPath;
}

export interface GrepAnswer {
  pattern: string;
  base_path: string | string[];
  output_mode: string;
  files: Array<{ file: string; matches?: Array<{ line: number; text: string; before?: string[]; after?: string[] }>; count?: number } | string>;
  total_matches?: number;
  returned_matches?: number;
  returned_files?: number;
  files_searched: number;
  files_matched: number;
  truncated: boolean;
  next_offset?: number;
  skipped: Record<string, number>;
  elapsed_ms: number;
  notes: string[];
}

export interface GlobAnswer {
  pattern: string;
  mode: string;
  base_path: string | string[];
  files: string[];
  count: number;
  total: number;
  truncated: boolean;
  next_offset?: number;
  notes: string[];
}
