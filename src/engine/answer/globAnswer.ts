/** A glob answer: the run's report and, when it is empty, what a changed call would find (diagnostics.ts). */
import type { GlobInput } from '../api/types';
import { GLOB_SCHEMA, validate } from '../input/schema';
import type { SearchEnvironment } from '../run/environment';
import { runGlob, type GlobReport } from '../run/glob';
import { unlessCancelled } from '../run/stop';
import { diagnoseGlob, type GlobDiagnostics } from './diagnostics';

export interface GlobAnswer extends GlobReport {
  /** With zero results: what a changed search would find. */
  diagnostics?: GlobDiagnostics;
}

/** Runs one glob and its checks; a cancelled one rejects with CancelledError (at once when the environment signals it). */
export function answerGlob(rawInput: unknown, env: SearchEnvironment): Promise<GlobAnswer> {
  return unlessCancelled(listAndCheck(rawInput, env), env);
}

async function listAndCheck(rawInput: unknown, env: SearchEnvironment): Promise<GlobAnswer> {
  const input = validate<GlobInput>('glob', GLOB_SCHEMA, rawInput);
  const report = await runGlob(input, env);
  return { ...report, diagnostics: await diagnoseGlob(input, report, env) };
}
