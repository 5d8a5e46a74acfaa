// Id sequences and outside references (a carrier's callRef, a shop's cart id): the shapes of their documents (db/collections.ts gathers every family's).

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
