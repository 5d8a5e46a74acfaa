// The offline numbers service: a domain's private pool of permanent numbers, each tied to a
// destination and a description. Knows nothing of HTTP.
//
// An assignment is a document whose _id is the tracking number: two assigns racing for one
// number collide on the insert and exactly one wins.
// Unassigning deletes it. Offline numbers are never in the online pool: the pools are told apart
// by `usage` on each number, set at seeding.
import {
  formatUtcDateTime,
  OFFLINE_REQUIRED,
  type OfflineNumberDetails,
  type OfflineNumberState,
  type OfflineRequest,
} from '@ringtrail/shared';
import { isDuplicateKey } from '../db/writes.ts';
import type { DomainDoc, TrackingNumberDoc, DomainCollections } from '../domains/documents.ts';
import type { OfflineAssignmentDoc, OfflineCollections } from './documents.ts';
import { OfflineFailure } from '../http/offline-envelope.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';

export const NO_NUMBER_AVAILABLE = 'No tracking number available';
export const ALREADY_ASSIGNED = 'Tracking number already assigned';
export const UNKNOWN_NUMBER = 'Unknown tracking number';
export const NOT_ASSIGNED = 'Tracking number not assigned';
export const NOTHING_FOR_PHONE = 'No tracking number assigned to this phone number';

export class OfflineNumbers {
  constructor(private readonly c: OfflineCollections & DomainCollections) {}

  async run(domain: DomainDoc, req: OfflineRequest, now = new Date()): Promise<unknown> {
    requireFor(req);
    switch (req.action) {
      case 'assign':
        return this.assign(domain, req, now);
      case 'unassign':
        return this.unassign(domain, req, now);
      case 'reassign':
        return this.reassign(domain, req, now);
      case 'check':
        return stateOf(await this.target(domain, req), domain);
      case 'redirect_setup':
        return this.redirectSetup(domain, req, now);
    }
  }

  /** `/list`: every offline number of the domain, assigned or free. */
  async list(domain: DomainDoc, details: boolean): Promise<Record<string, string | null> | { tracking_number_details: OfflineNumberDetails[] }> {
    const [numbers, assignments] = await Promise.all([this.offlineNumbers(domain), this.assignmentsByNumber(domain)]);
    const shown = shownIn(domain);
    if (!details) return Object.fromEntries(numbers.map((n) => [shown(n._id), shown(assignments.get(n._id)?.destination ?? null)]));
    return {
      tracking_number_details: numbers.map((n) => {
        const a = assignments.get(n._id);
        const lastUpdate = a?.updatedAt ?? n.releasedAt;
        return {
          tracking_phone: shown(n._id),
          destination_phone: shown(a?.destination ?? null),
          description: a?.description ?? null,
          product_name: domain.name,
          last_update: lastUpdate ? formatUtcDateTime(lastUpdate) : null,
        };
      }),
    };
  }

  private assignmentOf(number: string): Promise<OfflineAssignmentDoc | null> {
    return this.c.offlineAssignments.findOne({ _id: number });
  }

  private async assign(domain: DomainDoc, req: OfflineRequest, now: Date): Promise<OfflineNumberState> {
    const make = (n: TrackingNumberDoc): OfflineAssignmentDoc => ({
      _id: n._id,
      domainId: domain._id,
      type: n.type,
      destination: req.phone_number!,
      description: req.description!,
      allowRedirect: req.allow_redirect === '1',
      timetable: req.timetable ?? [],
      operator: req.operator ?? null,
      assignedAt: now,
      updatedAt: now,
    });
    if (req.tracking_number) {
      // A chosen number: it must be a free number of this pool.
      const n = await this.offlineNumber(domain, req.tracking_number);
      if (n.type !== req.type) throw new OfflineFailure(UNKNOWN_NUMBER); // not in the pool of that type
      if (!(await this.tryInsert(make(n)))) throw new OfflineFailure(ALREADY_ASSIGNED);
      return stateOf(make(n), domain);
    }
    const taken = await this.assignmentsByNumber(domain);
    const free = (await this.offlineNumbers(domain)).filter(
      (n) => n.type === req.type && (!req.cost_group || n.costGroup === req.cost_group) && !taken.has(n._id),
    );
    // Released longest ago first, so a number's old callers are least likely to reach the new destination.
    free.sort((a, b) => (a.releasedAt?.getTime() ?? 0) - (b.releasedAt?.getTime() ?? 0) || a._id.localeCompare(b._id));
    for (const n of free) {
      const doc = make(n);
      if (await this.tryInsert(doc)) return stateOf(doc, domain);
    }
    throw new OfflineFailure(NO_NUMBER_AVAILABLE);
  }

  /** By tracking number: that one; by phone number: every number forwarded there (so a repeat is a no-op). */
  private async unassign(domain: DomainDoc, req: OfflineRequest, now: Date): Promise<OfflineNumberState & { released: string[] }> {
    let before: OfflineAssignmentDoc | null = null;
    let released: string[];
    if (req.tracking_number) {
      await this.offlineNumber(domain, req.tracking_number);
      before = await this.assignmentOf(req.tracking_number);
      released = [req.tracking_number];
    } else {
      released = (await this.byDestination(domain, req.phone_number!)).map((a) => a._id);
    }
    for (const number of released) {
      const { deletedCount } = await this.c.offlineAssignments.deleteOne({ _id: number });
      if (deletedCount > 0) await this.c.trackingNumbers.updateOne({ _id: number }, { $set: { releasedAt: now } });
    }
    const shown = shownIn(domain);
    return {
      status: 'success',
      phone_number: shown(req.phone_number ?? before?.destination ?? null),
      tracking_number: shown(req.tracking_number ?? released[0] ?? '')!,
      description: null,
      type: before?.type ?? 0,
      allow_redirect: '0',
      timetable: 0,
      released: released.map((n) => shown(n)!),
    };
  }

  private async reassign(domain: DomainDoc, req: OfflineRequest, now: Date): Promise<OfflineNumberState> {
    const current = await this.assigned(domain, req.tracking_number!);
    const next: OfflineAssignmentDoc = {
      ...current,
      destination: req.phone_number!,
      description: req.description ?? current.description,
      allowRedirect: req.allow_redirect === undefined ? current.allowRedirect : req.allow_redirect === '1',
      updatedAt: now,
    };
    await this.c.offlineAssignments.updateOne({ _id: current._id }, { $set: next });
    return stateOf(next, domain);
  }

  /** By phone number: applies to every number forwarded there; answers the most recent one. */
  private async redirectSetup(domain: DomainDoc, req: OfflineRequest, now: Date): Promise<OfflineNumberState> {
    const targets = req.tracking_number ? [await this.assigned(domain, req.tracking_number)] : await this.byDestination(domain, req.phone_number!);
    if (targets.length === 0) throw new OfflineFailure(NOTHING_FOR_PHONE);
    const change = { allowRedirect: req.allow_redirect === '1', ...(req.timetable ? { timetable: req.timetable } : {}), updatedAt: now };
    for (const a of targets) await this.c.offlineAssignments.updateOne({ _id: a._id }, { $set: change });
    return stateOf({ ...targets[0]!, ...change }, domain);
  }

  /** The number named by `tracking_number`, else the most recent one forwarded to `phone_number`. */
  private async target(domain: DomainDoc, req: OfflineRequest): Promise<OfflineAssignmentDoc> {
    if (req.tracking_number) return this.assigned(domain, req.tracking_number);
    const found = await this.byDestination(domain, req.phone_number!);
    if (found.length === 0) throw new OfflineFailure(NOTHING_FOR_PHONE);
    return found[0]!;
  }

  private async assigned(domain: DomainDoc, number: string): Promise<OfflineAssignmentDoc> {
    await this.offlineNumber(domain, number);
    const a = await this.assignmentOf(number);
    if (!a) throw new OfflineFailure(NOT_ASSIGNED);
    return a;
  }

  /** A number of this domain's offline pool, else `Unknown tracking number` (online numbers included). */
  private async offlineNumber(domain: DomainDoc, number: string): Promise<TrackingNumberDoc> {
    const n = await this.c.trackingNumbers.findOne({ _id: number });
    if (n?.domainId !== domain._id || n.usage !== 'offline') throw new OfflineFailure(UNKNOWN_NUMBER);
    return n;
  }

  /** Most recently assigned first. */
  private async byDestination(domain: DomainDoc, destination: string): Promise<OfflineAssignmentDoc[]> {
    const found = await this.c.offlineAssignments.find({ domainId: domain._id, destination }).toArray();
    return found.sort((a, b) => b.assignedAt.getTime() - a.assignedAt.getTime() || b._id.localeCompare(a._id));
  }

  private offlineNumbers(domain: DomainDoc): Promise<TrackingNumberDoc[]> {
    return this.c.trackingNumbers.find({ domainId: domain._id, usage: 'offline' }).sort({ _id: 1 }).toArray();
  }

  private async assignmentsByNumber(domain: DomainDoc): Promise<Map<string, OfflineAssignmentDoc>> {
    const all = await this.c.offlineAssignments.find({ domainId: domain._id }).toArray();
    return new Map(all.map((a) => [a._id, a]));
  }

  private async tryInsert(doc: OfflineAssignmentDoc): Promise<boolean> {
    try {
      await this.c.offlineAssignments.insertOne(doc);
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }
}

function requireFor(req: OfflineRequest): void {
  const { all, oneOf } = OFFLINE_REQUIRED[req.action];
  const missing = all.find((name) => req[name] === undefined);
  if (missing) throw new OfflineFailure(`Missing parameter ${missing}`);
  if (oneOf && oneOf.every((name) => req[name] === undefined)) throw new OfflineFailure(`Missing parameter ${oneOf.join(' or ')}`);
}

/** Numbers as the domain's country writes them (phone-numbers.ts); a French domain's as stored. */
function shownIn(domain: DomainDoc): <N extends string | null>(number: N) => N {
  const country = countryOf(domain);
  return (number) => (number === null || number === '' ? number : nationalOf(number, country)) as typeof number;
}

function stateOf(a: OfflineAssignmentDoc, domain: DomainDoc): OfflineNumberState {
  const shown = shownIn(domain);
  return {
    status: 'success',
    phone_number: shown(a.destination),
    tracking_number: shown(a._id),
    description: a.description,
    type: a.type,
    allow_redirect: a.allowRedirect ? '1' : '0',
    timetable: a.timetable.length === 0 ? 0 : a.timetable,
  };
}
