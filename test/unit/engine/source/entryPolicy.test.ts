import * as assert from 'assert';
import { promises as fs } from 'fs';
import { DEFAULT_DENIED_PATHS, DEFAULT_EXCLUDES } from '../../../../src/engine/api/config';
import type { Candidate } from '../../../../src/engine/api/types';
import { comparePaths, compileGlob, deniedDirectoryGlobs, deniedRule } from '../../../../src/engine/globset/globs';
import { resolveLinkSync } from '../../../../src/engine/guard/links';
import { isInside } from '../../../../src/engine/guard/paths';
import type { SearchBase } from '../../../../src/engine/guard/roots';
import { auditListing } from '../../../../src/engine/source/audit';
import { listDirectory } from '../../../../src/engine/source/directory';
import type { PrunedEntry } from '../../../../src/engine/source/fileSource';
import { GitignoreRules } from '../../../../src/engine/source/gitignore';
import { readIgnoreFile } from '../../../../src/engine/source/ignoreFile';
import { listWithReader, type DirectoryReader } from '../../../../src/engine/source/treeWalk';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture } from '../../fixture';

/**
 * The one entry policy (entryPolicy.ts), as each of the three walkers applies it to the same tree: the
 * Node walker (the CLI), the walk over a directory reader (VS Code's virtual folders; here the reader
 * reads the disk) and the audit of a listing made by someone else (VS Code's findFiles; here the
 * listing ripgrep --follow would give, with the excludes findFiles is given).
 */
describe('engine/source entry policy: the same tree through the three walkers', () => {
  let fx: Fixture;
  let outside: Fixture;
  const denied = DEFAULT_DENIED_PATHS;
  const excludes = DEFAULT_EXCLUDES.map((glob) => compileGlob(glob, 'files.exclude'));
  const excluded = (fromRoot: string) => excludes.some((test) => test(fromRoot));

  before(() => {
    fx = new Fixture();
    outside = new Fixture('grep-tools-outside-');
    outside.files({ 'secret.txt': 'outside\n', 'dir/o.txt': 'outside\n' });
    fx.files({
      'README.md': 'readme\n',
      '.env': 'TOKEN=1\n', // a denied file: left to the candidate filter, as by every source
      '.gitignore': 'build/\n*.log\n!keep.log\n',
      'build/out.js': 'built\n',
      'src/debug.log': 'log\n',
      'src/keep.log': 'kept\n',
      'src/main.ts': 'main\n',
      'src/lib/util.ts': 'util\n',
      'src/lib/.gitignore': 'generated.ts\n',
      'src/lib/generated.ts': 'generated\n',
      'secrets/db.txt': 'password\n', // a denied directory
      'keys/.ssh/id_x': 'key\n',
      'keys/notes.md': 'notes\n',
      'docs/guide.md': 'guide\n',
      'docs/secrets': 'a file named as a denied directory\n',
      'node_modules/dep/index.js': 'excluded\n',
      'sub/node_modules/x.js': 'excluded\n',
      'sub/s.txt': 's\n',
    });
    fx.symlink('src/lib', 'linkdir'); // inside
    fx.symlink('src/main.ts', 'linkfile.ts'); // inside
    fx.symlink(outside.path('dir'), 'out'); // leads outside
    fx.symlink(outside.path('secret.txt'), 'outfile.txt'); // leads outside
    fx.symlink('secrets/db.txt', 'creds.txt'); // leads to a denied place
    fx.symlink('../src', 'keys/secrets'); // a link named as a denied directory
    fx.symlink('.', 'loop'); // a loop to the root
    fx.symlink('..', 'src/up'); // a loop to an ancestor
    fx.symlink('nowhere', 'dangling');
  });
  after(() => {
    fx.remove();
    outside.remove();
  });

  const base = (): SearchBase => ({ root: fx.root, base: fx.root, folderIndex: 0 });
  const sortPruned = (pruned: PrunedEntry[]) => pruned.map((entry) => `${entry.relative} ${entry.reason}${entry.directory ? ' dir' : ''}`).sort();

  /** The disk through the DirectoryReader interface, as VS Code's workspace.fs adapter serves a virtual folder. */
  const diskReader: DirectoryReader = {
    resolve: async (path) => resolveLinkSync(path),
    list: (path, follow) => listDirectory(path, follow),
    ignoreFile: (dir, scope) => readIgnoreFile(dir, scope),
  };

  async function nodeWalker(followSymlinks: boolean) {
    assert.ok(followSymlinks, 'the CLI always follows links into the granted roots');
    const pruned: PrunedEntry[] = [];
    const directories: string[] = [];
    const query = { bases: [base()], includeIgnored: false, respectGitignore: true, onDirectory: (dir: string) => directories.push(dir) };
    const [files] = await new NodeFileSource().list(query, denied, pruned, () => false);
    return { files: files.map((file) => file.relative), pruned: sortPruned(pruned), directories };
  }

  async function readerWalker(followSymlinks: boolean) {
    const pruned: PrunedEntry[] = [];
    const files = await listWithReader(diskReader, base(), 0, { denied, excluded, followSymlinks, gitignore: true, pruned, isCancelled: () => false });
    return { files: files.map((file) => file.relative), pruned: sortPruned(pruned) };
  }

  /** What findFiles lists: every file ripgrep --follow finds (links followed, loops stopped), minus the excludes it is given and .gitignore. */
  async function findFilesListing(followSymlinks: boolean): Promise<Candidate[]> {
    const exclude = [...deniedDirectoryGlobs(denied), ...DEFAULT_EXCLUDES];
    const found: Candidate[] = [];
    const walk = async (dir: string, relative: string, ancestors: string[]): Promise<void> => {
      for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
        const rel = relative ? `${relative}/${entry.name}` : entry.name;
        if (deniedRule(rel, exclude) !== undefined) continue;
        const target = entry.isSymbolicLink() ? (followSymlinks ? resolveLinkSync(`${dir}/${entry.name}`) : undefined) : undefined;
        if (entry.isSymbolicLink() && !target) continue;
        const real = target?.real ?? `${dir}/${entry.name}`;
        if (target ? target.directory : entry.isDirectory()) {
          if (!ancestors.some((ancestor) => isInside(ancestor, real))) await walk(`${dir}/${entry.name}`, rel, [...ancestors, real]);
        } else if (target ? target.file : entry.isFile()) {
          found.push({ path: `${dir}/${entry.name}`, relative: rel });
        }
      }
    };
    await walk(fx.root, '', [fx.root]);
    const gitignore = new GitignoreRules(fx.root);
    return found.filter((file) => !gitignore.ignoresFile(file.relative)).sort((a, b) => comparePaths(a.relative, b.relative));
  }

  async function audit(followSymlinks: boolean) {
    const pruned: PrunedEntry[] = [];
    const files = await auditListing(base(), 0, await findFilesListing(followSymlinks), { granted: [], denied, excluded, pruned, followSymlinks });
    return { files: files.map((file) => file.relative), pruned: sortPruned(pruned) };
  }

  it('the Node walker visits what the policy lets through, in path order', async () => {
    const walked = await nodeWalker(true);
    assert.deepStrictEqual(walked.files, [
      '.env',
      '.gitignore',
      'README.md',
      'docs/guide.md',
      'keys/notes.md',
      'linkdir/.gitignore',
      'linkdir/util.ts',
      'linkfile.ts',
      'src/keep.log',
      'src/lib/.gitignore',
      'src/lib/util.ts',
      'src/main.ts',
      'sub/s.txt',
    ]);
    assert.deepStrictEqual(walked.pruned, [
      'creds.txt denied',
      'docs/secrets denied',
      'keys/.ssh denied dir',
      'keys/secrets denied dir',
      'out outside_workspace dir',
      'outfile.txt outside_workspace',
      'secrets denied dir',
    ]);
    assert.deepStrictEqual(
      walked.directories.map((dir) => dir.slice(fx.root.length)),
      ['', '/docs', '/keys', '/linkdir', '/src', '/src/lib', '/sub'],
      'directories listed depth first by name; excluded, denied, ignored, outside and looping ones never',
    );
  });

  it('the walk over a directory reader (virtual folders) visits the same files in the same order and prunes the same entries', async () => {
    assert.deepStrictEqual(await readerWalker(true), { files: (await nodeWalker(true)).files, pruned: (await nodeWalker(true)).pruned });
  });

  it('the audit of a findFiles listing keeps the same files in the same order and prunes the same entries', async () => {
    const walked = await nodeWalker(true);
    assert.deepStrictEqual(await audit(true), { files: walked.files, pruned: walked.pruned });
  });

  it('where the file system tells no real paths (a virtual one), a link loop is walked through once, not forever', async () => {
    const blind: DirectoryReader = {
      resolve: async (path) => {
        const target = await diskReader.resolve(path);
        return target && { ...target, real: undefined };
      },
      list: async (path, follow) => ({ ...(await diskReader.list(path, follow)), real: undefined }),
      ignoreFile: diskReader.ignoreFile,
    };
    const pruned: PrunedEntry[] = [];
    const files = (await listWithReader(blind, base(), 0, { denied, excluded, followSymlinks: true, gitignore: true, pruned, isCancelled: () => false })).map(
      (file) => file.relative,
    );
    assert.ok(files.includes('loop/README.md') && files.includes('src/up/README.md'), files.join(', '));
    assert.ok(!files.some((file) => file.startsWith('loop/loop/') || file.startsWith('loop/src/up/') || file.startsWith('src/up/loop/')), files.join(', '));
    assert.ok(
      pruned.some((entry) => entry.relative === 'secrets' && entry.reason === 'denied'),
      'denied names are pruned all the same',
    );
  });

  it('with search.followSymlinks off, the reader walk and the audit agree: no link is followed, denied names are still pruned', async () => {
    const walked = await readerWalker(false);
    assert.deepStrictEqual(await audit(false), walked);
    assert.ok(!walked.files.some((file) => file.startsWith('linkdir/') || file === 'linkfile.ts'), walked.files.join(', '));
    assert.ok(walked.pruned.includes('keys/secrets denied dir'), 'a link named as a denied directory is pruned before the link is considered');
    assert.ok(walked.pruned.includes('docs/secrets denied'), 'a file named as a denied directory is pruned too');
  });
});
