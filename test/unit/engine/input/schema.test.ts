import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { inputErrorOf } from '../../fixture';
import { modelDescription, TOOL_TITLES } from '../../../../src/engine/input/descriptions';
import { GLOB_SCHEMA, GREP_SCHEMA, validate } from '../../../../src/engine/input/schema';

/** The repository root: this file runs from out/test/unit/engine/input/. */
const repoRoot = nodePath.resolve(__dirname, '../../../../..');

describe('engine/schema', () => {
  describe('package.json inputSchema', () => {
    interface ToolContribution {
      name: string;
      displayName: string;
      modelDescription: string;
      inputSchema: unknown;
    }
    const manifest = JSON.parse(fs.readFileSync(nodePath.join(repoRoot, 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: ToolContribution[] };
    };
    const tool = (name: string) => manifest.contributes.languageModelTools.find((t) => t.name === name);

    it('declares the grep schema exactly as the engine validates it', () => {
      assert.deepStrictEqual(tool('grep')?.inputSchema, GREP_SCHEMA);
    });

    it('declares the glob schema exactly as the engine validates it', () => {
      assert.deepStrictEqual(tool('glob')?.inputSchema, GLOB_SCHEMA);
    });

    it('declares the titles and model descriptions of src/engine/input/descriptions.ts (the MCP server sends the same, but for the budget and outside paths)', () => {
      for (const name of ['grep', 'glob'] as const) {
        assert.strictEqual(tool(name)?.displayName, TOOL_TITLES[name]);
        assert.strictEqual(tool(name)?.modelDescription, modelDescription(name, 'vscode'));
      }
      const grep = { vscode: modelDescription('grep', 'vscode'), mcp: modelDescription('grep', 'mcp') };
      assert.strictEqual(
        grep.mcp.replace('about 50 KB', 'about 7.7 KB in chat').replace(/A path outside the workspace folders .*$/, ''),
        grep.vscode.replace(/A path outside the workspace is .*$/, ''),
      );
      assert.strictEqual(modelDescription('glob', 'mcp'), modelDescription('glob', 'vscode'));
    });

    it('costs every chat request at most 4,600 bytes of descriptions and schemas for both tools (7,143 before they were rewritten)', () => {
      const bytes = ['grep', 'glob'].reduce(
        (n, name) => n + Buffer.byteLength(tool(name)!.modelDescription) + Buffer.byteLength(JSON.stringify(tool(name)!.inputSchema)),
        0,
      );
      assert.ok(bytes <= 4600, `${bytes} bytes`);
    });

    it('has every grep and glob field of docs/tools.md', () => {
      assert.deepStrictEqual(Object.keys(GREP_SCHEMA.properties).sort(), [
        'after_lines',
        'before_lines',
        'case_insensitive',
        'context_lines',
        'exclude',
        'fixed_strings',
        'include',
        'include_ignored',
        'invert_match',
        'max_matches_per_file',
        'max_results',
        'multiline',
        'offset',
        'output_mode',
        'path',
        'pattern',
        'word',
      ]);
      assert.deepStrictEqual(Object.keys(GLOB_SCHEMA.properties).sort(), [
        'include_ignored',
        'max_depth',
        'max_results',
        'mode',
        'offset',
        'path',
        'pattern',
        'sort',
      ]);
      assert.deepStrictEqual(GREP_SCHEMA.required, ['pattern']);
      assert.deepStrictEqual(GLOB_SCHEMA.required, ['pattern']);
      assert.strictEqual(GREP_SCHEMA.additionalProperties, false);
      assert.strictEqual(GLOB_SCHEMA.additionalProperties, false);
    });
  });

  describe('validate', () => {
    it('returns a valid input unchanged', () => {
      const input = { pattern: 'TODO', output_mode: 'count', context_lines: 0, offset: 0, max_results: 1, word: true };
      assert.strictEqual(validate('grep', GREP_SCHEMA, input), input);
      const globInput = { pattern: '**/*.ts', mode: 'regex', sort: 'mtime', max_depth: 0 };
      assert.strictEqual(validate('glob', GLOB_SCHEMA, globInput), globInput);
    });

    it('refuses a non-object input with an example of a valid one', () => {
      for (const [input, got] of [
        ['TODO', 'a string'],
        [null, 'null'],
        [['TODO'], 'an array'],
        [42, 'number 42'],
      ] as const) {
        const error = inputErrorOf(() => validate('grep', GREP_SCHEMA, input));
        assert.strictEqual(error.message, `Invalid grep input: expected a JSON object such as {"pattern": "TODO"}, got ${got}.`);
      }
    });

    it('names an unknown field and lists the allowed ones', () => {
      const error = inputErrorOf(() => validate('grep', GREP_SCHEMA, { pattern: 'x', regex: true }));
      assert.strictEqual(
        error.message,
        'Invalid grep input: unknown field "regex". Allowed fields: pattern, path, include, exclude, output_mode, case_insensitive, fixed_strings, word, multiline, invert_match, context_lines, before_lines, after_lines, max_results, max_matches_per_file, offset, include_ignored.',
      );
      const globError = inputErrorOf(() => validate('glob', GLOB_SCHEMA, { pattern: '*', output_mode: 'content' }));
      assert.match(
        globError.message,
        /^Invalid glob input: unknown field "output_mode"\. Allowed fields: pattern, path, mode, max_depth, max_results, offset, sort, include_ignored\.$/,
      );
    });

    it('requires pattern and says what it must be', () => {
      assert.strictEqual(inputErrorOf(() => validate('grep', GREP_SCHEMA, {})).message, 'Invalid grep input: "pattern" is required (a string).');
      assert.strictEqual(inputErrorOf(() => validate('glob', GLOB_SCHEMA, { path: 'src' })).message, 'Invalid glob input: "pattern" is required (a string).');
    });

    it('refuses an empty pattern', () => {
      assert.strictEqual(inputErrorOf(() => validate('grep', GREP_SCHEMA, { pattern: '' })).message, 'Invalid grep input: "pattern" must not be empty.');
    });

    it('names the field, the allowed values and what it got for wrong types and values', () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ pattern: 1 }, '"pattern" must be a string, got number 1.'],
        [{ pattern: 'x', output_mode: 'lines' }, '"output_mode" must be one of "content", "files_with_matches", "count", got a string.'],
        [{ pattern: 'x', max_results: 0 }, '"max_results" must be an integer >= 1, got number 0.'],
        [{ pattern: 'x', max_results: 1.5 }, '"max_results" must be an integer >= 1, got the number 1.5.'],
        [{ pattern: 'x', max_results: '10' }, '"max_results" must be an integer >= 1, got a string.'],
        [{ pattern: 'x', offset: -1 }, '"offset" must be an integer >= 0, got number -1.'],
        [{ pattern: 'x', context_lines: null }, '"context_lines" must be an integer >= 0, got null.'],
        [{ pattern: 'x', max_matches_per_file: 0 }, '"max_matches_per_file" must be an integer >= 1, got number 0.'],
        [{ pattern: 'x', case_insensitive: 'yes' }, '"case_insensitive" must be true or false, got a string.'],
        [{ pattern: 'x', include_ignored: 1 }, '"include_ignored" must be true or false, got number 1.'],
        [{ pattern: 'x', include: ['*.ts'] }, '"include" must be a string, got an array.'],
        [{ pattern: 'x', offset: 2 ** 60 }, `"offset" must be an integer >= 0, got number ${2 ** 60}.`],
      ];
      for (const [input, message] of cases) {
        assert.strictEqual(inputErrorOf(() => validate('grep', GREP_SCHEMA, input)).message, `Invalid grep input: ${message}`);
      }
    });

    it('checks glob fields the same way', () => {
      assert.strictEqual(
        inputErrorOf(() => validate('glob', GLOB_SCHEMA, { pattern: '*', sort: 'name' })).message,
        'Invalid glob input: "sort" must be one of "path", "mtime", got a string.',
      );
      assert.strictEqual(
        inputErrorOf(() => validate('glob', GLOB_SCHEMA, { pattern: '*', mode: 'regexp' })).message,
        'Invalid glob input: "mode" must be one of "glob", "regex", got a string.',
      );
      assert.strictEqual(
        inputErrorOf(() => validate('glob', GLOB_SCHEMA, { pattern: '*', max_depth: -1 })).message,
        'Invalid glob input: "max_depth" must be an integer >= 0, got number -1.',
      );
    });

    it('throws InputError instances named InputError', () => {
      const error = inputErrorOf(() => validate('grep', GREP_SCHEMA, {}));
      assert.strictEqual(error.name, 'InputError');
      assert.ok(error instanceof Error);
    });
  });
});
