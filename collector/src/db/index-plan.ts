// How a family declares the indexes of its collections; house/all-collections.ts creates them at start (db/collections.ts createIndexes).
import type { CreateIndexesOptions, IndexSpecification } from 'mongodb';

/** Per collection (its name in the family's handles, e.g. `TelephonyCollections`), the keys of each index and their options. */
export type IndexPlan = Record<string, [IndexSpecification, CreateIndexesOptions?][]>;
