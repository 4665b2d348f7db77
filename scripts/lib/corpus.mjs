// The bench corpus: real third-party code, pinned by bench/corpus/package-lock.json and installed from
// the npm registry (no install scripts) into the cache, outside the work tree. `tree` is a plain copy of
// the installed packages; `copies(n)` is n hard-linked copies of it side by side.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from './install.mjs';
import { installerEnv } from './installEnv.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: installerEnv(process.env) });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
}

function measure(dir) {
  let files = 0;
  let bytes = 0;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        files++;
        bytes += statSync(path).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

/** Installs (once) and returns { dir, tree, files, bytes, copies(n) }. */
export function ensureCorpus() {
  const lock = readFileSync(join(repo, 'bench', 'corpus', 'package-lock.json'));
  const id = createHash('sha256').update(lock).digest('hex').slice(0, 12);
  const dir = join(cacheDir(), `bench-corpus-${id}`);
  const tree = join(dir, 'tree');
  const marker = join(dir, 'corpus.json');
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    const install = join(dir, 'install');
    mkdirSync(install, { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) cpSync(join(repo, 'bench', 'corpus', file), join(install, file));
    process.stderr.write(`[corpus] installing the bench corpus into ${dir} (once)\n`);
    run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], install);
    renameSync(join(install, 'node_modules'), tree);
    writeFileSync(marker, JSON.stringify(measure(tree)));
  }
  const info = JSON.parse(readFileSync(marker, 'utf8'));
  return {
    dir,
    tree,
    ...info,
    copies(n) {
      const target = join(dir, `x${n}`);
      if (!existsSync(`${target}.complete`)) {
        rmSync(target, { recursive: true, force: true });
        mkdirSync(target, { recursive: true });
        for (let i = 1; i <= n; i++) run('cp', ['-al', tree, join(target, `copy${i}`)], dir);
        writeFileSync(`${target}.complete`, '');
      }
      return target;
    },
  };
}
