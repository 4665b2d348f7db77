/**
 * CLI (README, CLI): `node dist/cli.js <grep|glob> '<json input>' [--workspace DIR]... [--allow-outside]
 * [--index-dir D] [--no-index]`. Prints exactly the text the model would receive, or the error
 * message on stderr (exit 1). `node dist/cli.js index ...` builds or refreshes the workspace's content
 * index (in the user's cache directory by default), which grep then consults: the answer is the same
 * with or without it. `node dist/cli.js serve ...` keeps that index in memory, current through a
 * watcher, and answers the grep and glob calls of the same folders and index directory itself.
 * `node dist/cli.js mcp ...` is the MCP server on stdio (src/mcp.ts, loaded from its own bundle).
 *
 * This file stays small: it asks a running server first, and loads the engine (cliEngine.js) only
 * when none answers.
 */
import { existsSync, statSync } from 'fs';
import * as nodePath from 'path';
import { isOutcome, parseArguments, type CliOutcome } from './cli/arguments';
import { askServer } from './cli/client';

/** The engine module beside this file (dist/ or out/src/). */
const ENGINE_FILE = nodePath.join(__dirname, 'cliEngine.js');
/** The MCP server beside this file, with the MCP SDK (src/mcp.ts). */
const MCP_FILE = nodePath.join(__dirname, 'mcp.js');

/** Which build of the engine answers: a server of another build leaves the call to this process. */
export function engineIdentity(): string {
  const stat = statSync(ENGINE_FILE, { throwIfNoEntry: false });
  return `${ENGINE_FILE}:${stat?.size}:${stat?.mtimeMs}`;
}

export async function main(argv: string[], cwd = process.cwd(), print = (line: string) => void process.stdout.write(line + '\n')): Promise<CliOutcome> {
  const request = parseArguments(argv, cwd);
  if (isOutcome(request)) return request;
  if (request.tool === 'mcp') {
    // The VS Code extension's package (the VSIX) ships the CLI without the MCP server.
    if (!existsSync(MCP_FILE))
      return {
        code: 1,
        stderr: `The MCP server (${MCP_FILE}) is not in this copy: the VS Code extension's package leaves it out. Run it from a built checkout of the repository or its npm package: npx /path/to/checkout --workspace DIR (README, "MCP server").`,
      };
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- its own bundle: the MCP SDK stays out of the other commands
    return (require(MCP_FILE) as typeof import('./mcp')).mcp(argv.slice(1), cwd);
  }
  if ((request.tool === 'grep' || request.tool === 'glob') && request.useIndex) {
    const answered = await askServer(request, engineIdentity());
    if (answered) return answered;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, not bundled into this file
  const cli = require(ENGINE_FILE) as typeof import('./cliEngine');
  if (request.tool !== 'serve') return cli.runLocally(request);
  return cli.serve(request, engineIdentity(), { print, log: (line) => void process.stderr.write(line + '\n'), stopped: cli.signalled });
}

if (require.main === module) {
  void main(process.argv.slice(2)).then(({ code, stdout, stderr }) => {
    if (stdout !== undefined) process.stdout.write(stdout + '\n');
    if (stderr !== undefined) process.stderr.write(stderr + '\n');
    process.exitCode = code;
  });
}
