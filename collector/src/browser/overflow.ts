// A pool's overflow number: when every number of the pool is held, the browser doors show it
// instead of the site's own, so the call is still known to come from the web, the pool and the
// page. Each page it was shown on is kept (overflow_shows): a call to it is attributed when one
// visit was shown it in the minutes before (telephony/routing.ts). The /osp* endpoints keep the
// spec's WARNING.
import type { RequestedPhone, SurtaxPhone } from '@ringtrail/shared';
import { answeredNumber } from '../domains/phone-display.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { poolFor } from '../tracking/assignment.ts';
import { ADDRESS_HOLDS_ITS_LIMIT, NO_NUMBER_AVAILABLE, TrackingFailure } from '../http/tracking-failure.ts';
import type { TrackingCollections } from '../tracking/documents.ts';

/** Whether the failure is a pool that ran out, or an address that holds its limit (not a bad request, not a robot). */
export const isExhausted = (err: unknown): err is TrackingFailure =>
  err instanceof TrackingFailure && err.status === 'WARNING' && (err.message === NO_NUMBER_AVAILABLE || err.message === ADDRESS_HOLDS_ITS_LIMIT);

/** The overflow numbers for the page's phones, its view recorded as shown them; null when a
 * phone's pool has none (the WARNING stands). */
export async function showOverflow(c: TrackingCollections, domain: DomainDoc, phones: RequestedPhone[], type: number | undefined, view: { visitId: number; viewId: number }, now: Date): Promise<Record<string, SurtaxPhone> | null> {
  const shown: Record<string, SurtaxPhone> = {};
  let first: { number: string; phone: string } | null = null;
  for (const phone of phones) {
    const overflow = poolFor(domain, phone.type ?? type).overflowNumber;
    if (!overflow) return null;
    shown[phone.original] = { surtaxPhoneNumber: answeredNumber(overflow, countryOf(domain)), surtaxPhoneCode: null };
    first ??= { number: overflow, phone: phone.digits };
  }
  if (!first || view.viewId <= 0) return null;
  await c.overflowShows.updateOne(
    { _id: view.viewId },
    { $setOnInsert: { domainId: domain._id, number: first.number, visitId: view.visitId, phone: first.phone, clientData: null, at: now } },
    { upsert: true },
  );
  return shown;
}
