// Lists and cursors taken a batch at a time, so that a long list is never one query (an `$in` of a
// million ids) nor one write, and a long cursor is never held whole.

/** The list in consecutive slices of at most `size`. */
export function* chunksOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Each item of a cursor (or a list) as `map` makes it, one at a time. */
export async function* mapped<T, U>(items: AsyncIterable<T> | Iterable<T>, map: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield map(item);
}

/** Writes what `items` make, `size` at a time; answers how many. */
export async function inBatches<T>(items: AsyncIterable<T>, size: number, write: (batch: T[]) => Promise<unknown>): Promise<number> {
  let batch: T[] = [];
  let count = 0;
  for await (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      await write(batch);
      count += batch.length;
      batch = [];
    }
  }
  if (batch.length) await write(batch);
  return count + batch.length;
}
