/**
 * What a tool call shows before it runs (prepareInvocation): a progress line inside the workspace, a
 * confirmation naming the tool, the pattern, the path asked for and where it resolves outside it; and
 * nothing is opened or listed to say so.
 */
import * as assert from 'assert';
import * as nodePath from 'path';
import { DEFAULT_DENIED_PATHS } from '../../../../src/engine/api/config';
import type { GuardContext } from '../../../../src/engine/guard/guard';
import { codeSpan, prepareMessages } from '../../../../src/engine/guard/invocation';
import type { WorkspaceFolder } from '../../../../src/engine/guard/roots';
import { NodeFileSource } from '../../../../src/engine/source/walker';
import { Fixture, folders } from '../../fixture';
import { FsRecorder } from '../../recorder';

describe('engine/guard/invocation: what prepareInvocation shows', () => {
  let fx: Fixture;
  let ws: string;
  let outside: string;
  const source = new NodeFileSource();
  const out = (relative: string) => nodePath.join(outside, ...relative.split('/'));
  const context = (list: WorkspaceFolder[]): GuardContext => ({
    folders: list,
    config: { deniedPaths: [...DEFAULT_DENIED_PATHS], allowedPaths: [] },
    kind: (path) => source.kind(path),
  });

  before(() => {
    fx = new Fixture('grep-tools-invocation-');
    ws = fx.mkdir('ws');
    outside = fx.mkdir('outside');
    fx.files({ 'ws/src/a.ts': 'a\n', 'ws/.env': 'x\n', 'outside/o.txt': 'o\n' });
  });

  after(() => fx.remove());

  it('shows a progress line inside the workspace, and no confirmation', async () => {
    assert.deepStrictEqual(await prepareMessages('grep', { pattern: 'TODO', path: 'src', include: '*.ts' }, context(folders(ws))), {
      invocationMessage: 'Searching for `TODO` in `src` (`*.ts`)',
      decision: 'granted',
    });
    assert.deepStrictEqual(await prepareMessages('glob', { pattern: '**/*.md' }, context(folders(ws))), {
      invocationMessage: 'Finding files matching `**/*.md` in the workspace',
      decision: 'granted',
    });
    assert.strictEqual(
      (await prepareMessages('grep', { pattern: 'x', path: '.env' }, context(folders(ws)))).confirmation,
      undefined,
      'denied: invoke refuses, nothing to confirm',
    );
    assert.strictEqual((await prepareMessages('grep', { nonsense: true }, context(folders(ws)))).confirmation, undefined);
  });

  it('asks before a search outside the workspace, naming tool, pattern, requested and resolved path', async () => {
    const grep = await prepareMessages('grep', { pattern: 'password', path: '../outside', include: '*.txt' }, context(folders(ws)));
    assert.strictEqual(grep.decision, 'pending');
    assert.strictEqual(grep.invocationMessage, `Searching for \`password\` in \`${outside}\` (outside the workspace) (\`*.txt\`)`);
    assert.deepStrictEqual(grep.confirmation, {
      title: 'Search outside the workspace?',
      message:
        `**grep** will search the contents of the files in \`../outside\`, which resolves to \`${outside}\` for the pattern \`password\` (files matching \`*.txt\`).\n\n` +
        `This location is **outside every workspace folder** (workspace: \`${ws}\`). The matching lines, with their file paths, will be sent to the language model. Denied paths (secrets, keys, .git) stay denied.`,
    });
    const glob = await prepareMessages('glob', { pattern: out('**/*.txt') }, context(folders(ws)));
    assert.strictEqual(glob.confirmation?.title, 'List files outside the workspace?');
    assert.strictEqual(glob.confirmation?.message.split('\n')[0], `**glob** will list the files in \`${outside}\` whose paths match \`${out('**/*.txt')}\`.`);
    const none = await prepareMessages('grep', { pattern: 'x', path: outside }, context([]));
    assert.match(none.confirmation?.message ?? '', /workspace: none is open/);
  });

  it('keeps a pattern inside its code span, whatever it holds', () => {
    assert.strictEqual(codeSpan('a`b'), '``a`b``');
    assert.strictEqual(codeSpan('`x`'), '`` `x` ``');
    assert.strictEqual(codeSpan('a\nb'), '`a⏎b`');
    assert.strictEqual(codeSpan('x'.repeat(300)).length, 200 + 1 + 2);
  });

  it('opens and lists nothing', async () => {
    const recorder = new FsRecorder();
    await recorder.record(async () => {
      await prepareMessages('grep', { pattern: 'x', path: '../outside' }, context(folders(ws)));
      await prepareMessages('glob', { pattern: '**', path: 'src' }, context(folders(ws)));
    });
    assert.deepStrictEqual(recorder.accesses, []);
  });
});
