// A visitor's touches (ours). The visits of one visitor of a domain are linked by their visitor id:
// the tracker's `tracker_visitor_id`, or the `unique_visitor_id` a server-side integrator sends.
// A call or a sale records the visit that led to it (the last touch), that visitor's first
// visit of the 90 days before it (the first touch) and their latest visit that was not direct (the
// last non-direct touch). Both are read once, when the call or the sale is first written, through
// the visits' index on (domainId, uniqueVisitorId, createdAt): a page view pays nothing for them.
import type { VisitDoc, TrackingCollections } from './documents.ts';
import { sourceLabel } from './attribution.ts';

/** How far back a first touch is looked for, as the ad platforms' usual lookback window. */
export const TOUCH_WINDOW_DAYS = 90;

/** One visit as a touch: where it came from and when. */
export interface Touch {
  visitId: number;
  at: Date;
  /** `<class>` or `<class>:<source name>`, as a call's source. */
  source: string;
  keyword: string | null;
  landingUrl: string;
  /** The visit's utm_campaign and utm_content; absent on touches stored before they were kept. */
  campaign?: string | null;
  content?: string | null;
  gclid: string | null;
  msclkid: string | null;
  fbclid: string | null;
}

export interface Touches {
  /** The visit itself (ours): where its campaign and landing page are read. */
  lastTouch: Touch;
  firstTouch: Touch;
  lastNonDirect: Touch;
}

export function touchOf(visit: VisitDoc): Touch {
  const a = visit.attribution;
  return {
    visitId: visit._id,
    at: visit.createdAt,
    source: sourceLabel(a),
    keyword: a.keyword,
    landingUrl: visit.landingUrl,
    campaign: a.utm.utm_campaign ?? null,
    content: a.utm.utm_content ?? null,
    gclid: a.gclid,
    msclkid: a.msclkid ?? null,
    fbclid: a.fbclid ?? null,
  };
}

/** The first and last non-direct touches of the visitor of `visit`, as of `at`. A visit without a
 * visitor id (no consent, or none sent) is its own first touch, and its own last non-direct one. */
export async function touchesOf(c: TrackingCollections, visit: VisitDoc, at: Date): Promise<Touches> {
  const own = touchOf(visit);
  if (!visit.uniqueVisitorId) return { lastTouch: own, firstTouch: own, lastNonDirect: own };
  const since = new Date(at.getTime() - TOUCH_WINDOW_DAYS * 86_400_000);
  const visitorsVisits = { domainId: visit.domainId, uniqueVisitorId: visit.uniqueVisitorId, createdAt: { $gte: since, $lte: visit.createdAt } };
  const [first, nonDirect] = await Promise.all([
    c.visits.findOne(visitorsVisits, { sort: { createdAt: 1, _id: 1 } }),
    visit.attribution.source === 'direct' ? c.visits.findOne({ ...visitorsVisits, 'attribution.source': { $ne: 'direct' } }, { sort: { createdAt: -1, _id: -1 } }) : visit,
  ]);
  return { lastTouch: own, firstTouch: first ? touchOf(first) : own, lastNonDirect: nonDirect ? touchOf(nonDirect) : own };
}
