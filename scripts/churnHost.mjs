// `npm run soak:host`: is every answer exact while the workspace changes under it? A code-server window on
// CHURN_COPIES (default 9: about 100,000 files) hard-linked copies of the bench corpus, made afresh in the
// cache and removed afterwards, its content index built first. Then CHURN_ROUNDS (default 40) rounds, each a
// burst of changes made from this process as a terminal would make them (files created, appended to,
// replaced, rewritten in place with their size and modification time kept, deleted and renamed; directories
// created, renamed and deleted; `.gitignore` files written and removed), then, at once or after a pause
// (0 to 6 s: the index takes the changes in a few seconds after the last event), our grep and glob, each
// answer held to ripgrep's on the same tree at the same moment (the tree does not change until the next
// round). Every round's tokens are new (`churn_` and six letters), so an answer that missed a change differs.
// A file still hard-linked to the corpus is never written in place: it is replaced first (a new inode).
// Prints each difference and a summary; exits 1 on any. CHURN_SEED makes the changes repeatable.
// CHURN_ROOTS=1 opens the copies as the folders of one multi-root workspace instead of one folder.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  openSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAgentSession, waitFor } from './lib/agent.mjs';
import { parseAnswer } from './lib/answers.mjs';
import { ensureCorpus } from './lib/corpus.mjs';
import { ensureCodeServer } from './lib/install.mjs';
import { seeded } from './lib/seeded.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const COPIES = Number(process.env.CHURN_COPIES ?? 9);
const ROUNDS = Number(process.env.CHURN_ROUNDS ?? 40);
const MULTI_ROOT = process.env.CHURN_ROOTS === '1';
const artifacts = join(repo, '.test-artifacts', 'soak-host');
const { random, pick } = seeded(Number(process.env.CHURN_SEED ?? 1));
const token = () => `churn_${Array.from({ length: 6 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)]).join('')}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const require = createRequire(import.meta.url);
const { ripgrepArgs } = require(join(repo, 'out', 'test', 'support', 'ripgrep.js'));

/** The hard-linked copies, made afresh: `copyN/` as bench:scale has them, in a directory of this run's own. */
function freshTree(base) {
  const tree = join(base.dir, `churn-x${COPIES}`);
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  for (let i = 1; i <= COPIES; i++) {
    const made = spawnSync('cp', ['-al', base.tree, join(tree, `copy${i}`)]);
    if (made.status !== 0) throw new Error(`cp -al failed: ${made.stderr}`);
  }
  return tree;
}

/** ripgrep's per-file line counts for a grep input on `tree` (absolute paths). */
function ripgrepCounts(rg, tree, input) {
  const run = spawnSync(rg, ['--count', ...ripgrepArgs(input), '.'], { cwd: tree, encoding: 'utf8', maxBuffer: 256 << 20 });
  const counts = new Map();
  for (const line of run.stdout.split('\n').filter(Boolean)) {
    const at = line.lastIndexOf(':');
    counts.set(join(tree, line.slice(0, at)), Number(line.slice(at + 1)));
  }
  return counts;
}

/**
 * ripgrep's list of the files whose name holds `part`, with the engine's defaults (the same flags as a grep). The
 * names are picked here: a `-g` glob would list the files a `.gitignore` leaves out too (ripgrep's globs override it).
 */
function ripgrepFiles(rg, tree, part) {
  const args = ripgrepArgs({ pattern: '' }).filter((arg, i, all) => arg !== '-e' && all[i - 1] !== '-e');
  const run = spawnSync(rg, ['--files', ...args, '.'], { cwd: tree, encoding: 'utf8', maxBuffer: 256 << 20 });
  const named = run.stdout.split('\n').filter((path) => path.slice(path.lastIndexOf('/') + 1).includes(part));
  return new Set(named.map((path) => join(tree, path)));
}

/** The changes a round makes, on the files it knows (`known`: corpus files picked at random, and the ones it made). */
class Changes {
  constructor(tree, files) {
    this.tree = tree;
    /** Text files of the corpus that may be changed (picked from). */
    this.files = files;
    /** Files this run made or changed (they hold tokens), and directories it made. */
    this.made = [];
    this.dirs = [];
    this.gitignores = [];
    this.log = [];
  }

  note(what) {
    this.log.push(what);
  }

  /** A file written in place only once it is no longer one of the corpus's hard links. */
  own(path) {
    if (statSync(path).nlink > 1) {
      copyFileSync(path, `${path}.own`);
      renameSync(`${path}.own`, path);
    }
  }

  liveMade() {
    this.made = this.made.filter((path) => existsSync(path));
    return this.made;
  }

  create() {
    const dir = dirname(pick(this.files));
    const name = token();
    const path = join(dir, `${name}.ts`);
    writeFileSync(path, `// ${name}\nexport const ${name} = 1; // TODO ${token()}\n`);
    this.made.push(path);
    this.note(`create ${relative(this.tree, path)}`);
  }

  append() {
    const path = pick([...this.files, ...this.liveMade()]);
    if (!existsSync(path)) return;
    this.own(path);
    appendFileSync(path, `\n// ${token()} TODO\n`);
    this.made.push(path);
    this.note(`append ${relative(this.tree, path)}`);
  }

  replace() {
    const path = pick([...this.files, ...this.liveMade()]);
    if (!existsSync(path)) return;
    writeFileSync(`${path}.new`, `/* ${token()} */\n${readFileSync(path, 'utf8')}`);
    renameSync(`${path}.new`, path);
    this.made.push(path);
    this.note(`replace ${relative(this.tree, path)}`);
  }

  /** One token of a file this run made rewritten in place as another of the same length, the modification time put back. */
  rewriteInPlace() {
    const candidates = this.liveMade();
    if (candidates.length === 0) return this.create();
    const path = pick(candidates);
    this.own(path);
    const before = statSync(path);
    const text = readFileSync(path, 'latin1');
    const at = text.indexOf('churn_');
    if (at < 0) return;
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.from(token(), 'latin1'), 0, 12, at);
    closeSync(fd);
    utimesSync(path, before.atime, before.mtime);
    this.note(`rewrite in place ${relative(this.tree, path)}`);
  }

  remove() {
    const made = this.liveMade();
    const path = made.length && random() < 0.7 ? pick(made) : pick(this.files);
    if (!existsSync(path)) return;
    unlinkSync(path);
    this.note(`delete ${relative(this.tree, path)}`);
  }

  renameFile() {
    const made = this.liveMade();
    if (made.length === 0) return this.create();
    const from = pick(made);
    const to = join(random() < 0.5 ? dirname(from) : dirname(pick(this.files)), `${token()}.js`);
    renameSync(from, to);
    this.made.push(to);
    this.note(`rename ${relative(this.tree, from)} -> ${relative(this.tree, to)}`);
  }

  makeDirectory() {
    const dir = join(dirname(pick(this.files)), token(), 'deeper');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 3; i++) {
      const path = join(i === 0 ? dirname(dir) : dir, `f${i}_${token()}.md`);
      writeFileSync(path, `# ${token()}\n`);
      this.made.push(path);
    }
    this.dirs.push(dirname(dir));
    this.note(`mkdir ${relative(this.tree, dirname(dir))}`);
  }

  renameDirectory() {
    const dirs = this.dirs.filter((dir) => existsSync(dir));
    if (dirs.length === 0) return this.makeDirectory();
    const from = pick(dirs);
    const to = join(dirname(from), token());
    renameSync(from, to);
    this.dirs.push(to);
    this.made = this.made.map((path) => (path.startsWith(`${from}/`) ? to + path.slice(from.length) : path));
    this.note(`rename dir ${relative(this.tree, from)} -> ${relative(this.tree, to)}`);
  }

  removeDirectory() {
    const dirs = this.dirs.filter((dir) => existsSync(dir));
    if (dirs.length === 0) return this.makeDirectory();
    const dir = pick(dirs);
    rmSync(dir, { recursive: true });
    this.note(`rm -r ${relative(this.tree, dir)}`);
  }

  /** A .gitignore beside a directory this run made, leaving it out (or, one already written, removed again). */
  gitignore() {
    const written = this.gitignores.filter((path) => existsSync(path));
    if (written.length && random() < 0.5) {
      const path = pick(written);
      unlinkSync(path);
      this.note(`delete ${relative(this.tree, path)}`);
      return;
    }
    const dirs = this.dirs.filter((dir) => existsSync(dir));
    if (dirs.length === 0) return this.makeDirectory();
    const dir = pick(dirs);
    const path = join(dirname(dir), '.gitignore');
    if (existsSync(path)) return;
    writeFileSync(path, `${dir.slice(dirname(dir).length + 1)}/\n`);
    this.gitignores.push(path);
    this.note(`write ${relative(this.tree, path)} (leaves out ${relative(this.tree, dir)})`);
  }

  /**
   * 1 to 8 changes, most of them to files (as an agent's edits are); `files` only: no directory made,
   * renamed or deleted and no .gitignore written.
   */
  burst(files) {
    const kinds = [
      ...['create', 'create', 'append', 'append', 'replace', 'rewriteInPlace', 'remove', 'renameFile', 'renameFile'],
      ...(files ? [] : ['makeDirectory', 'renameDirectory', 'removeDirectory', 'gitignore']),
    ];
    const n = 1 + Math.floor(random() * 8);
    for (let i = 0; i < n; i++) this[pick(kinds)]();
  }
}

async function main() {
  const base = ensureCorpus();
  const { rg } = await ensureCodeServer();
  process.stdout.write(`Making ${COPIES} hard-linked copies of the bench corpus (${base.files * COPIES} files)\n`);
  const tree = freshTree(base);
  // The corpus's text files that may be changed: every 50th source file ripgrep lists.
  const listed = spawnSync(rg, ['--files', '-g', '*.{js,ts,md,json}', '.'], { cwd: tree, encoding: 'utf8', maxBuffer: 256 << 20 })
    .stdout.split('\n')
    .filter(Boolean);
  const changes = new Changes(
    tree,
    listed.filter((_, i) => i % 50 === 0).map((path) => join(tree, path)),
  );
  mkdirSync(artifacts, { recursive: true });
  // A multi-root workspace: each copy a folder of its own (the file beside the tree, outside every folder).
  const workspace = MULTI_ROOT ? join(base.dir, `churn-x${COPIES}.code-workspace`) : tree;
  if (MULTI_ROOT) writeFileSync(workspace, JSON.stringify({ folders: Array.from({ length: COPIES }, (_, i) => ({ path: join(tree, `copy${i + 1}`) })) }));
  process.stdout.write(MULTI_ROOT ? `Opened as a workspace of ${COPIES} folders\n` : '');
  const session = await openAgentSession({
    workspace,
    script: { steps: [], fallbackText: 'soak:host calls the tools directly.' },
    artifactsDir: artifacts,
    lifetimeSeconds: 3600,
  });
  let ok = false;
  const differences = [];
  try {
    await waitFor(async () => (await session.bridge.call({ op: 'tools' })).includes('grep'), {
      timeoutMs: 90_000,
      intervalMs: 500,
      what: 'our tools to be registered',
    });
    await session.bridge.call({ op: 'probeUntilListed', timeoutMs: 300_000 }, { timeoutMs: 310_000 });
    const call = async (tool, input) => {
      const { ms, text } = await session.bridge.call({ op: 'invoke', tool, input }, { timeoutMs: 300_000 });
      return { ms, answer: parseAnswer(text), text };
    };
    /** Every page of an answer: the first page's fields, the files of all pages, and the first page's time. */
    const allPages = async (tool, input) => {
      const first = await call(tool, input);
      const files = new Map();
      const add = (answer) => {
        if (Array.isArray(answer.files)) for (const path of answer.files) files.set(path, 1);
        else for (const [path, n] of Object.entries(answer.files ?? {})) files.set(path, n);
      };
      add(first.answer);
      for (let page = first.answer; page.next_offset !== undefined;) {
        page = (await call(tool, { ...input, offset: page.next_offset })).answer;
        add(page);
      }
      return { ms: first.ms, answer: first.answer, files };
    };
    // The index is built first (its build lists the workspace and reads every file); then the changes begin.
    await call('grep', { pattern: 'MAX_SAFE_INTEGER', fixed_strings: true });
    const started = Date.now();
    await waitFor(
      async () => {
        const state = await session.bridge.call({ op: 'indexState' });
        return state && (state.builds > 0 || state.phase === 'off' || state.phase === 'failed');
      },
      { timeoutMs: 600_000, intervalMs: 1000, what: 'the content index to be built' },
    );
    process.stdout.write(`Index built ${((Date.now() - started) / 1000).toFixed(1)} s after the first call\n`);
    const pauses = [0, 0, 0, 200, 1000, 3000, 6000];
    const timings = [];
    /** The first grep's time after each round's changes: of files only, and of directories too. */
    const fileRounds = [];
    const treeRounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      changes.log = [];
      // Every other round changes files only; the others directories and .gitignore files too.
      const filesOnly = round % 2 === 1;
      changes.burst(filesOnly);
      const pause = pick(pauses);
      if (pause) await sleep(pause);
      const checks = [{ pattern: 'churn_[a-z]{6}' }];
      if (round % 5 === 0) checks.push({ pattern: 'TODO', fixed_strings: true });
      const roundDiffers = [];
      const roundMs = [];
      for (const input of checks) {
        const { ms, answer, files: ours } = await allPages('grep', { ...input, output_mode: 'count', max_results: 1000 });
        timings.push(ms);
        roundMs.push(ms);
        const theirs = ripgrepCounts(rg, tree, input);
        const theirTotal = [...theirs.values()].reduce((a, b) => a + b, 0);
        const missing = [...theirs]
          .filter(([path, n]) => ours.get(path) !== n)
          .map(([path, n]) => `${relative(tree, path)}: ripgrep ${n}, ours ${ours.get(path) ?? 0}`);
        const extra = [...ours].filter(([path]) => !theirs.has(path)).map(([path, n]) => `${relative(tree, path)}: ours ${n}, ripgrep 0`);
        if (answer.timed_out || answer.total_matches !== theirTotal || missing.length || extra.length)
          roundDiffers.push(
            `grep ${JSON.stringify(input)}: ours ${answer.total_matches}${answer.timed_out ? ' (timed out)' : ''}, ripgrep ${theirTotal}; ${[...missing, ...extra].slice(0, 8).join('; ')}`,
          );
      }
      const glob = await allPages('glob', { pattern: '**/*churn_*' });
      const theirFiles = ripgrepFiles(rg, tree, 'churn_');
      const ourFiles = new Set(glob.files.keys());
      const globMissing = [...theirFiles].filter((path) => !ourFiles.has(path));
      const globExtra = [...ourFiles].filter((path) => !theirFiles.has(path));
      if (globMissing.length || globExtra.length)
        roundDiffers.push(
          `glob: ours ${ourFiles.size}, ripgrep ${theirFiles.size}; missing ${globMissing
            .slice(0, 5)
            .map((p) => relative(tree, p))
            .join(', ')}; extra ${globExtra
            .slice(0, 5)
            .map((p) => relative(tree, p))
            .join(', ')}`,
        );
      roundMs.push(glob.ms);
      (filesOnly ? fileRounds : treeRounds).push(roundMs[0]);
      const line = `round ${round} (${filesOnly ? 'files' : 'files and directories'}): ${changes.log.length} changes, pause ${pause} ms, then grep ${roundMs
        .slice(0, -1)
        .map((ms) => ms.toFixed(0))
        .join(' and ')} ms, glob ${glob.ms.toFixed(0)} ms: ${roundDiffers.length ? 'DIFFERS' : 'same'}`;
      process.stdout.write(`${line}\n`);
      if (roundDiffers.length) {
        differences.push({ round, pause, changes: changes.log, differs: roundDiffers });
        for (const what of [...changes.log.map((c) => `  change: ${c}`), ...roundDiffers.map((d) => `  ${d}`)]) process.stdout.write(`${what}\n`);
      }
    }
    const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
    process.stdout.write(
      `\n${ROUNDS} rounds on ${base.files * COPIES} files: ${differences.length} with an answer unlike ripgrep's; the first grep after the changes: ` +
        `median ${median(fileRounds).toFixed(0)} ms (worst ${Math.max(...fileRounds).toFixed(0)}) after files changed, ` +
        `median ${median(treeRounds).toFixed(0)} ms (worst ${Math.max(...treeRounds, 0).toFixed(0)}) after directories changed too; every grep median ${median(timings).toFixed(0)} ms\n`,
    );
    writeFileSync(join(artifacts, 'differences.json'), JSON.stringify(differences, null, 2));
    ok = differences.length === 0;
  } finally {
    writeFileSync(join(artifacts, 'host.log'), session.logs());
    await session.close(ok);
    if (!process.env.CHURN_KEEP) rmSync(tree, { recursive: true, force: true });
    if (MULTI_ROOT) rmSync(workspace, { force: true });
  }
  if (!ok) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exitCode = 1;
});
