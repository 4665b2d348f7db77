// What a section's summary names of its failed tests: those its run wrote to a file, one a line
// (specNamingFailures.cjs, or the integration suites' entry test/integration/index.ts).
import { existsSync, readFileSync } from 'node:fs';

/** The failed tests named in `file`; when the run `failed` naming none (it crashed, or never reported), `why` alone. */
export function failedTests(file, failed, why) {
  const named = existsSync(file) ? readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean) : [];
  return failed && named.length === 0 ? [why] : named;
}
