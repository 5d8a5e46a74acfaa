// Keywords by month: a domain's visits and calls per keyword, kept at write time next to the daily
// counters. A day may have hundreds of keywords; a year of days is too many to add up per request,
// so a range reads its whole months here and only the days at its two edges (traffic-days.ts `kw`,
// call-sources.ts `calls.kw`).
import type { Collections } from '../db/collections.ts';
import { domainKeys } from '../data/call-days.ts';
import { addDays } from '../domains/time-zone.ts';

export const monthKey = (domainId: string, month: string) => `${domainId}|${month}`;

type Field = 'visits' | 'calls' | 'newCalls' | 'leads';
const FIELDS: Field[] = ['visits', 'calls', 'newCalls', 'leads'];

/** A month's calls, first calls and leads per keyword. */
export type KeywordCalls = Partial<Record<Exclude<Field, 'visits'>, Record<string, number>>>;

export class KeywordMonths {
  constructor(private readonly c: Collections) {}

  /** Adds `n` to the keyword's `visits`, `calls`, `newCalls` (first calls) or `leads` in the month of `day`. */
  async add(domainId: string, day: string, field: Field, key: string, n: number): Promise<void> {
    const month = day.slice(0, 7);
    await this.c.keywordMonths.updateOne({ _id: monthKey(domainId, month) }, { $inc: { [`${field}.${key}`]: n }, $setOnInsert: { domainId, month } }, { upsert: true });
  }

  /** Sets a domain's keyword calls, first calls and leads per month, after its calls were counted again. */
  async replaceCalls(domainId: string, byMonth: Map<string, KeywordCalls>): Promise<void> {
    await this.c.keywordMonths.updateMany({ _id: domainKeys(domainId) }, { $unset: { calls: '', newCalls: '', leads: '' } });
    for (const [month, calls] of byMonth) {
      await this.c.keywordMonths.updateOne({ _id: monthKey(domainId, month) }, { $set: calls, $setOnInsert: { domainId, month } }, { upsert: true });
    }
  }

  /** Visits and calls per keyword of the whole months in the range, and the days outside them. */
  async read(domainId: string, months: string[]): Promise<Map<string, Record<Field, number>>> {
    const docs = months.length ? await this.c.keywordMonths.find({ _id: { $in: months.map((m) => monthKey(domainId, m)) } }).toArray() : [];
    const totals = new Map<string, Record<Field, number>>();
    for (const doc of docs) {
      for (const field of FIELDS) {
        for (const [key, n] of Object.entries(doc[field] ?? {})) (totals.get(key) ?? totals.set(key, { visits: 0, calls: 0, newCalls: 0, leads: 0 }).get(key)!)[field] += n;
      }
    }
    return totals;
  }
}

/** The whole months inside `from`..`to`, and the days of the range outside them. */
export function splitByMonth(from: string, to: string): { months: string[]; edgeDays: string[] } {
  const months: string[] = [];
  const edgeDays: string[] = [];
  let day = from;
  while (day <= to) {
    const monthEnd = addDays(`${addMonth(day.slice(0, 7))}-01`, -1);
    if (day.endsWith('-01') && monthEnd <= to) {
      months.push(day.slice(0, 7));
      day = addDays(monthEnd, 1);
    } else {
      edgeDays.push(day);
      day = addDays(day, 1);
    }
  }
  return { months, edgeDays };
}

function addMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
