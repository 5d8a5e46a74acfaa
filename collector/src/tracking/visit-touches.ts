// A returning visit's view, without reading its visit back: the process remembers the visits it
// has seen (their attribution never changes), and moves their `lastSeenAt` with the other
// requests' (group commit, db/grouped-sets.ts: one update statement for many), each update
// requiring the visit active in the last 30 minutes, so the database still decides whether the
// visit goes on; it did when the visit carries its update's token. A visit this process has not
// seen is read as before (VisitLog).
import { randomUUID } from 'node:crypto';
import { GroupedSets } from '../db/grouped-sets.ts';
import { setRecent } from '../recent-map.ts';
import type { VisitDoc, TrackingCollections } from './documents.ts';

/** What a view of a visit needs of it. */
export type KnownVisit = Pick<VisitDoc, '_id' | 'domainId' | 'attribution' | 'isBot'>;

/** Visits remembered at most (the oldest seen first forgotten). */
const MAX_KNOWN = 50_000;

export class VisitTouches {
  private readonly known = new Map<number, KnownVisit>();
  private readonly touches: GroupedSets<VisitDoc>;

  constructor(c: TrackingCollections) {
    this.touches = new GroupedSets(c.visits);
  }

  /** A visit of `domainId` this process has seen, if it has. */
  knownVisit(visitId: number, domainId: string): KnownVisit | null {
    const visit = this.known.get(visitId);
    return visit?.domainId === domainId ? visit : null;
  }

  remember(visit: KnownVisit): void {
    setRecent(this.known, visit._id, { _id: visit._id, domainId: visit.domainId, attribution: visit.attribution, isBot: visit.isBot }, MAX_KNOWN);
  }

  /** Sets `set` on the visit if it was active since `activeSince`; whether it was. */
  async touch(visit: KnownVisit, activeSince: Date, set: Partial<VisitDoc>): Promise<boolean> {
    const active = await this.touches.set({ _id: visit._id, domainId: visit.domainId, lastSeenAt: { $gte: activeSince } }, { ...set, touch: randomUUID() });
    if (active && set.isBot) this.remember({ ...visit, isBot: true });
    return active;
  }
}
