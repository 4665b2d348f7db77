/** Waiting for a condition instead of sleeping: shared by the unit, system and integration tests. */
import * as assert from 'assert';

/**
 * Waits until `done()` holds, looking every `pollMs`; fails with "`what()` within N s" once `timeoutMs`
 * has passed (`what` is asked then, so it can tell the state at that moment).
 */
export async function waitUntil(done: () => boolean, what: () => string, timeoutMs = 60_000, pollMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    assert.ok(Date.now() < deadline, `${what()} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
