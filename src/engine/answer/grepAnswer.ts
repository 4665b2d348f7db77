/**
 * A grep answer: the run's report, and the checks its notes need (diagnostics.ts): an invalid regex's
 * literal reading, why an empty answer found nothing, and whether the pattern occurs in the files over
 * the size limit, each running the plain search again within what is left of the call's time limit; and
 * the first lines of the files a cut page hides, as the search met them.
 */
import type { GrepInput } from '../api/types';
import { InvalidPatternError } from '../matcher/matcher';
import { deadlineFrom, type SearchEnvironment } from '../run/environment';
import { runGrep, type GrepProgress, type GrepReport } from '../run/grep';
import { unlessCancelled } from '../run/stop';
import {
  checkLargeFiles,
  diagnoseGrep,
  explainInvalidPattern,
  firstLinesOfHidden,
  readingChanges,
  type GrepDiagnostics,
  type LargeFilesCheck,
} from './diagnostics';

export interface GrepAnswer extends GrepReport {
  /** With zero results: what a changed search would find. */
  diagnostics?: GrepDiagnostics;
  /** The first matching line of the files a cut page names first. */
  firstLines?: ReadonlyMap<string, { line: number; text: string }>;
  /** An empty or cut answer: whether the pattern occurs in the files over the size limit. */
  largeFilesCheck?: LargeFilesCheck;
}

/**
 * Runs one grep of a validated input (input/schema.ts, grepInput) and its checks, within
 * grepTools.timeoutSeconds; a cancelled one rejects with CancelledError (at once when the environment
 * signals it).
 */
export function answerGrep(input: GrepInput, env: SearchEnvironment, progress?: GrepProgress): Promise<GrepAnswer> {
  return unlessCancelled(searchAndCheck(input, env, progress), env);
}

async function searchAndCheck(input: GrepInput, env: SearchEnvironment, progress?: GrepProgress): Promise<GrepAnswer> {
  const deadline = deadlineFrom(env.config);
  let report: GrepReport;
  try {
    // The readings an empty answer's notes ask about are counted by the search itself while nothing matched.
    report = await runGrep(input, env, { deadline, fallbacks: Object.values(readingChanges(input)) }, progress);
  } catch (error) {
    // An invalid regex that is valid literal text: the error says what the literal finds.
    throw error instanceof InvalidPatternError ? await explainInvalidPattern(error, input, env, deadline) : error;
  }
  return {
    ...report,
    diagnostics: await diagnoseGrep(input, report, env, deadline),
    firstLines: firstLinesOfHidden(input, report),
    largeFilesCheck: await checkLargeFiles(input, report, env, deadline),
  };
}
