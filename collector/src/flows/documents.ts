// Call flows (ours, issue 65): the shapes and indexes of their documents (house/all-collections.ts
// gathers every family's). A flow's steps are as steps.ts reads them; which flow a number uses is
// its `assignedTo`. Who last answered a caller is the telephony family's (sticky_answers: a caller's
// number, erased with them).
import type { Collection, Db, GridFSFile } from 'mongodb';
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
  /** The recorded prompts' files (GridFS bucket `flow_audio`, prompt-audio.ts): indexed by domain for its quota and clean-up. */
  promptFiles: Collection<GridFSFile>;
}

export function flowCollections(db: Db): FlowCollections {
  return collectionsNamed<FlowCollections>(db, { callFlows: 'call_flows', ringTurns: 'ring_turns', promptFiles: 'flow_audio.files' });
}

export const flowIndexes: IndexPlan = {
  // A domain's flows, by name.
  callFlows: [[{ domainId: 1, name: 1 }]],
  // A domain's prompts in upload order: its quota, and the clean-up of those no flow names.
  promptFiles: [[{ 'metadata.domainId': 1, uploadDate: 1 }]],
};
