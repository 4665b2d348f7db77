// The direction of the source's dependencies (docs/architecture.md, "Layers"), checked by `npm run lint`,
// which `npm test` runs first. The engine's folders are layers: a module may import from its own folder
// and from the folders before it in ENGINE_LAYERS, never from one after it. The engine never imports
// the VS Code layer, the CLI, the MCP server or the `vscode` API; nothing in src/ imports tests; no import cycle anywhere.
const ENGINE_LAYERS = ['api', 'input', 'globset', 'matcher', 'guard', 'searcher', 'source', 'pool', 'index', 'run', 'answer'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: split the shared part into a lower module.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...ENGINE_LAYERS.slice(0, -1).map((layer, i) => ({
      name: `engine-${layer}-imports-only-below`,
      comment: `src/engine/${layer}/ may import only ${ENGINE_LAYERS.slice(0, i).join(', ') || 'nothing of the other engine folders'} (layers: ${ENGINE_LAYERS.join(' ← ')}).`,
      severity: 'error',
      from: { path: `^src/engine/${layer}/` },
      to: { path: `^src/engine/(${ENGINE_LAYERS.slice(i + 1).join('|')})/` },
    })),
    {
      name: 'engine-is-plain',
      comment: 'The engine runs in Node without VS Code (the CLI, the workers, the unit tests): no vscode API, no VS Code layer, no CLI.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^(vscode$|node_modules/@types/vscode/|src/vscode/|src/cli\\.ts|src/cli/|src/cliEngine\\.ts|src/mcp\\.ts|src/mcp/|src/extension\\.ts)' },
    },
    {
      name: 'cli-is-plain',
      comment: 'The CLI runs in Node without VS Code.',
      severity: 'error',
      from: { path: '^src/(cli\\.ts|cli/|cliEngine\\.ts)' },
      to: { path: '^(vscode$|node_modules/@types/vscode/|src/vscode/|src/extension\\.ts)' },
    },
    {
      name: 'mcp-is-plain',
      comment: 'The MCP server runs in Node without VS Code (it sits above the engine, beside the CLI).',
      severity: 'error',
      from: { path: '^src/(mcp\\.ts|mcp/)' },
      to: { path: '^(vscode$|node_modules/@types/vscode/|src/vscode/|src/extension\\.ts)' },
    },
    {
      name: 'only-the-mcp-server-loads-its-sdk',
      comment: 'The MCP SDK is bundled into dist/mcp.js alone: the extension, the engine and the other commands never load it (src/cli.ts requires dist/mcp.js on demand).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(mcp\\.ts|mcp/)' },
      to: { path: '@modelcontextprotocol/' },
    },
    {
      name: 'nothing-imports-the-entry',
      comment: 'src/extension.ts wires things together; nothing imports it.',
      severity: 'error',
      from: {},
      to: { path: '^src/extension\\.ts' },
    },
    {
      name: 'no-tests-in-product',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    // Type-only imports count: a type is a dependency too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
