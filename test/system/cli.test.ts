import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as nodePath from 'path';
import { main } from '../../src/cli';
import { parseAnswer } from '../support/answers';
import { Fixture } from '../unit/fixture';

/** The repository root: this file runs from out/test/system/. */
const repoRoot = nodePath.resolve(__dirname, '../../..');
const distCli = nodePath.join(repoRoot, 'dist', 'cli.js');

const USAGE = `usage: node dist/cli.js <grep|glob> '<json input>' [--workspace DIR]... [--allow-outside] [--index-dir D] [--no-index]
       node dist/cli.js index [--workspace DIR]... [--index-dir D] [--max-indexed-bytes N] [--max-files N]
       node dist/cli.js serve [--workspace DIR]... [--index-dir D] [--max-indexed-bytes N] [--max-files N]
       node dist/cli.js mcp [--workspace DIR]... [--index-dir D] [--max-indexed-bytes N] [--max-files N]   (MCP server on stdio)
  e.g. node dist/cli.js grep '{"pattern":"TODO","output_mode":"count"}' --workspace .`;

describe('cli', () => {
  let fx: Fixture;
  let ws: string;
  let other: string;
  let outside: string;

  before(() => {
    fx = new Fixture();
    ws = fx.mkdir('ws');
    other = fx.mkdir('other');
    outside = fx.mkdir('outside');
    fx.files({
      'ws/src/app.ts': 'const a = 1; // TODO tidy\n',
      'ws/README.md': 'TODO docs\n',
      'ws/.env': 'TODO secret\n',
      'ws/node_modules/dep/index.js': 'TODO dependency\n',
      'other/lib.ts': 'TODO other\n',
      'outside/x.txt': 'TODO outside\n',
    });
  });

  after(() => fx.remove());

  describe('main(argv)', () => {
    it('prints the usage for a missing or unknown tool and a missing input', async () => {
      assert.deepStrictEqual(await main([]), { code: 1, stderr: USAGE });
      assert.deepStrictEqual(await main(['find', '{"pattern":"x"}']), { code: 1, stderr: USAGE });
      assert.deepStrictEqual(await main(['grep']), { code: 1, stderr: USAGE });
    });

    it('names an unknown argument', async () => {
      assert.deepStrictEqual(await main(['grep', '{"pattern":"x"}', '--workspaces', ws]), { code: 1, stderr: `unknown argument "--workspaces"\n${USAGE}` });
      assert.deepStrictEqual(await main(['grep', '{"pattern":"x"}', '--workspace']), { code: 1, stderr: `unknown argument "--workspace"\n${USAGE}` });
    });

    it('says when the input is not JSON', async () => {
      const result = await main(['grep', "{pattern:'x'}", '--workspace', ws]);
      assert.strictEqual(result.code, 1);
      assert.strictEqual(result.stdout, undefined);
      assert.match(result.stderr ?? '', /^The input is not valid JSON: .+\nusage: node dist\/cli\.js/);
    });

    it('prints the grep JSON the model would receive, with the default denied paths and excludes', async () => {
      const result = await main(['grep', '{"pattern":"TODO"}', '--workspace', ws]);
      assert.strictEqual(result.code, 0);
      assert.strictEqual(result.stderr, undefined);
      const json = parseAnswer(result.stdout ?? '');
      assert.deepStrictEqual(Object.entries(json.files), [
        [`${ws}/README.md`, ['1: TODO docs']],
        [`${ws}/src/app.ts`, ['1: const a = 1; // TODO tidy']],
      ]);
      assert.strictEqual(json.total_matches, undefined, 'a whole page: its count is the lines shown');
      assert.strictEqual(json.skipped.denied, 1);
    });

    it('prints the glob JSON', async () => {
      const result = await main(['glob', '{"pattern":"**/*.ts"}', '--workspace', ws]);
      assert.strictEqual(result.code, 0);
      const json = parseAnswer(result.stdout ?? '');
      assert.deepStrictEqual(json, { root: ws, files: [`${ws}/src/app.ts`] });
      assert.strictEqual(result.stdout, `root: ${ws}\n\nsrc/app.ts`);
    });

    it('takes several --workspace folders, in order', async () => {
      const result = await main(['grep', '{"pattern":"TODO","output_mode":"files_with_matches"}', '--workspace', other, '--workspace', ws]);
      const json = parseAnswer(result.stdout ?? '');
      assert.strictEqual(json.base_path, undefined, 'all folders: the default, not repeated');
      assert.deepStrictEqual(json.files, [`${other}/lib.ts`, `${ws}/README.md`, `${ws}/src/app.ts`]);
    });

    it('resolves a relative --workspace against the current directory', async () => {
      const relative = nodePath.relative(process.cwd(), ws);
      const json = parseAnswer((await main(['glob', '{"pattern":"*.md"}', '--workspace', relative])).stdout ?? '');
      assert.deepStrictEqual(json.files, [`${ws}/README.md`]);
    });

    it('prints engine errors on stderr with exit code 1', async () => {
      assert.deepStrictEqual(await main(['grep', '{"pattern":"("}', '--workspace', ws]), {
        code: 1,
        stderr:
          'Invalid regular expression "(": Unterminated group. Hint: escape special characters such as ( ) [ ] { } * + ? with a backslash, or set fixed_strings: true to search for the text literally.',
      });
      const denied = await main(['grep', '{"pattern":"TODO","path":".env"}', '--workspace', ws]);
      assert.strictEqual(denied.code, 1);
      assert.match(denied.stderr ?? '', /^permission denied by policy: "\.env" matches "\*\*\/\.env"/);
    });

    it('says when a --workspace folder does not exist', async () => {
      const missing = fx.path('missing');
      assert.deepStrictEqual(await main(['glob', '{"pattern":"*"}', '--workspace', missing]), {
        code: 1,
        stderr: `Workspace folder not found: ${missing} does not exist. Open an existing folder, or pass an absolute "path".`,
      });
    });

    it('refuses a path outside the workspace unless --allow-outside', async () => {
      const input = JSON.stringify({ pattern: 'TODO', path: outside });
      const refused = await main(['grep', input, '--workspace', ws]);
      assert.strictEqual(refused.code, 1);
      assert.strictEqual(
        refused.stderr,
        `Path ${JSON.stringify(outside)} resolves to ${outside}, which is outside every workspace folder (${ws}). Searching outside the workspace needs confirmation: pass --allow-outside to search it, or search inside a --workspace folder.`,
      );
      const allowed = await main(['grep', input, '--workspace', ws, '--allow-outside']);
      assert.strictEqual(allowed.code, 0);
      assert.deepStrictEqual(parseAnswer(allowed.stdout ?? '').files, { [`${outside}/x.txt`]: ['1: TODO outside'] });
    });
  });

  describe('node dist/cli.js', () => {
    before(() => {
      assert.ok(fs.existsSync(distCli), `${distCli} is missing: build with "node esbuild.js" first`);
    });

    it('uses the current directory as the workspace, prints the JSON on stdout and exits 0', () => {
      const run = spawnSync(process.execPath, [distCli, 'grep', '{"pattern":"TODO","output_mode":"count"}'], { cwd: ws, encoding: 'utf8' });
      assert.strictEqual(run.status, 0, run.stderr);
      assert.strictEqual(run.stderr, '');
      assert.ok(run.stdout.endsWith('src/app.ts: 1\n'));
      const json = parseAnswer(run.stdout);
      assert.deepStrictEqual(Object.entries(json.files), [
        [`${ws}/README.md`, 1],
        [`${ws}/src/app.ts`, 1],
      ]);
    });

    it('prints the error on stderr and exits 1', () => {
      const run = spawnSync(process.execPath, [distCli, 'glob', '{"pattern":"*","sort":"size"}', '--workspace', ws], { encoding: 'utf8' });
      assert.strictEqual(run.status, 1);
      assert.strictEqual(run.stdout, '');
      assert.strictEqual(run.stderr, 'Invalid glob input: "sort" must be one of "path", "mtime", got a string.\n');
    });
  });
});
