/** The two language-model tools: what each runs in the engine, through the one adapter (searchTool.ts). */
import type * as vscode from 'vscode';
import { answerGlob } from '../../engine/answer/globAnswer';
import { answerGrep } from '../../engine/answer/grepAnswer';
import { describeIndexUse, logSummary, renderGlob, renderGrep } from '../../engine/answer/printer';
import type { GlobInput, GrepInput } from '../../engine/api/types';
import { parseGlobInput, parseGrepInput } from '../../engine/input/schema';
import type { Services } from '../services';
import { SearchTool } from './searchTool';

export type GrepTool = SearchTool<GrepInput>;
export type GlobTool = SearchTool<GlobInput>;

export function grepTool(log: vscode.LogOutputChannel, services: Services): GrepTool {
  return new SearchTool<GrepInput>('grep', log, services, async (input, env, budget) => {
    const answer = await services.runSearch(() => answerGrep(parseGrepInput(input), env));
    log.info(`grep ${describeIndexUse(answer, env.index !== undefined)}`);
    services.indexer?.noteUse(answer.indexed);
    return { text: await renderGrep(answer, budget), summary: logSummary(answer) };
  });
}

export function globTool(log: vscode.LogOutputChannel, services: Services): GlobTool {
  return new SearchTool<GlobInput>('glob', log, services, async (input, env, budget) => {
    const answer = await answerGlob(parseGlobInput(input), env);
    return { text: await renderGlob(answer, budget), summary: logSummary(answer) };
  });
}
