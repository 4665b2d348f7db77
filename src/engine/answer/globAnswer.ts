/** A glob answer: the run's report and, when it is empty, what a changed call would find (diagnostics.ts). */
import type { GlobInput } from '../api/types';
import { deadlineFrom, type SearchEnvironment } from '../run/environment';
import { runGlob, type GlobReport } from '../run/glob';
import { unlessCancelled } from '../run/stop';
import { diagnoseGlob, type GlobDiagnostics } from './diagnostics';

export interface GlobAnswer extends GlobReport {
  /** With zero results: what a changed search would find. */
  diagnostics?: GlobDiagnostics;
}

/**
 * Runs one glob of a validated input (input/schema.ts, globInput) and its checks, within
 * grepTools.timeoutSeconds; a cancelled one rejects with CancelledError (at once when the environment
 * signals it).
 */
export function answerGlob(input: GlobInput, env: SearchEnvironment): Promise<GlobAnswer> {
  return unlessCancelled(listAndCheck(input, env), env);
}

async function listAndCheck(input: GlobInput, env: SearchEnvironment): Promise<GlobAnswer> {
  const deadline = deadlineFrom(env.config);
  const report = await runGlob(input, env, { deadline });
  return { ...report, diagnostics: await diagnoseGlob(input, report, env, deadline) };
}
