// A returning visit's view, without reading its visit back: the process remembers the visits it
// has seen (their attribution never changes), and moves their `lastSeenAt` with the other
// requests' (group commit, db/batches.ts), each update requiring the visit active in the last 30
// minutes, so the database still decides whether the visit goes on. A batch whose count of updated
// visits says every visit went on needs nothing more; otherwise its visits are read back once, and
// a visit went on when it carries its update's token. A visit this process has not seen is read as
// before (VisitLog).
import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongodb';
import { Batches } from '../db/batches.ts';
import type { Collections } from '../db/collections.ts';
import type { VisitDoc } from './documents.ts';

/** What a view of a visit needs of it. */
export type KnownVisit = Pick<VisitDoc, '_id' | 'domainId' | 'attribution' | 'isBot'>;

/** Visits remembered at most (the oldest seen first forgotten). */
const MAX_KNOWN = 50_000;

interface Touch {
  visit: KnownVisit;
  activeSince: Date;
  set: Partial<VisitDoc>;
  token: string;
}

export class VisitTouches {
  private readonly known = new Map<number, KnownVisit>();
  private readonly batches: Batches<Touch, boolean>;

  constructor(private readonly c: Collections) {
    this.batches = new Batches((touches) => this.send(touches));
  }

  /** A visit of `domainId` this process has seen, if it has. */
  knownVisit(visitId: number, domainId: string): KnownVisit | null {
    const visit = this.known.get(visitId);
    return visit?.domainId === domainId ? visit : null;
  }

  remember(visit: KnownVisit): void {
    this.known.delete(visit._id);
    this.known.set(visit._id, { _id: visit._id, domainId: visit.domainId, attribution: visit.attribution, isBot: visit.isBot });
    if (this.known.size > MAX_KNOWN) this.known.delete(this.known.keys().next().value!);
  }

  /** Sets `set` on the visit if it was active since `activeSince`; whether it was. */
  async touch(visit: KnownVisit, activeSince: Date, set: Partial<VisitDoc>): Promise<boolean> {
    const active = await this.batches.add({ visit, activeSince, set, token: randomUUID() });
    if (active && set.isBot) this.remember({ ...visit, isBot: true });
    return active;
  }

  private async send(touches: Touch[]) {
    const ops: AnyBulkWriteOperation<VisitDoc>[] = touches.map(({ visit, activeSince, set, token }) => ({
      updateOne: { filter: { _id: visit._id, domainId: visit.domainId, lastSeenAt: { $gte: activeSince } }, update: { $set: { ...set, touch: token } } },
    }));
    const { matchedCount } = await this.c.visits.bulkWrite(ops, { ordered: false });
    let active = (_: Touch) => true;
    if (matchedCount < touches.length) {
      const tokens = new Map((await this.c.visits.find({ _id: { $in: touches.map((t) => t.visit._id) } }, { projection: { touch: 1 } }).toArray()).map((v) => [v._id, v.touch]));
      active = (t) => tokens.get(t.visit._id) === t.token;
    }
    return touches.map((t) => ({ value: active(t) }));
  }
}
