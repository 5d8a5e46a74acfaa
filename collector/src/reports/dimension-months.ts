// The tables' counters by month (dimensions.ts): a domain's visits, calls and sales per keyword,
// campaign and landing page, kept at write time next to the daily counters. A day may have hundreds
// of values per table; a year of days is too many to add up per request, so a range reads its whole
// months here and only the days at its two edges (traffic-days.ts `kw`, `cmp`, `lp`; call-sources.ts
// `calls.kw`...). The collection keeps its first name, keywordMonths.
import { domainKeys } from '../data/call-days.ts';
import { addDays } from '../domains/time-zone.ts';
import type { KeywordMonthDoc, ReportCollections } from './documents.ts';
import { modelPrefix, TOUCH_MODELS, type TouchModel } from './touch-models.ts';
import { DIMENSIONS, MONTH_BASE, type Dimension } from './dimensions.ts';
import { ownEntry } from '../own-entry.ts';

/** Ours (analysis/): the calls analysed, those that booked an appointment or made a sale, and their lead scores' sum. */
const ANALYSIS_COUNTS = ['analysedCalls', 'appointments', 'salesMade', 'leadScoreSum'] as const;

export const monthKey = (domainId: string, month: string) => `${domainId}|${month}`;

/** What a month counts per value of a table. */
export const MONTH_COUNTS = ['visits', 'calls', 'newCalls', 'leads', 'formLeads', 'orders', 'revenueCents', 'callValueCents', 'formValueCents', ...ANALYSIS_COUNTS] as const;
export type MonthCounts = Record<(typeof MONTH_COUNTS)[number], number>;
const CALL_COUNTS = ['calls', 'newCalls', 'leads', 'callValueCents', ...ANALYSIS_COUNTS] as const;

/** Every field of a month's document holding calls, per table and touch model (`cmp.firstTouch.leads`). */
export const MONTH_CALL_FIELDS = monthFields(CALL_COUNTS);
/** The same of the form leads (form-sources.ts). */
export const MONTH_FORM_FIELDS = monthFields(['formLeads', 'formValueCents']);

function monthFields(counts: readonly string[]): string[] {
  return DIMENSIONS.flatMap((dimension) => TOUCH_MODELS.flatMap((model) => counts.map((count) => `${MONTH_BASE[dimension]}${modelPrefix(model)}${count}`)));
}

/** Counters per field of a month's document (`cmp.calls`), then per key. */
export type MonthFields = Record<string, Record<string, number>>;

/** Adds `n` at a month counter's dotted path (`cmp.visits.<key>`): its field, then its key. */
export function addToMonth(fields: MonthFields, path: string, n: number): void {
  const cut = path.lastIndexOf('.');
  const field = (fields[path.slice(0, cut)] ??= {});
  const key = path.slice(cut + 1); // a keyword `constructor` is a key like any other
  field[key] = (ownEntry(field, key) ?? 0) + n;
}

export class DimensionMonths {
  constructor(private readonly c: ReportCollections) {}

  /** Adds to dotted counters (`cmp.visits.<key>`) of the month of `day`. */
  async add(domainId: string, day: string, inc: Record<string, number>): Promise<void> {
    if (!Object.keys(inc).length) return;
    const month = day.slice(0, 7);
    await this.c.keywordMonths.updateOne({ _id: monthKey(domainId, month) }, { $inc: inc, $setOnInsert: { domainId, month } }, { upsert: true });
  }

  /** The keys each table's visits hold in a month's document (key-limits.ts). */
  async visitKeys(docId: string): Promise<Record<string, string[]>> {
    const fields = DIMENSIONS.map((dimension) => `${MONTH_BASE[dimension]}visits`);
    const doc = await this.c.keywordMonths.findOne({ _id: docId }, { projection: Object.fromEntries(fields.map((f) => [f, 1])) });
    return Object.fromEntries(fields.map((field) => [field, Object.keys((at(doc, field) as Record<string, number> | undefined) ?? {})]));
  }

  /** Sets a domain's counters of these fields per month (MONTH_CALL_FIELDS: calls, first calls and
   * leads), after they were counted again. */
  async replace(domainId: string, byMonth: Map<string, MonthFields>, fields: string[]): Promise<void> {
    await this.c.keywordMonths.updateMany({ _id: domainKeys(domainId) }, { $unset: Object.fromEntries(fields.map((field) => [field, ''])) });
    for (const [month, fields] of byMonth) {
      await this.c.keywordMonths.updateOne({ _id: monthKey(domainId, month) }, { $set: fields, $setOnInsert: { domainId, month } }, { upsert: true });
    }
  }

  /** Visits, and calls and sales as the touch model credits them, per value of each table over these whole months. */
  async read(domainId: string, months: string[], model: TouchModel = 'last-touch'): Promise<Record<Dimension, Map<string, MonthCounts>>> {
    const tables = Object.fromEntries(DIMENSIONS.map((d) => [d, new Map<string, MonthCounts>()])) as Record<Dimension, Map<string, MonthCounts>>;
    if (!months.length) return tables;
    const place = (dimension: Dimension, count: (typeof MONTH_COUNTS)[number]) => `${MONTH_BASE[dimension]}${count === 'visits' ? '' : modelPrefix(model)}${count}`;
    const projection = Object.fromEntries(DIMENSIONS.flatMap((d) => MONTH_COUNTS.map((count) => [place(d, count), 1])));
    const docs = await this.c.keywordMonths.find({ _id: { $in: months.map((m) => monthKey(domainId, m)) } }, { projection }).toArray();
    for (const doc of docs) {
      for (const dimension of DIMENSIONS) {
        for (const count of MONTH_COUNTS) {
          for (const [key, n] of Object.entries((at(doc, place(dimension, count)) as Record<string, number> | undefined) ?? {})) {
            const row = tables[dimension].get(key) ?? tables[dimension].set(key, zeroMonth()).get(key)!;
            row[count] += n;
          }
        }
      }
    }
    return tables;
  }
}

const zeroMonth = (): MonthCounts => Object.fromEntries(MONTH_COUNTS.map((count) => [count, 0])) as MonthCounts;

/** The value at a dotted path of a document. */
function at(doc: KeywordMonthDoc | null, path: string): unknown {
  return path.split('.').reduce<unknown>((value, name) => (value as Record<string, unknown> | undefined)?.[name], doc);
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
