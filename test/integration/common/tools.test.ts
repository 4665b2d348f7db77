import * as assert from 'assert';
import * as vscode from 'vscode';
import { GLOB_SCHEMA, GREP_SCHEMA } from '../../../src/engine/input/schema';

describe('the tools as VS Code lists them', () => {
  for (const [name, schema] of [
    ['grep', GREP_SCHEMA],
    ['glob', GLOB_SCHEMA],
  ] as const) {
    it(`vscode.lm.tools lists ${name} with its full input schema and tags`, () => {
      const tool = vscode.lm.tools.find((candidate) => candidate.name === name);
      assert.ok(tool, `${name} is in vscode.lm.tools (${vscode.lm.tools.map((t) => t.name).join(', ')})`);
      assert.deepStrictEqual(tool.inputSchema, schema);
      assert.ok(tool.description.includes('offset'), 'the model description says how to page');
      assert.ok(tool.tags.includes('search'));
    });
  }

  it('the extension is active once a tool has been invoked, and runs in the Node extension host', async () => {
    await vscode.lm.invokeTool('glob', { input: { pattern: '*' }, toolInvocationToken: undefined });
    const extension = vscode.extensions.getExtension('grep-tools.vscode-grep-tools');
    assert.ok(extension?.isActive);
    assert.strictEqual(extension.extensionKind, vscode.ExtensionKind.Workspace);
  });
});
