// mocha's spec reporter that also appends each failed test (or hook), with its error's first line, to the
// file GREP_TOOLS_FAILED_FILE names: `npm test` (scripts/test.mjs) names them in its summary, the last
// thing a run prints.
const Mocha = require('mocha');
const { appendFileSync } = require('node:fs');

class SpecNamingFailures extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = process.env.GREP_TOOLS_FAILED_FILE;
    if (!file) return;
    runner.on('fail', (test, error) => {
      const message = String(error instanceof Error ? error.message : error).split('\n')[0];
      appendFileSync(file, `${test.fullTitle()}: ${message}\n`);
    });
  }
}

module.exports = SpecNamingFailures;
