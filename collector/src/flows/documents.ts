// Call flows (ours, issue 65): the shapes and indexes of their documents (house/all-collections.ts
// gathers every family's). A flow's steps are as steps.ts reads them; which flow a number uses is
// said by the number's pool or offline number, and the domain's default.
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

/** Who last answered a caller through a sticky ring group: `_id` = `<domainId>|<caller>`. */
export interface StickyAnswerDoc {
  _id: string;
  member: string;
  at: Date;
}

export interface FlowCollections {
  callFlows: Collection<CallFlowDoc>;
  ringTurns: Collection<RingTurnDoc>;
  stickyAnswers: Collection<StickyAnswerDoc>;
}

export function flowCollections(db: Db): FlowCollections {
  return collectionsNamed<FlowCollections>(db, { callFlows: 'call_flows', ringTurns: 'ring_turns', stickyAnswers: 'sticky_answers' });
}

export const flowIndexes: IndexPlan = {
  // A domain's flows, by name.
  callFlows: [[{ domainId: 1, name: 1 }]],
};
