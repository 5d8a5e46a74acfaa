// What call-sources.ts and form-sources.ts share: an item (a call, a form submission) adds one to
// some places of its local day's counters under one field of the traffic day (`calls.src.paid`,
// `forms.lead.total`), its value in cents to the places under `value.` (a lead's value, rules/), and
// the same to the month counters of the same places' tables; a recount writes them all again from
// the stored items.
import { dayKey, domainKeys } from '../data/call-days.ts';
import { addToMonth, DimensionMonths, type MonthFields } from './dimension-months.ts';
import type { TrafficDayDoc, ReportCollections } from './documents.ts';
import { DAY_FIELD, DIMENSIONS, MONTH_BASE, type Dimension } from './dimensions.ts';
import { ownEntry } from '../own-entry.ts';

/** The traffic day's fields counted this way. */
export type CountedField = 'calls' | 'forms';

const DIMENSION_OF_FIELD = Object.fromEntries(DIMENSIONS.map((d) => [DAY_FIELD[d], d])) as Record<string, Dimension>;

/** What an item adds to its local day: one at each of `places`, its value's cents at each of
 * `value.places` (`value.cmp.<key>`), and a call's lead score at each of `score.places` (analysis/). */
export interface Share {
  day: string;
  places: string[];
  value?: { places: string[]; cents: number };
  score?: { places: string[]; points: number };
}

/** An amount of money as whole cents, the counters' unit. */
export const centsOf = (amount: number) => Math.round(amount * 100);

export const sameShare = (a: Share, b: Share) => JSON.stringify(a) === JSON.stringify(b);

/** The counters a share adds to (`sign` 1) or takes from (-1), each with its amount. */
export function increments(share: Share, sign: 1 | -1): Record<string, number> {
  const inc: Record<string, number> = Object.fromEntries(share.places.map((place) => [place, sign]));
  for (const [places, amount] of [[share.value?.places, share.value?.cents], [share.score?.places, share.score?.points]] as const) {
    if (places && amount) for (const place of places) inc[place] = (inc[place] ?? 0) + sign * amount;
  }
  return inc;
}

/** The month counters of a day's table places (`lead.firstTouch.cmp.<key>`): the count each place's
 * first part names (`counts`: `lead.` -> `leads`), at its table and touch model
 * (`cmp.firstTouch.leads.<key>`), each with the place's amount. */
export function monthIncrements(inc: Record<string, number>, counts: Record<string, string>): Record<string, number> {
  const paths: Record<string, number> = {};
  const firsts = Object.keys(counts).filter(Boolean).map((first) => first.replace('.', '\\.'));
  const placeOf = new RegExp(`^(${firsts.join('|')})?((?:firstTouch|lastNonDirect)\\.)?(kw|cmp|lp)\\.(.+)$`);
  for (const [place, n] of Object.entries(inc)) {
    const match = placeOf.exec(place);
    const count = counts[match?.[1] ?? ''];
    if (!match || !count) continue;
    const path = `${MONTH_BASE[DIMENSION_OF_FIELD[match[3]!]!]}${match[2] ?? ''}${count}.${match[4]!}`;
    paths[path] = (paths[path] ?? 0) + n;
  }
  return paths;
}

/** Adds `n` at a dotted path of a plain object, making the objects on the way. */
export function addAt(doc: Record<string, unknown>, path: string[], n: number): void {
  const [head, ...rest] = path as [string, ...string[]];
  // A keyword `constructor` is a key like any other: only the object's own entries count.
  const own = ownEntry(doc, head);
  if (!rest.length) doc[head] = ((own as number | undefined) ?? 0) + n;
  else addAt((own ?? (doc[head] = {})) as Record<string, unknown>, rest, n);
}

/** Adds a share to its day under `field` (`sign` 1) or takes it away (-1), and to its month's tables. */
export async function addShare(c: ReportCollections, domainId: string, field: CountedField, share: Share, sign: 1 | -1, monthCounts: Record<string, string>): Promise<void> {
  const inc = increments(share, sign);
  await Promise.all([
    c.trafficDays.updateOne({ _id: dayKey(domainId, share.day) }, { $inc: Object.fromEntries(Object.entries(inc).map(([place, n]) => [`${field}.${place}`, n])), $setOnInsert: { domainId, day: share.day } as Partial<TrafficDayDoc> }, { upsert: true }),
    new DimensionMonths(c).add(domainId, share.day, monthIncrements(inc, monthCounts)),
  ]);
}

/** A recount of one field: every stored item's places added up in memory, then written over what the
 * days and months held of that field. */
export class PlaceRecount {
  private readonly days = new Map<string, Record<string, unknown>>();
  private readonly months = new Map<string, MonthFields>();

  constructor(private readonly monthCounts: Record<string, string>) {}

  add(share: Share): void {
    const inc = increments(share, 1);
    const counts = this.days.get(share.day) ?? this.days.set(share.day, {}).get(share.day)!;
    for (const [place, n] of Object.entries(inc)) addAt(counts, place.split('.'), n);
    const month = share.day.slice(0, 7);
    const fields = this.months.get(month) ?? this.months.set(month, {}).get(month)!;
    for (const [path, n] of Object.entries(monthIncrements(inc, this.monthCounts))) addToMonth(fields, path, n);
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
