// Call flows (ours, issue 65): the shapes and indexes of their documents (house/all-collections.ts
// gathers every family's). A flow's steps are as steps.ts reads them; which flow a number uses is
// its `assignedTo`. Who last answered a caller is the telephony family's (sticky_answers: a caller's
// number, erased with them).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { FlowBody } from './steps.ts';

/** A domain's call flow. `_id`: a random id. */
export interface CallFlowDoc extends FlowBody {
  _id: string;
  domainId: string;
  createdAt: Date;
  updatedAt: Date;
  by: string;
}

/** A round-robin ring group's calls so far: `_id` = `<domainId>|<flowId>|<step>`; each call claims the next turn. */
export interface RingTurnDoc {
  _id: string;
  turns: number;
}

export interface FlowCollections {
  callFlows: Collection<CallFlowDoc>;
  ringTurns: Collection<RingTurnDoc>;
}

export function flowCollections(db: Db): FlowCollections {
  return collectionsNamed<FlowCollections>(db, { callFlows: 'call_flows', ringTurns: 'ring_turns' });
}

export const flowIndexes: IndexPlan = {
  // A domain's flows, by name.
  callFlows: [[{ domainId: 1, name: 1 }]],
};
