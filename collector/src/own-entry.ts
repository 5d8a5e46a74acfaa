// Lookups in plain objects keyed by what people write: only the object's own entries, so a word
// that `Object.prototype` also has (`constructor`, `toString`) is a key like any other (issue 79).

export function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
