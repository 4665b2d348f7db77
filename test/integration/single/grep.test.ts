import * as assert from 'assert';
import { readAnswer } from '../../support/answers';
import { execFile } from 'child_process';
import * as path from 'path';
import { promisify } from 'util';
import { folderPath, invokeError, invokeJson, invokeText, type GrepAnswer } from '../helpers';

const root = () => folderPath(0);
const abs = (relative: string) => path.join(root(), relative);

describe('grep in a single-folder workspace', () => {
  it('content mode returns the JSON of the contract (docs/tools.md) with absolute paths, lines and exact totals', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'TODO' });
    assert.strictEqual(answer.pattern, undefined, "the pattern is the call's own input: not echoed");
    assert.strictEqual(answer.base_path, undefined, 'the workspace folder: the default, not repeated');
    assert.strictEqual(answer.output_mode, 'content');
    assert.deepStrictEqual(answer.files, [
      { file: abs('docs/notes.md'), matches: [{ line: 4, text: 'TODO: document the logout flow.' }] },
      { file: abs('src/app.ts'), matches: [{ line: 3, text: '// TODO: read the name from the command line' }] },
      { file: abs('src/auth/client.py'), matches: [{ line: 16, text: '        # TODO: revoke the session token', in: 'Client > logout()' }] },
    ]);
    assert.strictEqual(answer.total_matches, 3);
    assert.strictEqual(answer.returned_matches, 3);
    assert.strictEqual(answer.files_matched, 3);
    // README.md, data.bin, docs/notes.md, src/app.ts, src/auth/client.py, src/util/strings.ts; data.bin is binary.
    assert.strictEqual(answer.files_searched, 5);
    assert.strictEqual(answer.skipped.binary, 1);
    assert.strictEqual(answer.truncated, false);
    assert.deepStrictEqual(answer.notes, []);
  });

  it('files_with_matches lists the matching files only', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'authenticate', output_mode: 'files_with_matches' });
    assert.deepStrictEqual(answer.files, [abs('docs/notes.md'), abs('src/auth/client.py')]);
    assert.strictEqual(answer.returned_files, 2);
    assert.strictEqual(answer.files_matched, 2);
  });

  it('count gives matching lines per file', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'name', output_mode: 'count' });
    assert.deepStrictEqual(answer.files, [
      { file: abs('src/app.ts'), count: 3 },
      { file: abs('src/auth/client.py'), count: 4 },
      { file: abs('src/util/strings.ts'), count: 3 },
    ]);
    assert.strictEqual(answer.total_matches, 10);
  });

  it('case_insensitive, fixed_strings, include, exclude and path narrow the search', async () => {
    const insensitive = await invokeJson<GrepAnswer>('grep', { pattern: 'todo', case_insensitive: true, output_mode: 'files_with_matches' });
    assert.deepStrictEqual(insensitive.files, [abs('docs/notes.md'), abs('src/app.ts'), abs('src/auth/client.py'), abs('src/util/strings.ts')]);
    const literal = await invokeJson<GrepAnswer>('grep', { pattern: 'authenticate()', fixed_strings: true });
    assert.deepStrictEqual(literal.files, [
      { file: abs('docs/notes.md'), matches: [{ line: 3, text: 'The client calls authenticate() before every request.' }] },
    ]);
    const included = await invokeJson<GrepAnswer>('grep', { pattern: 'TODO', include: '*.ts', output_mode: 'files_with_matches' });
    assert.deepStrictEqual(included.files, [abs('src/app.ts')]);
    const excluded = await invokeJson<GrepAnswer>('grep', { pattern: 'TODO', exclude: 'src/**', output_mode: 'files_with_matches' });
    assert.deepStrictEqual(excluded.files, [abs('docs/notes.md')]);
    const scoped = await invokeJson<GrepAnswer>('grep', { pattern: 'TODO', path: 'src/auth', output_mode: 'files_with_matches' });
    assert.strictEqual(scoped.base_path, abs('src/auth'));
    assert.deepStrictEqual(scoped.files, [abs('src/auth/client.py')]);
  });

  it('max_results and offset page through the results without gaps', async () => {
    const first = await invokeJson<GrepAnswer>('grep', { pattern: 'TODO', max_results: 2 });
    assert.strictEqual(first.truncated, true);
    assert.strictEqual(first.next_offset, 2);
    assert.strictEqual(first.total_matches, 3);
    assert.match(first.notes[0], /offset 2/);
    const second = await invokeJson<GrepAnswer>('grep', { pattern: 'TODO', max_results: 2, offset: 2 });
    assert.strictEqual(second.truncated, false);
    const lines = [...first.files, ...second.files].map((f) => (typeof f === 'string' ? f : `${f.file}:${f.matches?.map((m) => m.line)}`));
    assert.deepStrictEqual(lines, [`${abs('docs/notes.md')}:4`, `${abs('src/app.ts')}:3`, `${abs('src/auth/client.py')}:16`]);
  });

  it('never reports denied files and leaves search.exclude folders out unless include_ignored', async () => {
    const secret = await invokeJson<GrepAnswer>('grep', { pattern: 'fixture-secret-token', include_ignored: true });
    assert.deepStrictEqual(secret.files, []);
    assert.strictEqual(secret.skipped.denied, 2, '.env and the secrets directory (never listed) counted as denied');
    assert.deepStrictEqual(secret.notes, [], 'files, files_searched and skipped say it: no note repeats them');
    const hidden = await invokeJson<GrepAnswer>('grep', { pattern: 'excluded by search.exclude' });
    assert.deepStrictEqual(hidden.files, []);
    const shown = await invokeJson<GrepAnswer>('grep', { pattern: 'excluded by search.exclude', include_ignored: true, output_mode: 'files_with_matches' });
    assert.deepStrictEqual(shown.files, [abs('node_modules/leftpad/index.js')]);
  });

  it('the CLI prints the same answer for the same workspace', async () => {
    const input = { pattern: 'name|TODO', output_mode: 'content', context_lines: 1, include: 'src/**' };
    const fromTool = readAnswer<GrepAnswer>(await invokeText('grep', input));
    const cli = path.resolve(__dirname, '..', '..', '..', '..', 'dist', 'cli.js');
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'grep', JSON.stringify(input), '--workspace', root()]);
    const fromCli = readAnswer<GrepAnswer>(stdout);
    // The CLI does not read VS Code settings (here files.exclude hides .vscode), so only src/** is compared.
    assert.deepStrictEqual(fromTool, fromCli);
    assert.ok(fromTool.total_matches! > 5);
  });

  it('invalid input and a bad regex fail with a message that names the problem', async () => {
    assert.match(await invokeError('grep', { pattern: '(unclosed' }), /Invalid regular expression "\(unclosed": Unterminated group\. Hint: .*fixed_strings/);
    assert.match(await invokeError('grep', { pattern: 'x', output_mode: 'lines' }), /"output_mode" must be one of "content", "files_with_matches", "count"/);
    assert.match(await invokeError('grep', { pattern: 'x', colour: true }), /unknown field "colour"/);
    assert.match(await invokeError('grep', { pattern: '' }), /"pattern" must not be empty/);
    assert.match(await invokeError('grep', { pattern: 'x', path: 'no/such/dir' }), /Path not found: "no\/such\/dir"/);
    assert.match(await invokeError('grep', { pattern: 'x', path: '/etc' }), /outside every workspace folder/);
  });
});
