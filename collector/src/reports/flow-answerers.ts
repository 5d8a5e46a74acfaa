// Who answered calls through a call flow (issue 81): the members (and plain numbers) a ring group
// rang who picked up, over the domains a member sees, for the Agents screen beside the spec's agents
// (only callStart names those). One aggregation over the domains' calls of the range (the index
// domainId, startedAt), grouped by who answered.
import type { DomainDoc } from '../domains/documents.ts';
import { localDaysBetween } from '../domains/time-zone.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { DayRange } from './day-range.ts';

export interface FlowAnswerer {
  /** The member's username; null: a plain number of a ring group. */
  member: string | null;
  name: string;
  callsAnswered: number;
  /** Seconds talked, in all (the calls' durations). */
  talkSeconds: number;
  /** How long their phone rang before they answered, on average, where the carrier said. */
  averageRingSeconds: number | null;
}

export async function flowAnswerers(c: TelephonyCollections, domains: Pick<DomainDoc, '_id' | 'timeZone'>[], range: DayRange): Promise<FlowAnswerer[]> {
  if (!domains.length) return [];
  // Each domain's days in its own time zone, in one aggregation.
  const rows = await c.calls
    .aggregate<{ _id: { member: string | null; name: string }; calls: number; talk: number; rung: number; ringSum: number }>([
      { $match: { $or: domains.map((d) => ({ domainId: d._id, startedAt: localDaysBetween(range.from, range.to, d.timeZone) })), 'answeredBy.name': { $type: 'string' } } },
      // A plain number is keyed by its name: members by their username.
      { $group: { _id: { member: { $ifNull: ['$answeredBy.member', null] }, name: { $cond: [{ $eq: [{ $ifNull: ['$answeredBy.member', null] }, null] }, '$answeredBy.name', ''] } }, calls: { $sum: 1 }, talk: { $sum: { $ifNull: ['$duration', 0] } }, rung: { $sum: { $cond: [{ $isNumber: '$answeredBy.afterSeconds' }, 1, 0] } }, ringSum: { $sum: { $ifNull: ['$answeredBy.afterSeconds', 0] } } } },
    ])
    .toArray();
  return rows
    .map((r) => ({ member: r._id.member, name: r._id.member ?? r._id.name, callsAnswered: r.calls, talkSeconds: r.talk, averageRingSeconds: r.rung ? Math.round((r.ringSum / r.rung) * 10) / 10 : null }))
    .sort((a, b) => b.callsAnswered - a.callsAnswered || a.name.localeCompare(b.name));
}
