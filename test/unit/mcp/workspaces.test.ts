/**
 * What the MCP server searches: the client's file: roots (each folder once; a root of another scheme is
 * named as skipped), else its --workspace folders; one workspace per set of folders, kept while the
 * folders stay the same and replaced when the roots change, its index refused inside a folder (nothing
 * is written in the workspace; calls then read every file).
 */
import * as assert from 'assert';
import { pathToFileURL } from 'url';
import { isOutcome, parseArguments, type CliRequest } from '../../../src/cli/arguments';
import { defaultIndexDir } from '../../../src/engine/index/location';
import { rootFolders, Workspaces } from '../../../src/mcp/workspaces';
import { Fixture } from '../fixture';

describe('mcp/workspaces: the folders the MCP server searches', () => {
  const fx = new Fixture('grep-tools-mcp-workspaces-');
  let a: string;
  let b: string;
  before(() => {
    a = fx.mkdir('a');
    b = fx.mkdir('b b');
  });
  after(() => fx.remove());

  const request = (...extra: string[]): CliRequest => {
    const parsed = parseArguments(['mcp', '--workspace', a, ...extra], fx.root);
    assert.ok(!isOutcome(parsed), JSON.stringify(parsed));
    return parsed;
  };
  const uri = (path: string) => pathToFileURL(path).href;

  it("takes the folders of the client's file: roots, each once, and names the roots it cannot search", () => {
    assert.deepStrictEqual(rootFolders([uri(a), uri(b), uri(a), 'vscode-vfs://github/x/y', 'not a uri']), {
      folders: [a, b],
      skipped: ['vscode-vfs://github/x/y', 'not a uri'],
    });
    assert.deepStrictEqual(rootFolders([]), { folders: [], skipped: [] });
  });

  it('searches the --workspace folders until the client gives roots, then the roots; one workspace while the folders stay the same', async () => {
    const log: string[] = [];
    const workspaces = new Workspaces(request('--index-dir', fx.path('index')), (line) => log.push(line));
    try {
      const first = await workspaces.current();
      assert.deepStrictEqual(first.folders, [a]);
      assert.strictEqual(await workspaces.current(), first, 'the same folders: the same workspace and index');
      workspaces.useRoots(Promise.resolve(undefined));
      assert.strictEqual(await workspaces.current(), first, 'a client without roots: the --workspace folders still');
      workspaces.useRoots(Promise.resolve([a, b]));
      const second = await workspaces.current();
      assert.deepStrictEqual(second.folders, [a, b]);
      assert.notStrictEqual(second, first, 'other folders: another workspace');
      assert.strictEqual(await workspaces.current(), second);
      assert.deepStrictEqual(log, [`workspace: ${a} (index in ${fx.path('index')})`, `workspace: ${a}, ${b} (index in ${fx.path('index')})`]);
    } finally {
      workspaces.close();
    }
  });

  it('without --index-dir, each set of folders has an index directory of its own', async () => {
    const log: string[] = [];
    const workspaces = new Workspaces(request(), (line) => log.push(line));
    try {
      await workspaces.current();
      workspaces.useRoots(Promise.resolve([b]));
      await workspaces.current();
      assert.deepStrictEqual(log, [`workspace: ${a} (index in ${defaultIndexDir([a])})`, `workspace: ${b} (index in ${defaultIndexDir([b])})`]);
      assert.notStrictEqual(defaultIndexDir([a]), defaultIndexDir([b]));
    } finally {
      workspaces.close();
    }
  });

  it('an index directory inside a folder is refused, said in the log, and the calls read every file', async () => {
    const log: string[] = [];
    const workspaces = new Workspaces(request('--index-dir', fx.path('a/.index')), (line) => log.push(line));
    try {
      const workspace = await workspaces.current();
      assert.deepStrictEqual(workspace.indexed(), {}, 'no index: the calls list and read the tree');
      assert.ok(log[0].startsWith(`index: none for ${a}: The index directory ${fx.path('a/.index')} is inside the workspace folder ${a}`), log[0]);
    } finally {
      workspaces.close();
    }
  });

  it('once closed, no new workspace is announced', async () => {
    const log: string[] = [];
    const workspaces = new Workspaces(request('--index-dir', fx.path('index')), (line) => log.push(line));
    workspaces.close();
    workspaces.useRoots(Promise.resolve([b]));
    assert.deepStrictEqual((await workspaces.current()).folders, [b]);
    assert.deepStrictEqual(log, []);
  });
});
