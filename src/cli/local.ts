/**
 * The command line answered in this process: the engine with the CLI's settings (the defaults of VS
 * Code's settings), the index stored in the index directory when there is one for these folders.
 */
import * as nodePath from 'path';
import { byteBudget } from '../engine/answer/budget';
import { answerGlob } from '../engine/answer/globAnswer';
import { answerGrep } from '../engine/answer/grepAnswer';
import { describeIndexUse, describeOutline, renderGlob, renderGrep } from '../engine/answer/printer';
import { DEFAULT_CONFIG } from '../engine/api/config';
import { checkIndexDir } from '../engine/index/location';
import { parseGlobInput, parseGrepInput } from '../engine/input/schema';
import { SearchPool } from '../engine/pool/pool';
import { onceEach, type SearchEnvironment } from '../engine/run/environment';
import type { GrepProgress } from '../engine/run/grep';
import { buildWorkspaceIndex, openWorkspaceIndex } from '../engine/run/workspaceIndex';
import { ListingSource } from '../engine/index/listing';
import { readFileCapped } from '../engine/searcher/reader';
import { NodeFileSource } from '../engine/source/walker';
import { failure, USAGE, type CliOutcome, type CliRequest } from './arguments';

/** The engine's view of the command line: its folders, the default settings, the local disk. */
export function cliEnvironment(request: CliRequest, warn: (message: string) => void): SearchEnvironment & { source: NodeFileSource } {
  return {
    folders: request.folders.map((path) => ({ name: nodePath.basename(path), path })),
    source: new NodeFileSource(),
    config: { ...DEFAULT_CONFIG, deniedPaths: [...DEFAULT_CONFIG.deniedPaths] },
    readFile: readFileCapped,
    allowOutside: request.allowOutside,
    outsideHint: 'Searching outside the workspace needs confirmation: pass --allow-outside to search it, or search inside a --workspace folder.',
    isCancelled: () => false,
    warn: onceEach(warn),
  };
}

/**
 * The text the model receives for a grep or glob input, within the output budget of a call without a
 * token budget (grepTools.maxOutputBytes' default, 50 KB); throws the error the model is told. `indexUse`
 * is told what the content index did for a grep (describeIndexUse) and what its definitions cost (describeOutline); `progress` sees each file a grep adds.
 */
export async function renderAnswer(
  tool: 'grep' | 'glob',
  input: unknown,
  env: SearchEnvironment,
  indexUse?: (line: string) => void,
  progress?: GrepProgress,
): Promise<string> {
  const budget = byteBudget(env.config.maxOutputBytes);
  if (tool === 'glob') return renderGlob(await answerGlob(parseGlobInput(input), env), budget);
  const answer = await answerGrep(parseGrepInput(input), env, progress);
  indexUse?.(`${describeIndexUse(answer, env.index !== undefined)}${describeOutline(answer)}`);
  return renderGrep(answer, budget);
}

/**
 * The answer to a grep or glob request as the model would receive it, or the error; `indexUse` is told
 * what the content index did for a grep (describeIndexUse).
 */
export async function answerRequest(
  request: CliRequest,
  env: SearchEnvironment,
  warnings: readonly string[],
  indexUse?: (line: string) => void,
): Promise<CliOutcome> {
  let input: unknown;
  try {
    input = JSON.parse(request.json ?? '');
  } catch (error) {
    return { code: 1, stderr: `The input is not valid JSON: ${(error as Error).message}\n${USAGE}` };
  }
  try {
    const text = await renderAnswer(request.tool === 'grep' ? 'grep' : 'glob', input, env, indexUse);
    // Lines for the log (ignore files skipped): printed on stderr, the answer staying alone on stdout.
    return { code: 0, stdout: text, ...(warnings.length ? { stderr: warnings.join('\n') } : {}) };
  } catch (error) {
    return failure(error);
  }
}

/** Runs `grep`, `glob` or `index` here. */
export async function runLocally(request: CliRequest): Promise<CliOutcome> {
  const warnings: string[] = [];
  const env = cliEnvironment(request, (message) => warnings.push(message));
  if (request.tool === 'index') {
    try {
      checkIndexDir(request.indexDir, request.folders);
      return { code: 0, stdout: JSON.stringify(await buildWorkspaceIndex(env, request.indexDir, request.limits)) };
    } catch (error) {
      return failure(error);
    }
  }
  // The workers boot while the tree is walked: grep searches files there, glob tests its pattern there.
  env.pool = new SearchPool().warm();
  const indexed = request.tool === 'grep' && request.useIndex ? openWorkspaceIndex(request.indexDir, request.folders, env.source) : undefined;
  try {
    // One call's source: a walk its checks ask again is handed back (ListingSource).
    return await answerRequest(
      request,
      { ...env, ...(indexed ? { index: indexed.index, source: indexed.source } : { source: new ListingSource(env.source, []) }) },
      warnings,
    );
  } finally {
    env.pool.dispose();
    indexed?.close();
  }
}
