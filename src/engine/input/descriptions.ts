/**
 * What the model is told of the two tools: their titles and descriptions, in one place. VS Code reads
 * them from package.json's `languageModelTools` (a unit test checks that package.json holds exactly
 * the `vscode` texts); the MCP server (src/mcp/) sends the `mcp` texts. The two differ only where the
 * hosts do: the output budget in chat, and what happens to a path outside the workspace (VS Code asks
 * the person; MCP has no confirmation, so the path is refused).
 */

/** The two tools. */
export type ToolName = 'grep' | 'glob';

/** Where the tools run: VS Code's language model tools, or the MCP server. */
export type ToolHost = 'vscode' | 'mcp';

/** package.json's `displayName` of each tool; the MCP tool's `title`. */
export const TOOL_TITLES: Readonly<Record<ToolName, string>> = {
  grep: 'Grep: search file contents',
  glob: 'Glob: find files by pattern',
};

/** The output budget a page stays within, as the description names it. */
const BUDGET: Record<ToolHost, string> = {
  vscode: 'about 7.7 KB in chat',
  mcp: 'about 50 KB',
};

/** What happens to a path outside every workspace folder. */
const OUTSIDE: Record<ToolHost, string> = {
  vscode: 'A path outside the workspace is searched only after the user confirms it in chat.',
  mcp: "A path outside the workspace folders (the client's roots) is refused: nobody can confirm it here.",
};

/** The `modelDescription` of a tool for a host. */
export function modelDescription(tool: ToolName, host: ToolHost): string {
  if (tool === 'glob') {
    return (
      "Find workspace files by path pattern: '**/*.test.ts', '**/package.json', 'src/*'. It lists files only: notes say when the pattern matches directories, and name the subdirectories of a listed directory.\n" +
      "Answer: as grep's (root, paths below it), exact total; with next_offset, call again with offset = next_offset. Excluded, secret and outside paths as in grep."
    );
  }
  return (
    'Search file contents in the workspace with a JavaScript regex, like ripgrep: definitions, usages, config keys, error messages. Exact and fast; prefer it to reading files to find something.\n' +
    'Answer: text: root (paths are relative to it: your file tools take root/path), exact totals, next_offset, then each file\'s path and lines "42: text" (context "41- text"; "42 def: text" where it defines a matched name), under rows such as "Class > method()" naming their definitions. To learn only where, use output_mode files_with_matches or count first.\n' +
    `A page holds max_results lines and stays within the output budget (${BUDGET[host]}): with next_offset, call again with offset = next_offset: notes then name the matching files not on the page. notes explain an empty answer and give fixes checked to find matches, with the exact call.\n` +
    `Not searched: binary files; files over 1 MB (an empty or cut answer checks them); what .gitignore, files.exclude and search.exclude leave out, unless include_ignored; secrets (.env, keys) and .git, ever. ${OUTSIDE[host]}`
  );
}
