/**
 * Entry of the suite run in a second window on the single-folder workspace, in the same session (same
 * user data and extension storage) after the single-folder suite: what a window reload finds.
 */
import { runSuites } from './index';

export async function run(): Promise<void> {
  await runSuites(['reopen']);
}
