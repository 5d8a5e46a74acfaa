// The online number pool: who holds which tracking number, until when.
//
// Every assignment is a lease document whose _id is `<slot>@<generation>`. Claiming a slot means
// inserting its next generation: two processes claiming the same slot collide on the unique _id
// and exactly one wins. The latest generation of a slot is the truth; the hints (gen, freeAt) and
// a visit's holds only say where to look and may lag, because FerretDB v1 updates by
// read-then-write. Lookups go by _id, the one filter FerretDB v1's SQLite backend pushes down.
import { randomInt } from 'node:crypto';
import { PoolListing } from './pool-listing.ts';
import { isDuplicateKey, type Collections, type LeaseDoc, type PoolConfig, type TrackingNumberDoc } from '../db/collections.ts';

export interface AssignRequest {
  domainId: string;
  pool: PoolConfig;
  visitId: number;
  /** The visit began with this request, so it holds nothing yet. */
  visitStarted: boolean;
  viewId: number;
  phone: string;
  clientData: unknown;
  expiresAt: Date;
  now: Date;
}

export type ExpiryOutcome = { lease: LeaseDoc } | { problem: 'unknown-number' | 'code-required' | 'already-expired' | 'not-held' };

const CODED_ATTEMPTS = 30;

function slotKey(number: string, code: string | null): string {
  return code ? `${number}#${code}` : number;
}

function leaseId(slot: string, gen: number): string {
  return `${slot}@${gen}`;
}

/** What a visit holds for one phone of one pool. */
function holdKey(req: AssignRequest): string {
  return `${req.domainId}|${req.visitId}|${req.pool.type}|${req.phone}`;
}

/** Tells the listing shared by this process's requests what a claim found out about an exclusive number. */
function learn(number: TrackingNumberDoc, lease: LeaseDoc): void {
  if (lease.code === null) Object.assign(number, { gen: lease.gen, freeAt: lease.expiresAt });
}

/** Two concurrent upserts of one pointer or hint: the other one created it, which is as good. */
function ignoreDuplicate(err: unknown): void {
  if (!isDuplicateKey(err)) throw err;
}

export class NumberPool {
  private readonly listing: PoolListing;
  /** Numbers this process is claiming right now: a shortcut past sure collisions, not a lock. */
  private readonly claiming = new Set<string>();

  constructor(private readonly c: Collections) {
    this.listing = new PoolListing(c);
  }

  /** The number this visit already holds for this phone, renewed to the new expiry; else a free one; else null. */
  async assign(req: AssignRequest): Promise<LeaseDoc | null> {
    const held = req.visitId > 0 && !req.visitStarted ? await this.heldBy(req) : null;
    if (held) return (await this.renew(held, req.expiresAt, req.now)) ?? this.claimFree(req);
    return this.claimFree(req);
  }

  /** Sets a new expiry on the lease currently holding a number (and code); `already-expired` if none does,
   * `not-held` if `holderVisitId` is given and another visit holds it. */
  async setExpiry(domainId: string, number: string, code: string | null, expiresAt: Date, now: Date, holderVisitId?: number): Promise<ExpiryOutcome> {
    const numberDoc = await this.c.trackingNumbers.findOne({ _id: number });
    if (numberDoc?.domainId !== domainId || numberDoc.usage !== 'online') return { problem: 'unknown-number' };
    if (numberDoc.codeDigits > 0 && !code) return { problem: 'code-required' };
    const slot = slotKey(number, numberDoc.codeDigits > 0 ? code : null);
    const current = await this.latest(slot, await this.hintGen(numberDoc, slot));
    if (holderVisitId !== undefined && current && current.expiresAt > now && current.visitId !== holderVisitId) return { problem: 'not-held' };
    const renewed = current && current.expiresAt > now ? await this.renew(current, expiresAt, now) : null;
    return renewed ? { lease: renewed } : { problem: 'already-expired' };
  }

  /** The lease that held a number (and code) at `at`: the latest one assigned by then; null if none was. */
  async leaseAt(number: TrackingNumberDoc, code: string | null, at: Date): Promise<LeaseDoc | null> {
    const slot = slotKey(number._id, number.codeDigits > 0 ? code : null);
    let lease = await this.latest(slot, await this.hintGen(number, slot));
    while (lease && lease.assignedAt > at && lease.gen > 1) lease = await this.c.leases.findOne({ _id: leaseId(slot, lease.gen - 1) });
    return lease && lease.assignedAt <= at ? lease : null;
  }

  /** Gives back the leases that were claimed at `now` (not the ones a visit already held). */
  async releaseNew(leases: LeaseDoc[], now: Date): Promise<void> {
    for (const lease of leases) {
      if (lease.assignedAt.getTime() === now.getTime()) await this.renew(lease, now, now);
    }
  }

  private async claimFree(req: AssignRequest): Promise<LeaseDoc | null> {
    const claim = (numbers: TrackingNumberDoc[]) =>
      req.pool.codeDigits > 0 ? this.claimCoded(numbers, req) : this.claimExclusive(numbers, req);
    const lease = await claim(await this.listing.numbers(req.domainId, req.pool.type));
    return lease ?? claim(await this.listing.numbers(req.domainId, req.pool.type, { fresh: true }));
  }

  /** Free numbers in the order they were released, longest ago first, so a late call still finds its visitor. */
  private async claimExclusive(numbers: TrackingNumberDoc[], req: AssignRequest): Promise<LeaseDoc | null> {
    const free = numbers
      .filter((n) => !n.freeAt || n.freeAt <= req.now)
      .sort((a, b) => (a.freeAt?.getTime() ?? 0) - (b.freeAt?.getTime() ?? 0) || a._id.localeCompare(b._id));
    while (free.length > 0) {
      const number = free.shift()!;
      if (this.claiming.has(number._id)) continue; // a request of this process is on it already
      this.claiming.add(number._id);
      const lease = await this.tryClaim(number, null, number.gen ?? 0, req).finally(() => this.claiming.delete(number._id));
      if (lease) return lease;
      // Lost a race to another process: its claimants head for the same next numbers, so go elsewhere.
      if (free.length > 1) free.unshift(...free.splice(randomInt(free.length), 1));
    }
    return null;
  }

  /** A shared number serves many visitors at once, told apart by a random code. */
  private async claimCoded(numbers: TrackingNumberDoc[], req: AssignRequest): Promise<LeaseDoc | null> {
    for (let attempt = 0; attempt < CODED_ATTEMPTS; attempt++) {
      const number = numbers[randomInt(numbers.length)]!;
      const code = String(randomInt(10 ** number.codeDigits)).padStart(number.codeDigits, '0');
      const hint = await this.c.slotHints.findOne({ _id: slotKey(number._id, code) });
      const lease = await this.tryClaim(number, code, hint?.gen ?? 0, req);
      if (lease) return lease;
    }
    return null;
  }

  private async tryClaim(number: TrackingNumberDoc, code: string | null, hintGen: number, req: AssignRequest): Promise<LeaseDoc | null> {
    const slot = slotKey(number._id, code);
    const current = await this.latest(slot, hintGen);
    if (current && current.expiresAt > req.now) {
      if (current.gen !== hintGen) await this.saveHint(current); // the hint lagged: mend it
      learn(number, current);
      return null;
    }
    const gen = (current?.gen ?? 0) + 1;
    const lease: LeaseDoc = {
      _id: leaseId(slot, gen),
      slot,
      gen,
      domainId: req.domainId,
      number: number._id,
      code,
      type: number.type,
      visitId: req.visitId,
      viewId: req.viewId,
      phone: req.phone,
      clientData: req.clientData ?? null,
      assignedAt: req.now,
      expiresAt: req.expiresAt,
    };
    try {
      await this.c.leases.insertOne(lease);
    } catch (err) {
      if (isDuplicateKey(err)) return null; // another request claimed this generation first
      throw err;
    }
    learn(number, lease);
    await Promise.all([
      this.saveHint(lease),
      req.visitId > 0 && this.c.holds.updateOne({ _id: holdKey(req) }, { $set: { leaseId: lease._id } }, { upsert: true }).catch(ignoreDuplicate),
    ]);
    return lease;
  }

  private async heldBy(req: AssignRequest): Promise<LeaseDoc | null> {
    const hold = await this.c.holds.findOne({ _id: holdKey(req) });
    const lease = hold ? await this.c.leases.findOne({ _id: hold.leaseId }) : null;
    return lease && lease.expiresAt > req.now && (await this.isCurrent(lease)) ? lease : null;
  }

  /** Moves a still-active lease's expiry; null when it ended or was superseded meanwhile. */
  private async renew(lease: LeaseDoc, expiresAt: Date, now: Date): Promise<LeaseDoc | null> {
    if (lease.expiresAt <= now) return null;
    await this.c.leases.updateOne({ _id: lease._id }, { $set: { expiresAt } });
    if (!(await this.isCurrent(lease))) return null;
    const renewed = { ...lease, expiresAt };
    await this.saveHint(renewed);
    return renewed;
  }

  private async isCurrent(lease: LeaseDoc): Promise<boolean> {
    return (await this.c.leases.findOne({ _id: leaseId(lease.slot, lease.gen + 1) }, { projection: { _id: 1 } })) === null;
  }

  /** The slot's latest lease, walking forward from a hint that may lag. */
  private async latest(slot: string, hintGen: number): Promise<LeaseDoc | null> {
    let gen = hintGen;
    let lease: LeaseDoc | null = null;
    for (;;) {
      const next = await this.c.leases.findOne({ _id: leaseId(slot, gen + 1) });
      if (!next) break;
      lease = next;
      gen++;
    }
    return lease ?? (gen > 0 ? this.c.leases.findOne({ _id: leaseId(slot, gen) }) : null);
  }

  private async hintGen(number: TrackingNumberDoc, slot: string): Promise<number> {
    if (number.codeDigits === 0) return number.gen ?? 0;
    return (await this.c.slotHints.findOne({ _id: slot }))?.gen ?? 0;
  }

  private async saveHint(lease: LeaseDoc): Promise<void> {
    const update = { $max: { gen: lease.gen }, $set: { freeAt: lease.expiresAt } };
    if (lease.code === null) {
      await this.c.trackingNumbers.updateOne({ _id: lease.number }, update);
      return;
    }
    await this.c.slotHints.updateOne({ _id: lease.slot }, update, { upsert: true }).catch(ignoreDuplicate);
  }
}
