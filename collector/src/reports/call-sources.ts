// The back end's count of calls per local day, by the class of their source and by keyword, campaign
// and landing page (dimensions.ts), kept at every call write in the day's traffic document
// (traffic-days.ts, field `calls`), so the overview
// reads one range of small documents. Like the data API's rollups, a call counts once its outcome is
// known, and a carrier's later report moves it (another day, another status) by exactly the change.
import type { CallDoc } from '../telephony/documents.ts';
import type { CallSourceCounts, TrafficDayDoc } from './documents.ts';
import type { Collections } from '../db/collections.ts';
import { dayKey, domainKeys, type CallZones } from '../data/call-days.ts';
import { localTime } from '../domains/time-zone.ts';
import { addToMonth, DimensionMonths, MONTH_CALL_FIELDS, type MonthFields } from './dimension-months.ts';
import { DAY_FIELD, DIMENSIONS, keyOf, MONTH_BASE, type Dimension } from './dimensions.ts';
import { creditOf, modelPrefix, TOUCH_MODELS, type Credited, type TouchModel } from './touch-models.ts';

type Counted = Pick<CallDoc, 'domainId' | 'startedAt' | 'status' | 'source' | 'keyword' | 'firstCall' | 'lead' | 'lastTouch' | 'firstTouch' | 'lastNonDirect' | 'verdict'>;

/** The one name of the source of a call no visit led to, in every report and in the CSV. */
export const UNATTRIBUTED = 'unattributed';

/** The class of a call's source (`organic` of `organic:google.com`); `unattributed` when no visit led to it. */
export function sourceClassOf(source: string | null): string {
  return source ? source.split(':')[0]! : UNATTRIBUTED;
}

interface Share {
  domainId: string;
  day: string;
  /** Counters of `calls` the call adds one to: `total`, `answered`, `src.paid`, `kw.<key>`, `cmp.<key>`,
   * `lp.<key>`, those of the other touch models under their prefix (`firstTouch.src.paid`), all of
   * them again under `new.` for a caller's first call and under `lead.` for a lead; or `blocked`,
   * or `spam`. */
  places: string[];
}

function shareOf(call: Counted | null, timeZone: string): Share | null {
  if (!call || call.status === null) return null;
  // A blocked caller's call is counted apart: never a call of a source, never an answered one.
  if (call.status === 'CALLER_PHONE_BLACKLISTED') return { domainId: call.domainId, day: localTime(call.startedAt, timeZone).day, places: ['blocked'] };
  // So is a call a person marked spam: in no figure of calls, new callers or leads, but its own.
  if (call.verdict?.value === 'spam') return { domainId: call.domainId, day: localTime(call.startedAt, timeZone).day, places: ['spam'] };
  const counted = ['total', ...TOUCH_MODELS.flatMap((model) => creditedPlaces(call, model))];
  const places = [...counted, ...(call.status === 'SUCCESS' ? ['answered'] : []), ...(call.firstCall ? counted.map((place) => `new.${place}`) : []), ...(call.lead ? counted.map((place) => `lead.${place}`) : [])];
  return { domainId: call.domainId, day: localTime(call.startedAt, timeZone).day, places };
}

/** The source class, keyword, campaign and landing page counters a touch model credits a call or a
 * form submission in. */
export function creditedPlaces(item: Credited, model: TouchModel): string[] {
  const { source, ...values } = creditOf(item, model);
  const prefix = modelPrefix(model);
  return [`${prefix}src.${sourceClassOf(source)}`, ...DIMENSIONS.flatMap((d) => (values[d] ? [`${prefix}${DAY_FIELD[d]}.${keyOf(values[d])}`] : []))];
}

export class CallSources {
  private readonly months: DimensionMonths;

  constructor(private readonly c: Collections) {
    this.months = new DimensionMonths(c);
  }

  async record(before: Counted | null, after: Counted, zones: CallZones): Promise<void> {
    const was = before && shareOf(before, zones.before);
    const now = shareOf(after, zones.after);
    if (was && now && was.domainId === now.domainId && was.day === now.day && was.places.join() === now.places.join()) return;
    await Promise.all([was && this.add(was, -1), now && this.add(now, 1)]);
  }

  /** Counts a domain's calls again into its traffic days, after a crash between a call write and its
   * count, or a change of the domain's time zone. */
  async rebuild(domainId: string, timeZone: string): Promise<number> {
    const days = new Map<string, CallSourceCounts>();
    const months = new Map<string, MonthFields>();
    const touchFields = ['source', 'keyword', 'campaign', 'landingUrl'];
    const projection = { domainId: 1, startedAt: 1, status: 1, source: 1, keyword: 1, firstCall: 1, lead: 1, 'verdict.value': 1, ...Object.fromEntries(['lastTouch', 'firstTouch', 'lastNonDirect'].flatMap((touch) => touchFields.map((f) => [`${touch}.${f}`, 1]))) };
    for await (const call of this.c.calls.find({ domainId, status: { $ne: null } }, { projection, batchSize: 10_000 })) {
      const share = shareOf(call, timeZone)!;
      const counts = days.get(share.day) ?? days.set(share.day, {}).get(share.day)!;
      for (const place of share.places) addAt(counts as Record<string, unknown>, place.split('.'), 1);
      const month = share.day.slice(0, 7);
      const fields = months.get(month) ?? months.set(month, {}).get(month)!;
      for (const path of Object.keys(monthCountersOf(share))) addToMonth(fields, path, 1);
    }
    await this.months.replace(domainId, months, MONTH_CALL_FIELDS);
    await this.c.trafficDays.updateMany({ _id: domainKeys(domainId) }, { $unset: { calls: '' } });
    for (const [day, calls] of days) {
      await this.c.trafficDays.updateOne({ _id: dayKey(domainId, day) }, { $set: { calls }, $setOnInsert: { domainId, day } }, { upsert: true });
    }
    return days.size;
  }

  private async add(share: Share, n: number): Promise<void> {
    const inc = Object.fromEntries(share.places.map((place) => [`calls.${place}`, n]));
    await Promise.all([
      this.c.trafficDays.updateOne({ _id: dayKey(share.domainId, share.day) }, { $inc: inc, $setOnInsert: { domainId: share.domainId, day: share.day } as Partial<TrafficDayDoc> }, { upsert: true }),
      this.months.add(share.domainId, share.day, Object.fromEntries(Object.keys(monthCountersOf(share)).map((path) => [path, n]))),
    ]);
  }
}

const DIMENSION_OF_FIELD = Object.fromEntries(DIMENSIONS.map((d) => [DAY_FIELD[d], d])) as Record<string, Dimension>;

/** The month counters a share adds one to: per table, `calls`, `newCalls` for a first call, `leads`
 * for a lead, under the touch model's prefix (`cmp.firstTouch.calls.<key>`). */
function monthCountersOf(share: Share): Record<string, 1> {
  return monthPlaces(share.places, { '': 'calls', 'new.': 'newCalls', 'lead.': 'leads' });
}

/** The month counters of a day's table places (`lead.firstTouch.cmp.<key>`): the count each place's
 * first part names (`counts`), at its table and touch model (`cmp.firstTouch.leads.<key>`). */
export function monthPlaces(places: string[], counts: Record<string, string>): Record<string, 1> {
  const paths: Record<string, 1> = {};
  for (const place of places) {
    const match = /^(new\.|lead\.)?((?:firstTouch|lastNonDirect)\.)?(kw|cmp|lp)\.(.+)$/.exec(place);
    const count = counts[match?.[1] ?? ''];
    if (match && count) paths[`${MONTH_BASE[DIMENSION_OF_FIELD[match[3]!]!]}${match[2] ?? ''}${count}.${match[4]!}`] = 1;
  }
  return paths;
}

/** Adds `n` at a dotted path of a plain object, making the objects on the way. */
export function addAt(doc: Record<string, unknown>, path: string[], n: number): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (!rest.length) doc[head] = ((doc[head] as number | undefined) ?? 0) + n;
  else addAt((doc[head] ??= {}) as Record<string, unknown>, rest, n);
}
