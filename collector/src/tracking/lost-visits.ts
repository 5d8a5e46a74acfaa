// Visits a crash lost beside their first view, made again from it. A new visit and its first view
// are stored at once, not one after the other (visits.ts), so a process (or its database) that
// dies between the two commits may keep the view and lose the visit. That view carries what of its
// visit it does not already hold (`startedVisit`): the visit is the view's address, browser, page,
// referrer and attribution, seen at the view's time. `npm run rebuild-summaries` runs this before
// it counts the visits again. Views stored before `startedVisit` existed are passed over.
import { isDuplicateKey } from '../db/writes.ts';
import type { ViewDoc, VisitDoc, TrackingCollections } from './documents.ts';
import { newVisit } from './visits.ts';

/** Views that started a visit, checked at once. */
const VIEWS_AT_ONCE = 1000;

/** Makes again the domain's visits that a view started and no visit document holds; how many. */
export async function restoreLostVisits(c: TrackingCollections, domainId: string): Promise<number> {
  let restored = 0;
  let firstViews: Pick<ViewDoc, '_id' | 'visitId'>[] = [];
  // No index serves this: it reads every view once, as the repair it is.
  for await (const view of c.views.find({ domainId, startedVisit: { $exists: true } }, { projection: { visitId: 1 } })) {
    firstViews.push(view);
    if (firstViews.length < VIEWS_AT_ONCE) continue;
    restored += await restoreMissing(c, firstViews);
    firstViews = [];
  }
  if (firstViews.length > 0) restored += await restoreMissing(c, firstViews);
  return restored;
}

async function restoreMissing(c: TrackingCollections, firstViews: Pick<ViewDoc, '_id' | 'visitId'>[]): Promise<number> {
  const stored = new Set((await c.visits.find({ _id: { $in: firstViews.map((v) => v.visitId) } }, { projection: { _id: 1 } }).toArray()).map((v) => v._id));
  const missing = firstViews.filter((v) => !stored.has(v.visitId)).map((v) => v._id);
  if (missing.length === 0) return 0;
  const lost = (await c.views.find({ _id: { $in: missing } }).toArray()).map(visitOf);
  try {
    await c.visits.insertMany(lost, { ordered: false });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err; // a visit stored meanwhile: the domain was taking views
  }
  return lost.length;
}

/** The visit as its first view's request stored it. */
function visitOf(view: ViewDoc): VisitDoc {
  const started = { uniqueVisitorId: view.startedVisit?.uniqueVisitorId ?? null, ga: view.startedVisit?.ga };
  return newVisit(view.visitId, view.domainId, { ...view, ...started }, view.attribution, view.createdAt);
}
