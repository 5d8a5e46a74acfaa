// Request counters of the rate limits: the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';

export interface RateLimitDoc {
  _id: string; // `<limit>|<key>|<window start ms>`
  n: number;
  expireAt: Date;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const rateLimitIndexes: IndexPlan = {
  // Rate limit windows end by themselves.
  rateLimits: [[{ expireAt: 1 }, { expireAfterSeconds: 0 }]],
};

/** The http family's collections, as its services receive them. */
export interface RateLimitCollections {
  rateLimits: Collection<RateLimitDoc>;
}

export function rateLimitCollections(db: Db): RateLimitCollections {
  return collectionsNamed<RateLimitCollections>(db, { rateLimits: 'rate_limits' });
}
