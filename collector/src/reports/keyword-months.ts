// Keywords by month: a domain's visits and calls per keyword, kept at write time next to the daily
// counters. A day may have hundreds of keywords; a year of days is too many to add up per request,
// so a range reads its whole months here and only the days at its two edges (traffic-days.ts `kw`,
// call-sources.ts `calls.kw`).
import type { Collections } from '../db/collections.ts';
import { domainKeys } from '../data/call-days.ts';
import { addDays } from '../domains/time-zone.ts';
import type { KeywordCallCounts, KeywordMonthDoc } from './documents.ts';
import { MODEL_FIELD, type TouchModel } from './touch-models.ts';

export const monthKey = (domainId: string, month: string) => `${domainId}|${month}`;

type Field = 'visits' | 'calls' | 'newCalls' | 'leads';
const CALL_FIELDS = ['calls', 'newCalls', 'leads'] as const;

/** A month's calls, first calls and leads per keyword, by the last touch and under the other touch models. */
export type KeywordCalls = KeywordCallCounts & Pick<KeywordMonthDoc, 'firstTouch' | 'lastNonDirect'>;

export class KeywordMonths {
  constructor(private readonly c: Collections) {}

  /** Adds `n` to the keyword's `visits`, `calls`, `newCalls` (first calls) or `leads` in the month of
   * `day`; the calls' under a touch model's prefix (`firstTouch.calls`). */
  async add(domainId: string, day: string, field: string, key: string, n: number): Promise<void> {
    const month = day.slice(0, 7);
    await this.c.keywordMonths.updateOne({ _id: monthKey(domainId, month) }, { $inc: { [`${field}.${key}`]: n }, $setOnInsert: { domainId, month } }, { upsert: true });
  }

  /** Sets a domain's keyword calls, first calls and leads per month, after its calls were counted again. */
  async replaceCalls(domainId: string, byMonth: Map<string, KeywordCalls>): Promise<void> {
    await this.c.keywordMonths.updateMany({ _id: domainKeys(domainId) }, { $unset: { calls: '', newCalls: '', leads: '', firstTouch: '', lastNonDirect: '' } });
    for (const [month, calls] of byMonth) {
      await this.c.keywordMonths.updateOne({ _id: monthKey(domainId, month) }, { $set: calls, $setOnInsert: { domainId, month } }, { upsert: true });
    }
  }

  /** Visits, and calls as the touch model credits them, per keyword of these whole months. */
  async read(domainId: string, months: string[], model: TouchModel = 'last-touch'): Promise<Map<string, Record<Field, number>>> {
    const docs = months.length ? await this.c.keywordMonths.find({ _id: { $in: months.map((m) => monthKey(domainId, m)) } }).toArray() : [];
    const totals = new Map<string, Record<Field, number>>();
    const add = (field: Field, counts: Record<string, number> | undefined) => {
      for (const [key, n] of Object.entries(counts ?? {})) (totals.get(key) ?? totals.set(key, { visits: 0, calls: 0, newCalls: 0, leads: 0 }).get(key)!)[field] += n;
    };
    for (const doc of docs) {
      add('visits', doc.visits);
      const modelField = MODEL_FIELD[model];
      const calls: KeywordCallCounts | undefined = modelField ? doc[modelField] : doc;
      for (const field of CALL_FIELDS) add(field, calls?.[field]);
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
