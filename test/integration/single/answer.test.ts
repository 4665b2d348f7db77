import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { readAnswer } from '../../support/answers';
import { folderPath, invokeJson, invokeText, type GlobAnswer, type GrepAnswer } from '../helpers';

/** The exact call a budget note gives: `… Call again with {…} to continue.` */
function continuation(answer: { notes: string[] }): Record<string, unknown> {
  const note = answer.notes.find((n) => n.startsWith('Output budget reached'));
  assert.ok(note, `a budget note: ${JSON.stringify(answer.notes)}`);
  const match = /Call again with (\{.*\}) to continue\.$/.exec(note);
  assert.ok(match, note);
  return JSON.parse(match[1]) as Record<string, unknown>;
}

/** Content results as "relative/path:line". */
function lines(answer: GrepAnswer, root: string): string[] {
  return answer.files.flatMap((entry) => (typeof entry === 'string' ? [] : (entry.matches ?? []).map((m) => `${path.relative(root, entry.file)}:${m.line}`)));
}

describe('the answer the model receives: budget, paging, context', () => {
  const dir = () => path.join(folderPath(0), 'answer-tmp');
  const file = (relative: string) => path.join(dir(), relative);
  const FILES = 20;
  const PER_FILE = 6;
  /** Every match, in the stable order: files by path, then line. */
  const expected: string[] = [];

  before(() => {
    for (let f = 0; f < FILES; f++) {
      const name = `many/part-${String(f).padStart(2, '0')}.txt`;
      const text = Array.from({ length: PER_FILE * 2 }, (_, i) =>
        i % 2 === 0 ? `needle-7c1 entry ${f}.${i} with a little text to make the line longer` : `filler ${i}`,
      );
      fs.mkdirSync(path.dirname(file(name)), { recursive: true });
      fs.writeFileSync(file(name), text.join('\n') + '\n');
      for (let i = 0; i < PER_FILE * 2; i += 2) expected.push(`${name}:${i + 1}`);
    }
    fs.writeFileSync(file('context.txt'), ['one', 'two', 'hit three', 'four', 'hit five', 'six', 'seven', 'eight'].join('\n') + '\n');
    fs.writeFileSync(file('long.txt'), `${'a'.repeat(1500)} hit-in-the-middle ${'b'.repeat(1500)}\n`);
  });

  after(async () => {
    fs.rmSync(dir(), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('grepTools').update('maxOutputBytes', undefined, vscode.ConfigurationTarget.Global);
  });

  describe('output budget', () => {
    before(() => vscode.workspace.getConfiguration('grepTools').update('maxOutputBytes', 1024, vscode.ConfigurationTarget.Global));
    after(() => vscode.workspace.getConfiguration('grepTools').update('maxOutputBytes', undefined, vscode.ConfigurationTarget.Global));

    it('grepTools.maxOutputBytes: whole matches are dropped, the text is valid JSON within the budget, next_offset continues exactly', async () => {
      const input = { pattern: 'needle-7c1', path: 'answer-tmp/many', max_results: 1000 };
      const text = await invokeText('grep', input);
      assert.ok(Buffer.byteLength(text) <= 1024, `${Buffer.byteLength(text)} bytes`);
      const first = readAnswer<GrepAnswer>(text);
      const shown = first.returned_matches!;
      assert.ok(shown > 0 && shown < FILES * PER_FILE);
      assert.deepStrictEqual(lines(first, dir()), expected.slice(0, shown));
      assert.strictEqual(first.total_matches, FILES * PER_FILE);
      assert.strictEqual(first.truncated, true);
      assert.strictEqual(first.next_offset, shown);
      assert.deepStrictEqual(first.notes, [
        `Output budget reached (1024 bytes): showing ${shown} of ${FILES * PER_FILE} matches (1-${shown}). Call again with ${JSON.stringify({ ...input, offset: shown })} to continue.`,
        // The files the page leaves out, within a quarter of the budget: counted, and the call that lists them.
        `${FILES - Math.ceil(shown / PER_FILE)} more matching files are not on this page. All of them: {"pattern":"needle-7c1","path":"answer-tmp/many","output_mode":"files_with_matches"}, or "count" for lines per file.`,
      ]);
      // The call the note gives starts exactly where this answer stopped.
      const second = await invokeJson<GrepAnswer>('grep', continuation(first));
      assert.deepStrictEqual(lines(second, dir()), expected.slice(shown, shown + second.returned_matches!));
      assert.strictEqual(second.next_offset, shown + second.returned_matches!);
    });

    it('following the notes pages through every match exactly once', async () => {
      const seen: string[] = [];
      let input: Record<string, unknown> | undefined = { pattern: 'needle-7c1', path: 'answer-tmp/many', max_results: 1000 };
      let calls = 0;
      while (input) {
        const text = await invokeText('grep', input);
        assert.ok(Buffer.byteLength(text) <= 1024);
        const answer = readAnswer<GrepAnswer>(text);
        seen.push(...lines(answer, dir()));
        input = answer.next_offset === undefined ? undefined : continuation(answer);
        assert.ok(++calls < 100);
      }
      assert.ok(calls > 3, `${calls} answers`);
      assert.deepStrictEqual(seen, expected);
    });

    it('glob answers stay within the budget too', async () => {
      // More paths than 1 KB holds, each named below the root.
      const GLOBBED = 60;
      fs.mkdirSync(file('globbed'), { recursive: true });
      try {
        for (let f = 0; f < GLOBBED; f++) fs.writeFileSync(file(`globbed/${String(f).padStart(2, '0')}-a-name-long-enough-to-fill-the-budget.txt`), 'x\n');
        const text = await invokeText('glob', { pattern: '*.txt', path: 'answer-tmp/globbed', max_results: 1000 });
        const answer = readAnswer<GlobAnswer>(text);
        assert.ok(Buffer.byteLength(text) <= 1024);
        assert.strictEqual(answer.total, GLOBBED);
        assert.ok(answer.files.length < answer.total && answer.truncated && answer.next_offset === answer.files.length);
        assert.deepStrictEqual(continuation(answer), { pattern: '*.txt', path: 'answer-tmp/globbed', max_results: 1000, offset: answer.files.length });
      } finally {
        fs.rmSync(file('globbed'), { recursive: true, force: true });
      }
    });
  });

  it('a token budget from VS Code (tokenizationOptions) is counted with its countTokens', async () => {
    const counted: number[] = [];
    const countTokens = async (text: string) => {
      counted.push(text.length);
      return Math.ceil(text.length / 4);
    };
    const input = { pattern: 'needle-7c1', path: 'answer-tmp/many', max_results: 1000 };
    const invoke = async (call: object) => {
      const result = await vscode.lm.invokeTool('grep', {
        input: call,
        toolInvocationToken: undefined,
        tokenizationOptions: { tokenBudget: 400, countTokens },
      });
      const part = result.content[0];
      assert.ok(part instanceof vscode.LanguageModelTextPart);
      assert.ok(Math.ceil(part.value.length / 4) <= 400, `${Math.ceil(part.value.length / 4)} tokens`);
      return readAnswer<GrepAnswer>(part.value);
    };
    const first = await invoke(input);
    assert.ok(counted.length > 1, 'countTokens was called');
    const shown = first.returned_matches!;
    assert.strictEqual(first.next_offset, shown);
    assert.match(first.notes[0], new RegExp(`^Output budget reached \\(400 tokens\\): showing ${shown} of ${FILES * PER_FILE} matches`));
    const second = await invoke(continuation(first));
    assert.deepStrictEqual(lines(second, dir()), expected.slice(shown, shown + second.returned_matches!));
  });

  describe('paging with offset and max_results: disjoint, gap-free pages', () => {
    async function pages<T extends GrepAnswer | GlobAnswer>(tool: 'grep' | 'glob', input: object): Promise<T[]> {
      const all: T[] = [];
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const answer: T = await invokeJson<T>(tool, { ...input, offset });
        assert.strictEqual(answer.truncated, answer.next_offset !== undefined);
        all.push(answer);
        offset = answer.next_offset;
        assert.ok(all.length < 100);
      }
      return all;
    }

    it('content: every match once', async () => {
      const all = await pages<GrepAnswer>('grep', { pattern: 'needle-7c1', path: 'answer-tmp/many', max_results: 37 });
      assert.strictEqual(all.length, Math.ceil((FILES * PER_FILE) / 37));
      assert.deepStrictEqual(
        all.flatMap((answer) => lines(answer, dir())),
        expected,
      );
    });

    it('files_with_matches and count: every file once', async () => {
      const files = [...new Set(expected.map((e) => e.split(':')[0]))];
      const listed = await pages<GrepAnswer>('grep', { pattern: 'needle-7c1', path: 'answer-tmp/many', output_mode: 'files_with_matches', max_results: 3 });
      assert.deepStrictEqual(
        listed.flatMap((answer) => (answer.files as string[]).map((f) => path.relative(dir(), f))),
        files,
      );
      const counted = await pages<GrepAnswer>('grep', { pattern: 'needle-7c1', path: 'answer-tmp/many', output_mode: 'count', max_results: 4 });
      assert.deepStrictEqual(
        counted.flatMap((answer) => answer.files.map((f) => (typeof f === 'string' ? f : `${path.relative(dir(), f.file)}=${f.count}`))),
        files.map((f) => `${f}=${PER_FILE}`),
      );
    });

    it('glob: every path once', async () => {
      const all = await pages<GlobAnswer>('glob', { pattern: '**/*.txt', path: 'answer-tmp', max_results: 7 });
      const listed = all.flatMap((answer) => answer.files.map((f) => path.relative(dir(), f)));
      assert.deepStrictEqual(listed, ['context.txt', 'long.txt', ...new Set(expected.map((e) => e.split(':')[0]))]);
    });
  });

  describe('context', () => {
    it('before/after windows that overlap are merged: no line appears twice in a file', async () => {
      const answer = await invokeJson<GrepAnswer>('grep', { pattern: '^hit', path: 'answer-tmp/context.txt', context_lines: 2 });
      assert.deepStrictEqual(answer.files, [
        {
          file: file('context.txt'),
          matches: [
            { line: 3, text: 'hit three', before: ['one', 'two'], after: ['four'] },
            { line: 5, text: 'hit five', after: ['six', 'seven'] },
          ],
        },
      ]);
    });

    it('a long line is cut to a window around the match, marked with …', async () => {
      const answer = await invokeJson<GrepAnswer>('grep', { pattern: 'hit-in-the-middle', path: 'answer-tmp/long.txt' });
      const entry = answer.files[0];
      assert.ok(typeof entry !== 'string');
      const text = entry.matches![0].text;
      assert.ok(text.startsWith('…') && text.endsWith('…'), text.slice(0, 20));
      assert.ok(text.includes(' hit-in-the-middle '));
      assert.strictEqual(text.length, 500 + 2);
    });
  });
});
