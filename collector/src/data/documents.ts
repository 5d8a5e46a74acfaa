// The data API's daily rollups and page buckets of calls: the shapes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { CallStatus } from '@ringtrail/shared';

export type StatusTotals = Partial<Record<CallStatus, { calls: number; duration: number; revenueCents: number }>>;

/** The call fields the daily rollups also count by: the data API's filters that can match most calls. */
export type RollupDimension = 'trackingNumber' | 'destination' | 'offlineDescription';

/** A domain's calls of one local day whose outcome is known, per status (data/call-days.ts); again
 * per value of each dimension, keyed by `rollupKey(value)`. */
export interface CallDayDoc {
  _id: string; // `<domainId>|<YYYY-MM-DD>`
  domainId: string;
  day: string;
  statuses: StatusTotals;
  by?: Partial<Record<RollupDimension, Record<string, StatusTotals>>>;
}

/** A domain's calls of one UTC hour (data/call-pages.ts): by call id, each one's entry (null where
 * the call moved to another hour) and the call revision it was written at. */
export interface CallPageDoc {
  _id: string; // `<domainId>|<hour ISO>`
  domainId: string;
  hour: Date;
  calls: Record<string, string | null>;
  revs: Record<string, number>;
}

/** A call of a caller (data/caller-calls.ts): `_id` = `<domainId>|<caller>|<start ms, 13 digits>|<call id, 15 digits>`.
 * No status: a tombstone, where the call was before it moved. */
export interface CallerCallDoc {
  _id: string;
  rev: number;
  status?: CallStatus | null;
}

/** The data family's collections, as its services receive them. */
export interface DataCollections {
  callDays: Collection<CallDayDoc>;
  callPages: Collection<CallPageDoc>;
  callerCalls: Collection<CallerCallDoc>;
}

export function dataCollections(db: Db): DataCollections {
  return collectionsNamed<DataCollections>(db, { callDays: 'call_days', callPages: 'call_pages', callerCalls: 'caller_calls' });
}
