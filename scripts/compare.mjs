// `npm run compare [-- questions.json]`: our grep/glob side by side with Copilot's own search tools
// (copilot_findTextInFiles, copilot_findFiles), in one Copilot Chat agent-mode session on the bench corpus.
// The scripted model asks each question through both tools (both are offered in the same request's tool
// list); for each call it prints the results returned, whether the expected file (and line) is among
// them, the bytes of the tool message the model received, and the time from the tool call to the next
// model request. The table also goes to .test-artifacts/compare/compare.md (and compare.json).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAgentSession } from './lib/agent.mjs';
import { parseAnswer } from './lib/answers.mjs';
import { ensureCorpus } from './lib/corpus.mjs';
import { ensureCodeServer } from './lib/install.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const OURS = ['grep', 'glob'];
const COPILOT = ['copilot_findTextInFiles', 'copilot_findFiles'];
const TURN_TIMEOUT_MS = 180_000;

class CompareError extends Error {}

function fail(message) {
  throw new CompareError(message);
}

function loadQuestions(file, root) {
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`cannot read the questions file ${file}: ${error.message}`);
  }
  const questions = Array.isArray(parsed) ? parsed : parsed.questions;
  if (!Array.isArray(questions) || questions.length === 0) fail(`${file}: expected { "questions": [...] } with at least one question`);
  const ids = new Set();
  for (const [index, q] of questions.entries()) {
    const where = `${file}: question ${index + 1} (${q.id ?? 'no id'})`;
    if (typeof q.id !== 'string' || !/^[\w.-]+$/.test(q.id) || ids.has(q.id)) fail(`${where}: "id" must be a unique word ([A-Za-z0-9_.-])`);
    ids.add(q.id);
    if (typeof q.prompt !== 'string') fail(`${where}: "prompt" must be a string`);
    if (!OURS.includes(q.ours?.tool) || typeof q.ours.arguments !== 'object')
      fail(`${where}: "ours" must be { "tool": ${OURS.join('|')}, "arguments": {...} }`);
    if (!COPILOT.includes(q.copilot?.tool) || typeof q.copilot.arguments !== 'object')
      fail(`${where}: "copilot" must be { "tool": ${COPILOT.join('|')}, "arguments": {...} }`);
    if (typeof q.expected?.file !== 'string') fail(`${where}: "expected.file" (relative to the corpus root) is required`);
    const path = join(root, q.expected.file);
    if (!existsSync(path)) fail(`${where}: the expected file ${path} does not exist in the corpus`);
    if (q.expected.line !== undefined) {
      if (!Number.isInteger(q.expected.line) || q.expected.line < 1) fail(`${where}: "expected.line" must be a 1-based line number`);
      const lines = readFileSync(path, 'utf8').split('\n').length;
      if (q.expected.line > lines) fail(`${where}: ${q.expected.file} has only ${lines} lines, not ${q.expected.line}`);
    }
  }
  return questions;
}

/** Copilot's tools as the model sees them: VS Code name -> { name, parameters }, matched by description (Copilot renames them for the model). */
function resolveCopilotTools(definitions, codeServer) {
  const manifest = JSON.parse(readFileSync(join(codeServer, 'lib', 'vscode', 'extensions', 'copilot', 'package.json'), 'utf8'));
  const resolved = {};
  for (const name of COPILOT) {
    const contributed = manifest.contributes.languageModelTools.find((tool) => tool.name === name);
    if (!contributed) fail(`Copilot Chat does not contribute ${name}`);
    const offered = definitions.filter((definition) => definition.name === name || definition.description === contributed.modelDescription);
    if (offered.length !== 1)
      fail(
        `cannot tell which offered tool is ${name} (candidates: ${offered.map((d) => d.name).join(', ') || 'none'}); offered: ${definitions.map((d) => d.name).join(', ')}`,
      );
    resolved[name] = {
      name: offered[0].name,
      parameters: Object.keys(offered[0].parameters?.properties ?? {}),
      required: offered[0].parameters?.required ?? [],
    };
  }
  return resolved;
}

/** What one tool message tells the model: results returned (and the tool's own total), and whether the expected location is there. */
function assess(tool, content, expected, root) {
  const absolute = join(root, expected.file);
  const samePath = (path) => path === absolute || path === expected.file || (!isAbsolute(path) && resolve(root, path) === absolute);
  if (tool === 'grep' || tool === 'glob') {
    let answer;
    try {
      answer = parseAnswer(content);
    } catch {
      const spilled = /^Large tool result \((\d+KB)\) written to file/.exec(content);
      // Copilot Chat writes a text tool result over 8 KB (github.copilot.chat.agent.largeToolResultsToDisk.thresholdBytes) to a file.
      if (spilled)
        return { returned: 0, total: undefined, found: false, remark: `Copilot wrote the ${spilled[1]} answer to a file; the model got only a pointer to it` };
      return { returned: 0, total: undefined, found: false, remark: `error: ${content.slice(0, 100)}` };
    }
    const skipped = Object.entries(answer.skipped ?? {})
      .filter(([, count]) => count > 0)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ');
    const remark = [answer.truncated ? `truncated, next_offset ${answer.next_offset}` : '', skipped ? `skipped: ${skipped}` : ''].filter(Boolean).join('; ');
    // files lists paths, or maps each path to its lines ("42: text"), count or time.
    const entries = Array.isArray(answer.files ?? [])
      ? (answer.files ?? [])
      : Object.entries(answer.files).map(([file, value]) => (Array.isArray(value) ? { file, lines: value } : { file }));
    const paths = entries.map((entry) => (typeof entry === 'string' ? entry : entry.file));
    // A note may name the place too: a cut page's hidden files, a checked suggestion, a large file's check.
    // Notes name a path below the answer's root (the corpus) as the files do, or whole.
    const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const named = `(?:${escape(absolute)}|(?<![\\w./-])${escape(expected.file)})`;
    const inNote = (answer.notes ?? []).some((note) =>
      new RegExp(
        expected.line === undefined ? `${named}(?![\\w./-])` : `${named}(:${expected.line}\\b| \\(\\d+; ${expected.line}:| \\([^)]*line ${expected.line}\\b)`,
      ).test(note),
    );
    const noted = inNote ? 'named in a note' : '';
    if (tool === 'glob')
      return {
        returned: paths.length,
        total: answer.total ?? paths.length,
        found: paths.some(samePath) || inNote,
        remark: [remark, noted].filter(Boolean).join('; '),
      };
    const files = entries;
    // A file's lines in the compact form: "42: text" for a result, "41- text" for context.
    const resultLines = (entry) =>
      (entry.lines ?? [])
        .map((row) => /^(\d+)(?: def)?:/.exec(row))
        .filter(Boolean)
        .map((m) => Number(m[1]));
    const onPage = files.some((entry) =>
      typeof entry === 'string'
        ? samePath(entry) && expected.line === undefined
        : samePath(entry.file) && (expected.line === undefined || resultLines(entry).includes(expected.line)),
    );
    const returned =
      answer.returned_matches ??
      answer.returned_files ??
      files.reduce((n, entry) => n + (typeof entry === 'string' ? 1 : entry.lines ? resultLines(entry).length : 1), 0);
    // A whole page leaves its totals out: it shows them all.
    return {
      returned,
      total: answer.total_matches ?? answer.files_matched ?? returned,
      found: onPage || inNote,
      remark: [remark, onPage ? '' : noted].filter(Boolean).join('; '),
    };
  }
  const lines = content.split('\n');
  if (tool === 'copilot_findFiles') {
    const total = /^(\d+) total results?/.exec(lines[0])?.[1];
    const paths = lines.slice(1).filter((line) => line.trim() !== '' && line.trim() !== '...');
    return {
      returned: paths.length,
      total: total === undefined ? undefined : Number(total),
      found: paths.some(samePath),
      remark: total === undefined ? lines[0].slice(0, 100) : '',
    };
  }
  // copilot_findTextInFiles: a header, then per file its (workspace-relative) path and "line:text" rows.
  const total = /Found (\d+) match/.exec(lines[0])?.[1];
  let file;
  const results = [];
  for (const line of lines.slice(1)) {
    const row = /^(\d+):/.exec(line);
    if (row && file !== undefined) results.push({ file, line: Number(row[1]) });
    else if (line.trim() !== '' && !row) file = line.trim();
  }
  const found = results.some((r) => samePath(r.file) && (expected.line === undefined || r.line === expected.line));
  return { returned: results.length, total: total === undefined ? undefined : Number(total), found, remark: total === undefined ? lines[0].slice(0, 100) : '' };
}

/** The tool call of step `stepId`, the tool message that answered it, and the time between them. */
function measure(records, stepId) {
  const call = records.find((r) => r.step === stepId);
  if (!call) throw new Error(`no request was answered with step ${stepId}`);
  for (const next of records.filter((r) => r.seq > call.seq)) {
    const result = (next.toolResults ?? []).find((t) => t.tool_call_id === call.response.id);
    if (result) return { content: result.content, bytes: result.bytes, elapsedMs: next.receivedAt - call.respondedAt };
  }
  throw new Error(`the result of step ${stepId} never reached the model`);
}

function markdownTable(rows) {
  const header = ['#', 'question', 'tool', 'results (returned / total)', 'expected file:line present', 'bytes to model', 'call → next request (ms)'];
  const out = [`| ${header.join(' | ')} |`, `|${header.map((h) => (/^(#|results|bytes|call)/.test(h) ? ' ---: ' : ' --- ')).join('|')}|`];
  for (const row of rows) out.push(`| ${row.join(' | ')} |`);
  return out.join('\n');
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? 0
    : sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]
      : Math.round((sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2);
}

async function main() {
  const questionsFile = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? join(repo, 'bench', 'questions.json'));
  const corpus = ensureCorpus();
  const root = corpus.tree;
  const questions = loadQuestions(questionsFile, root);
  const { codeServer } = await ensureCodeServer();
  const artifactsDir = join(repo, '.test-artifacts', 'compare');
  process.stdout.write(
    `Comparing on the bench corpus ${root} (${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(1)} MB), ${questions.length} questions from ${relative(process.cwd(), questionsFile) || questionsFile}, ${cpus().length} cores\n`,
  );

  const tag = (id) => `[compare:${id}]`;
  const probe = { steps: [{ id: 'probe', prompt: tag('probe'), text: 'Probe answered.' }], fallbackText: 'The scripted model has no step for this request.' };
  mkdirSync(artifactsDir, { recursive: true });
  const session = await openAgentSession({ workspace: root, script: probe, artifactsDir, lifetimeSeconds: 1800 });
  let ok = false;
  try {
    // 1. A first request tells which tools are offered, under which names, with which arguments.
    await session.ask(`${tag('probe')} Which tools do you have?`);
    const first = await session.model.waitForRecord((r) => r.step === 'probe', { what: 'the probe request' });
    const definitions = session.model.records().flatMap((r) => r.newToolDefinitions ?? []);
    for (const name of OURS) if (!first.tools.includes(name)) fail(`our tool ${name} is not offered to the model (offered: ${first.tools.join(', ')})`);
    const copilot = resolveCopilotTools(definitions, codeServer);
    process.stdout.write(
      `Offered to the model in the same request (${first.tools.length} tools): ${OURS.map((name) => `${name}(${first.toolParameters[name].join(', ')})`).join(', ')}, ` +
        `${COPILOT.map((name) => `${copilot[name].name}(${copilot[name].parameters.join(', ')}) = ${name}`).join(', ')}\n\n`,
    );
    for (const q of questions) {
      const { parameters, required } = copilot[q.copilot.tool];
      const unknown = Object.keys(q.copilot.arguments).filter((key) => !parameters.includes(key));
      const missing = required.filter((key) => !(key in q.copilot.arguments));
      if (unknown.length || missing.length)
        fail(
          `question ${q.id}: ${q.copilot.tool} (offered as ${copilot[q.copilot.tool].name}) takes ${parameters.join(', ')}; unknown ${unknown.join(', ') || 'none'}, missing ${missing.join(', ') || 'none'}`,
        );
      const ours = first.toolParameters[q.ours.tool];
      const unknownOurs = Object.keys(q.ours.arguments).filter((key) => !ours.includes(key));
      if (unknownOurs.length) fail(`question ${q.id}: ${q.ours.tool} takes ${ours.join(', ')}, not ${unknownOurs.join(', ')}`);
    }

    // 2. The questions: per question one turn; the model calls both tools (alternating which goes first), then answers.
    const steps = [];
    const warm = {
      id: 'warmup',
      ours: [
        ['grep', { pattern: 'zq-warmup-no-match-qz', fixed_strings: true }],
        ['glob', { pattern: '**/*.zq-warmup' }],
      ],
      copilot: [
        ['copilot_findTextInFiles', { query: 'zq-warmup-no-match-qz', isRegexp: false }],
        ['copilot_findFiles', { query: '**/*.zq-warmup' }],
      ],
    };
    warm.ours.forEach(([tool, args], i) => steps.push({ id: `warmup-ours-${i}`, prompt: tag('warmup'), tool, arguments: args }));
    warm.copilot.forEach(([tool, args], i) => steps.push({ id: `warmup-copilot-${i}`, prompt: tag('warmup'), tool: copilot[tool].name, arguments: args }));
    steps.push({ id: 'warmup-done', prompt: tag('warmup'), text: 'Warm-up done.' });
    questions.forEach((q, index) => {
      const calls = [
        { id: `${q.id}-ours`, prompt: tag(q.id), tool: q.ours.tool, arguments: q.ours.arguments },
        { id: `${q.id}-copilot`, prompt: tag(q.id), tool: copilot[q.copilot.tool].name, arguments: q.copilot.arguments },
      ];
      steps.push(...(index % 2 === 0 ? calls : calls.reverse()), { id: `${q.id}-done`, prompt: tag(q.id), text: `Answered ${q.id}.` });
    });
    session.setScript({ steps, fallbackText: 'The scripted model has no step for this request.' });

    for (const id of ['warmup', ...questions.map((q) => q.id)]) {
      const question = questions.find((q) => q.id === id);
      await session.ask(`${tag(id)} ${question?.prompt ?? 'Warm up both search tools.'}`);
      await session.model.waitForRecord((r) => r.step === `${id}-done`, { timeoutMs: TURN_TIMEOUT_MS, what: `the end of the turn ${id}` });
      process.stdout.write(`  asked ${id}\n`);
    }
    await session.screenshot('last-turn');

    // 3. The table.
    const records = session.model.records();
    const rows = [];
    const results = [];
    const sides = { ours: { found: 0, bytes: [], ms: [] }, copilot: { found: 0, bytes: [], ms: [] } };
    questions.forEach((q, index) => {
      for (const side of ['ours', 'copilot']) {
        const { content, bytes, elapsedMs } = measure(records, `${q.id}-${side}`);
        const verdict = assess(q[side].tool, content, q.expected, root);
        const label = side === 'ours' ? q.ours.tool : `${q.copilot.tool} (${copilot[q.copilot.tool].name})`;
        const expected = `${q.expected.file}${q.expected.line ? `:${q.expected.line}` : ''}`;
        rows.push([
          side === 'ours' ? String(index + 1) : '',
          side === 'ours' ? `${q.prompt} \`${q.id}\`` : '',
          label,
          `${verdict.returned} / ${verdict.total ?? '?'}${verdict.remark ? ` (${verdict.remark})` : ''}`,
          `${verdict.found ? 'yes' : 'NO'} — ${expected}`,
          String(bytes),
          String(elapsedMs),
        ]);
        results.push({ id: q.id, side, tool: label, ...verdict, bytes, elapsedMs, expected: q.expected });
        sides[side].found += verdict.found ? 1 : 0;
        sides[side].bytes.push(bytes);
        sides[side].ms.push(elapsedMs);
      }
    });
    const summary = (side, name) =>
      `${name}: expected location present in ${sides[side].found} of ${questions.length}; ${sides[side].bytes.reduce((a, b) => a + b, 0)} bytes in all (median ${median(sides[side].bytes)}); median ${median(sides[side].ms)} ms from call to next request`;
    const table = markdownTable(rows);
    const text = `${table}\n\n- ${summary('ours', 'grep/glob')}\n- ${summary('copilot', "Copilot's tools")}\n`;
    process.stdout.write(`\n${text}`);
    writeFileSync(join(artifactsDir, 'compare.md'), text);
    writeFileSync(join(artifactsDir, 'compare.json'), JSON.stringify(results, null, 2));
    process.stdout.write(`\nAlso in ${join(artifactsDir, 'compare.md')}; every request the model received: ${join(artifactsDir, 'model-requests.jsonl')}\n`);
    ok = true;
  } finally {
    await session.close(ok);
  }
}

main().catch((error) => {
  process.stderr.write(`compare failed: ${error instanceof CompareError ? error.message : error instanceof Error ? error.stack : error}\n`);
  process.exitCode = 1;
});
