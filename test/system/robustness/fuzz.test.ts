/**
 * Property-based fuzzing of both tools' inputs (fast-check, seeded and reproducible): random and
 * adversarial JSON through validation, the guard and the engine on a tiny tree, rendered as the model
 * receives it. Every case must end in an answer of the contract (docs/tools.md) that stays inside the workspace, or in an
 * InputError whose message names the field or the pattern problem: never another exception, a hang or
 * text that is not JSON.
 *
 * FUZZ_RUNS=N (default 5000 per tool) and FUZZ_SEED=S (default below) reproduce or lengthen a run;
 * a failure prints the seed and the shrunk counterexample (pass FUZZ_SEED and FUZZ_PATH to replay it).
 */
import { parseAnswer, readAnswer, type GrepAnswer } from '../../support/answers';
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import fc from 'fast-check';
import { byteBudget } from '../../../src/engine/answer/budget';
import { answerGlob, type GlobAnswer as GlobAnswerReport } from '../../../src/engine/answer/globAnswer';
import { type SearchEnvironment } from '../../../src/engine/run/environment';
import { answerGrep, type GrepAnswer as GrepAnswerReport } from '../../../src/engine/answer/grepAnswer';
import { prepareMessages } from '../../../src/engine/guard/invocation';
import { SearchPool } from '../../../src/engine/pool/pool';
import { renderGlob, renderGrep } from '../../../src/engine/answer/printer';
import { InputError } from '../../../src/engine/api/errors';
import { GLOB_SCHEMA, GREP_SCHEMA, parseGlobInput, parseGrepInput, type ObjectSchema } from '../../../src/engine/input/schema';
import { main as cli } from '../../../src/cli';
import { Fixture, makeEnv } from '../../unit/fixture';

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const PATH = process.env.FUZZ_PATH;
const HANG_MS = 10_000;
const BUDGET = 51_200;

// ---- adversarial values -------------------------------------------------------------------------

/** Characters that break naive code: NUL, controls, lone surrogates, bidi, glob and regex syntax. */
const nasty = fc.constantFrom(
  '\0',
  '\x01',
  '\x1b',
  '\n',
  '\r',
  '\t',
  '\u2028',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\ud83d',
  '😀',
  'é',
  'e\u0301',
  'İ',
  '*',
  '**',
  '?',
  '[',
  ']',
  '[!',
  '{',
  '}',
  '{a,b}',
  ',',
  '(',
  ')',
  '(?i)',
  '(?x)',
  '|',
  '\\',
  '\\\\',
  '^',
  '$',
  '.',
  '+',
  '{1,}',
  '/',
  '//',
  '..',
  '../',
  '~',
  '~root',
  '.env',
  '.git',
  'secrets/',
  'C:\\',
  '-',
  '--',
  ' ',
  '#',
  '!',
  '%00',
  'TODO',
  'a',
  '__proto__',
  'constructor',
  'prototype',
  // Glob bombs: braces that multiply, unclosed classes, stars and globstars that backtrack, extglobs.
  '{a,b}{a,b}{a,b}{a,b}{a,b}',
  '{1..9999}',
  '[[[[[[[[',
  '*a*a*a*a',
  '**/a/**/b/**/',
  '+(a|aa)',
  '@(x)',
  'awsdir/',
  'hostile/',
);
const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.array(nasty, { maxLength: 12 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  // Lone surrogates and any UTF-16 code unit.
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 10 }).map((units) => String.fromCharCode(...units)) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\0', '.', '/', '~', '..', '*', '**/*', '[', '(', '\\') },
);
/** Long strings up to 100 KB (a pattern may have 2048 characters, a path or glob 4096): literal, regex-looking, unbalanced, alternations. */
const hugeString = fc
  .tuple(
    fc.constantFrom('a', '(', 'a|', '[a-z]', '*', '\\', '😀', '\ud800', '{a,', '**/', '{a,b}', '[', '*a', '**/x/'),
    fc.oneof(fc.integer({ min: 1_000, max: 2_048 }), fc.integer({ min: 2_049, max: 4_096 }), fc.integer({ min: 4_097, max: 100_000 }), fc.constant(100_000)),
  )
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
const anyString = fc.oneof({ weight: 20, arbitrary: nastyString }, { weight: 1, arbitrary: hugeString });

const anyNumber = fc.oneof(
  fc.integer({ min: -5, max: 50 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 0.5, NaN, Infinity, -Infinity),
);

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  anyString,
  anyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.oneof(anyString, anyNumber), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(anyString, anyNumber), { maxKeys: 3 }),
  fc.constant({ __proto__: { pattern: 'TODO' } }),
);

/** A value of the field's own type (mostly), or anything. */
function fieldValue(schema: ObjectSchema, key: string): fc.Arbitrary<unknown> {
  const prop = schema.properties[key];
  const typed: fc.Arbitrary<unknown> =
    prop.type === 'boolean'
      ? fc.boolean()
      : prop.type === 'integer'
        ? anyNumber
        : prop.enum
          ? fc.oneof(fc.constantFrom(...prop.enum), anyString)
          : key === 'pattern'
            ? fc.oneof(
                fc.constantFrom(
                  'TODO',
                  'needle',
                  '(?i)todo',
                  '^export',
                  'a+',
                  '(a+)+$',
                  '\\bv\\d\\b',
                  '[',
                  'x{2,}',
                  '.*',
                  '{a,b}'.repeat(17),
                  '**/credentials',
                  '*a*a*a*ab',
                ),
                anyString,
              )
            : key === 'path' || key === 'include' || key === 'exclude'
              ? fc.oneof(
                  fc.constantFrom(
                    'src',
                    'src/a.ts',
                    'docs',
                    '.',
                    '/',
                    '..',
                    '../..',
                    '/etc',
                    '~',
                    '.env',
                    'secrets',
                    '*.ts',
                    '**/*.md',
                    '{src,docs}/**',
                    'awsdir',
                    'awsdir/credentials',
                    'awsdir/credentialz',
                    'hostile',
                  ),
                  // Glob bombs (as include, exclude or glob pattern).
                  fc.constantFrom('{a,b}'.repeat(17), '['.repeat(4000), '*a*a*a*ab', '**/a/**/b/**/c', '{a,b,c,d}'.repeat(5), '+(a|aa)+(a|aa)b'),
                  anyString,
                )
              : anyString;
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: anyValue });
}

/** Tool inputs: mostly objects of known fields (well-typed or not) plus odd keys; sometimes not an object. */
function toolInput(schema: ObjectSchema): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties);
  const entry = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...keys).chain((key) => fieldValue(schema, key).map((value) => [key, value] as const)) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'Pattern', 'pattern ', ''), fc.string({ maxLength: 8 })),
        anyValue,
      ),
    },
  );
  const object = fc
    .tuple(
      fc.oneof({ weight: 5, arbitrary: fieldValue(schema, 'pattern') }, { weight: 1, arbitrary: fc.constant(undefined) }),
      fc.array(entry, { maxLength: 5 }),
    )
    // Object.fromEntries defines '__proto__' as an own key, as JSON.parse does.
    .map(([pattern, entries]) => Object.fromEntries(pattern === undefined ? entries : [['pattern', pattern], ...entries]));
  return fc.oneof({ weight: 20, arbitrary: object }, { weight: 1, arbitrary: anyValue });
}

// ---- what every answer must be ------------------------------------------------------------------

const SKIP_KEYS = ['binary', 'too_large', 'denied', 'unreadable', 'outside_workspace'];
const GREP_FIELDS = Object.keys(GREP_SCHEMA.properties);
const GLOB_FIELDS = Object.keys(GLOB_SCHEMA.properties);

/** The error a model may receive: an InputError naming a field, the pattern, a glob or the path. */
function checkError(error: unknown, fields: string[]): void {
  assert.ok(error instanceof InputError, `only InputErrors may escape, got ${error instanceof Error ? `${error.name}: ${error.stack}` : String(error)}`);
  const message = error.message;
  assert.ok(message.length > 0 && message.length < 400_000, 'a message of sane size');
  const names = [...fields.map((f) => `"${f}"`), 'pattern', 'glob', 'regular expression', 'path', 'Path', 'workspace', 'permission denied'];
  assert.ok(
    names.some((name) => message.includes(name)),
    `the message names the field or pattern problem: ${message.slice(0, 300)}`,
  );
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + '/');
}

/** skipped is absent, or holds only known counters, each above zero (a zero counter is left out). */
function checkSkipped(skipped: unknown): void {
  if (skipped === undefined) return;
  assert.ok(skipped && typeof skipped === 'object' && Object.keys(skipped).length > 0);
  for (const key of Object.keys(skipped)) assert.ok(SKIP_KEYS.includes(key as (typeof SKIP_KEYS)[number]), key);
  for (const [key, value] of Object.entries(skipped)) assert.ok(Number.isInteger(value) && (value as number) > 0, key);
}

function checkCommon(json: Record<string, unknown>, root: string): void {
  assert.strictEqual(json.pattern, undefined, "the pattern is the call's own input: not echoed");
  assert.strictEqual(json.root, root, 'paths are named below the workspace folder');
  // base_path is left out when no path was given (all workspace folders).
  const bases = json.base_path === undefined ? [] : Array.isArray(json.base_path) ? json.base_path : [json.base_path];
  for (const base of bases) assert.ok(typeof base === 'string' && isInside(root, base), `base inside the workspace: ${String(base)}`);
  // A list of paths, or an object from each path to its lines, count or time.
  assert.ok(typeof json.files === 'object' && json.files !== null);
  // No dead weight: truncated only when true (with next_offset), notes only when there are some, no timing.
  assert.strictEqual(json.truncated, json.next_offset === undefined ? undefined : true);
  assert.ok(!('elapsed_ms' in json));
  assert.ok(json.notes === undefined || (Array.isArray(json.notes) && json.notes.length > 0 && json.notes.every((n) => typeof n === 'string')));
  if (json.next_offset !== undefined) assert.ok(Number.isSafeInteger(json.next_offset) && (json.next_offset as number) > 0);
  checkSkipped(json.skipped);
}

function checkFile(file: unknown, root: string): void {
  assert.ok(typeof file === 'string' && isInside(root, file), `a file inside the workspace: ${String(file)}`);
  assert.ok(!/\/(\.env|secrets|\.git|credentials)(\/|$)/.test(file), `never a denied file: ${file}`);
}

/** The text stays within the output budget (the CLI's 50 KB), whatever the input echoed. */
function checkBudget(text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  assert.ok(bytes <= BUDGET, `within the output budget: ${bytes} bytes`);
}

function checkGrepText(text: string, root: string): void {
  checkBudget(text);
  const json = parseAnswer(text) as Record<string, unknown>;
  checkCommon(json, root);
  // The default output_mode is left out.
  const mode = json.output_mode ?? 'content';
  assert.ok(['files_with_matches', 'count'].includes(mode as string) || (mode === 'content' && json.output_mode === undefined));
  assert.ok(Number.isInteger(json.files_searched) && (json.files_searched as number) >= 0, 'files_searched');
  // Counts only on a cut page (a whole page shows them all).
  if (json.files_matched !== undefined) assert.ok(Number.isInteger(json.files_matched) && (json.files_matched as number) >= 0, 'files_matched');
  if (json.next_offset !== undefined) assert.notStrictEqual(json.files_matched, undefined, 'a cut page gives files_matched');
  if (mode === 'files_with_matches') {
    assert.ok(Array.isArray(json.files));
    for (const file of json.files) checkFile(file, root);
    return;
  }
  assert.ok(!Array.isArray(json.files), 'content and count map each path to its lines or count');
  for (const [file, value] of Object.entries(json.files as object)) {
    checkFile(file, root);
    if (mode === 'count') assert.ok(Number.isInteger(value) && (value as number) > 0);
    else {
      // A result or context line, or a row naming the definitions of the results after it (docs/tools.md, "Definitions").
      const rows = value as unknown[];
      for (const line of rows)
        assert.ok(
          typeof line === 'string' && (/^[1-9]\d*( def:|[:+-]) /.test(line) || (line.length > 0 && !/^\d/.test(line))),
          `a compact line: ${String(line)}`,
        );
      assert.ok(/^\d/.test(String(rows[rows.length - 1])), 'a file ends with a line, never with a row naming definitions');
    }
  }
}

function checkGlobText(text: string, root: string): void {
  checkBudget(text);
  const json = parseAnswer(text) as Record<string, unknown>;
  checkCommon(json, root);
  assert.ok(json.mode === undefined || json.mode === 'regex');
  // Paths, or with sort "mtime" each path mapped to its time.
  const files = Array.isArray(json.files) ? json.files : Object.keys(json.files as object);
  if (!Array.isArray(json.files)) for (const time of Object.values(json.files as object)) assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  for (const file of files) checkFile(file, root);
  assert.ok(json.total === undefined ? json.next_offset === undefined : Number.isInteger(json.total) && (json.total as number) >= files.length);
}

/** Runs one call to its end, failing on a hang instead of waiting forever. */
/** grep and glob as the tools, the commands, the CLI and the MCP server call them: the raw input validated where it comes in. */
async function grepAtEdge(input: unknown, env: SearchEnvironment): Promise<GrepAnswerReport> {
  return answerGrep(parseGrepInput(input), env);
}

async function globAtEdge(input: unknown, env: SearchEnvironment): Promise<GlobAnswerReport> {
  return answerGlob(parseGlobInput(input), env);
}

async function settle<T>(what: string, promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hang: ${what} did not settle in ${HANG_MS} ms`)), HANG_MS)));
  try {
    return { ok: true, value: await Promise.race([promise, hang]) };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('hang:')) throw error;
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/** fc.assert, with a failure's report cut to a readable size (counterexamples may hold 100 KB strings). */
async function check(property: fc.IAsyncPropertyWithHooks<[unknown]> | fc.IAsyncProperty<[unknown]>, params: fc.Parameters<[unknown]>): Promise<void> {
  try {
    await fc.assert(property, params);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const cause = (error as { cause?: unknown }).cause;
    const why = cause instanceof Error ? `\nCaused by: ${cause.message.slice(0, 2000)}` : '';
    throw new Error((message.length > 3000 ? `${message.slice(0, 1500)}\n…\n${message.slice(-1500)}` : message) + why);
  }
}

function describeInput(input: unknown): string {
  try {
    const text = JSON.stringify(input) ?? String(input);
    return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
  } catch {
    return String(input);
  }
}

describe('fuzzing the tool inputs (fast-check)', function () {
  this.timeout(600_000);
  let fx: Fixture;
  let env: SearchEnvironment;
  let pool: SearchPool;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const params = (runs: number): fc.Parameters<[unknown]> => ({ numRuns: runs, seed: SEED, path: PATH, endOnFailure: true });

  before(() => {
    fx = new Fixture('grep-tools-fuzz-');
    fx.files({
      'src/a.ts': 'export const a = 1; // TODO: a\nconst needle = "x";\n',
      'src/b.py': 'def b():\n    return "needle"  # todo\n',
      'src/deep/er/c.md': '# TODO\naaaab\n\u00e9t\u00e9 😀\n',
      'docs/readme.txt': 'needle in a haystack\n',
      'bin.dat': Buffer.from([0x00, 0x01, 0x54, 0x4f, 0x44, 0x4f]),
      '.env': 'TODO=secret needle\n',
      'secrets/key.txt': 'TODO needle\n',
      '.gitignore': 'ignored/\n',
      'ignored/x.ts': 'TODO ignored needle\n',
      '.aws/credentials': 'TODO secret\n',
      '.aws/config': 'TODO config\n',
      'hostile/h.ts': 'TODO hostile\n',
      'hostile/sub/s.ts': 'TODO hostile\n',
    });
    // A hostile repository: ignore files that are a link to /dev/zero and a FIFO, a link to .aws.
    fx.symlink('/dev/zero', 'hostile/.gitignore');
    execFileSync('mkfifo', [fx.path('hostile/sub/.gitignore')]);
    fx.symlink('.aws', 'awsdir');
    // Searched in the worker pool, as the CLI and VS Code search, with a tight limit: a catastrophic
    // pattern the fuzzer writes still ends.
    pool = new SearchPool(2).warm();
    env = { ...makeEnv(fx.root, { config: { timeoutSeconds: 2 } }), pool };
    process.on('unhandledRejection', onUnhandled);
  });
  after(() => {
    process.off('unhandledRejection', onUnhandled);
    pool.dispose();
    fx.remove();
  });
  afterEach(() => assert.deepStrictEqual(unhandled, [], 'no unhandled rejection'));

  const tools = [
    {
      tool: 'grep',
      schema: GREP_SCHEMA,
      fields: GREP_FIELDS,
      answer: async (input: unknown) => renderGrep(await grepAtEdge(input, env), byteBudget(BUDGET)),
      checkText: checkGrepText,
    },
    {
      tool: 'glob',
      schema: GLOB_SCHEMA,
      fields: GLOB_FIELDS,
      answer: async (input: unknown) => renderGlob(await globAtEdge(input, env), byteBudget(BUDGET)),
      checkText: checkGlobText,
    },
  ];
  for (const { tool, schema, fields, answer, checkText } of tools) {
    it(`${tool}: ${RUNS} random and adversarial inputs each end in an answer of the contract or a field-naming error (seed ${SEED})`, async () => {
      let answers = 0;
      let errors = 0;
      await check(
        fc.asyncProperty(toolInput(schema), async (input) => {
          const result = await settle(`${tool} ${describeInput(input)}`, answer(input));
          if (result.ok) {
            answers++;
            checkText(result.value, fx.root);
          } else {
            errors++;
            checkError(result.error, fields);
          }
        }),
        params(RUNS),
      );
      assert.ok(answers >= RUNS / 20, `enough cases reach the engine (${answers} answers, ${errors} errors)`);
      if (process.env.FUZZ_RUNS) console.log(`      ${tool}: ${answers} answers, ${errors} errors`);
    });
  }

  it('prepareInvocation: any input gives a progress message (and a confirmation only for an outside path), never an exception', async () => {
    const ctx = { folders: env.folders, config: env.config, kind: (path: string) => env.source.kind(path) };
    await check(
      fc.asyncProperty(fc.oneof(toolInput(GREP_SCHEMA), toolInput(GLOB_SCHEMA)), async (input) => {
        for (const tool of ['grep', 'glob'] as const) {
          const result = await settle(`prepare ${describeInput(input)}`, prepareMessages(tool, input, ctx));
          assert.ok(result.ok, `prepareMessages threw ${result.ok ? '' : String(result.error)}`);
          assert.ok(typeof result.value.invocationMessage === 'string' && result.value.invocationMessage.length > 0);
          assert.strictEqual(result.value.confirmation !== undefined, result.value.decision === 'pending');
        }
      }),
      { ...params(Math.max(100, Math.round(RUNS / 5))) },
    );
  });

  it('the CLI: random JSON text (valid or not) gives JSON on stdout with exit 0, or a message on stderr with exit 1', async () => {
    const text = fc.oneof(
      toolInput(GREP_SCHEMA).map((input) => JSON.stringify(input) ?? 'undefined'),
      fc.json({ maxDepth: 2 }),
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        '',
        '{',
        '{"pattern":',
        '{"pattern":"a"}}',
        '[]',
        'null',
        '{"pattern":"\\ud800"}',
        '{"__proto__":{"pattern":"a"}}',
        '{"pattern":"a","pattern":1}',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('grep', 'glob'), text, async (tool, json) => {
        const { code, stdout, stderr } = await cli([tool, json, '--workspace', fx.root]);
        if (code === 0) {
          // Only log lines: the fixture's hostile ignore files, skipped.
          for (const line of stderr?.split('\n') ?? []) assert.match(line, /^Ignore file .* skipped: .*; its rules are not applied\.$/);
          (tool === 'grep' ? checkGrepText : checkGlobText)(stdout!, fx.root);
        } else {
          assert.strictEqual(code, 1);
          assert.strictEqual(stdout, undefined);
          assert.ok(typeof stderr === 'string' && stderr.length > 0);
        }
      }),
      { numRuns: Math.max(50, Math.round(RUNS / 25)), seed: SEED, endOnFailure: true },
    );
  });

  describe('what the fuzzer found (regressions)', () => {
    it('a 100 KB pattern, path or include is refused naming the field, in a short message', async () => {
      const huge = 'a|'.repeat(50_000);
      type Run = (input: unknown, env: SearchEnvironment) => Promise<unknown>;
      for (const [run, input, field] of [
        [grepAtEdge, { pattern: huge }, 'pattern'],
        [globAtEdge, { pattern: huge }, 'pattern'],
        [globAtEdge, { pattern: huge, mode: 'regex' }, 'pattern'],
        [grepAtEdge, { pattern: 'x', path: huge }, 'path'],
        [grepAtEdge, { pattern: 'x', include: huge }, 'include'],
        [globAtEdge, { pattern: 'x', path: '\ud800'.repeat(100_000) }, 'path'],
      ] as Array<[Run, object, string]>) {
        const result = await settle('huge input', run(input, env));
        assert.ok(!result.ok && result.error instanceof InputError, `${field}: an InputError`);
        assert.match(result.error.message, new RegExp(`"${field}" is \\d+ characters long, at most ${field === 'pattern' ? 2048 : 4096} are accepted`));
        assert.ok(result.error.message.length < 300);
      }
    });

    it('a 2048-character pattern is searched and its answer stays within the output budget', async () => {
      const text = await renderGrep(await answerGrep({ pattern: 'needle|' + 'z'.repeat(2041) }, env), byteBudget(BUDGET));
      checkGrepText(text, fx.root);
      assert.strictEqual(readAnswer<GrepAnswer>(text).total_matches, 3);
    });

    it('a wrong value holding a huge string is named without echoing it whole', async () => {
      const result = await settle('huge value', grepAtEdge({ pattern: { x: 'y'.repeat(100_000) } }, env));
      assert.ok(!result.ok && result.error instanceof InputError);
      assert.match(result.error.message, /"pattern" must be a string, got object \{"x":"yyy.*… \(100008 characters\)\.$/);
    });

    it('a pattern of 2048 lone surrogates: glob stays within the output budget (each is 6 bytes of JSON)', async () => {
      const text = await renderGlob(await answerGlob({ pattern: '\ud800'.repeat(2048) }, env), byteBudget(BUDGET));
      checkGlobText(text, fx.root);
    });

    it('a glob longer than minimatch accepts is an InputError, not a TypeError', async () => {
      const result = await settle('70,000-character include', grepAtEdge({ pattern: 'x', include: '*'.repeat(70_000) }, env));
      assert.ok(!result.ok && result.error instanceof InputError, String(!result.ok && result.error));
      assert.match(result.error.message, /"include" is 70000 characters long, at most 4096 are accepted/);
    });
  });
});
