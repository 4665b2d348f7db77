import * as assert from 'assert';
import type { Candidate } from '../../../../src/engine/api/types';
import type { LinkTarget } from '../../../../src/engine/guard/links';
import type { PrunedEntry } from '../../../../src/engine/source/fileSource';
import { dirEntry } from '../../../../src/engine/source/entryPolicy';
import type { IgnoreFileRead } from '../../../../src/engine/source/ignoreFile';
import { listWithReader, walkTreeSync, type DirectoryListing, type DirectoryReader, type SyncDirectoryReader } from '../../../../src/engine/source/treeWalk';

/** A file's text, a directory, or a symbolic link to a path. */
type Node = { text: string } | 'dir' | { link: string };

/**
 * A file system in memory, as a virtual folder's provider gives it: absolute '/'-separated paths, a link
 * reported as a link when listed, real paths known. Directories named in `unreadable` fail to list.
 */
class MemoryTree implements SyncDirectoryReader {
  readonly nodes = new Map<string, Node>();
  readonly unreadable = new Set<string>();
  readonly listed: string[] = [];

  constructor(files: Record<string, Node>) {
    for (const [path, node] of Object.entries(files)) {
      this.nodes.set(path, node);
      for (let dir = parent(path); dir !== '/' && !this.nodes.has(dir); dir = parent(dir)) this.nodes.set(dir, 'dir');
    }
  }

  /** The real path of `path`: each segment's link followed (at most 40 links, as a kernel does). */
  real(path: string, hops = 0): string | undefined {
    const segments = path.split('/').filter(Boolean);
    let at = '';
    for (const segment of segments) {
      at = `${at}/${segment}`;
      const node = this.nodes.get(at);
      if (node === undefined) return undefined;
      if (typeof node === 'object' && 'link' in node) {
        if (hops > 40) return undefined;
        const target = this.real(node.link, hops + 1);
        if (target === undefined) return undefined;
        at = target;
      }
    }
    return at || '/';
  }

  resolve(path: string): LinkTarget | undefined {
    const real = this.real(path);
    const node = real === undefined ? undefined : this.nodes.get(real);
    if (real === undefined || node === undefined) return undefined;
    return { real, directory: node === 'dir', file: typeof node === 'object' && 'text' in node };
  }

  list(path: string): DirectoryListing {
    this.listed.push(path);
    const real = this.real(path);
    if (real === undefined || this.unreadable.has(real) || this.nodes.get(real) !== 'dir') throw new Error(`cannot list ${path}`);
    const entries = [...this.nodes]
      .filter(([child]) => parent(child) === real)
      .map(([child, node]) => dirEntry(child.slice(real.length + 1), node === 'dir' ? 'directory' : 'link' in node ? 'link' : 'file'));
    return { entries, real };
  }

  ignoreFile(dir: string): IgnoreFileRead {
    const real = this.real(`${dir}/.gitignore`);
    const node = real === undefined ? undefined : this.nodes.get(real);
    return typeof node === 'object' && 'text' in node ? { kind: 'text', text: node.text } : { kind: 'none' };
  }

  /** The same file system read asynchronously (workspace.fs). */
  get async(): DirectoryReader {
    return {
      resolve: async (path) => this.resolve(path),
      list: async (path) => this.list(path),
      ignoreFile: async (dir) => this.ignoreFile(dir),
    };
  }
}

function parent(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}

interface WalkOptions {
  base?: string;
  denied?: string[];
  excluded?: (fromRoot: string) => boolean;
  followSymlinks?: boolean;
  gitignore?: boolean;
  /** Whether .gitignore names match ignoring case (Windows and macOS); default false (Linux). */
  gitignoreIgnoresCase?: boolean;
  isCancelled?: () => boolean;
}

const ROOT = '/mem/ws';

/**
 * Walks the tree both ways (the synchronous driver of the CLI's walker, the asynchronous one of VS Code's
 * virtual folders), checks they agree, and gives the files found (relative paths) and what was pruned.
 */
async function walk(tree: MemoryTree, options: WalkOptions = {}): Promise<{ files: string[]; pruned: PrunedEntry[]; warnings: string[] }> {
  const base = options.base ?? ROOT;
  const denied = options.denied ?? [];
  const excluded = options.excluded ?? (() => false);
  const asyncPruned: PrunedEntry[] = [];
  const warnings: string[] = [];
  const found = await listWithReader(tree.async, { root: ROOT, base, folderIndex: 0 }, 0, {
    denied,
    excluded,
    followSymlinks: options.followSymlinks ?? true,
    gitignore: options.gitignore ?? true,
    gitignoreIgnoresCase: options.gitignoreIgnoresCase ?? false,
    pruned: asyncPruned,
    isCancelled: options.isCancelled ?? (() => false),
    warn: (line) => warnings.push(line),
  });
  const syncPruned: PrunedEntry[] = [];
  const syncFound: Candidate[] = [
    ...walkTreeSync(tree, {
      root: ROOT,
      base,
      realRoot: ROOT,
      baseIndex: 0,
      rules: { scope: { granted: [ROOT], denied }, excluded: (fromRoot) => excluded(fromRoot), followSymlinks: options.followSymlinks ?? true },
      respectGitignore: options.gitignore ?? true,
      gitignoreIgnoresCase: options.gitignoreIgnoresCase ?? false,
      pruned: syncPruned,
      isCancelled: options.isCancelled ?? (() => false),
    }),
  ];
  assert.deepStrictEqual(syncFound, found, 'the two drivers walk alike');
  assert.deepStrictEqual(syncPruned, asyncPruned, 'the two drivers prune alike');
  for (const file of found) assert.strictEqual(file.path, base === file.path ? base : `${base}/${file.relative}`);
  return { files: found.map((file) => file.relative), pruned: asyncPruned, warnings };
}

describe('engine/source/treeWalk: the walk of a search base, the same whichever driver runs it', () => {
  it('lists every file in path order: a directory before a file named like it with more after it', async () => {
    const tree = new MemoryTree({
      [`${ROOT}/b.ts`]: { text: '' },
      [`${ROOT}/a.ts`]: { text: '' },
      [`${ROOT}/a/z.ts`]: { text: '' },
      [`${ROOT}/a/y/x.ts`]: { text: '' },
      [`${ROOT}/B.md`]: { text: '' },
      [`${ROOT}/empty`]: 'dir',
    });
    assert.deepStrictEqual((await walk(tree)).files, ['B.md', 'a/y/x.ts', 'a/z.ts', 'a.ts', 'b.ts']);
  });

  it('applies each directory’s .gitignore below it, a deeper negation winning, and nothing inside an ignored directory', async () => {
    const tree = new MemoryTree({
      [`${ROOT}/.gitignore`]: { text: '*.log\nbuild/\n' },
      [`${ROOT}/app.log`]: { text: '' },
      [`${ROOT}/build/out.js`]: { text: '' },
      [`${ROOT}/src/.gitignore`]: { text: '!keep.log\n' },
      [`${ROOT}/src/keep.log`]: { text: '' },
      [`${ROOT}/src/drop.log`]: { text: '' },
      [`${ROOT}/src/main.ts`]: { text: '' },
    });
    assert.deepStrictEqual((await walk(tree)).files, ['.gitignore', 'src/.gitignore', 'src/keep.log', 'src/main.ts']);
    assert.ok(!tree.listed.includes(`${ROOT}/build`), 'an ignored directory is never listed');
    assert.deepStrictEqual((await walk(tree, { gitignore: false })).files, [
      '.gitignore',
      'app.log',
      'build/out.js',
      'src/.gitignore',
      'src/drop.log',
      'src/keep.log',
      'src/main.ts',
    ]);
  });

  it('matches .gitignore names with their case under the Linux rule, ignoring it under the Windows and macOS rule', async () => {
    const tree = new MemoryTree({
      [`${ROOT}/.gitignore`]: { text: 'build/\n*.log\n' },
      [`${ROOT}/build/a.ts`]: { text: '' },
      [`${ROOT}/Build/x.ts`]: { text: '' },
      [`${ROOT}/src/APP.LOG`]: { text: '' },
      [`${ROOT}/src/app.log`]: { text: '' },
    });
    assert.deepStrictEqual((await walk(tree)).files, ['.gitignore', 'Build/x.ts', 'src/APP.LOG']);
    assert.deepStrictEqual((await walk(tree, { gitignoreIgnoresCase: true })).files, ['.gitignore']);
    assert.ok(!tree.listed.includes(`${ROOT}/build`), 'the ignored directory is never listed');
  });

  it('a base below the workspace folder keeps the rules of the .gitignore files above it, and names files from the base', async () => {
    const tree = new MemoryTree({
      [`${ROOT}/.gitignore`]: { text: 'generated/\n*.tmp\n' },
      [`${ROOT}/pkg/src/index.ts`]: { text: '' },
      [`${ROOT}/pkg/src/cache.tmp`]: { text: '' },
      [`${ROOT}/pkg/generated/api.ts`]: { text: '' },
    });
    assert.deepStrictEqual((await walk(tree, { base: `${ROOT}/pkg` })).files, ['src/index.ts']);
  });

  it('a base that is a file is the one file found', async () => {
    const tree = new MemoryTree({ [`${ROOT}/src/one.ts`]: { text: '' }, [`${ROOT}/src/two.ts`]: { text: '' } });
    const { files } = await walk(tree, { base: `${ROOT}/src/one.ts` });
    assert.deepStrictEqual(files, ['one.ts']);
  });

  it('prunes a denied directory without listing it, and says so; an excluded one is left out silently', async () => {
    const tree = new MemoryTree({
      [`${ROOT}/secrets/key.txt`]: { text: '' },
      [`${ROOT}/node_modules/dep/index.js`]: { text: '' },
      [`${ROOT}/src/a.ts`]: { text: '' },
    });
    const { files, pruned } = await walk(tree, { denied: ['**/secrets/**'], excluded: (fromRoot) => fromRoot === 'node_modules' });
    assert.deepStrictEqual(files, ['src/a.ts']);
    assert.deepStrictEqual(pruned, [{ base: 0, relative: 'secrets', reason: 'denied', directory: true }]);
    assert.ok(!tree.listed.some((path) => path.includes('secrets') || path.includes('node_modules')), tree.listed.join());
  });

  it('a directory that cannot be listed is counted as unreadable; the rest is walked', async () => {
    const tree = new MemoryTree({ [`${ROOT}/locked/a.ts`]: { text: '' }, [`${ROOT}/open/b.ts`]: { text: '' } });
    tree.unreadable.add(`${ROOT}/locked`);
    const { files, pruned } = await walk(tree);
    assert.deepStrictEqual(files, ['open/b.ts']);
    assert.deepStrictEqual(pruned, [{ base: 0, relative: 'locked', reason: 'unreadable', directory: true }]);
  });

  it('follows a link that stays inside the workspace, prunes one that leads outside, skips a dangling one', async () => {
    const tree = new MemoryTree({
      [`${ROOT}/lib/util.ts`]: { text: '' },
      [`${ROOT}/alias`]: { link: `${ROOT}/lib` },
      [`${ROOT}/alias.ts`]: { link: `${ROOT}/lib/util.ts` },
      [`${ROOT}/escape`]: { link: '/mem/home' },
      [`${ROOT}/gone`]: { link: `${ROOT}/nothing` },
      ['/mem/home/.ssh/id_rsa']: { text: '' },
    });
    const { files, pruned } = await walk(tree);
    assert.deepStrictEqual(files, ['alias/util.ts', 'alias.ts', 'lib/util.ts']);
    assert.deepStrictEqual(pruned, [{ base: 0, relative: 'escape', reason: 'outside_workspace', directory: true }]);
    assert.ok(!tree.listed.includes('/mem/home') && !tree.listed.includes(`${ROOT}/escape`), 'nothing outside is listed');
  });

  it('with followSymlinks off, no link is followed or counted', async () => {
    const tree = new MemoryTree({
      [`${ROOT}/lib/util.ts`]: { text: '' },
      [`${ROOT}/alias`]: { link: `${ROOT}/lib` },
      [`${ROOT}/escape`]: { link: '/mem/home' },
      ['/mem/home/a']: { text: '' },
    });
    const { files, pruned } = await walk(tree, { followSymlinks: false });
    assert.deepStrictEqual(files, ['lib/util.ts']);
    assert.deepStrictEqual(pruned, []);
  });

  it('a link back up the tree is not entered again: the walk ends', async () => {
    const tree = new MemoryTree({ [`${ROOT}/a/file.ts`]: { text: '' }, [`${ROOT}/a/up`]: { link: ROOT }, [`${ROOT}/a/self`]: { link: `${ROOT}/a` } });
    assert.deepStrictEqual((await walk(tree)).files, ['a/file.ts']);
  });

  it('a cancelled walk lists nothing more', async () => {
    const tree = new MemoryTree({ [`${ROOT}/a/1.ts`]: { text: '' }, [`${ROOT}/b/2.ts`]: { text: '' } });
    assert.deepStrictEqual((await walk(tree, { isCancelled: () => true })).files, []);
  });
});
