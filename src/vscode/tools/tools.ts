/** The two language-model tools: what each runs in the engine, through the one adapter (searchTool.ts). */
import type * as vscode from 'vscode';
import { answerGlob } from '../../engine/answer/globAnswer';
import { answerGrep } from '../../engine/answer/grepAnswer';
import { describeIndexUse, logSummary, renderGlob, renderGrep } from '../../engine/answer/printer';
import type { GlobInput, GrepInput } from '../../engine/api/types';
import { parseGlobInput, parseGrepInput } from '../../engine/input/schema';
import { counted, noteIndexUse } from '../index/workspaceIndexer';
import { SearchTool } from './searchTool';

export type GrepTool = SearchTool<GrepInput>;
export type GlobTool = SearchTool<GlobInput>;

export function grepTool(log: vscode.LogOutputChannel): GrepTool {
  return new SearchTool<GrepInput>('grep', log, async (input, env, budget) => {
    const answer = await counted(() => answerGrep(parseGrepInput(input), env));
    log.info(`grep ${describeIndexUse(answer, env.index !== undefined)}`);
    noteIndexUse(answer.indexed);
    return { text: await renderGrep(answer, budget), summary: logSummary(answer) };
  });
}

export function globTool(log: vscode.LogOutputChannel): GlobTool {
  return new SearchTool<GlobInput>('glob', log, async (input, env, budget) => {
    const answer = await answerGlob(parseGlobInput(input), env);
    return { text: await renderGlob(answer, budget), summary: logSummary(answer) };
  });
}
