/**
 * The CLI's answers on this platform (Linux in the unit section; Windows in the windows section, under a
 * real Windows Node): every absolute path is spelled with the platform's separator, the same whether the
 * search covers the workspace or `path` names the file, and a denied file is refused however it is spelled.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as nodePath from 'path';
import { main } from '../../../src/cli';
import { Fixture } from '../fixture';
import { parseAnswer } from '../../support/answers';
import { findRipgrep, ripgrepArgs } from '../../support/ripgrep';

const repoRoot = nodePath.resolve(__dirname, '../../../..');
const distCli = nodePath.join(repoRoot, 'dist', 'cli.js');
const WINDOWS = process.platform === 'win32';

describe(`cli paths on ${process.platform} (separator ${JSON.stringify(nodePath.sep)})`, function () {
  // The first call loads the engine's bundle and starts its workers.
  this.timeout(20_000);
  let fx: Fixture;
  let ws: string;
  let file: string;

  before(() => {
    fx = new Fixture('grep-tools-cli-paths-');
    ws = fx.mkdir('ws');
    file = fx.write('ws/src/lib/a.ts', 'export const needle = 1;\n');
    fx.files({ 'ws/.ssh/id_rsa': 'needle key\n', 'ws/.env': 'needle=secret\n', 'ws/notes.md': 'no match\n' });
  });
  after(() => fx.remove());

  const grep = async (input: object) => {
    const result = await main(['grep', JSON.stringify(input), '--workspace', ws, '--no-index']);
    return { ...result, json: result.code === 0 ? parseAnswer(result.stdout ?? '') : undefined };
  };

  it('names a file the same way in a workspace-wide answer and when path names it, with the platform separator only', async () => {
    const wide = await grep({ pattern: 'needle' });
    assert.deepStrictEqual(Object.keys(wide.json.files), [file]);
    const named = await grep({ pattern: 'needle', path: 'src/lib/a.ts' });
    assert.deepStrictEqual(Object.keys(named.json.files), [file]);
    const inDirectory = await grep({ pattern: 'needle', path: 'src' });
    assert.deepStrictEqual(Object.keys(inDirectory.json.files), [file]);
    const other = WINDOWS ? '/' : '\\';
    assert.ok(!file.slice(nodePath.parse(file).root.length).includes(other), `${file} has no ${other}`);
  });

  it('lists glob results with the platform separator', async () => {
    const result = await main(['glob', '{"pattern":"**/*.ts"}', '--workspace', ws, '--no-index']);
    assert.deepStrictEqual(parseAnswer(result.stdout ?? '').files, [file]);
  });

  it('prints the same answer from a separate process (real stdout)', () => {
    const run = spawnSync(process.execPath, [distCli, 'grep', '{"pattern":"needle","output_mode":"files_with_matches"}', '--workspace', ws, '--no-index'], {
      encoding: 'utf8',
    });
    assert.strictEqual(run.stderr, '');
    assert.deepStrictEqual(parseAnswer(run.stdout).files, [file]);
  });

  const denied = ['.ssh/id_rsa', '.SSH/id_rsa', '.ssh/ID_RSA', '.Ssh', '.ENV', 'src/../.env', 'src/lib/../../.ssh'];
  const windowsOnly = ['.ssh\\id_rsa', 'src\\..\\.env', '.SSH\\', '.env.', '.env ', '.env::$DATA', '.ssh./id_rsa'];
  for (const path of [...denied, ...(WINDOWS ? windowsOnly : [])]) {
    it(`refuses the denied ${JSON.stringify(path)}`, async () => {
      const result = await grep({ pattern: 'needle', path });
      assert.strictEqual(result.code, 1, result.stdout);
      assert.match(result.stderr ?? '', /^permission denied by policy: /);
    });
  }
});

/**
 * Links that lead to secrets or out of the workspace. On Linux the test makes them; under the Windows
 * Node (wine) a program cannot make links (wine's CreateSymbolicLink makes nothing, junctions fail), so the
 * windows section makes the same tree with Unix links beforehand and names it in GREP_TOOLS_WINDOWS_LINKS:
 * wine shows those to the Windows program as links (as a junction or a directory symlink shows on Windows).
 */
describe(`cli and links on ${process.platform}`, () => {
  let fx: Fixture | undefined;
  let ws: string;

  before(() => {
    if (WINDOWS) {
      const made = process.env.GREP_TOOLS_WINDOWS_LINKS;
      assert.ok(made, 'the windows section names its linked tree in GREP_TOOLS_WINDOWS_LINKS');
      ws = nodePath.join(made, 'ws');
      return;
    }
    fx = new Fixture('grep-tools-cli-links-');
    ws = fx.mkdir('ws');
    fx.files({ 'ws/src/a.ts': 'needle\n', 'ws/.env': 'needle SECRET\n', 'ws/.ssh/config': 'needle SECRET\n', 'outside/o.txt': 'needle SECRET\n' });
    fx.symlink(fx.path('ws/.env'), 'ws/notes.txt');
    fx.symlink(fx.path('ws/.ssh'), 'ws/keys');
    fx.symlink(fx.path('outside'), 'ws/out');
  });
  after(() => fx?.remove());

  const grep = (input: object) => main(['grep', JSON.stringify(input), '--workspace', ws, '--no-index']);

  it('a workspace-wide search reads nothing behind a link to a secret or out of the workspace', async () => {
    const result = await grep({ pattern: 'needle', output_mode: 'content' });
    assert.strictEqual(result.code, 0, result.stderr);
    assert.ok(!(result.stdout ?? '').includes('SECRET'), result.stdout);
    assert.deepStrictEqual(Object.keys(parseAnswer(result.stdout ?? '').files), [nodePath.join(ws, 'src', 'a.ts')]);
  });

  // Windows and macOS compare names ignoring case: there KEYS is the link keys.
  for (const path of ['notes.txt', 'keys', 'keys/config', ...(process.platform === 'linux' ? [] : ['KEYS/config'])]) {
    it(`refuses ${JSON.stringify(path)}, a link to a denied place`, async () => {
      const result = await grep({ pattern: 'needle', path });
      assert.strictEqual(result.code, 1, result.stdout);
      assert.match(result.stderr ?? '', /^permission denied by policy: .* \(it leads to /);
    });
  }

  it('asks before following a link out of the workspace', async () => {
    const result = await grep({ pattern: 'needle', path: 'out' });
    assert.strictEqual(result.code, 1, result.stdout);
    assert.match(result.stderr ?? '', /outside every workspace folder/);
  });
});

describe(`cli and text encodings on ${process.platform}`, function () {
  this.timeout(20_000);
  let fx: Fixture;
  let ws: string;
  const text = 'first line\r\nsecond needle line\r\nthird\r\nfourth needle ünïcode\r\n';
  const lines = ['2: second needle line', '3- third', '4: fourth needle ünïcode'];

  before(() => {
    fx = new Fixture('grep-tools-cli-encodings-');
    ws = fx.mkdir('ws');
    fx.write('ws/utf16le.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    fx.write('ws/utf16be.txt', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    fx.write('ws/crlf.txt', text);
    fx.write('ws/bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    fx.write('ws/latin1.txt', Buffer.from('needle café\n', 'latin1'));
    fx.write('ws/utf16-no-bom.txt', Buffer.from(text, 'utf16le'));
  });
  after(() => fx.remove());

  it('answers UTF-16 LE and BE (with a BOM), CRLF and UTF-8 with a BOM with the same line numbers and text', async () => {
    const result = await main(['grep', '{"pattern":"needle","after_lines":1}', '--workspace', ws, '--no-index']);
    const json = parseAnswer(result.stdout ?? '');
    for (const name of ['utf16le.txt', 'utf16be.txt', 'crlf.txt', 'bom.txt']) assert.deepStrictEqual(json.files[nodePath.join(ws, name)], lines, name);
    // Another encoding is read as UTF-8: the byte that is not UTF-8 shows as U+FFFD; UTF-16 without a BOM is binary.
    assert.deepStrictEqual(json.files[nodePath.join(ws, 'latin1.txt')], ['1: needle caf\uFFFD']);
    assert.deepStrictEqual(json.skipped, { binary: 1 });
  });

  it('anchors a line end before the CR of a CRLF file', async () => {
    const result = await main(['grep', '{"pattern":"line$","output_mode":"files_with_matches"}', '--workspace', ws, '--no-index']);
    assert.deepStrictEqual(
      parseAnswer(result.stdout ?? '').files,
      ['bom.txt', 'crlf.txt', 'utf16be.txt', 'utf16le.txt'].map((name) => nodePath.join(ws, name)),
    );
  });
});

/**
 * A .gitignore line matches names as git does on the platform: with their case on Linux (as ripgrep does
 * there), ignoring it on Windows and macOS (core.ignorecase, set by git init where the file system ignores case).
 */
describe(`cli and .gitignore case on ${process.platform}`, function () {
  this.timeout(20_000);
  const ignoresCase = process.platform === 'win32' || process.platform === 'darwin';
  let fx: Fixture;
  let ws: string;

  before(() => {
    fx = new Fixture('grep-tools-cli-gitignore-');
    ws = fx.mkdir('ws');
    // No build/ beside Build/: where names ignore case (Windows, and wine's view of Linux) they are one directory.
    fx.files({ 'ws/.gitignore': 'build/\n', 'ws/Build/x.ts': 'needle\nneedle\n', 'ws/src/a.ts': 'needle\n' });
  });
  after(() => fx.remove());

  it(`${ignoresCase ? 'leaves out' : 'searches'} Build/x.ts under the line build/${ignoresCase ? '' : ', and counts what ripgrep counts'}`, async () => {
    const result = await main(['grep', '{"pattern":"needle","output_mode":"count"}', '--workspace', ws, '--no-index']);
    assert.strictEqual(result.code, 0, result.stderr);
    const json = parseAnswer(result.stdout ?? '');
    const searched = ignoresCase
      ? { [nodePath.join(ws, 'src', 'a.ts')]: 1 }
      : { [nodePath.join(ws, 'Build', 'x.ts')]: 2, [nodePath.join(ws, 'src', 'a.ts')]: 1 };
    assert.deepStrictEqual(json.files, searched);
    assert.strictEqual(json.total_matches, ignoresCase ? 1 : 3);
    if (process.platform === 'linux') {
      const rg = spawnSync(findRipgrep(), ['--count', ...ripgrepArgs({ pattern: 'needle' }), '.'], { cwd: ws, encoding: 'utf8' });
      const total = rg.stdout
        .split('\n')
        .filter(Boolean)
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
      assert.strictEqual(json.total_matches, total, rg.stdout);
    }
  });
});
