/**
 * The engine's bounded memos (filtered and narrowed lists, prepared searches, parsed outlines, evaluated
 * queries, large-file findings, listed parts) are Maps in insertion order: the newest entry last, the
 * oldest dropped first.
 */

/** Sets `key` to `value` as the newest entry of `map`, dropping the oldest entries beyond `most`; returns `value`. */
export function keepNewest<K, V>(map: Map<K, V>, key: K, value: V, most: number): V {
  map.delete(key);
  map.set(key, value);
  while (map.size > most) map.delete(map.keys().next().value!);
  return value;
}
