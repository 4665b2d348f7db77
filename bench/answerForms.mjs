// `node bench/answerForms.mjs [corpus-root]` (after `node esbuild.js`): the bytes of grep's and glob's
// answers in other forms, measured on the engine's own answers to the compare questions
// (bench/questions.json, with the chat's output budget and the compare's corpus path) and the agent
// questions (bench/agent-questions.json and test/fixtures/agent-questions.json, through the CLI's
// budget, the root written as /repo as their test measures them). Forms:
//   json           the answer as JSON with absolute paths, the form before plain text (rebuilt from the
//                  answer; its notes keep the paths below the root, a few bytes short of the JSON's)
//   answer         the answer as it is (plain text, root once)
//   root           JSON with "root" given once and the paths of files, base_path and notes below it
//   root+capK      root, and on a cut page at most K matching lines per file ("… (N more matches in
//                  this file)"), the page filled from the next files (paging the whole question)
//   text           plain text, root given once: counters as "key: value" lines, then per file its
//                  root-relative path after an empty line and its rows
//   text-abs       the same plain text without a root: each file by its absolute path
// Prints per set the median and total bytes of each form, and the ratio of the compare median to
// Copilot's (COPILOT_MEDIAN, 141 bytes unless given).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { parseAnswer } from '../scripts/lib/answers.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { cliEnvironment } = require(join(repo, 'out/src/cli/local.js'));
const { answerGrep } = require(join(repo, 'out/src/engine/answer/grepAnswer.js'));
const { answerGlob } = require(join(repo, 'out/src/engine/answer/globAnswer.js'));
const { renderGrep, renderGlob } = require(join(repo, 'out/src/engine/answer/printer.js'));
const { byteBudget } = require(join(repo, 'out/src/engine/answer/budget.js'));
const { parseGrepInput, parseGlobInput } = require(join(repo, 'out/src/engine/input/schema.js'));
const { SearchPool } = require(join(repo, 'out/src/engine/pool/pool.js'));

const CHAT_BYTES = 8192 - 512;
const CLI_BYTES = 51200;
const COPILOT_MEDIAN = Number(process.env.COPILOT_MEDIAN ?? 141);

const lock = readFileSync(join(repo, 'bench', 'corpus', 'package-lock.json'));
const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'vscode-grep-tools');
const compareRoot = join(cacheRoot, `bench-corpus-${createHash('sha256').update(lock).digest('hex').slice(0, 12)}`, 'tree');
const corpus = resolve(process.argv[2] ?? compareRoot);

const pool = new SearchPool().warm();

async function answer(tool, input, root, budgetBytes) {
  const env = { ...cliEnvironment({ folders: [root], allowOutside: false }, () => {}), pool };
  try {
    if (tool === 'glob') return { text: await renderGlob(await answerGlob(parseGlobInput(input), env), byteBudget(budgetBytes)) };
    return { text: await renderGrep(await answerGrep(parseGrepInput(input), env), byteBudget(budgetBytes)) };
  } catch (error) {
    return { text: error.message, error: true };
  }
}

const bytes = (text) => Buffer.byteLength(text, 'utf8');
const under = (root, path) => (path === root ? '.' : path.startsWith(root + '/') ? path.slice(root.length + 1) : path);

/** The JSON answer with the root once and every path below it relative. */
function rootForm(parsed, root) {
  const { files, base_path, notes, ...rest } = parsed;
  const rel = (p) => under(root, p);
  const out = { root };
  if (base_path !== undefined) out.base_path = Array.isArray(base_path) ? base_path.map(rel) : rel(base_path);
  for (const [k, v] of Object.entries(rest)) if (k !== 'files') out[k] = v;
  out.files = Array.isArray(files) ? files.map(rel) : Object.fromEntries(Object.entries(files).map(([k, v]) => [rel(k), v]));
  // files first, as today, after root
  const ordered = { root, ...(out.base_path !== undefined ? { base_path: out.base_path } : {}) };
  for (const k of Object.keys(parsed)) if (k !== 'base_path' && k !== 'notes') ordered[k] = k === 'files' ? out.files : rest[k];
  if (notes) ordered.notes = notes.map((n) => n.split(root + '/').join(''));
  return ordered;
}

/** Plain text with the root once (or, without a root, with the answer's absolute paths). */
function textForm(parsed, root) {
  const r = root === undefined ? parsed : rootForm(parsed, root);
  const head = root === undefined ? [] : [`root: ${root}`];
  for (const [k, v] of Object.entries(r)) {
    if (k === 'root' || k === 'files' || k === 'notes') continue;
    head.push(
      `${k}: ${
        typeof v === 'object'
          ? Object.entries(v)
              .map(([a, b]) => `${a} ${b}`)
              .join(', ')
          : v
      }`,
    );
  }
  const body = [];
  if (Array.isArray(r.files)) body.push('', ...r.files);
  else
    for (const [file, v] of Object.entries(r.files)) {
      if (Array.isArray(v)) body.push('', file, ...v);
      else body.push(`${file}: ${v}`);
    }
  const notes = (r.notes ?? []).map((n) => `note: ${n}`);
  return [...head, ...body, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

const LEGACY_ORDER = [
  'base_path',
  'mode',
  'output_mode',
  'files',
  'total_matches',
  'returned_matches',
  'returned_files',
  'files_matched',
  'total',
  'files_searched',
  'truncated',
  'next_offset',
  'skipped',
  'timed_out',
  'notes',
];

/** The answer's fields as the JSON answer gave them (absolute paths, no root), in its order. */
function legacyJson(text) {
  const fields = parseAnswer(text);
  return Object.fromEntries(LEGACY_ORDER.filter((key) => fields[key] !== undefined).map((key) => [key, fields[key]]));
}

const isResult = (row) => /^\d+( def)?:/.test(row);

/** The whole ordered result list of a cut content question: its pages one after the other. */
async function allPages(input, root) {
  const files = new Map();
  let offset = 0;
  let first;
  for (let page = 0; page < 40; page++) {
    const { text, error } = await answer('grep', { ...input, offset }, root, 10 * 1024 * 1024);
    if (error) break;
    const parsed = legacyJson(text);
    first ??= parsed;
    for (const [file, rows] of Object.entries(parsed.files)) files.set(file, [...(files.get(file) ?? []), ...rows]);
    if (parsed.next_offset === undefined) break;
    offset = parsed.next_offset;
  }
  return files;
}

/** A cut page with at most `cap` matching lines per file, filled from the next files, within the budget. */
async function capForm(parsed, input, root, cap, budgetBytes, pagesCache) {
  if (!parsed.truncated || Array.isArray(parsed.files) || typeof Object.values(parsed.files)[0] !== 'object') return rootForm(parsed, root);
  const key = JSON.stringify(input);
  if (!pagesCache.has(key)) pagesCache.set(key, await allPages(input, root));
  const all = pagesCache.get(key);
  const pageSize = input.max_results ?? 100;
  const build = (limit) => {
    const files = {};
    let shown = 0;
    for (const [file, rows] of all) {
      if (shown >= limit) break;
      const total = rows.filter(isResult).length;
      const kept = [];
      let results = 0;
      for (const row of rows) {
        if (isResult(row)) {
          if (results >= cap || shown >= limit) break;
          results++;
          shown++;
        } else if (results >= cap || shown >= limit) break;
        kept.push(row);
      }
      while (kept.length && !isResult(kept[kept.length - 1]) && !/^\d+-/.test(kept[kept.length - 1])) kept.pop();
      if (total > results) kept.push(`… (${total - results} more matches in this file)`);
      files[file] = kept;
    }
    return { ...parsed, files, returned_matches: shown };
  };
  let limit = pageSize;
  let out = rootForm(build(limit), root);
  while (bytes(JSON.stringify(out)) > budgetBytes && limit > 1) out = rootForm(build(--limit), root);
  return out;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
}

const FORMS = ['json', 'root', 'root+cap3', 'root+cap5', 'root+cap10', 'text', 'text+cap5', 'text-abs', 'answer'];

async function measureSet(name, questions, { root, shownRoot, budgetBytes }) {
  const sizes = Object.fromEntries(FORMS.map((f) => [f, []]));
  const rows = [];
  const pagesCache = new Map();
  for (const q of questions) {
    const { text, error } = await answer(q.tool, q.input, root, budgetBytes);
    const shown = (t) => t.split(root).join(shownRoot);
    const row = { id: q.id };
    if (error) {
      for (const f of FORMS) row[f] = bytes(shown(text));
    } else {
      const parsed = legacyJson(shown(text));
      row.json = bytes(JSON.stringify(parsed));
      row.answer = bytes(shown(text));
      row.root = bytes(JSON.stringify(rootForm(parsed, shownRoot)));
      for (const cap of [3, 5, 10]) {
        const capped = await capForm(legacyJson(text), q.input, root, cap, budgetBytes, pagesCache);
        row[`root+cap${cap}`] = bytes(shown(JSON.stringify({ ...capped, root: shownRoot })));
        if (cap === 5)
          row['text+cap5'] = bytes(
            shown(
              textForm(
                JSON.parse(
                  JSON.stringify(capped)
                    .split(`"root":${JSON.stringify(root)},`)
                    .join(''),
                ),
                root,
              ),
            ),
          );
      }
      row.text = bytes(textForm(parsed, shownRoot));
      row['text-abs'] = bytes(textForm(parsed, undefined));
    }
    for (const f of FORMS) sizes[f].push(row[f]);
    rows.push(row);
  }
  process.stdout.write(
    `\n## ${name} (${questions.length} questions, root shown as ${shownRoot})\n\n| id | ${FORMS.join(' | ')} |\n|---|${FORMS.map(() => '---:').join('|')}|\n`,
  );
  for (const row of rows) process.stdout.write(`| ${row.id} | ${FORMS.map((f) => row[f]).join(' | ')} |\n`);
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  process.stdout.write(`| **median** | ${FORMS.map((f) => median(sizes[f])).join(' | ')} |\n| **total** | ${FORMS.map((f) => sum(sizes[f])).join(' | ')} |\n`);
  return Object.fromEntries(FORMS.map((f) => [f, { median: median(sizes[f]), total: sum(sizes[f]) }]));
}

const compare = JSON.parse(readFileSync(join(repo, 'bench', 'questions.json'), 'utf8'));
const cq = (Array.isArray(compare) ? compare : compare.questions).map((q) => ({ id: q.id, tool: q.ours.tool, input: q.ours.arguments }));
const agent = JSON.parse(readFileSync(join(repo, 'bench', 'agent-questions.json'), 'utf8')).questions.map((q) => ({ id: q.id, tool: q.tool, input: q.input }));
const fixture = JSON.parse(readFileSync(join(repo, 'test', 'fixtures', 'agent-questions.json'), 'utf8'));
const fq = fixture.questions.map((q) => ({ id: q.id, tool: q.tool, input: q.input }));

try {
  const c = await measureSet('compare questions (chat budget 7680 bytes)', cq, { root: corpus, shownRoot: compareRoot, budgetBytes: CHAT_BYTES });
  process.stdout.write(
    `\nratio of the compare median to Copilot's ${COPILOT_MEDIAN}: ${FORMS.map((f) => `${f} ${(c[f].median / COPILOT_MEDIAN).toFixed(2)}x`).join(', ')}\n`,
  );
  await measureSet('agent questions 1-30 on the bench corpus (CLI budget)', agent.slice(0, 30), { root: corpus, shownRoot: '/repo', budgetBytes: CLI_BYTES });
  await measureSet('agent questions def-* on the bench corpus (CLI budget)', agent.slice(30), { root: corpus, shownRoot: '/repo', budgetBytes: CLI_BYTES });
  const fixtureRoot = join(repo, fixture.fixture);
  await measureSet('agent questions on the fixture (CLI budget)', fq, { root: fixtureRoot, shownRoot: '/repo', budgetBytes: CLI_BYTES });
} finally {
  pool.dispose();
}
