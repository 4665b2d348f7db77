// The text grep and glob answer with (docs/tools.md, "Answers") read back as the fields of the JSON copy,
// with absolute paths: test/support/answers.ts's parseAnswer, built into out/ by `node esbuild.js` (every
// script that reads answers builds first).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** @type {(text: string) => any} */
export const parseAnswer = createRequire(import.meta.url)(join(repo, 'out', 'test', 'support', 'answers.js')).parseAnswer;
