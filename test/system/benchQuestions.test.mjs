// The 44 agent questions on the bench corpus (bench/agent-questions.json): real third-party code from
// pinned npm packages, installed once into the cache by scripts/lib/corpus.mjs. Each answer, through the
// CLI, must still hold its expected file and line (or note, or error) and grow at most 10% past its
// recorded size (test/support/agentQuestions.ts). Re-record on purpose with
// `AGENT_QUESTIONS_RECORD=1 npx mocha test/system/benchQuestions.test.mjs`.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from '../../scripts/lib/corpus.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { describeQuestions } = createRequire(import.meta.url)(join(repo, 'out', 'test', 'support', 'agentQuestions.js'));

// The corpus is pinned by its lock file: the recorded sizes always apply to it. A question searches its
// 11,000 files (about 0.3 s on a quiet machine, a few seconds with the large-file check under load).
describeQuestions(join(repo, 'bench', 'agent-questions.json'), ensureCorpus().tree, { current: () => true, timeoutMs: 30_000 });
