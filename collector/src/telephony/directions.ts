// Calls received and calls placed (issue 80): a call a member placed from the back end (issue 68) is
// kept with the calls, on its person's timeline, and listed only where calls placed are asked for.
// Every listing and count of calls received (the data API's pages and their totals, its filters,
// the calls log, the reports) reads this one filter, so none lists a call another one leaves out.
import type { CallDoc } from './documents.ts';

/** The calls received, as a query: every call but those placed from the back end. */
export const RECEIVED = { direction: { $ne: 'outbound' as const } };

/** The calls placed from the back end, as a query. */
export const PLACED = { direction: 'outbound' as const };

/** Whether a call was received (not placed from the back end). */
export const isReceived = (call: Pick<CallDoc, 'direction'>): boolean => call.direction !== 'outbound';

/** The query of one direction: `outbound`, the calls placed; otherwise those received. */
export const directionFilter = (direction: 'outbound' | undefined) => (direction === 'outbound' ? PLACED : RECEIVED);
