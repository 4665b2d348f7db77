/**
 * The definitions enclosing each matching line in the real host (docs/tools.md, "Definitions"): parsed
 * in the extension's search workers from the grammars shipped in dist/wasm/, and turned off by
 * grepTools.definitions.enabled.
 */
import * as assert from 'assert';
import { parseAnswer } from '../../support/answers';
import * as path from 'path';
import * as vscode from 'vscode';
import { folderPath, invokeJson, invokeText, type GrepAnswer } from '../helpers';

const abs = (relative: string) => path.join(folderPath(0), relative);

describe('grep names the definitions its lines are in', () => {
  it('a Python method in its class, and the line that defines the searched name', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'authenticate|self\\.store', include: '**/*.py' });
    assert.deepStrictEqual(answer.files, [
      {
        file: abs('src/auth/client.py'),
        matches: [
          { line: 6, text: '        self.store = store', in: 'Client > __init__()' },
          { line: 9, text: '    def authenticate(self, username, password):', in: 'Client', defines: true },
          { line: 10, text: '        record = self.store.get(username)', in: 'Client > authenticate()' },
          { line: 17, text: '        self.store.drop(username)', in: 'Client > logout()' },
        ],
      },
    ]);
  });

  it('TypeScript functions, written once per run of lines', async () => {
    const text = await invokeText('grep', { pattern: 'greet|name', word: true, include: 'src/*.ts' });
    const files = (parseAnswer(text) as { files: Record<string, string[]> }).files;
    assert.deepStrictEqual(files[abs('src/app.ts')], [
      "1: import { greet } from './util/strings';",
      '3: // TODO: read the name from the command line',
      "4: const name = 'World';",
      'main()',
      '7:   console.log(greet(name));',
    ]);
  });

  it('grepTools.definitions.enabled: false answers without them', async () => {
    const section = vscode.workspace.getConfiguration('grepTools');
    await section.update('definitions.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      const text = await invokeText('grep', { pattern: 'self\\.store', include: '**/*.py' });
      assert.deepStrictEqual((parseAnswer(text) as { files: Record<string, string[]> }).files, {
        [abs('src/auth/client.py')]: [
          '6:         self.store = store',
          '10:         record = self.store.get(username)',
          '17:         self.store.drop(username)',
        ],
      });
    } finally {
      await section.update('definitions.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
