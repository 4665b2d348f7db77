/**
 * `node dist/cli.js mcp` driven by the MCP Inspector's command line mode (`npx @modelcontextprotocol/inspector
 * --cli ...`, a devDependency): another client, written by the protocol's maintainers, lists the tools
 * and calls both, as a person checking a server would.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as nodePath from 'path';
import { age } from '../../unit/engine/index/age';
import { Fixture } from '../../unit/fixture';
import { parseAnswer } from '../../support/answers';

const repoRoot = nodePath.resolve(__dirname, '../../../..');
const distCli = nodePath.join(repoRoot, 'dist', 'cli.js');

describe('mcp: the MCP Inspector (--cli) against node dist/cli.js mcp', function () {
  this.timeout(60_000);
  let fx: Fixture;
  let ws: string;

  before(() => {
    fx = new Fixture('grep-tools-inspector-');
    ws = fx.mkdir('ws');
    fx.files({ 'ws/src/app.ts': 'const a = 1; // TODO tidy\n', 'ws/docs/guide.md': 'TODO write\n', 'ws/.env': 'TODO secret\n' });
    age(ws);
  });

  after(() => fx.remove());

  /** `npx @modelcontextprotocol/inspector --cli node dist/cli.js mcp --workspace ws ...`: its exit code, its JSON answer and the server's log. */
  function inspect(...args: string[]): { status: number | null; answer: Record<string, unknown>; stderr: string } {
    const run = spawnSync(
      'npx',
      [
        '--no-install',
        '@modelcontextprotocol/inspector',
        '--cli',
        process.execPath,
        distCli,
        'mcp',
        '--workspace',
        ws,
        '--index-dir',
        fx.path('index'),
        ...args,
      ],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 50_000,
        // Its catalog of servers stays in the fixture (it writes none for these methods).
        env: { ...process.env, MCP_CATALOG_PATH: fx.path('inspector-catalog.json') },
      },
    );
    assert.ok(run.stdout.trim().startsWith('{'), `inspector printed no JSON (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    return { status: run.status, answer: JSON.parse(run.stdout) as Record<string, unknown>, stderr: run.stderr };
  }

  it('--method tools/list: grep and glob, read-only and closed world', () => {
    const { status, answer } = inspect('--method', 'tools/list');
    assert.strictEqual(status, 0);
    const tools = answer.tools as { name: string; annotations: Record<string, unknown>; inputSchema: { required: string[] } }[];
    assert.deepStrictEqual(
      tools.map((tool) => [tool.name, tool.annotations.readOnlyHint, tool.annotations.openWorldHint, tool.inputSchema.required]),
      [
        ['grep', true, false, ['pattern']],
        ['glob', true, false, ['pattern']],
      ],
    );
  });

  it('--method tools/call --tool-name grep --tool-arg pattern=TODO: the matching lines, never the secret', () => {
    const { status, answer, stderr } = inspect('--method', 'tools/call', '--tool-name', 'grep', '--tool-arg', 'pattern=TODO', 'output_mode=count');
    assert.strictEqual(status, 0);
    const text = (answer.content as { text: string }[])[0].text;
    assert.deepStrictEqual(parseAnswer(text).files, { [`${ws}/docs/guide.md`]: 1, [`${ws}/src/app.ts`]: 1 });
    assert.match(stderr, /^grep: answered in \d+ ms/m, 'the server logs on stderr');
  });

  it('--method tools/call --tool-name glob: the paths; a path outside is refused with the reason', () => {
    const listed = inspect('--method', 'tools/call', '--tool-name', 'glob', '--tool-arg', 'pattern=**/*.md');
    assert.deepStrictEqual(parseAnswer((listed.answer.content as { text: string }[])[0].text).files, [`${ws}/docs/guide.md`]);
    const outside = inspect('--method', 'tools/call', '--tool-name', 'glob', '--tool-arg', 'pattern=*', `path=${fx.root}`);
    assert.strictEqual(outside.answer.isError, true);
    assert.match(
      (outside.answer.content as { text: string }[])[0].text,
      /outside every workspace folder .* MCP gives it no way to ask the user to confirm another location/,
    );
  });
});
