/** The two language-model tools: what each runs in the engine, through the one adapter (searchTool.ts). */
import type * as vscode from 'vscode';
import { answerGlob } from '../../engine/answer/globAnswer';
import { answerGrep } from '../../engine/answer/grepAnswer';
import { logSummary, renderGlob, renderGrep } from '../../engine/answer/printer';
import type { GlobInput, GrepInput } from '../../engine/api/types';
import type { SearchEnvironment } from '../../engine/run/environment';
import { counted, noteIndexUse } from '../index/workspaceIndexer';
import { SearchTool } from './searchTool';

export type GrepTool = SearchTool<GrepInput>;
export type GlobTool = SearchTool<GlobInput>;

/** The log line telling whether the content index answered a grep, and how many files it settled and read. */
function indexLine(env: SearchEnvironment, indexed: { settled: number; read: number } | undefined): string {
  if (indexed) return `grep index: ${indexed.settled} files settled by the index, ${indexed.read} read`;
  return env.index ? 'grep index: not used (nothing in the pattern narrows the files, or invert_match)' : 'grep index: none yet (off, or still building): every file read';
}

export function grepTool(log: vscode.LogOutputChannel): GrepTool {
  return new SearchTool<GrepInput>('grep', log, async (input, env, budget) => {
    const answer = await counted(() => answerGrep(input, env));
    log.info(indexLine(env, answer.indexed));
    noteIndexUse(answer.indexed);
    return { text: await renderGrep(answer, budget), summary: logSummary(answer) };
  });
}

export function globTool(log: vscode.LogOutputChannel): GlobTool {
  return new SearchTool<GlobInput>('glob', log, async (input, env, budget) => {
    const answer = await answerGlob(input, env);
    return { text: await renderGlob(answer, budget), summary: logSummary(answer) };
  });
}
