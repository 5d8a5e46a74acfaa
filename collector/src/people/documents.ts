// People (ours): the contacts of a domain that share a phone number, an e-mail address or a visitor
// id are one person. Each key a person is known by is a document of its own whose `_id` is the
// key: finding a caller's person is one `_id` lookup, which every engine does fast.
import type { IndexPlan } from '../db/index-plan.ts';

export interface PersonDoc {
  _id: number;
  domainId: string;
  createdAt: Date;
  /** Set when a later contact joined this person to another: the one it lives on as. */
  mergedInto?: number;
  /** When the person was erased on request (erase.ts): their contacts stay, anonymous. */
  erasedAt?: Date;
}

/** `_id`: `<domainId>|phone:<canonical>`, `…|email:<address>` or `…|visitor:<id>`. */
export interface PersonKeyDoc {
  _id: string;
  personId: number;
}

export const peopleIndexes: IndexPlan = {
  // A person's keys, to show and to move on a merge.
  personKeys: [[{ personId: 1 }]],
};
