// The overview's three tables of named things: keywords, campaigns (utm_campaign) and landing pages
// (the path of a visit's first page). Each is counted at write time like the source classes, under
// a field of its own: per day in the traffic days (`kw`, `cmp`, `lp`: visits and sales of each
// value, and `calls.<field>`), per month in the month documents (dimension-months.ts), keywords at
// their top as they always were, the others under their field.
//
// A table may have as many values as visitors make up (a path, a campaign name in a URL), so each
// document keeps at most MAX_KEYS values per table; later new ones count under OTHER. That bounds
// every document, and the work of every report, whatever the traffic (key-limits.ts).
import type { Attribution } from '../tracking/attribution.ts';
import { rollupKey } from '../data/call-days.ts';

export const DIMENSIONS = ['keyword', 'campaign', 'landingPage'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** A dimension's field in a day's document (and under its `calls`). */
export const DAY_FIELD: Record<Dimension, 'kw' | 'cmp' | 'lp'> = { keyword: 'kw', campaign: 'cmp', landingPage: 'lp' };
/** Where its counters are in a month's document: keywords at the top, the others under their field. */
export const MONTH_BASE: Record<Dimension, '' | 'cmp.' | 'lp.'> = { keyword: '', campaign: 'cmp.', landingPage: 'lp.' };

/** Values of one table a document keeps; later new values count under OTHER. */
export const MAX_KEYS = 1000;
/** The row of the values past MAX_KEYS. */
export const OTHER = '(other)';
/** A value is cut to this many characters before it becomes a key. */
const MAX_VALUE_LENGTH = 200;

export type DimensionValues = Record<Dimension, string | null>;

/** What a visit (or a touch, which is one) is counted under in each table. */
export function valuesOf(visit: { keyword: string | null; campaign?: string | null | undefined; landingUrl?: string | null | undefined }): DimensionValues {
  return { keyword: visit.keyword, campaign: visit.campaign?.trim() || null, landingPage: visit.landingUrl ? landingPath(visit.landingUrl) : null };
}

/** What a visit starting at `landingUrl` is counted under. */
export function visitValues(attribution: Attribution, landingUrl: string | undefined): DimensionValues {
  return valuesOf({ keyword: attribution.keyword, campaign: attribution.utm.utm_campaign, landingUrl });
}

/** The path of a page's URL, without its query or fragment: `/offers/boilers`. */
export function landingPath(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/** A value as a field name of its table (data/call-days.ts rollupKey), cut to a bounded length. */
export function keyOf(value: string): string {
  // By code points, so that a cut never leaves half a character (which encodeURIComponent refuses).
  return rollupKey(Array.from(value.slice(0, MAX_VALUE_LENGTH + 1)).slice(0, MAX_VALUE_LENGTH).join(''));
}

/** The key as written in a table. */
export function valueOfKey(key: string): string {
  return decodeURIComponent(key);
}
