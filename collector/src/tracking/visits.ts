// Visits and views: a visit is one session of a visitor; it ends after 30 minutes without a view.
import type { DomainDoc } from '../domains/documents.ts';
import type { ViewDoc, VisitDoc, TrackingCollections, TrafficCounts } from './documents.ts';
import type { IdAllocator } from '../db/ids.ts';
import { isDuplicateKey } from '../db/writes.ts';
import { GroupedWrites } from '../db/grouped-writes.ts';
import { attribute, type Attribution } from './attribution.ts';
import { VisitTouches, type KnownVisit } from './visit-touches.ts';

const VISIT_IDLE_MS = 30 * 60 * 1000;

export interface PageLoad {
  ip: string;
  url: string;
  pageTitle: string;
  referrer: string;
  isMobile: boolean;
  userAgent: string | null;
  isBot: boolean;
  directDisplay: boolean;
  nrPhones: number;
  phones: string[];
  uniqueVisitorId: string | null;
  uniqueViewId: string | null;
  /** GA4's ids of the visitor (ours), when the page knows them. */
  ga: VisitDoc['ga'];
}

export interface RecordedView {
  visitId: number;
  viewId: number;
  /** True when this view started the visit: it holds no number yet. */
  visitStarted: boolean;
  /** The view this request stored; null when its unique_view_id was seen before. */
  stored: ViewDoc | null;
  /** Settles when the new visit and view are stored: the caller claims numbers meanwhile, and
   * answers only once this has resolved. */
  written: Promise<void>;
}

export class VisitLog {
  // Group commit: under load, the visits and views of many requests are one insert each (grouped-writes.ts).
  private readonly newVisits: GroupedWrites<VisitDoc>;
  private readonly newViews: GroupedWrites<ViewDoc>;
  private readonly touches: VisitTouches;

  constructor(
    private readonly c: TrackingCollections,
    private readonly ids: IdAllocator,
    private readonly traffic: TrafficCounts,
  ) {
    this.newVisits = new GroupedWrites(c.visits);
    this.newViews = new GroupedWrites(c.views);
    this.touches = new VisitTouches(c);
  }

  async recordView(domain: DomainDoc, requestedVisitId: number, page: PageLoad, now: Date): Promise<RecordedView> {
    const keyId = page.uniqueViewId ? `${domain._id}|${page.uniqueViewId}` : null;
    const known = keyId ? await this.c.viewKeys.findOne({ _id: keyId }) : null;
    if (known) return { visitId: known.visitId, viewId: known.viewId, visitStarted: false, stored: null, written: Promise.resolve() };

    const attribution = attribute(page.url, page.referrer);
    const { visit, started, inserted } = await this.continueOrStartVisit(domain, requestedVisitId, page, attribution, now);
    const viewId = await this.ids.next('view');
    if (keyId) {
      try {
        await this.c.viewKeys.insertOne({ _id: keyId, viewId, visitId: visit._id });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const winner = (await this.c.viewKeys.findOne({ _id: keyId }))!;
        return { visitId: winner.visitId, viewId: winner.viewId, visitStarted: false, stored: null, written: inserted };
      }
    }
    const view: ViewDoc = {
      _id: viewId,
      domainId: domain._id,
      visitId: visit._id,
      createdAt: now,
      url: page.url,
      pageTitle: page.pageTitle,
      referrer: page.referrer,
      ip: page.ip,
      isMobile: page.isMobile,
      userAgent: page.userAgent,
      isBot: page.isBot,
      directDisplay: page.directDisplay,
      nrPhones: page.nrPhones,
      phones: page.phones,
      uniqueViewId: page.uniqueViewId,
      attribution,
      ...(started ? { startedVisit: { uniqueVisitorId: page.uniqueVisitorId, ...(page.ga ? { ga: page.ga } : {}) } } : {}),
    };
    // The view beside its visit, not after it, so that a view waits for one commit: a process that
    // dies between the two leaves a visit without views (no visit to the counters), or a view that
    // started its visit without it, which `npm run rebuild-summaries` makes again (lost-visits.ts).
    const written = Promise.all([inserted, this.newViews.insert(view), this.traffic.viewRecorded(domain, { attribution: visit.attribution, isBot: page.isBot || visit.isBot, landingUrl: page.url }, started, now)]).then(() => undefined);
    written.catch(() => undefined); // the caller awaits it; this keeps a failure before then from going unhandled
    return { visitId: visit._id, viewId, visitStarted: started, stored: view, written };
  }

  /** The requested visit if it is this domain's and active in the last 30 minutes; else a new one. */
  private async continueOrStartVisit(
    domain: DomainDoc,
    requestedVisitId: number,
    page: PageLoad,
    attribution: Attribution,
    now: Date,
  ): Promise<{ visit: KnownVisit; started: boolean; inserted: Promise<void> }> {
    if (requestedVisitId > 0) {
      const activeSince = new Date(now.getTime() - VISIT_IDLE_MS);
      // A visitor id the visit did not start with (consent given since) is kept from then on.
      const set = { lastSeenAt: now, ...(page.isBot ? { isBot: true } : {}), ...(page.uniqueVisitorId ? { uniqueVisitorId: page.uniqueVisitorId } : {}), ...(page.ga ? { ga: page.ga } : {}) };
      const known = this.touches.knownVisit(requestedVisitId, domain._id);
      if (known) {
        if (await this.touches.touch(known, activeSince, set)) return { visit: { ...known, isBot: known.isBot || page.isBot }, started: false, inserted: Promise.resolve() };
      } else {
        const visit = await this.c.visits.findOneAndUpdate({ _id: requestedVisitId, domainId: domain._id, lastSeenAt: { $gte: activeSince } }, { $set: set }, { returnDocument: 'after' });
        if (visit) {
          this.touches.remember(visit);
          return { visit, started: false, inserted: Promise.resolve() };
        }
      }
    }
    const visit = newVisit(await this.ids.next('visit'), domain._id, page, attribution, now);
    // Stored beside the view and the claim, not before them (recordView's `written`).
    const inserted = this.newVisits.insert(visit);
    this.touches.remember(visit);
    inserted.catch(() => undefined);
    return { visit, started: true, inserted };
  }
}

/** A visit as its first view starts it; also how lost-visits.ts makes a lost one again from that view. */
export function newVisit(
  _id: number,
  domainId: string,
  page: Pick<PageLoad, 'ip' | 'userAgent' | 'isMobile' | 'isBot' | 'uniqueVisitorId' | 'ga' | 'url' | 'referrer'>,
  attribution: Attribution,
  at: Date,
): VisitDoc {
  return {
    _id,
    domainId,
    createdAt: at,
    lastSeenAt: at,
    ip: page.ip,
    userAgent: page.userAgent,
    isMobile: page.isMobile,
    isBot: page.isBot,
    uniqueVisitorId: page.uniqueVisitorId,
    ...(page.ga ? { ga: page.ga } : {}),
    landingUrl: page.url,
    referrer: page.referrer,
    attribution, // a visit is attributed to its first view
  };
}
