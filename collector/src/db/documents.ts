// Id sequences and outside references (a carrier's callRef, a shop's cart id): the shapes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from './collections.ts';

/** Claims an outside reference (`call:<callRef>`, `sms:<smsRef>`, `cart:<domain>:<id>`, `order:<domain>:<id>`)
 * for the one record it may create. */
export interface ExternalRefDoc {
  _id: string;
  recordId: number;
}

/** The last integer id handed out of a sequence (visit, view, call...): blocks are taken with `$inc`. */
export interface CounterDoc {
  _id: string;
  last: number;
}

/** The id family's collections, as its services receive them. */
export interface IdCollections {
  counters: Collection<CounterDoc>;
  externalRefs: Collection<ExternalRefDoc>;
}

export function idCollections(db: Db): IdCollections {
  return collectionsNamed<IdCollections>(db, { counters: 'counters', externalRefs: 'external_refs' });
}
