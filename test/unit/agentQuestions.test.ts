/**
 * A fixed set of realistic agent questions on test/fixtures/agent-repo, answered through the CLI (the
 * exact text a model receives). Each answer must still answer its question, and must not grow more than
 * 10% past the size recorded in test/fixtures/agent-questions.json while the fixture is unchanged.
 *
 * Sizes are measured with the workspace root written as /repo and elapsed_ms as 0, so they do not
 * depend on where the repository is checked out. After changing the fixture (or to accept a new size on
 * purpose), re-record: `npm run build && AGENT_QUESTIONS_RECORD=1 npx mocha out/test/unit/agentQuestions.test.js`.
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as nodePath from 'path';
import { main } from '../../src/cli';

const repoRoot = nodePath.resolve(__dirname, '../../..');
const questionsFile = nodePath.join(repoRoot, 'test', 'fixtures', 'agent-questions.json');
const GROWTH = 1.1;

interface Question {
  id: string;
  question: string;
  tool: 'grep' | 'glob';
  input: Record<string, unknown>;
  expect: { file?: string; line?: number; note?: string; error?: string };
  bytes?: number;
}

interface QuestionsFile {
  about: string;
  fixture: string;
  fixture_sha256: string;
  questions: Question[];
}

/** Every file of the fixture, by relative path and content. */
function fixtureHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(nodePath.join(dir, entry.name), relative);
      else hash.update(`${relative}\0`).update(fs.readFileSync(nodePath.join(dir, entry.name))).update('\0');
    }
  };
  walk(root, '');
  return hash.digest('hex');
}

/** The answer as measured: the root as /repo, elapsed_ms as 0. */
function normalise(text: string, root: string): string {
  return text.split(root).join('/repo').replace(/"elapsed_ms":\d+/, '"elapsed_ms":0');
}

const file = JSON.parse(fs.readFileSync(questionsFile, 'utf8')) as QuestionsFile;
const fixture = nodePath.join(repoRoot, ...file.fixture.split('/'));
const recording = process.env.AGENT_QUESTIONS_RECORD === '1';

describe(`agent questions on ${file.fixture} (answer size in bytes, at most +${Math.round((GROWTH - 1) * 100)}%)`, () => {
  const measured = new Map<string, number>();
  const hash = fixtureHash(fixture);

  it('has at least 12 questions, each with a unique id and a recorded size', () => {
    assert.ok(file.questions.length >= 12);
    assert.strictEqual(new Set(file.questions.map((q) => q.id)).size, file.questions.length);
    if (!recording) for (const q of file.questions) assert.ok(Number.isInteger(q.bytes) && q.bytes! > 0, `${q.id} has a recorded size`);
  });

  for (const q of file.questions) {
    it(`${q.id}: ${q.question}`, async () => {
      const result = await main([q.tool, JSON.stringify(q.input), '--workspace', fixture]);
      const text = normalise(q.expect.error ? (result.stderr ?? '') : (result.stdout ?? ''), fixture);
      assert.strictEqual(result.code, q.expect.error ? 1 : 0, text);
      measured.set(q.id, Buffer.byteLength(text, 'utf8'));

      // It still answers the question.
      if (q.expect.error) {
        assert.ok(text.includes(q.expect.error), `the error says ${JSON.stringify(q.expect.error)}: ${text}`);
      } else {
        const json = JSON.parse(text) as { files: Array<string | { file: string; matches?: Array<{ line: number }> }>; notes: string[] };
        if (q.expect.file) {
          const path = `/repo/${q.expect.file}`;
          const entry = json.files.find((f) => (typeof f === 'string' ? f : f.file) === path);
          assert.ok(entry, `${path} is in the answer`);
          if (q.expect.line !== undefined) {
            assert.ok(typeof entry !== 'string' && entry.matches?.some((m) => m.line === q.expect.line), `${path}:${q.expect.line} is in the answer`);
          }
        }
        if (q.expect.note) assert.ok(json.notes.some((n) => n.includes(q.expect.note!)), `a note says ${JSON.stringify(q.expect.note)}: ${JSON.stringify(json.notes)}`);
      }

      // And it is no bigger than it was.
      if (!recording && hash === file.fixture_sha256) {
        const limit = Math.floor(q.bytes! * GROWTH);
        assert.ok(measured.get(q.id)! <= limit, `${q.id}: ${measured.get(q.id)} bytes, recorded ${q.bytes} (limit ${limit})`);
      }
    });
  }

  it('the fixture is the one the sizes were recorded on', () => {
    if (recording) return;
    assert.strictEqual(
      hash,
      file.fixture_sha256,
      `${file.fixture} changed since the sizes were recorded: check the answers, then re-record with AGENT_QUESTIONS_RECORD=1 (see test/unit/agentQuestions.test.ts)`,
    );
  });

  after(() => {
    const rows = file.questions.map((q) => `    ${String(measured.get(q.id) ?? '-').padStart(6)} B  (recorded ${String(q.bytes ?? '-').padStart(6)})  ${q.id}`);
    process.stdout.write(`\n    answer sizes:\n${rows.join('\n')}\n`);
    if (recording && measured.size === file.questions.length) {
      const updated: QuestionsFile = { ...file, fixture_sha256: hash, questions: file.questions.map((q) => ({ ...q, bytes: measured.get(q.id) })) };
      fs.writeFileSync(questionsFile, JSON.stringify(updated, null, 2) + '\n');
      process.stdout.write(`    recorded into ${nodePath.relative(repoRoot, questionsFile)}\n`);
    }
  });
});
