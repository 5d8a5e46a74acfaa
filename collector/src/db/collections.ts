// How a family makes the typed handles of its own collections and creates their indexes: db/ knows
// no family, each family's documents.ts names its collections and calls these.
import type { Collection, Db } from 'mongodb';
import type { IndexPlan } from './index-plan.ts';

/** A family's handles: each collection's name in code, and its name in the database. */
export function collectionsNamed<T extends Record<keyof T, Collection<any>>>(db: Db, names: Record<keyof T, string>): T {
  return Object.fromEntries(Object.entries(names).map(([key, name]) => [key, db.collection(name as string)])) as T;
}

/** Idempotent; run at every start. `plan` names collections of `handles` (a family's, or several). */
export async function createIndexes(handles: object, plan: IndexPlan): Promise<void> {
  await Promise.all(
    Object.entries(plan).flatMap(([name, indexes]) => {
      const collection = (handles as Record<string, Collection | undefined>)[name];
      if (!collection) throw new Error(`an index plan names ${name}, which is not a collection`);
      return indexes.map(([key, options]) => collection.createIndex(key, options ?? {}));
    }),
  );
}
