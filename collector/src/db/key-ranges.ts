// Documents keyed by composite string `_id`s (`<domain>|<caller>|<start>|<id>`…), read as ranges of
// `_id`, which every engine does fast: numbers written at a fixed width so that `_id` order is
// their order, and the range of every key under a prefix.

/** A whole number, zero-padded to `digits` (negatives as 0), so that it sorts as a number. */
export const padded = (n: number, digits: number) => String(Math.max(0, n)).padStart(digits, '0');

/** Every `_id` that starts with `prefix`: from it up to the prefix with its last character's next. */
export function keysUnder(prefix: string): { $gte: string; $lt: string } {
  return { $gte: prefix, $lt: `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}` };
}
