/**
 * The command line answered in this process: the answer the model would receive on stdout, what a
 * search skipped on stderr (each line once), an input that is not JSON or not valid refused with the
 * fix, an outside path refused with the CLI's way to consent (--allow-outside), the index built and then
 * used with the same answer, and an index directory inside the workspace refused.
 */
import * as assert from 'assert';
import * as nodePath from 'path';
import { answerRequest, cliEnvironment, runLocally } from '../../../src/cli/local';
import type { CliRequest } from '../../../src/cli/arguments';
import { DEFAULT_INDEX_LIMITS } from '../../../src/engine/index/limits';
import { openWorkspaceIndex } from '../../../src/engine/run/workspaceIndex';
import { Fixture } from '../fixture';

describe('cli/local', function () {
  // A grep or glob starts the search workers.
  this.timeout(20_000);
  const fx = new Fixture('grep-tools-cli-local-');
  before(() => {
    fx.files({ 'ws/src/a.ts': 'const needle = 1;\n', 'ws/src/b.ts': 'none\n', 'ws/.env': 'needle=secret\n', 'outside/c.ts': 'needle\n' });
    fx.mkdir('ws/sub/.gitignore'); // an ignore file that is a directory: skipped, and said so
  });
  after(() => fx.remove());

  const request = (tool: CliRequest['tool'], json?: string, more: Partial<CliRequest> = {}): CliRequest => ({
    tool,
    json,
    folders: [fx.path('ws')],
    allowOutside: false,
    indexDir: fx.path('index'),
    useIndex: true,
    limits: DEFAULT_INDEX_LIMITS,
    ...more,
  });
  /** stderr holds the one line saying the ignore file that is a directory was skipped (why: as the platform's open tells it). */
  const saysSkippedOnce = (stderr: string | undefined) => {
    const lines = (stderr ?? '').split('\n');
    assert.strictEqual(lines.length, 1, stderr);
    assert.ok(lines[0].startsWith(`Ignore file ${fx.path('ws/sub/.gitignore')} skipped: `) && lines[0].endsWith('; its rules are not applied.'), stderr);
  };

  it('answers grep with the text the model receives (a denied file counted, never read), and says once on stderr what it skipped', async () => {
    const outcome = await runLocally(request('grep', '{"pattern":"needle"}'));
    assert.strictEqual(outcome.code, 0);
    assert.strictEqual(outcome.stdout, `root: ${fx.path('ws')}\nfiles_searched: 2\nskipped: denied 1\n\n${nodePath.join('src', 'a.ts')}\n1: const needle = 1;`);
    saysSkippedOnce(outcome.stderr);
    // An empty answer's checks search again and meet the same ignore file: still one line.
    const empty = await runLocally(request('grep', '{"pattern":"absent"}'));
    assert.strictEqual(empty.code, 0);
    saysSkippedOnce(empty.stderr);
  });

  it('answers glob alike', async () => {
    const outcome = await runLocally(request('glob', '{"pattern":"**/*.ts"}'));
    assert.strictEqual(outcome.code, 0);
    assert.deepStrictEqual(outcome.stdout?.split('\n').slice(-2), [nodePath.join('src', 'a.ts'), nodePath.join('src', 'b.ts')]);
  });

  it('refuses input that is not JSON with the usage, and invalid input with what to change', async () => {
    const notJson = await runLocally(request('grep', '{pattern:'));
    assert.strictEqual(notJson.code, 1);
    assert.match(notJson.stderr ?? '', /^The input is not valid JSON: .*\nusage: node dist\/cli\.js <grep\|glob>/s);
    const invalid = await runLocally(request('grep', '{"pattern":""}'));
    assert.strictEqual(invalid.code, 1);
    assert.match(invalid.stderr ?? '', /pattern/);
    assert.strictEqual(invalid.stdout, undefined);
  });

  it('refuses an outside path, saying to pass --allow-outside; with it, searches there', async () => {
    const json = JSON.stringify({ pattern: 'needle', path: fx.path('outside') });
    const refused = await runLocally(request('grep', json));
    assert.strictEqual(refused.code, 1);
    assert.match(refused.stderr ?? '', /outside every workspace folder.*pass --allow-outside to search it, or search inside a --workspace folder\.$/s);
    const allowed = await runLocally(request('grep', json, { allowOutside: true }));
    assert.strictEqual(allowed.code, 0);
    assert.match(allowed.stdout ?? '', /c\.ts\n1: needle$/);
  });

  it('builds the index (never in the workspace), and a grep through it gives the same answer and says what the index did', async () => {
    const inside = await runLocally(request('index', undefined, { indexDir: fx.path('ws/.index') }));
    assert.strictEqual(inside.code, 1);
    assert.match(inside.stderr ?? '', /is inside the workspace folder/);
    const built = await runLocally(request('index'));
    assert.strictEqual(built.code, 0);
    assert.strictEqual((JSON.parse(built.stdout ?? '') as { files: number }).files, 2);
    const indexed = await runLocally(request('grep', '{"pattern":"needle"}'));
    const unindexed = await runLocally(request('grep', '{"pattern":"needle"}', { useIndex: false }));
    assert.deepStrictEqual(indexed, unindexed);
    // What the index did, as `serve` and the bench report it: settled files through the index, none without one.
    const told: string[] = [];
    const env = cliEnvironment(request('grep'), () => undefined);
    const opened = openWorkspaceIndex(fx.path('index'), [fx.path('ws')], env.source);
    assert.ok(opened);
    try {
      await answerRequest(request('grep', '{"pattern":"needle"}'), { ...env, index: opened.index, source: opened.source }, [], (line) => told.push(line));
    } finally {
      opened.close();
    }
    await answerRequest(request('grep', '{"pattern":"needle"}'), env, [], (line) => told.push(line));
    assert.match(told[0], /^index: \d+ files settled, \d+ read/);
    assert.match(told[1], /^index: none yet, off or still building: every file read/);
    assert.strictEqual(told.length, 2);
  });
});
