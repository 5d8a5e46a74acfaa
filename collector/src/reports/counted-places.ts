// What call-sources.ts and form-sources.ts share: an item (a call, a form submission) adds one to
// some places of its local day's counters under one field of the traffic day (`calls.src.paid`,
// `forms.lead.total`) and to the month counters of the same places' tables; a recount writes them
// all again from the stored items.
import { dayKey, domainKeys } from '../data/call-days.ts';
import { addToMonth, DimensionMonths, type MonthFields } from './dimension-months.ts';
import type { TrafficDayDoc, ReportCollections } from './documents.ts';
import { DAY_FIELD, DIMENSIONS, MONTH_BASE, type Dimension } from './dimensions.ts';

/** The traffic day's fields counted this way. */
export type CountedField = 'calls' | 'forms';

const DIMENSION_OF_FIELD = Object.fromEntries(DIMENSIONS.map((d) => [DAY_FIELD[d], d])) as Record<string, Dimension>;

/** The month counters of a day's table places (`lead.firstTouch.cmp.<key>`): the count each place's
 * first part names (`counts`), at its table and touch model (`cmp.firstTouch.leads.<key>`). */
export function monthPlaces(places: string[], counts: Record<string, string>): string[] {
  const paths = new Set<string>();
  for (const place of places) {
    const match = /^(new\.|lead\.)?((?:firstTouch|lastNonDirect)\.)?(kw|cmp|lp)\.(.+)$/.exec(place);
    const count = counts[match?.[1] ?? ''];
    if (match && count) paths.add(`${MONTH_BASE[DIMENSION_OF_FIELD[match[3]!]!]}${match[2] ?? ''}${count}.${match[4]!}`);
  }
  return [...paths];
}

/** Adds `n` at a dotted path of a plain object, making the objects on the way. */
export function addAt(doc: Record<string, unknown>, path: string[], n: number): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (!rest.length) doc[head] = ((doc[head] as number | undefined) ?? 0) + n;
  else addAt((doc[head] ??= {}) as Record<string, unknown>, rest, n);
}

/** Adds `n` to the places of a day (and their months' `monthPaths`). */
export async function addPlaces(c: ReportCollections, domainId: string, field: CountedField, day: string, places: string[], monthPaths: string[], n: number): Promise<void> {
  const inc = Object.fromEntries(places.map((place) => [`${field}.${place}`, n]));
  await Promise.all([
    c.trafficDays.updateOne({ _id: dayKey(domainId, day) }, { $inc: inc, $setOnInsert: { domainId, day } as Partial<TrafficDayDoc> }, { upsert: true }),
    new DimensionMonths(c).add(domainId, day, Object.fromEntries(monthPaths.map((path) => [path, n]))),
  ]);
}

/** A recount of one field: every stored item's places added up in memory, then written over what the
 * days and months held of that field. */
export class PlaceRecount {
  private readonly days = new Map<string, Record<string, unknown>>();
  private readonly months = new Map<string, MonthFields>();

  add(day: string, places: string[], monthPaths: string[]): void {
    const counts = this.days.get(day) ?? this.days.set(day, {}).get(day)!;
    for (const place of places) addAt(counts, place.split('.'), 1);
    const month = day.slice(0, 7);
    const fields = this.months.get(month) ?? this.months.set(month, {}).get(month)!;
    for (const path of monthPaths) addToMonth(fields, path, 1);
  }

  /** `monthFields`: every month field of the counted field (MONTH_CALL_FIELDS), unset first. Answers the days written. */
  async write(c: ReportCollections, domainId: string, field: CountedField, monthFields: string[]): Promise<number> {
    await new DimensionMonths(c).replace(domainId, this.months, monthFields);
    await c.trafficDays.updateMany({ _id: domainKeys(domainId) }, { $unset: { [field]: '' } });
    for (const [day, counts] of this.days) {
      await c.trafficDays.updateOne({ _id: dayKey(domainId, day) }, { $set: { [field]: counts }, $setOnInsert: { domainId, day } }, { upsert: true });
    }
    return this.days.size;
  }
}
