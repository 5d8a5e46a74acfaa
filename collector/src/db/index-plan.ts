// How a family declares the indexes of its collections; db/collections.ts creates them at start.
import type { CreateIndexesOptions, IndexSpecification } from 'mongodb';

/** Per collection (its name in `Collections`), the keys of each index and their options. */
export type IndexPlan = Record<string, [IndexSpecification, CreateIndexesOptions?][]>;
