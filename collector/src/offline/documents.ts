// Offline numbers' assignments: the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { TimetableEntry } from '@ringtrail/shared';
import type { IndexPlan } from '../db/index-plan.ts';

/** An offline number's assignment; `_id` = the number, so two assigns of one number collide. Deleted on unassign. */
export interface OfflineAssignmentDoc {
  _id: string;
  domainId: string;
  type: number;
  destination: string;
  description: string;
  allowRedirect: boolean;
  timetable: TimetableEntry[];
  operator: string | null;
  /** Ours: false, its calls are never recorded, whatever the domain's recording says (absent: as the domain says). */
  recording?: boolean;
  assignedAt: Date;
  updatedAt: Date;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const offlineIndexes: IndexPlan = {
  offlineAssignments: [[{ domainId: 1, destination: 1 }]],
};

/** The offline family's collections, as its services receive them. */
export interface OfflineCollections {
  offlineAssignments: Collection<OfflineAssignmentDoc>;
}

export function offlineCollections(db: Db): OfflineCollections {
  return collectionsNamed<OfflineCollections>(db, { offlineAssignments: 'offline_assignments' });
}
