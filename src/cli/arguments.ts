/** The command line: what to run, on which folders, with which index. Parsed alike by the client and the server. */
import * as nodePath from 'path';
import { DEFAULT_INDEX_LIMITS, type IndexLimits } from '../engine/index/limits';
import type { PathFlavour } from '../engine/guard/paths';
import { defaultIndexDir } from '../engine/index/location';

export const USAGE = `usage: node dist/cli.js <grep|glob> '<json input>' [--workspace DIR]... [--allow-outside] [--index-dir D] [--no-index]
       node dist/cli.js index [--workspace DIR]... [--index-dir D] [--max-indexed-bytes N] [--max-files N]
       node dist/cli.js serve [--workspace DIR]... [--index-dir D] [--max-indexed-bytes N] [--max-files N]
       node dist/cli.js mcp [--workspace DIR]... [--index-dir D] [--max-indexed-bytes N] [--max-files N]   (MCP server on stdio)
  e.g. node dist/cli.js grep '{"pattern":"TODO","output_mode":"count"}' --workspace .`;

export interface CliRequest {
  tool: 'grep' | 'glob' | 'index' | 'serve' | 'mcp';
  /** The tool's input, as JSON text (grep and glob). */
  json?: string;
  /** The workspace folders, absolute. */
  folders: string[];
  allowOutside: boolean;
  indexDir: string;
  /** Whether --index-dir chose indexDir (otherwise it is the default one of the folders). */
  indexDirGiven?: boolean;
  useIndex: boolean;
  limits: IndexLimits;
}

export interface CliOutcome {
  code: number;
  stdout?: string;
  stderr?: string;
}

/** An error as the command line reports it: its message on stderr, exit code 1. */
export const failure = (error: unknown): CliOutcome => ({ code: 1, stderr: error instanceof Error ? error.message : String(error) });

const count = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);

/**
 * The request `argv` makes, relative paths resolved against `cwd` under `flavour` (this platform's path
 * rules; tests pass path.posix or path.win32); or the usage error to print.
 */
export function parseArguments(argv: readonly string[], cwd: string, flavour: PathFlavour = nodePath): CliRequest | CliOutcome {
  const tool = argv[0];
  if (tool !== 'grep' && tool !== 'glob' && tool !== 'index' && tool !== 'serve' && tool !== 'mcp') return { code: 1, stderr: USAGE };
  const search = tool === 'grep' || tool === 'glob';
  const json = search ? argv[1] : undefined;
  if (search && json === undefined) return { code: 1, stderr: USAGE };
  const rest = argv.slice(search ? 2 : 1);
  const folders: string[] = [];
  let allowOutside = false;
  let indexDir: string | undefined;
  let useIndex = true;
  const limits = { ...DEFAULT_INDEX_LIMITS };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--workspace' && rest[i + 1] !== undefined) folders.push(flavour.resolve(cwd, rest[++i]));
    else if (rest[i] === '--allow-outside' && search) allowOutside = true;
    else if (rest[i] === '--index-dir' && rest[i + 1] !== undefined) indexDir = flavour.resolve(cwd, rest[++i]);
    else if (rest[i] === '--no-index' && search)
      useIndex = false; // glob lists without the index; accepted so one command line serves both
    else if (rest[i] === '--max-indexed-bytes' && !search && count(rest[i + 1]) !== undefined) limits.maxIndexedBytes = count(rest[++i])!;
    else if (rest[i] === '--max-files' && !search && count(rest[i + 1]) !== undefined) limits.maxFiles = count(rest[++i])!;
    else return { code: 1, stderr: `unknown argument ${JSON.stringify(rest[i])}\n${USAGE}` };
  }
  if (folders.length === 0) folders.push(cwd);
  return {
    tool,
    json,
    folders,
    allowOutside,
    indexDir: indexDir ?? defaultIndexDir(folders, undefined, flavour),
    ...(indexDir !== undefined ? { indexDirGiven: true } : {}),
    useIndex,
    limits,
  };
}

export const isOutcome = (parsed: CliRequest | CliOutcome): parsed is CliOutcome => 'code' in parsed;
