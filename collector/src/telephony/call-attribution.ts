// Who led to a call, from the route it took: the visit holding the number, or the offline campaign.
import type { CallAttribution } from './documents.ts';
import { braidsOf, sourceLabel } from '../tracking/attribution.ts';
import { touchesOf } from '../tracking/touches.ts';
import { endOfSecond, type Route } from './routing.ts';
import type { TrackingCollections } from '../tracking/documents.ts';

const NONE: CallAttribution = {
  visitId: null,
  viewId: null,
  url: null,
  referrer: null,
  source: null,
  keyword: null,
  gclid: null,
  msclkid: null,
  fbclid: null,
  clientData: null,
  callPath: null,
  offlineDescription: null,
  lastTouch: null,
  firstTouch: null,
  lastNonDirect: null,
};

/** `visitor`: the visit's visitor id (not stored on the call: it joins the caller's person, people/). */
export async function attributeCall(c: TrackingCollections, route: Route, at: Date): Promise<CallAttribution & { visitor: string | null }> {
  if (route.offline) return { ...NONE, source: 'offline', offlineDescription: route.offline.description, visitor: null };
  const lease = route.lease;
  if (!lease) return { ...NONE, visitor: null };
  const [visit, view, pages] = await Promise.all([
    lease.visitId > 0 ? c.visits.findOne({ _id: lease.visitId }) : null,
    lease.viewId > 0 ? c.views.findOne({ _id: lease.viewId }) : null,
    lease.visitId > 0 ? c.views.find({ visitId: lease.visitId }, { projection: { url: 1, createdAt: 1 } }).toArray() : [],
  ]);
  const attribution = visit?.attribution ?? view?.attribution ?? null;
  const touches = visit ? await touchesOf(c, visit, at) : null;
  const path = pages.filter((p) => p.createdAt <= endOfSecond(at)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a._id - b._id);
  return {
    ...NONE,
    visitId: lease.visitId > 0 ? lease.visitId : null,
    viewId: lease.viewId > 0 ? lease.viewId : null,
    url: view?.url ?? null,
    referrer: view?.referrer ?? null,
    source: attribution ? sourceLabel(attribution) : null,
    keyword: attribution?.keyword ?? null,
    gclid: attribution?.gclid ?? null,
    msclkid: attribution?.msclkid ?? null,
    fbclid: attribution?.fbclid ?? null,
    ...braidsOf(attribution),
    ...(visit?.adsDenied ? { adsDenied: true } : {}),
    clientData: lease.clientData ?? null,
    callPath: path.length > 0 ? path.map((p) => p.url).join('\n') : null,
    ...touches,
    visitor: visit?.uniqueVisitorId ?? null,
  };
}
