/**
 * Realistic agent questions answered through the CLI (the exact text a model receives). Each answer must
 * still answer its question (its file and line in the results, or the words its note or error must hold),
 * and must not grow more than 10% past the size recorded in its questions file. Sizes are measured with
 * the workspace root written as /repo, so they do not depend on where the workspace is.
 *
 * Re-record a file's sizes on purpose (after changing its workspace or the answers):
 * `npm run build && AGENT_QUESTIONS_RECORD=1 npx mocha <its test file>`.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { main } from '../../src/cli';
import { readAnswer, type GlobAnswer, type GrepAnswer } from './answers';

const GROWTH = 1.1;

export interface Question {
  id: string;
  question: string;
  tool: 'grep' | 'glob';
  input: Record<string, unknown>;
  /** The file (and line) among the results; words a note or the error must hold. */
  expect: { file?: string; line?: number; note?: string; error?: string };
  bytes?: number;
}

export interface QuestionsFile {
  about: string;
  fixture: string;
  /** The workspace the sizes were recorded on, when it can change (a fixture in the repository). */
  fixture_sha256?: string;
  questions: Question[];
}

/** The answer as measured: the root as /repo. */
function normalise(text: string, root: string): string {
  return text.split(root).join('/repo');
}

/** Whether the answer holds the expected file (and line) among its results. */
function holds(answer: GrepAnswer | GlobAnswer, file: string, line: number | undefined): boolean {
  return (answer.files as Array<string | { file: string; matches?: Array<{ line: number }> }>).some((entry) =>
    typeof entry === 'string'
      ? entry === file && line === undefined
      : entry.file === file && (line === undefined || (entry.matches ?? []).some((m) => m.line === line)),
  );
}

/**
 * The mocha suite of one questions file on `workspace`; `current` says whether the recorded sizes apply
 * (false when the workspace changed since they were recorded: the suite then says so in its own test).
 */
export function describeQuestions(
  questionsFile: string,
  workspace: string,
  options: { current: () => boolean; onRecord?: (file: QuestionsFile) => QuestionsFile; timeoutMs?: number },
): void {
  const file = JSON.parse(fs.readFileSync(questionsFile, 'utf8')) as QuestionsFile;
  const recording = process.env.AGENT_QUESTIONS_RECORD === '1';

  describe(`agent questions on ${file.fixture} (answer size in bytes, at most +${Math.round((GROWTH - 1) * 100)}%)`, function () {
    if (options.timeoutMs) this.timeout(options.timeoutMs);
    const measured = new Map<string, number>();

    it('has at least 12 questions, each with a unique id and a recorded size', () => {
      assert.ok(file.questions.length >= 12);
      assert.strictEqual(new Set(file.questions.map((q) => q.id)).size, file.questions.length);
      if (!recording) for (const q of file.questions) assert.ok(Number.isInteger(q.bytes) && q.bytes! > 0, `${q.id} has a recorded size`);
    });

    for (const q of file.questions) {
      it(`${q.id}: ${q.question}`, async () => {
        const result = await main([q.tool, JSON.stringify(q.input), '--workspace', workspace]);
        const text = normalise(q.expect.error ? (result.stderr ?? '') : (result.stdout ?? ''), workspace);
        assert.strictEqual(result.code, q.expect.error ? 1 : 0, text);
        measured.set(q.id, Buffer.byteLength(text, 'utf8'));

        // It still answers the question.
        if (q.expect.error) {
          assert.ok(text.includes(q.expect.error), `the error says ${JSON.stringify(q.expect.error)}: ${text}`);
        } else {
          const answer = readAnswer<GrepAnswer | GlobAnswer>(text);
          if (q.expect.file)
            assert.ok(
              holds(answer, `/repo/${q.expect.file}`, q.expect.line),
              `/repo/${q.expect.file}${q.expect.line ? `:${q.expect.line}` : ''} is in the answer: ${text.slice(0, 2000)}`,
            );
          if (q.expect.note)
            assert.ok(
              answer.notes.some((n) => n.includes(q.expect.note!)),
              `a note says ${JSON.stringify(q.expect.note)}: ${JSON.stringify(answer.notes)}`,
            );
        }

        // And it is no bigger than it was.
        if (!recording && options.current()) {
          const limit = Math.floor(q.bytes! * GROWTH);
          assert.ok(measured.get(q.id)! <= limit, `${q.id}: ${measured.get(q.id)} bytes, recorded ${q.bytes} (limit ${limit})`);
        }
      });
    }

    after(() => {
      const rows = file.questions.map(
        (q) => `    ${String(measured.get(q.id) ?? '-').padStart(6)} B  (recorded ${String(q.bytes ?? '-').padStart(6)})  ${q.id}`,
      );
      const total = [...measured.values()].reduce((a, b) => a + b, 0);
      process.stdout.write(`\n    answer sizes:\n${rows.join('\n')}\n    ${String(total).padStart(6)} B in all\n`);
      if (recording && measured.size === file.questions.length) {
        const updated: QuestionsFile = { ...file, questions: file.questions.map((q) => ({ ...q, bytes: measured.get(q.id) })) };
        fs.writeFileSync(questionsFile, JSON.stringify(options.onRecord ? options.onRecord(updated) : updated, null, 2) + '\n');
        process.stdout.write(`    recorded into ${questionsFile}\n`);
      }
    });
  });
}
