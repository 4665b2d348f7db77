// `npm start [folder]`: opens a real VS Code (code-server on 127.0.0.1) with the extension loaded on a
// workspace (the folder given, default the current directory) and prints the URL. Ctrl-C stops it.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, workbenchUrl } from './lib/host.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? '.');
if (!existsSync(workspace) || !(statSync(workspace).isDirectory() || workspace.endsWith('.code-workspace'))) {
  console.error(`No such folder or .code-workspace file: ${workspace}`);
  process.exit(1);
}
const server = await startServer({ timeoutMs: 120_000 });
const url = workbenchUrl(server, { workspace, extensionPath: repo });
console.log(`\nGrep & Glob Tools is loaded in VS Code ${'(code-server)'} on ${workspace}.\nOpen:\n\n  ${url}\n\nPress Ctrl-C to stop.`);
setInterval(() => {}, 1 << 30); // keep running until Ctrl-C; host.mjs stops the server on SIGINT/SIGTERM
