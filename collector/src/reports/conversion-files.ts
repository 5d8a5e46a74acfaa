// The ad platforms' offline conversion files: leads (telephony/leads.ts: a 3-second hang-up is no
// conversion) whose call or form submission carried the platform's click id, and first sales whose
// call or visit did, valued at the order's total. One generator, a template per platform.
import { mapped } from '../db/batched.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { wallClock } from '../agent/shapes.ts';
import { localDaysBetween } from '../domains/time-zone.ts';
import { filterOf, CSV_MAX_ROWS } from './calls-log.ts';
import { csvLine } from './csv.ts';
import type { DayRange } from './day-range.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { CommerceCollections } from '../commerce/documents.ts';

/** Conversion names the ad account must have (Google Ads: Goals, Conversions, Import from clicks;
 * Microsoft Advertising: an offline conversion goal of each name). */
export const CONVERSION_LEAD = 'RingTrail lead';
export const CONVERSION_SALE = 'RingTrail sale';

type ClickId = 'gclid' | 'msclkid';

interface Conversion {
  clickId: string;
  name: string;
  at: Date;
  /** 0: none known. */
  value: number;
  currency: string;
}

interface Template {
  clickId: ClickId;
  head(domain: DomainDoc): string[];
  line(conversion: Conversion, domain: DomainDoc): string;
}

/**
 * Google Ads' offline conversion import template: a `Parameters:TimeZone=` line, then
 * `Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency`, times
 * `yyyy-MM-dd HH:mm:ss` in that zone; no value, no currency.
 */
const GOOGLE_ADS: Template = {
  clickId: 'gclid',
  head: (domain) => [`Parameters:TimeZone=${domain.timeZone}\n`, csvLine(['Google Click ID', 'Conversion Name', 'Conversion Time', 'Conversion Value', 'Conversion Currency'])],
  line: (conversion, domain) => csvLine([conversion.clickId, conversion.name, wallClock(conversion.at, domain.timeZone), conversion.value || '', conversion.value ? conversion.currency : '']),
};

/**
 * Microsoft Advertising's bulk file of offline conversions (its Offline Conversion record, format
 * 6.0): a header, a `Format Version` row, then one `Offline Conversion` row each, its time in UTC as
 * `M/D/YYYY h:mm:ss AM|PM`, its value 0 when none is known.
 */
const MICROSOFT_ADS: Template = {
  clickId: 'msclkid',
  head: () => [
    csvLine(['Type', 'Status', 'Id', 'Parent Id', 'Client Id', 'Name', 'Conversion Currency Code', 'Conversion Name', 'Conversion Time', 'Conversion Value', 'Microsoft Click Id']),
    csvLine(['Format Version', '', '', '', '', '6.0', '', '', '', '', '']),
  ],
  line: (conversion) => csvLine(['Offline Conversion', '', '', '', '', '', conversion.currency, conversion.name, microsoftTime(conversion.at), conversion.value, conversion.clickId]),
};

/** `4/1/2020 6:50:54 PM`, UTC. */
function microsoftTime(at: Date): string {
  const hours = at.getUTCHours();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getUTCMonth() + 1}/${at.getUTCDate()}/${at.getUTCFullYear()} ${hours % 12 || 12}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} ${hours < 12 ? 'AM' : 'PM'}`;
}

/**
 * One row per conversion. The platforms know a conversion by its click id, name and time to the
 * second (Google Ads refuses a second row of the three as a duplicate): a second lead from the same
 * click within the same second is the same conversion, and is left out. The rows come in time
 * order, so only the current second's conversions are remembered.
 */
function oneRowPerConversion() {
  let second = -1;
  const seen = new Set<string>();
  return (conversion: Conversion): boolean => {
    const at = Math.floor(conversion.at.getTime() / 1000);
    if (at !== second) {
      second = at;
      seen.clear();
    }
    const key = `${conversion.clickId}\n${conversion.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

async function* conversionsCsv(c: TrackingCollections & TelephonyCollections & FormCollections & CommerceCollections, domain: DomainDoc, range: DayRange, template: Template): AsyncGenerator<string> {
  yield* template.head(domain);
  const key = template.clickId;
  const first = oneRowPerConversion();
  // A form lead is a lead as a call is (one conversion name): both in time order, so that a call and a
  // form of one click in one second are one conversion.
  const calls = c.calls.find({ ...filterOf(domain, range, { lead: true }), [key]: { $type: 'string' } }, { sort: { startedAt: 1, _id: 1 }, limit: CSV_MAX_ROWS });
  const forms = c.forms.find({ domainId: domain._id, submittedAt: localDaysBetween(range.from, range.to, domain.timeZone), lead: true, [key]: { $type: 'string' } }, { sort: { submittedAt: 1, _id: 1 }, limit: CSV_MAX_ROWS });
  // A lead's value (rules/: a person's or a rule's) when it has one; else the carrier's revenue of a call.
  const callLeads = mapped(calls, (call): Conversion => ({ clickId: call[key]!, name: CONVERSION_LEAD, at: call.startedAt, value: call.value ?? call.revenue, currency: domain.currency }));
  const formLeads = mapped(forms, (form): Conversion => ({ clickId: form[key]!, name: CONVERSION_LEAD, at: form.submittedAt, value: form.value ?? 0, currency: domain.currency }));
  for await (const lead of inTimeOrder(callLeads, formLeads)) {
    if (first(lead)) yield template.line(lead, domain);
  }
  const orders = c.orders.find({ domainId: domain._id, convertedAt: localDaysBetween(range.from, range.to, domain.timeZone) }, { sort: { convertedAt: 1, _id: 1 }, limit: CSV_MAX_ROWS });
  for await (const order of orders) {
    const clickId = await clickIdOf(c, key, order.attribution?.callId ?? order.callId, order.attribution?.visitId ?? order.visitId);
    const sale: Conversion | null = clickId ? { clickId, name: CONVERSION_SALE, at: order.convertedAt!, value: order.totalCost, currency: order.currency } : null;
    if (sale && first(sale)) yield template.line(sale, domain);
  }
}

/** Two lists of conversions, each in time order, as one in time order. */
async function* inTimeOrder(a: AsyncGenerator<Conversion>, b: AsyncGenerator<Conversion>): AsyncGenerator<Conversion> {
  let [x, y] = await Promise.all([a.next(), b.next()]);
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value.at <= y.value.at)) {
      yield x.value!;
      x = await a.next();
    } else {
      yield y.value;
      y = await b.next();
    }
  }
}

export const googleAdsCsv = (c: TrackingCollections & TelephonyCollections & FormCollections & CommerceCollections, domain: DomainDoc, range: DayRange) => conversionsCsv(c, domain, range, GOOGLE_ADS);
export const microsoftAdsCsv = (c: TrackingCollections & TelephonyCollections & FormCollections & CommerceCollections, domain: DomainDoc, range: DayRange) => conversionsCsv(c, domain, range, MICROSOFT_ADS);

/** The click id of a sale: its call's, else its visit's. */
async function clickIdOf(c: TrackingCollections & TelephonyCollections, key: ClickId, callId: number | null, visitId: number | null): Promise<string | null> {
  const call = callId === null ? null : await c.calls.findOne({ _id: callId }, { projection: { [key]: 1 } });
  if (call?.[key]) return call[key];
  const visit = visitId === null ? null : await c.visits.findOne({ _id: visitId }, { projection: { attribution: 1 } });
  return visit?.attribution[key] ?? null;
}
