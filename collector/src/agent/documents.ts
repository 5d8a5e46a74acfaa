// Calls an agent has open (the live window of the webhook pushes): the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';

/** A call an agent is on: from callStart until the call's outcome is reported, or `until`. */
export interface LiveCallDoc {
  _id: number; // callId
  accountId: string;
  visitId: number | null;
  openedAt: Date;
  until: Date;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const agentIndexes: IndexPlan = {
  liveCalls: [[{ visitId: 1 }]],
};

/** The agent family's collections, as its services receive them. */
export interface AgentCollections {
  liveCalls: Collection<LiveCallDoc>;
}

export function agentCollections(db: Db): AgentCollections {
  return collectionsNamed<AgentCollections>(db, { liveCalls: 'live_calls' });
}
