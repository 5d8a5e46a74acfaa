// Visits, views, clicks, the pools' slots and leases, overflow shows, numbers held per address: the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { Attribution } from './attribution.ts';
import type { IndexPlan } from '../db/index-plan.ts';

/**
 * A slot is what one visitor holds at a time: an online number, or a number and code in a shared
 * pool. Its `freeAt` is the truth of who may claim it: one findOneAndUpdate on `freeAt <= now` claims
 * it. An exclusive number's slot is made by the seed; a code's slot by its first claim (an upsert).
 */
export interface SlotDoc {
  _id: string; // the number, or `<number>#<code>`
  domainId: string;
  type: number;
  number: string;
  /** Null for an exclusive number. */
  code: string | null;
  /** Claims so far: the latest lease is `<slot>@<gen>`. */
  gen: number;
  /** When the current lease ends (or ended); the epoch for a slot never held. */
  freeAt: Date;
  /** The holder of the current (or last) lease: a visit finds what it holds by these. */
  visitId: number;
  phone: string | null;
  /** The current lease's hold on its client address's limit (numbersPerAddress); null or absent: none. */
  hold?: { address: string; token: string } | null;
  /** The token of the claim that won the current lease, when it was gathered with others (slot-claims.ts). */
  claim?: string;
}

/** One assignment of a slot to a visitor, kept after it ends so a late call finds who held the number.
 * `_id` = slot@gen. Its expiry follows the slot's while it is the slot's current lease. */
export interface LeaseDoc {
  _id: string;
  slot: string;
  gen: number;
  domainId: string;
  number: string;
  code: string | null;
  type: number;
  visitId: number;
  viewId: number;
  /** The original number the tracking number stands for, normalized digits. */
  phone: string;
  clientData: unknown;
  assignedAt: Date;
  expiresAt: Date;
  /** The token of the claim that wrote it, when written beside its claim (pool.ts, claimWithLease). */
  claim?: string;
}

export interface VisitDoc {
  _id: number;
  domainId: string;
  createdAt: Date;
  lastSeenAt: Date;
  ip: string;
  userAgent: string | null;
  isMobile: boolean;
  isBot: boolean;
  uniqueVisitorId: string | null;
  /** Ours: GA4's client and session ids of the visitor, the latest a view sent (tracking/visits.ts). */
  ga?: { clientId: string; sessionId: string | null };
  /** Ours (issue 56): the visitor's latest answer to Google's consent mode for ads (/t/consent, sent
   * by tracker-ads.js): true, denied (no identifier of theirs is sent to the ad platforms); absent,
   * never said. */
  adsDenied?: boolean;
  landingUrl: string;
  referrer: string;
  attribution: Attribution;
  /** The token of the latest update gathered with others (visit-touches.ts). */
  touch?: string;
}

export interface ViewDoc {
  _id: number;
  domainId: string;
  visitId: number;
  createdAt: Date;
  url: string;
  pageTitle: string;
  referrer: string;
  ip: string;
  isMobile: boolean;
  userAgent: string | null;
  isBot: boolean;
  directDisplay: boolean;
  nrPhones: number;
  phones: string[];
  uniqueViewId: string | null;
  attribution: Attribution;
  /** Ours, on the view that started its visit: what of the visit the view does not already hold. A
   * visit is stored beside its first view, not before it, so a crash may keep the view and lose the
   * visit; `npm run rebuild-summaries` makes the visit again from it (lost-visits.ts). */
  startedVisit?: Pick<VisitDoc, 'uniqueVisitorId' | 'ga'>;
}

/** Claims a client's `unique_view_id` for the first view that carried it. */
export interface ViewKeyDoc {
  _id: string;
  viewId: number;
  visitId: number;
}

export interface ClickDoc {
  _id: number;
  domainId: string;
  /** `click`: a visitor revealed the number. `display`: the tracker asked for a number that appeared
   * on a direct display page after its view (SPA, AJAX); not a click, kept apart in reports. */
  kind: 'click' | 'display';
  viewId: number | null;
  visitId: number | null;
  phone: string;
  leaseId: string | null;
  createdAt: Date;
  userAgent: string | null;
  isBot: boolean;
}

/** A page the browser doors showed a pool's overflow number (tracking/overflow.ts): a call to it
 * is attributed when one visit was shown it in the minutes before. */
export interface OverflowShowDoc {
  _id: number; // the view
  domainId: string;
  number: string;
  visitId: number;
  /** The site's phone the overflow number stood for. */
  phone: string;
  clientData: unknown;
  at: Date;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const trackingIndexes: IndexPlan = {
  slots: [
    // A claim takes the exclusive number of a pool released longest ago (shared slots have a code).
    [{ domainId: 1, type: 1, code: 1, freeAt: 1, _id: 1 }],
    // What a visit holds for a phone.
    [{ visitId: 1, phone: 1 }],
    // What a client address holds (address-holds.ts), read when a process meets the address.
    [{ 'hold.address': 1 }, { sparse: true }],
  ],
  leases: [
    // Who held a slot at a call's time. (Nothing reads leases by view or visit: every claim would
    // pay for such indexes, so there are none; migrations.ts drops those of earlier releases.)
    [{ slot: 1, assignedAt: -1, gen: -1 }],
  ],
  views: [[{ visitId: 1 }]],
  visits: [
    [{ domainId: 1, createdAt: 1 }],
    // A visitor's visits, oldest first: a call's or a sale's first and last non-direct touches (touches.ts).
    [{ domainId: 1, uniqueVisitorId: 1, createdAt: 1 }],
  ],
  // The pages shown an overflow number in the minutes before a call to it.
  overflowShows: [[{ number: 1, at: -1 }]],
};

/** The tracking family's collections, as its services receive them. */
export interface TrackingCollections {
  slots: Collection<SlotDoc>;
  leases: Collection<LeaseDoc>;
  visits: Collection<VisitDoc>;
  views: Collection<ViewDoc>;
  viewKeys: Collection<ViewKeyDoc>;
  clicks: Collection<ClickDoc>;
  overflowShows: Collection<OverflowShowDoc>;
}

export function trackingCollections(db: Db): TrackingCollections {
  return collectionsNamed<TrackingCollections>(db, { slots: 'slots', leases: 'leases', visits: 'visits', views: 'views', viewKeys: 'view_keys', clicks: 'clicks', overflowShows: 'overflow_shows' });
}

/** The report counters a view and a refused number move (reports/traffic-days.ts), handed to the
 * tracking service: tracking writes them, reports owns and reads them. */
export interface TrafficCounts {
  viewRecorded(domain: { _id: string; timeZone: string }, visit: Pick<VisitDoc, 'attribution' | 'isBot'> & { landingUrl?: string }, visitStarted: boolean, now: Date): Promise<void>;
  numberRefused(domain: { _id: string; timeZone: string }, type: number, why: 'exhausted' | 'address-limit', now: Date): Promise<void>;
}
