// Builds the extension and the CLI into dist/ (bundled), and the tests into out/ (one file per source).
const esbuild = require('esbuild');

const common = { platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };

async function main() {
  // out/ mirrors the sources one file each: a moved or deleted source must not leave a stale test behind.
  require('fs').rmSync('out', { recursive: true, force: true });
  await Promise.all([
    esbuild.build({ ...common, entryPoints: ['src/extension.ts'], bundle: true, external: ['vscode'], outfile: 'dist/extension.js' }),
    // The CLI's entry stays small (it asks a running server first); the engine it loads on demand is its own bundle.
    esbuild.build({ ...common, entryPoints: ['src/cli.ts'], bundle: true, outfile: 'dist/cli.js' }),
    esbuild.build({ ...common, entryPoints: ['src/cliEngine.ts'], bundle: true, outfile: 'dist/cliEngine.js' }),
    // The MCP server with the MCP SDK, its own bundle (the package's grep-tools-mcp bin): the other commands never load the SDK.
    esbuild.build({ ...common, entryPoints: ['src/mcp.ts'], bundle: true, outfile: 'dist/mcp.js', banner: { js: '#!/usr/bin/env node' } }),
    esbuild.build({ ...common, entryPoints: ['src/engine/pool/worker.ts'], bundle: true, outfile: 'dist/worker.js' }),
    esbuild.build({ ...common, entryPoints: ['src/engine/index/buildWorker.ts'], bundle: true, outfile: 'dist/indexWorker.js' }),
    esbuild.build({ ...common, entryPoints: ['src/**/*.ts', 'test/**/*.ts'], outbase: '.', outdir: 'out', bundle: false }),
  ]);
  copyGrammars();
}

/**
 * The tree-sitter runtime and the grammars of the languages whose definitions grep names
 * (src/engine/searcher/outline.ts, GRAMMARS), beside the bundles that load them: dist/wasm/.
 */
function copyGrammars() {
  const fs = require('fs');
  const path = require('path');
  const from = path.dirname(require.resolve('@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm'));
  const grammars = ['typescript', 'tsx', 'javascript', 'python', 'rust', 'go', 'java', 'c-sharp', 'cpp', 'ruby', 'php'];
  fs.rmSync('dist/wasm', { recursive: true, force: true });
  fs.mkdirSync('dist/wasm', { recursive: true });
  for (const name of ['tree-sitter.wasm', ...grammars.map((grammar) => `tree-sitter-${grammar}.wasm`)]) fs.copyFileSync(path.join(from, name), path.join('dist/wasm', name));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
