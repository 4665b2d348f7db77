/**
 * The agent questions on the small repository test/fixtures/agent-repo (test/fixtures/agent-questions.json),
 * answered through the CLI: each still answers its question and grows at most 10% past its recorded size
 * while the fixture is unchanged (test/support/agentQuestions.ts). The 30 questions on the bench corpus
 * are in benchQuestions.test.mjs.
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as nodePath from 'path';
import { describeQuestions, type QuestionsFile } from '../support/agentQuestions';

const repoRoot = nodePath.resolve(__dirname, '../../..');
const questionsFile = nodePath.join(repoRoot, 'test', 'fixtures', 'agent-questions.json');
const recorded = JSON.parse(fs.readFileSync(questionsFile, 'utf8')) as QuestionsFile;
const fixture = nodePath.join(repoRoot, ...recorded.fixture.split('/'));

/** Every file of the fixture, by relative path and content. */
function fixtureHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(nodePath.join(dir, entry.name), relative);
      else
        hash
          .update(`${relative}\0`)
          .update(fs.readFileSync(nodePath.join(dir, entry.name)))
          .update('\0');
    }
  };
  walk(root, '');
  return hash.digest('hex');
}

const hash = fixtureHash(fixture);
describeQuestions(questionsFile, fixture, {
  current: () => hash === recorded.fixture_sha256,
  onRecord: (file) => ({ ...file, fixture_sha256: hash }),
  timeoutMs: 15_000,
});

describe(`the fixture of the agent questions`, () => {
  it('is the one the sizes were recorded on', () => {
    if (process.env.AGENT_QUESTIONS_RECORD === '1') return;
    assert.strictEqual(
      hash,
      recorded.fixture_sha256,
      `${recorded.fixture} changed since the sizes were recorded: check the answers, then re-record with AGENT_QUESTIONS_RECORD=1 (see test/support/agentQuestions.ts)`,
    );
  });
});
