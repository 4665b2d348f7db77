import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { folderPath, invokeError, invokeJson, type GlobAnswer, type GrepAnswer } from '../helpers';

const root = () => folderPath(0);
const abs = (relative: string) => path.join(root(), relative);
/** A path as a note names it: below the workspace folder, the answer's root. */
const named = (relative: string) => path.join(relative);

/** The JSON of the call a suggestion gives: `… Call again with {…}` followed by '.' or ' to …'. */
function suggestedCall(note: string): Record<string, unknown> {
  const match = /Call again with (\{.*\})(?:\.| to )/.exec(note);
  assert.ok(match, note);
  return JSON.parse(match[1]) as Record<string, unknown>;
}

describe('zero results explain themselves (checked suggestions)', () => {
  const dir = () => path.join(root(), 'diag-tmp');
  before(() => {
    fs.mkdirSync(path.join(dir(), 'build'), { recursive: true });
    fs.mkdirSync(path.join(dir(), 'redos'), { recursive: true });
    fs.writeFileSync(path.join(dir(), '.gitignore'), 'build/\n');
    fs.writeFileSync(path.join(dir(), 'build', 'bundle.js'), '// marker-d1a9 in a gitignored build\n');
    fs.writeFileSync(path.join(dir(), 'redos', 'evil.txt'), `${'a'.repeat(40)}b\n`);
  });
  after(async () => {
    fs.rmSync(dir(), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('grepTools').update('timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  it('says how many files were searched and skipped, and why', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'no such text in any file', exclude: 'diag-tmp/**' });
    assert.deepStrictEqual(answer.files, []);
    // README.md, docs/notes.md, src/app.ts, src/auth/client.py, src/util/strings.ts; data.bin is binary; .env and secrets/ denied.
    assert.strictEqual(answer.files_searched, 5);
    assert.deepStrictEqual(answer.skipped, { binary: 1, too_large: 0, denied: 2, unreadable: 0, outside_workspace: 0 });
    // The fields say it: no note repeats them.
    assert.deepStrictEqual(answer.notes, []);
  });

  it('case sensitivity: suggested only with what ignoring case finds, and the call works', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'todo: revoke', path: 'src' });
    assert.deepStrictEqual(answer.notes, [
      `The search is case-sensitive; ignoring case it matches 1 line in 1 file (first: ${named('src/auth/client.py')}:16 "# TODO: revoke the session token"). Call again with {"pattern":"todo: revoke","path":"src","case_insensitive":true}.`,
    ]);
    const again = await invokeJson<GrepAnswer>('grep', suggestedCall(answer.notes[0]));
    assert.strictEqual(again.total_matches, 1);
  });

  it('gitignored files: include_ignored is suggested with how many matches it would find', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'marker-d1a9' });
    assert.deepStrictEqual(answer.notes, [
      `Files left out by .gitignore, files.exclude or search.exclude hold matches: 1 line in 1 file (first: ${path.relative(root(), path.join(dir(), 'build', 'bundle.js'))}:1 "// marker-d1a9 in a gitignored build"). Call again with {"pattern":"marker-d1a9","include_ignored":true} to search them.`,
    ]);
    const again = await invokeJson<GrepAnswer>('grep', suggestedCall(answer.notes[0]));
    assert.deepStrictEqual(again.files, [
      { file: path.join(dir(), 'build', 'bundle.js'), matches: [{ line: 1, text: '// marker-d1a9 in a gitignored build' }] },
    ]);
  });

  it('excluded files (search.exclude: node_modules): the same suggestion', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'excluded by search.exclude', output_mode: 'files_with_matches' });
    assert.deepStrictEqual(answer.notes, [
      `Files left out by .gitignore, files.exclude or search.exclude hold matches: 1 line in 1 file (first: ${named('node_modules/leftpad/index.js')}:1 "// TODO: this file is in node_modules and excluded by search.exclude"). Call again with {"pattern":"excluded by search.exclude","output_mode":"files_with_matches","include_ignored":true} to search them.`,
    ]);
  });

  it('suggests nothing when no check finds anything', async () => {
    const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'zq-nowhere-zq', path: 'src' });
    assert.deepStrictEqual(answer.notes, []);
    assert.strictEqual(answer.files_searched, 3);
  });

  it('a path that does not exist names the path meant, or the nearest existing directory', async () => {
    assert.strictEqual(
      await invokeError('grep', { pattern: 'x', path: 'src/auht' }),
      `Path not found: "src/auht" (resolved to ${abs('src/auht')}). Did you mean ${abs('src/auth')}? Check the path, or omit "path" to search the whole workspace.`,
    );
    assert.strictEqual(
      await invokeError('glob', { pattern: '*', path: 'src/auth/nope/deeper' }),
      `Path not found: "src/auth/nope/deeper" (resolved to ${abs('src/auth/nope/deeper')}). The nearest existing directory is ${abs('src/auth')}. Check the path, or omit "path" to search the whole workspace.`,
    );
  });

  it('an include glob that matched no file says so, and suggests "**/" when that finds matches', async () => {
    const none = await invokeJson<GrepAnswer>('grep', { pattern: 'TODO', include: '*.rs' });
    // secrets/ (denied) might have held one: counted, as by the CLI, whether the include is listed on its own or taken from the folder's listing.
    assert.deepStrictEqual(none.notes, ['The include glob "*.rs" matched no file under the search path; skipped 1 denied by policy.']);
    const anchored = await invokeJson<GrepAnswer>('grep', { pattern: 'TODO', include: 'auth/*.py' });
    assert.deepStrictEqual(anchored.notes, [
      'The include glob "auth/*.py" matched no file under the search path.',
      `The include glob "auth/*.py" is matched from the search path; "**/auth/*.py" at any depth matches 1 line in 1 file (first: ${named('src/auth/client.py')}:16 "# TODO: revoke the session token"). Call again with {"pattern":"TODO","include":"**/auth/*.py"}.`,
    ]);
  });

  it('glob: "**/" with its count, ignoring case, max_depth and include_ignored', async () => {
    const top = await invokeJson<GlobAnswer>('glob', { pattern: '*.py' });
    assert.deepStrictEqual(top.notes, ['"*.py" matches only directly in the base directory and found nothing there; "**/*.py" finds 1 files at any depth.']);
    const cased = await invokeJson<GlobAnswer>('glob', { pattern: '**/NOTES.md' });
    assert.deepStrictEqual(cased.notes.slice(1), [
      `Glob patterns are case-sensitive; ignoring case the pattern matches 1 file (${named('docs/notes.md')}). Use those paths, or spell the pattern as they are spelled.`,
    ]);
    const shallow = await invokeJson<GlobAnswer>('glob', { pattern: '**/*.py', max_depth: 2 });
    assert.deepStrictEqual(shallow.notes.slice(1), [
      `max_depth 2 stops above them; at any depth the pattern matches 1 file (${named('src/auth/client.py')}). Call again with {"pattern":"**/*.py","max_depth":0}.`,
    ]);
    const ignored = await invokeJson<GlobAnswer>('glob', { pattern: '**/*.js' });
    assert.deepStrictEqual(ignored.notes.slice(1), [
      `Files left out by .gitignore, files.exclude or search.exclude match: 2 files (${path.relative(root(), path.join(dir(), 'build', 'bundle.js'))}, ${named('node_modules/leftpad/index.js')}). Call again with {"pattern":"**/*.js","include_ignored":true} to list them.`,
    ]);
  });

  it('a time-out says so and checks nothing more', async () => {
    await vscode.workspace.getConfiguration('grepTools').update('timeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    const started = Date.now();
    const answer = await invokeJson<GrepAnswer & { timed_out?: boolean }>('grep', { pattern: '(a+)+$', path: 'diag-tmp/redos' });
    assert.ok(Date.now() - started < 2500, `${Date.now() - started} ms`);
    assert.strictEqual(answer.timed_out, true);
    assert.strictEqual(answer.notes.length, 1, JSON.stringify(answer.notes));
    assert.match(
      answer.notes[0],
      /^The search timed out after \d s; results and totals cover only the files searched before then\. Narrow it with path or include\.$/,
    );
    assert.strictEqual(answer.files_searched, 0);
  });
});
