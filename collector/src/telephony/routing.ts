// Where a call to a tracking number goes, and who it is attributed to, at the time it was made.
//
// - An online number's lease covering the call time: the visitor's page phone, attributed.
// - A lease that ended less than EXPIRED_GRACE_MS before the call, the number not held since:
//   forwarded and attributed to that visitor, `expired_redirect`.
// - A lease that ended longer ago: forwarded to the same phone, unattributed, status EXPIRED.
// - An online number never assigned (or a code no one held): the site's first phone, NOTASSIGNED.
// - An offline number: its destination and description; unassigned, NOTASSIGNED.
// - A caller on the domain's blocklist: nowhere, CALLER_PHONE_BLACKLISTED, whatever the number.
// Each route with a destination carries its no-answer redirect, if any (redirects.ts).
import type { CallStatus, RedirectPlan, RouteReason } from '@ringtrail/shared';
import type { DomainDoc, TrackingNumberDoc, DomainCollections } from '../domains/documents.ts';
import type { LeaseDoc, TrackingCollections } from '../tracking/documents.ts';
import type { OfflineAssignmentDoc, OfflineCollections } from '../offline/documents.ts';
import type { NumberPool } from '../tracking/pool.ts';
import { BlockedCallers } from './blocked-callers.ts';
import { redirectOf } from './redirects.ts';
import type { TelephonyCollections } from './documents.ts';

/** A caller who kept the number from a page they left this long ago is still credited to that visit. */
export const EXPIRED_GRACE_MS = 24 * 60 * 60 * 1000;

/** Carriers give call times to the second: whatever happened during that second came before the call. */
export function endOfSecond(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 1000) * 1000 + 999);
}

export interface Route {
  reason: RouteReason;
  domain: DomainDoc | null;
  number: TrackingNumberDoc | null;
  destination: string | null;
  forcedStatus: CallStatus | null;
  /** The lease whose visit the call is attributed to. */
  lease: LeaseDoc | null;
  offline: OfflineAssignmentDoc | null;
  /** An overflow number: the visits shown it in the minutes before the call. */
  overflowCandidates?: number;
  /** Where the call goes if the destination does not answer; null: nowhere. */
  redirect: RedirectPlan | null;
}

/** How far back a call to an overflow number looks for the pages that showed it. */
export const OVERFLOW_WINDOW_MS = 10 * 60_000;

type Found = Omit<Route, 'redirect'>;

export class CallRouter {
  private readonly blocked: BlockedCallers;

  constructor(
    private readonly c: TelephonyCollections & DomainCollections & TrackingCollections & OfflineCollections,
    private readonly pool: NumberPool,
  ) {
    this.blocked = new BlockedCallers(c);
  }

  /** `caller`: the caller's digits, null when anonymous or not known. */
  async route(trackingNumber: string, code: string | null, at: Date, caller: string | null = null): Promise<Route> {
    const found = await this.find(trackingNumber, code, at, caller);
    return { ...found, redirect: redirectOf(found, at) };
  }

  private async find(trackingNumber: string, code: string | null, at: Date, caller: string | null): Promise<Found> {
    const number = await this.c.trackingNumbers.findOne({ _id: trackingNumber });
    const domain = number ? await this.c.domains.findOne({ _id: number.domainId }) : null;
    const base = { domain, number, lease: null, offline: null, forcedStatus: null };
    if (!number || !domain) return { ...base, reason: 'unknown-number', destination: null };
    if (await this.blocked.isBlocked(domain._id, caller)) return { ...base, reason: 'blocked', destination: null, forcedStatus: 'CALLER_PHONE_BLACKLISTED' };
    const notAssigned: Found = { ...base, reason: 'not-assigned', destination: domain.sitePhones[0] ?? null, forcedStatus: 'NOTASSIGNED' };

    if (number.usage === 'offline') {
      const offline = await this.c.offlineAssignments.findOne({ _id: number._id });
      return offline ? { ...base, reason: 'offline', destination: offline.destination, offline } : notAssigned;
    }
    if (number.overflow) return this.overflowRoute(base, number._id, domain, at);
    if (number.codeDigits > 0 && !code) return { ...base, reason: 'code-required', destination: null };
    const lease = await this.pool.leaseAt(number, code, endOfSecond(at));
    if (!lease) return notAssigned;
    if (at < lease.expiresAt) return { ...base, reason: 'online', destination: lease.phone, lease };
    const withinGrace = at.getTime() - lease.expiresAt.getTime() <= EXPIRED_GRACE_MS;
    return { ...base, reason: 'expired', destination: lease.phone, lease: withinGrace ? lease : null, forcedStatus: withinGrace ? null : 'EXPIRED' };
  }

  /** To the site phone the number stood for on the latest page that showed it; attributed to that
   * page's visit when it is the only visit shown the number in the window. */
  private async overflowRoute(base: Omit<Found, 'reason' | 'destination'>, number: string, domain: DomainDoc, at: Date): Promise<Found> {
    const shows = await this.c.overflowShows.find({ number, at: { $gte: new Date(at.getTime() - OVERFLOW_WINDOW_MS), $lte: endOfSecond(at) } }, { sort: { at: -1 }, limit: 100 }).toArray();
    const visits = new Set(shows.map((s) => s.visitId));
    const latest = shows[0];
    // One candidate: the page's view stands in for the lease an ordinary number would have.
    const lease = visits.size === 1 ? ({ visitId: latest!.visitId, viewId: latest!._id, phone: latest!.phone, clientData: latest!.clientData } as LeaseDoc) : null;
    return { ...base, reason: 'overflow', destination: latest?.phone ?? domain.sitePhones[0] ?? null, lease, overflowCandidates: visits.size };
  }
}
