// Who answered calls through a call flow (issue 81): the members (and plain numbers) a ring group
// rang who picked up, over the domains a member sees, for the Agents screen beside the spec's agents
// (only callStart names those). One aggregation per domain over its calls of the range (the index
// domainId, startedAt), grouped by who answered: bounded by the range, never by the number of calls.
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
  const byWho = new Map<string, FlowAnswerer & { rung: number; ringSum: number }>();
  for (const domain of domains) {
    const rows = await c.calls
      .aggregate<{ _id: { member: string | null; name: string }; calls: number; talk: number; rung: number; ringSum: number }>([
        { $match: { domainId: domain._id, startedAt: localDaysBetween(range.from, range.to, domain.timeZone), 'answeredBy.name': { $type: 'string' } } },
        { $group: { _id: { member: '$answeredBy.member', name: '$answeredBy.name' }, calls: { $sum: 1 }, talk: { $sum: { $ifNull: ['$duration', 0] } }, rung: { $sum: { $cond: [{ $isNumber: '$answeredBy.afterSeconds' }, 1, 0] } }, ringSum: { $sum: { $ifNull: ['$answeredBy.afterSeconds', 0] } } } },
      ])
      .toArray();
    for (const row of rows) {
      const key = row._id.member ?? `number:${row._id.name}`;
      const known = byWho.get(key) ?? { member: row._id.member ?? null, name: row._id.name, callsAnswered: 0, talkSeconds: 0, averageRingSeconds: null, rung: 0, ringSum: 0 };
      known.callsAnswered += row.calls;
      known.talkSeconds += row.talk;
      known.rung += row.rung;
      known.ringSum += row.ringSum;
      byWho.set(key, known);
    }
  }
  return [...byWho.values()]
    .map(({ rung, ringSum, ...a }) => ({ ...a, averageRingSeconds: rung ? Math.round((ringSum / rung) * 10) / 10 : null }))
    .sort((a, b) => b.callsAnswered - a.callsAnswered || a.name.localeCompare(b.name));
}
