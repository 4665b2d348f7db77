/**
 * The MCP server's entry (dist/mcp.js, its own bundle with the MCP SDK): `node dist/cli.js mcp ...`
 * loads it, and the package's `grep-tools-mcp` bin runs it directly with the same arguments as
 * `mcp` (`grep-tools-mcp --workspace DIR`). See src/mcp/server.ts.
 */
import { isOutcome, parseArguments, type CliOutcome } from './cli/arguments';
import { runMcp } from './mcp/server';

/** Runs the MCP server with the arguments that follow `mcp`; stdin and stdout carry the protocol, stderr the log. */
export async function mcp(argv: readonly string[], cwd = process.cwd()): Promise<CliOutcome> {
  const request = parseArguments(['mcp', ...argv], cwd);
  if (isOutcome(request)) return request;
  return runMcp(request, { stdin: process.stdin, stdout: process.stdout, log: (line) => void process.stderr.write(line + '\n') });
}

if (require.main === module) {
  void mcp(process.argv.slice(2)).then(({ code, stderr }) => {
    if (stderr !== undefined) process.stderr.write(stderr + '\n');
    process.exitCode = code;
  });
}
