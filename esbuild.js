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
    // The extension's index build runs in a process of its own (the host's memory is every extension's), which runs the thread above.
    esbuild.build({ ...common, entryPoints: ['src/engine/index/buildProcess.ts'], bundle: true, outfile: 'dist/indexProcess.js' }),
    esbuild.build({ ...common, entryPoints: ['src/**/*.ts', 'test/**/*.ts'], outbase: '.', outdir: 'out', bundle: false }),
  ]);
  copyGrammars();
  checkManifest(process.argv.includes('--write-manifest'));
}

/**
 * package.json's language-model tools declare what src/engine/input/ holds (the schemas of schema.ts, the
 * titles and model descriptions of descriptions.ts): the build fails when they differ, naming the command
 * that writes them (`npm run manifest`, which builds with --write-manifest).
 */
function checkManifest(write) {
  const fs = require('fs');
  const { GREP_SCHEMA, GLOB_SCHEMA } = require('./out/src/engine/input/schema.js');
  const { modelDescription, TOOL_TITLES } = require('./out/src/engine/input/descriptions.js');
  const schemas = { grep: GREP_SCHEMA, glob: GLOB_SCHEMA };
  const text = fs.readFileSync('package.json', 'utf8');
  const manifest = JSON.parse(text);
  const differing = [];
  for (const tool of manifest.contributes.languageModelTools) {
    const wanted = { displayName: TOOL_TITLES[tool.name], modelDescription: modelDescription(tool.name, 'vscode'), inputSchema: schemas[tool.name] };
    for (const [field, value] of Object.entries(wanted)) {
      if (JSON.stringify(tool[field]) === JSON.stringify(value)) continue;
      differing.push(`${tool.name}.${field}`);
      tool[field] = value;
    }
  }
  const expected = `${JSON.stringify(manifest, null, 2)}\n`;
  if (expected === text) return;
  if (write) {
    fs.writeFileSync('package.json', expected);
    console.log(`package.json: wrote ${differing.join(', ') || 'its formatting'} from src/engine/input/`);
    return;
  }
  console.error(
    `package.json's contributes.languageModelTools differ from src/engine/input/schema.ts and descriptions.ts (${differing.join(', ') || 'formatting'}). ` +
      'Run `npm run manifest` to write them into package.json, then commit it.',
  );
  process.exitCode = 1;
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
  for (const name of ['tree-sitter.wasm', ...grammars.map((grammar) => `tree-sitter-${grammar}.wasm`)])
    fs.copyFileSync(path.join(from, name), path.join('dist/wasm', name));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
