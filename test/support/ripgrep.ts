/**
 * ripgrep as the reference the engine is compared with (differential test, bench): where to find it,
 * and the flags that give it the engine's semantics with the CLI's defaults.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS, DEFAULT_EXCLUDES } from '../../src/engine/api/config';
import type { GrepInput } from '../../src/engine/api/types';

/** GREP_TOOLS_RG, else `rg` on PATH, else the ripgrep bundled with the cached code-server. */
export function findRipgrep(): string {
  const candidates = [process.env.GREP_TOOLS_RG, 'rg'];
  const cache = process.env.GREP_TOOLS_CACHE || nodePath.join(process.env.XDG_CACHE_HOME || nodePath.join(os.homedir(), '.cache'), 'vscode-grep-tools');
  if (fs.existsSync(cache)) {
    for (const dir of fs.readdirSync(cache).filter((name) => name.startsWith('code-server-'))) {
      candidates.push(nodePath.join(cache, dir, 'node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg'));
    }
  }
  for (const candidate of candidates) {
    if (candidate && spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  throw new Error("ripgrep not found: set GREP_TOOLS_RG, install Debian's ripgrep, or run `npm test` (it installs code-server, which bundles ripgrep).");
}

/**
 * ripgrep flags equal to the engine's defaults: symlinks followed (VS Code's search.followSymlinks; the
 * engine follows only links that stay inside the root), hidden files searched, .gitignore applied without a git
 * repository and not above the root, VS Code's default excludes and the denied paths left out, CRLF
 * line ends not part of the line, files over 1 MB skipped; then the input's own options.
 */
export function ripgrepArgs(input: GrepInput): string[] {
  // A ripgrep glob without '/' matches at any depth, like the engine's '**/name' rules.
  const skipped = [...DEFAULT_EXCLUDES, ...DEFAULT_DENIED_PATHS]
    .map((glob) => glob.replace(/\/\*\*$/, ''))
    .map((glob) => (glob.startsWith('**/') && !glob.slice(3).includes('/') ? glob.slice(3) : glob));
  const args = ['--follow', '--hidden', '--no-require-git', '--no-ignore-parent', '--no-config', '--crlf', '--max-filesize', '1M'];
  for (const glob of new Set(skipped)) args.push('-g', `!${glob}`);
  let pattern = input.pattern;
  if (pattern.startsWith('(?i)')) {
    pattern = pattern.slice(4);
    args.push('-i');
  }
  if (input.case_insensitive) args.push('-i');
  if (input.fixed_strings) args.push('-F');
  if (input.word) args.push('-w');
  if (input.multiline) args.push('-U', '--multiline-dotall');
  if (input.invert_match) args.push('-v');
  if (input.include) args.push('-g', input.include);
  args.push('-e', pattern);
  return args;
}
