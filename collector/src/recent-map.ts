// A process's memory of what it saw last, bounded: a Map kept in the order its entries were last set.

/** Sets `key` as the newest entry of `map`, forgetting the oldest once there are more than `max`. */
export function setRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
