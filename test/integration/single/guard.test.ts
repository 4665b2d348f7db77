/**
 * The guard in the real extension host: denied files stay closed and counted, symlinks that leave the
 * workspace are not followed (findFiles would follow them), the CLI agrees, and prepareInvocation asks
 * for confirmation only for a path outside the workspace. The links and files this suite needs are
 * created in a temporary directory of the fixture (and outside it) and removed afterwards.
 */
import * as assert from 'assert';
import { parseAnswer } from '../../support/answers';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import * as vscode from 'vscode';
import type { GrepToolsApi } from '../../../src/extension';
import type { GrepInput } from '../../../src/engine/api/types';
import { folderPath, invokeError, invokeJson, invokeText, type GlobAnswer, type GrepAnswer, extensionApi } from '../helpers';

const TOKEN = `outside-token-${process.pid}-${Date.now()}`;

describe('denied paths in VS Code', () => {
  it('never reports a denied file holding a unique token, and counts it', async () => {
    const grep = await invokeJson<GrepAnswer>('grep', { pattern: 'fixture-secret-token-7731', include_ignored: true });
    assert.deepStrictEqual(grep.files, []);
    assert.strictEqual(grep.skipped.denied, 2, '.env, and the secrets directory, counted once and never listed');
    const named = await invokeJson<GrepAnswer>('grep', { pattern: 'fixture-secret-token-7731', include: '{.env,secrets/*}' });
    assert.deepStrictEqual(named.files, []);
    assert.strictEqual(named.skipped.denied, 2);
    const glob = await invokeJson<GlobAnswer & { skipped: Record<string, number> }>('glob', { pattern: '**/{.env,token.txt}' });
    assert.deepStrictEqual(glob.files, []);
    assert.strictEqual(glob.skipped.denied, 2);
    assert.match(await invokeError('grep', { pattern: 'x', path: '.env' }), /^permission denied by policy: "\.env" matches "\*\*\/\.env"/);
    assert.match(await invokeError('glob', { pattern: '*', path: 'secrets' }), /^permission denied by policy: "secrets" matches "\*\*\/secrets\/\*\*"/);
  });
});

describe('the guard in VS Code, with links that leave the workspace', () => {
  const root = () => folderPath(0);
  const tmp = () => path.join(root(), 'guard-tmp');
  let outside: string;
  let api: GrepToolsApi;
  const token = () => new vscode.CancellationTokenSource().token;

  before(async () => {
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'grep-tools-outside-')));
    fs.writeFileSync(path.join(outside, 'secret.txt'), `${TOKEN} in a file outside the workspace\n`);
    fs.mkdirSync(path.join(outside, 'deep'));
    fs.writeFileSync(path.join(outside, 'deep', 'more.txt'), `${TOKEN} deeper\n`);
    fs.mkdirSync(path.join(tmp(), 'sub', '.SSH'), { recursive: true });
    fs.mkdirSync(path.join(tmp(), '.git'), { recursive: true });
    fs.writeFileSync(path.join(tmp(), 'a.ts'), `// ${TOKEN} inside\n`);
    fs.writeFileSync(path.join(tmp(), 'sub', 'b.ts'), `// ${TOKEN} inside too\n`);
    fs.writeFileSync(path.join(tmp(), 'sub', '.SSH', 'id'), `${TOKEN} in .SSH\n`);
    fs.writeFileSync(path.join(tmp(), '.git', 'HEAD'), `${TOKEN} in .git\n`);
    fs.symlinkSync(outside, path.join(tmp(), 'out-dir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(tmp(), 'out-file.txt'));
    fs.symlinkSync(path.join('..', '.env'), path.join(tmp(), 'env-link'));
    api = await extensionApi();
  });

  after(() => {
    fs.rmSync(tmp(), { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('does not follow a symlink to a directory (or file) outside the workspace, and counts it', async () => {
    const grep = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, path: 'guard-tmp', output_mode: 'files_with_matches' });
    assert.deepStrictEqual(grep.files, [path.join(tmp(), 'a.ts'), path.join(tmp(), 'sub', 'b.ts')]);
    // out-dir and out-file.txt lead outside; .git, sub/.SSH (any case) and env-link are denied.
    assert.deepStrictEqual(grep.skipped, { binary: 0, too_large: 0, denied: 3, unreadable: 0, outside_workspace: 2 });
    const glob = await invokeJson<GlobAnswer>('glob', { pattern: '**', path: 'guard-tmp' });
    assert.deepStrictEqual(glob.files, [path.join(tmp(), 'a.ts'), path.join(tmp(), 'sub', 'b.ts')]);
    assert.match(
      await invokeError('grep', { pattern: 'x', path: 'guard-tmp/env-link' }),
      /^permission denied by policy: "guard-tmp\/env-link" \(it leads to .*\/\.env\) matches "\*\*\/\.env"/,
    );
    const everywhere = await invokeJson<GrepAnswer>('grep', { pattern: TOKEN, output_mode: 'files_with_matches' });
    assert.ok(
      everywhere.files.every((file) => typeof file === 'string' && file.startsWith(tmp())),
      JSON.stringify(everywhere.files),
    );
  });

  it('the CLI gives the same answer, counts included', async () => {
    const cli = path.resolve(__dirname, '..', '..', '..', '..', 'dist', 'cli.js');
    for (const [tool, input] of [
      ['grep', { pattern: TOKEN, path: 'guard-tmp' }],
      ['grep', { pattern: TOKEN, path: 'guard-tmp', include: '*.ts', context_lines: 1 }],
      ['glob', { pattern: '**', path: 'guard-tmp' }],
    ] as const) {
      const fromTool = parseAnswer(await invokeText(tool, input)) as object;
      const { stdout } = await promisify(execFile)(process.execPath, [cli, tool, JSON.stringify(input), '--workspace', root()]);
      const fromCli = parseAnswer(stdout) as object;
      assert.deepStrictEqual(fromTool, fromCli, `${tool} ${JSON.stringify(input)}`);
    }
  });

  it('prepareInvocation asks for confirmation for a path outside the workspace, naming what will be searched', async () => {
    const prepared = await api.tools.grep.prepareInvocation({ input: { pattern: TOKEN, path: outside } }, token());
    assert.ok(prepared.confirmationMessages, 'confirmation messages for an outside path');
    assert.strictEqual(prepared.confirmationMessages.title, 'Search outside the workspace?');
    const message = prepared.confirmationMessages.message;
    const text = typeof message === 'string' ? message : message.value;
    for (const part of ['**grep**', TOKEN, outside, 'outside every workspace folder', root()]) assert.ok(text.includes(part), `${part} in ${text}`);
    assert.strictEqual(prepared.invocationMessage, `Searching for \`${TOKEN}\` in \`${outside}\` (outside the workspace)`);

    // A link inside the workspace that leads outside: the person sees where it really leads.
    const viaLink = await api.tools.glob.prepareInvocation({ input: { pattern: '**', path: 'guard-tmp/out-dir' } }, token());
    assert.strictEqual(viaLink.confirmationMessages?.title, 'List files outside the workspace?');
    const linkText = viaLink.confirmationMessages?.message;
    assert.ok((typeof linkText === 'string' ? linkText : (linkText?.value ?? '')).includes(`\`guard-tmp/out-dir\`, which resolves to \`${outside}\``));
  });

  it('prepareInvocation asks nothing for a path inside the workspace', async () => {
    for (const input of [
      { pattern: 'TODO' },
      { pattern: 'TODO', path: 'src' },
      { pattern: 'TODO', path: path.join(root(), 'docs') },
      { pattern: 'x', path: '.env' },
    ]) {
      const prepared = await api.tools.grep.prepareInvocation({ input }, token());
      assert.strictEqual(prepared.confirmationMessages, undefined, JSON.stringify(input));
    }
    const glob = await api.tools.glob.prepareInvocation({ input: { pattern: '**/*.ts', path: 'src' } }, token());
    assert.strictEqual(glob.confirmationMessages, undefined);
    assert.strictEqual(glob.invocationMessage, 'Finding files matching `**/*.ts` in `src`');
  });

  it('invoke refuses an outside path without a chat request, and searches it once the person confirmed in chat', async () => {
    const refused = await invokeError('grep', { pattern: TOKEN, path: outside });
    assert.match(refused, /outside every workspace folder/);
    assert.match(refused, /needs the user's confirmation, which VS Code asks for only when the tool is called from a chat request; this call has none/);
    // In a chat request VS Code shows the confirmation of prepareInvocation before it calls invoke with its token.
    const input: GrepInput = { pattern: TOKEN, path: outside, output_mode: 'files_with_matches' };
    const prepared = await api.tools.grep.prepareInvocation({ input }, token());
    assert.ok(prepared?.confirmationMessages, 'a confirmation is shown');
    const confirmed = await api.tools.grep.invoke({ input, toolInvocationToken: {} as vscode.ChatParticipantToolToken }, token());
    const part = confirmed.content[0];
    assert.ok(part instanceof vscode.LanguageModelTextPart);
    const answer = parseAnswer(part.value) as GrepAnswer;
    assert.deepStrictEqual(answer.files, [path.join(outside, 'deep', 'more.txt'), path.join(outside, 'secret.txt')]);
  });

  it('invoke in chat searches only where the confirmation pointed: a link flipped after prepareInvocation is refused', async () => {
    const link = path.join(tmp(), 'flip-link');
    fs.symlinkSync(outside, link);
    try {
      const input: GrepInput = { pattern: TOKEN, path: 'guard-tmp/flip-link', output_mode: 'files_with_matches' };
      const chat = { input, toolInvocationToken: {} as vscode.ChatParticipantToolToken };
      // Confirmed while it led outside; then it leads to another outside place.
      assert.ok((await api.tools.grep.prepareInvocation({ input }, token()))?.confirmationMessages);
      fs.unlinkSync(link);
      fs.symlinkSync(path.join(outside, 'deep'), link);
      await assert.rejects(
        Promise.resolve(api.tools.grep.invoke(chat, token())),
        /now resolves to .*deep, not to .*grep-tools-outside-.*, which the user confirmed; nothing was searched/,
      );
      // Prepared inside the workspace (no confirmation shown), then flipped outside.
      fs.unlinkSync(link);
      fs.symlinkSync('.', link);
      assert.strictEqual((await api.tools.grep.prepareInvocation({ input }, token()))?.confirmationMessages, undefined);
      fs.unlinkSync(link);
      fs.symlinkSync(outside, link);
      await assert.rejects(
        Promise.resolve(api.tools.grep.invoke(chat, token())),
        /outside every workspace folder.*No confirmation was shown for this location when the call was prepared/,
      );
    } finally {
      fs.rmSync(link, { force: true });
    }
  });
});
