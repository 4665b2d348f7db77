/**
 * CLI (README, CLI): `node dist/cli.js <grep|glob> '<json input>' [--workspace DIR]... [--allow-outside]
 * [--index-dir D] [--no-index]`. Prints exactly the JSON text the model would receive, or the error
 * message on stderr (exit 1). `node dist/cli.js index [--workspace DIR]... [--index-dir D] [--max-indexed-bytes N] [--max-files N]` builds or
 * refreshes the workspace's content index (in the user's cache directory by default), which grep then
 * consults: the answer is the same with or without it.
 */
import * as nodePath from 'path';
import { byteBudget } from './engine/answer/budget';
import { DEFAULT_CONFIG } from './engine/api/config';
import { answerGlob } from './engine/answer/globAnswer';
import { onceEach, type SearchEnvironment } from './engine/run/environment';
import { answerGrep } from './engine/answer/grepAnswer';
import { SearchPool } from './engine/pool/pool';
import { renderGlob, renderGrep } from './engine/answer/printer';
import { readFileCapped } from './engine/searcher/reader';
import { NodeFileSource } from './engine/source/walker';
import { DEFAULT_INDEX_LIMITS } from './engine/index/limits';
import { checkIndexDir, defaultIndexDir } from './engine/index/location';
import { buildWorkspaceIndex, openWorkspaceIndex } from './engine/run/workspaceIndex';

const USAGE = `usage: node dist/cli.js <grep|glob> '<json input>' [--workspace DIR]... [--allow-outside] [--index-dir D] [--no-index]
       node dist/cli.js index [--workspace DIR]... [--index-dir D] [--max-indexed-bytes N] [--max-files N]
  e.g. node dist/cli.js grep '{"pattern":"TODO","output_mode":"count"}' --workspace .`;

export async function main(argv: string[]): Promise<{ code: number; stdout?: string; stderr?: string }> {
  const tool = argv[0];
  if (tool !== 'grep' && tool !== 'glob' && tool !== 'index') return { code: 1, stderr: USAGE };
  const json = tool === 'index' ? undefined : argv[1];
  if (tool !== 'index' && json === undefined) return { code: 1, stderr: USAGE };
  const rest = argv.slice(tool === 'index' ? 1 : 2);
  const workspaces: string[] = [];
  let allowOutside = false;
  let indexDir: string | undefined;
  let useIndex = true;
  const limits = { ...DEFAULT_INDEX_LIMITS };
  const count = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--workspace' && rest[i + 1] !== undefined) workspaces.push(nodePath.resolve(rest[++i]));
    else if (rest[i] === '--allow-outside' && tool !== 'index') allowOutside = true;
    else if (rest[i] === '--index-dir' && rest[i + 1] !== undefined) indexDir = nodePath.resolve(rest[++i]);
    else if (rest[i] === '--no-index' && tool !== 'index') useIndex = false; // glob lists without the index; accepted so one command line serves both
    else if (rest[i] === '--max-indexed-bytes' && tool === 'index' && count(rest[i + 1]) !== undefined) limits.maxIndexedBytes = count(rest[++i])!;
    else if (rest[i] === '--max-files' && tool === 'index' && count(rest[i + 1]) !== undefined) limits.maxFiles = count(rest[++i])!;
    else return { code: 1, stderr: `unknown argument ${JSON.stringify(rest[i])}\n${USAGE}` };
  }
  let input: unknown;
  try {
    input = json === undefined ? undefined : JSON.parse(json);
  } catch (error) {
    return { code: 1, stderr: `The input is not valid JSON: ${(error as Error).message}\n${USAGE}` };
  }
  // Lines for the log (ignore files skipped): printed on stderr, the answer staying alone on stdout.
  const warnings: string[] = [];
  const folders = workspaces.length ? workspaces : [process.cwd()];
  indexDir ??= defaultIndexDir(folders);
  const env: SearchEnvironment = {
    folders: folders.map((path) => ({ name: nodePath.basename(path), path })),
    source: new NodeFileSource(),
    config: { ...DEFAULT_CONFIG, deniedPaths: [...DEFAULT_CONFIG.deniedPaths] },
    readFile: readFileCapped,
    allowOutside,
    outsideHint: 'Searching outside the workspace needs confirmation: pass --allow-outside to search it, or search inside a --workspace folder.',
    isCancelled: () => false,
    warn: onceEach((message) => warnings.push(message)),
    // The workers boot while the tree is walked: grep searches files there, glob tests its pattern there.
    pool: new SearchPool().warm(),
  };
  let indexed: ReturnType<typeof openWorkspaceIndex>;
  try {
    if (tool === 'index') {
      checkIndexDir(indexDir, folders);
      return { code: 0, stdout: JSON.stringify(await buildWorkspaceIndex(env, indexDir, limits)) };
    }
    indexed = tool === 'grep' && useIndex ? openWorkspaceIndex(indexDir, folders, new NodeFileSource()) : undefined;
    if (indexed) {
      env.index = indexed.index;
      env.source = indexed.source;
    }
    // The output budget of a call without a token budget: grepTools.maxOutputBytes' default (50 KB).
    const budget = byteBudget(env.config.maxOutputBytes);
    const text = tool === 'grep' ? await renderGrep(await answerGrep(input, env), budget) : await renderGlob(await answerGlob(input, env), budget);
    return { code: 0, stdout: text, ...(warnings.length ? { stderr: warnings.join('\n') } : {}) };
  } catch (error) {
    return { code: 1, stderr: error instanceof Error ? error.message : String(error) };
  } finally {
    env.pool?.dispose();
    indexed?.close();
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then(({ code, stdout, stderr }) => {
    if (stdout !== undefined) process.stdout.write(stdout + '\n');
    if (stderr !== undefined) process.stderr.write(stderr + '\n');
    process.exitCode = code;
  });
}
