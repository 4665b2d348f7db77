/**
 * The extension's one pool of search workers, started at activation and stopped with the extension. Its
 * threads run in the background, below the extension host's main thread.
 */
import { SearchPool } from '../engine/pool/pool';

let pool: SearchPool | undefined;

export function sharedPool(): SearchPool {
  pool ??= new SearchPool(undefined, { background: true });
  return pool;
}

export function disposeSharedPool(): void {
  pool?.dispose();
  pool = undefined;
}
