/** The extension's one pool of search workers, started on first use and stopped with the extension. */
import { SearchPool } from '../engine/pool';

let pool: SearchPool | undefined;

export function sharedPool(): SearchPool {
  pool ??= new SearchPool();
  return pool;
}

export function disposeSharedPool(): void {
  pool?.dispose();
  pool = undefined;
}
