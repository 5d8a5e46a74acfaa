// The online number pool: who holds which tracking number, until when.
//
// A slot (a number, or a number and code of a shared pool) is claimed by one findOneAndUpdate on
// `freeAt <= now`, so the database lets exactly one request win it. Each claim writes a lease,
// `<slot>@<gen>` (an exclusive number's at the same time as its claim): the history that routes a
// late call to the visit that held the number at the call's time. A slot's `freeAt` is the truth;
// its current lease's `expiresAt` follows it, and so does the end of its hold on the client
// address's limit (address-holds.ts), reserved before the claim, written on the slot with it, so
// that one address never holds more than the domain's numbersPerAddress (in one process).
import { randomInt, randomUUID } from 'node:crypto';
import type { LeaseDoc, SlotDoc, TrackingCollections } from './documents.ts';
import type { PoolConfig, DomainCollections } from '../domains/documents.ts';
import { isDuplicateKey } from '../db/writes.ts';
import { GroupedWrites } from '../db/grouped-writes.ts';
import { GroupedSets } from '../db/grouped-sets.ts';
import { SlotClaims, type FreeSlot } from './slot-claims.ts';
import { AddressHolds, type AddressHold, type AddressLimit } from './address-holds.ts';
import { setRecent } from '../recent-map.ts';

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
  /** The client address's limit (numbersPerAddress) when a new number is claimed; null: none. */
  addressLimit: AddressLimit | null;
}

/** A number a visit holds: the lease a claim wrote (`claimed`), or the one it held, renewed. */
export type HeldNumber = Pick<LeaseDoc, '_id' | 'slot' | 'gen' | 'number' | 'code' | 'expiresAt'> & { claimed: boolean };

/** A number, or why there is none: every number of the pool is held, or the address holds its limit. */
export type AssignOutcome = { lease: HeldNumber } | { refused: 'exhausted' | 'address-limit' };

export type ExpiryOutcome = { lease: HeldNumber } | { problem: 'unknown-number' | 'code-required' | 'already-expired' | 'not-held' };

/** Leases of a slot read back by `_id` when routing a call, before its index is asked. */
const RECENT_LEASES = 8;
/** Leases a call's match looks back over at most. */
const MATCH_LEASES = 20;

/** Free slots of a pool read at once for the claims that follow (claimExclusive). */
const CANDIDATES = 64;
/** How long a read of free slots is used: another process may free older ones meanwhile. */
const CANDIDATES_MAX_AGE_MS = 1000;
/** Slots another process took first before a claim gives up (it reads again when a batch runs out). */
const MAX_CLAIM_ATTEMPTS = 100;

/** Numbers remembered as given to visits (the oldest first forgotten). */
const MAX_REMEMBERED = 50_000;

/** Random codes tried on a shared pool before it counts as full. */
const CODED_ATTEMPTS = 30;

export function slotKey(number: string, code: string | null): string {
  return code ? `${number}#${code}` : number;
}

function leaseIdOf(slot: Pick<SlotDoc, '_id' | 'gen'>): string {
  return `${slot._id}@${slot.gen}`;
}

/** What a renewal of a slot needs to know, and what it answers. */
type HeldSlot = Pick<SlotDoc, '_id' | 'gen' | 'number' | 'code' | 'hold'>;

/** A visit's phone on a pool, the way it holds one slot. */
function heldKey(req: Pick<AssignRequest, 'domainId' | 'pool' | 'visitId' | 'phone'>): string {
  return `${req.domainId}|${req.pool.type}|${req.visitId}|${req.phone}`;
}

/** A pool's free slots as last read, oldest first; `sawAll`: the read found fewer than it asked for. */
interface Candidates {
  slots: FreeSlot[];
  readAt: number;
  sawAll: boolean;
}

export class NumberPool {
  private readonly holds: AddressHolds;
  /** Group commit of the claims' leases (grouped-writes.ts), and of their new expiries (grouped-sets.ts). */
  private readonly newLeases: GroupedWrites<LeaseDoc>;
  private readonly leaseExpiries: GroupedSets<LeaseDoc>;
  /** Per pool (`domain|type`), its free exclusive slots oldest first, as last read (claimExclusive). */
  private readonly candidates = new Map<string, Candidates>();
  private readonly reading = new Map<string, Promise<Candidates>>();
  /** Numbers released here per pool, so far: a read begun before the last one is not kept. */
  private readonly releases = new Map<string, number>();
  /** The slots this process's claims are on their way for. */
  private readonly claiming = new Set<string>();
  /** Group commit of the claims of exclusive slots and of known slots' renewals (slot-claims.ts). */
  private readonly claims: SlotClaims;
  /** The slot this process gave (or renewed for) a visit's phone, by `heldKey`: its next view renews
   * it by `_id`, with other requests' renewals, instead of asking the database which it holds. */
  private readonly remembered = new Map<string, HeldSlot>();

  constructor(private readonly c: TrackingCollections & DomainCollections) {
    this.holds = new AddressHolds(c);
    this.newLeases = new GroupedWrites(c.leases);
    this.leaseExpiries = new GroupedSets(c.leases);
    this.claims = new SlotClaims(c);
  }

  /** The number this visit already holds for this phone, renewed to the new expiry; else a free one,
   * if the client address holds fewer than its limit; else why not. */
  async assign(req: AssignRequest): Promise<AssignOutcome> {
    const held = req.visitId > 0 && !req.visitStarted ? await this.renewHeld(req) : null;
    if (held) return { lease: held };
    let hold: AddressHold | null = null;
    if (req.addressLimit && req.addressLimit.max > 0) {
      hold = await this.holds.reserve(req.domainId, req.addressLimit, req.expiresAt, req.now);
      if (!hold) return { refused: 'address-limit' };
    }
    const lease = req.pool.codeDigits > 0 ? await this.claimCoded(req, hold) : await this.claimExclusive(req, hold);
    if (lease) return { lease: { ...lease, claimed: true } };
    if (hold) this.holds.cancel(hold);
    return { refused: 'exhausted' };
  }

  /** Sets a new expiry on the lease currently holding a number (and code); `already-expired` if none does,
   * `not-held` if `holderVisitId` is given and another visit holds it. */
  async setExpiry(domainId: string, number: string, code: string | null, expiresAt: Date, now: Date, holderVisitId?: number): Promise<ExpiryOutcome> {
    const numberDoc = await this.c.trackingNumbers.findOne({ _id: number });
    if (numberDoc?.domainId !== domainId || numberDoc.usage !== 'online') return { problem: 'unknown-number' };
    if (numberDoc.codeDigits > 0 && !code) return { problem: 'code-required' };
    const _id = slotKey(number, numberDoc.codeDigits > 0 ? code : null);
    const holder = holderVisitId === undefined ? {} : { visitId: holderVisitId };
    const lease = await this.renew({ _id, freeAt: { $gt: now }, ...holder }, expiresAt);
    // A number released now is the pool's newest free one: the free slots this process read before
    // (a read made while it was held may list others after it, or a number freed later before it)
    // are read again, so the next visitor gets the one released longest ago, not the read's order.
    if (lease && expiresAt <= now) this.forgetCandidates(`${domainId}|${numberDoc.type}`);
    if (lease) return { lease };
    const heldByAnother = holderVisitId !== undefined && (await this.c.slots.findOne({ _id, freeAt: { $gt: now } }, { projection: { _id: 1 } })) !== null;
    return { problem: heldByAnother ? 'not-held' : 'already-expired' };
  }

  /** The lease that held a number (and code) at `at`: the latest one assigned by then; null if none was.
   * A call is reported soon after it is made, so the slot's latest leases are read back one by one by
   * `_id`; a call older than that many leases is looked up through the {slot, assignedAt} index. */
  async leaseAt(number: { _id: string; codeDigits: number }, code: string | null, at: Date): Promise<LeaseDoc | null> {
    const slot = slotKey(number._id, number.codeDigits > 0 ? code : null);
    const latest = (await this.c.slots.findOne({ _id: slot }, { projection: { gen: 1 } }))?.gen ?? 0;
    for (let gen = latest; gen > Math.max(0, latest - RECENT_LEASES); gen--) {
      const lease = await this.c.leases.findOne({ _id: leaseIdOf({ _id: slot, gen }) });
      if (lease && lease.assignedAt <= at) return lease; // a lease lost to a crash after its claim is passed over
    }
    if (latest <= RECENT_LEASES) return null;
    return this.c.leases.findOne({ slot, assignedAt: { $lte: at } }, { sort: { assignedAt: -1, gen: -1 } });
  }

  /**
   * The leases of a number (and code) that overlapped `[at - windowMs, at]`, newest first: who
   * could have been shown the number in the reservation window before a call. A slot's leases
   * follow one another by generation, so the walk stops at the first one that ended before the
   * window (and after `MATCH_LEASES`, a number passed around faster than any visitor could call).
   */
  async holdersAround(number: { _id: string; codeDigits: number }, code: string | null, at: Date, windowMs: number): Promise<LeaseDoc[]> {
    const slot = slotKey(number._id, number.codeDigits > 0 ? code : null);
    const latest = (await this.c.slots.findOne({ _id: slot }, { projection: { gen: 1 } }))?.gen ?? 0;
    const since = at.getTime() - windowMs;
    const held: LeaseDoc[] = [];
    for (let gen = latest; gen > Math.max(0, latest - MATCH_LEASES); gen--) {
      const lease = await this.c.leases.findOne({ _id: leaseIdOf({ _id: slot, gen }) });
      if (!lease) continue; // lost to a crash after its claim
      if (lease.expiresAt.getTime() < since) break;
      if (lease.assignedAt <= at) held.push(lease);
    }
    return held;
  }

  /** Gives back the leases that were claimed at `now` (not the ones a visit already held). */
  async releaseNew(leases: HeldNumber[], now: Date): Promise<void> {
    await Promise.all(leases.filter((l) => l.claimed).map((l) => this.renew({ _id: l.slot, gen: l.gen }, now)));
  }

  /** The slot this visit holds for this phone, renewed: by `_id` with other requests' renewals when
   * this process knows which it is (the database still decides: the slot's generation and holder
   * must be the same, and its lease not ended), else found by its holder. */
  private async renewHeld(req: AssignRequest): Promise<HeldNumber | null> {
    const key = heldKey(req);
    const known = this.remembered.get(key);
    if (known) {
      if (await this.claims.renew(known, { visitId: req.visitId, phone: req.phone }, req.now, req.expiresAt)) return this.followExpiry(known, req.expiresAt);
      this.remembered.delete(key);
    }
    const slot = await this.moveFreeAt({ visitId: req.visitId, phone: req.phone, domainId: req.domainId, type: req.pool.type, freeAt: { $gt: req.now } }, req.expiresAt);
    if (!slot) return null;
    this.remember(key, slot);
    return this.followExpiry(slot, req.expiresAt);
  }

  /** A slot just claimed for a visit (a click without a view has none): its next view renews it by `_id`. */
  private rememberClaim(req: AssignRequest, slot: HeldSlot): void {
    if (req.visitId > 0) this.remember(heldKey(req), slot);
  }

  private remember(key: string, slot: HeldSlot): void {
    setRecent(this.remembered, key, { _id: slot._id, gen: slot.gen, number: slot.number, code: slot.code, hold: slot.hold ?? null }, MAX_REMEMBERED);
  }

  /** Moves the expiry of the slot matching `filter`, then that of its current lease; null when no slot matched. */
  private async renew(filter: Record<string, unknown>, expiresAt: Date): Promise<HeldNumber | null> {
    const slot = await this.moveFreeAt(filter, expiresAt);
    return slot && this.followExpiry(slot, expiresAt);
  }

  /** The slot matching `filter`, free from `expiresAt` on; null when none matched. */
  private moveFreeAt(filter: Record<string, unknown>, expiresAt: Date): Promise<SlotDoc | null> {
    return this.c.slots.findOneAndUpdate(filter, { $set: { freeAt: expiresAt } }, { returnDocument: 'after' });
  }

  /** A slot's new expiry written on its current lease and its address hold, each with other
   * requests' (group commit). The slot says which number it is: the lease is not read back. */
  private async followExpiry(slot: HeldSlot, expiresAt: Date): Promise<HeldNumber> {
    const _id = leaseIdOf(slot);
    if (slot.hold) this.holds.follow(slot.hold, expiresAt);
    await this.leaseExpiries.set({ _id }, { expiresAt });
    return { _id, slot: slot._id, gen: slot.gen, number: slot.number, code: slot.code, expiresAt, claimed: false };
  }

  /** The free number released longest ago, so a late call to a number still finds its last visitor.
   * The pool's oldest free slots are read a batch at a time and claimed one by one, by `_id` and
   * generation, with the other requests' claims (slot-claims.ts): this process's simultaneous claims
   * never aim at the same slot, and under load many cost one update. The database still decides
   * (`freeAt <= now`): a slot another process took is passed over. */
  private async claimExclusive(req: AssignRequest, hold: AddressHold | null): Promise<LeaseDoc | null> {
    const pool = `${req.domainId}|${req.pool.type}`;
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      const free = await this.nextCandidate(pool, req);
      if (free === null) return null; // none free
      this.claiming.add(free._id);
      // Free at the time of the claim: a request that waited may claim a number freed meanwhile (the read found it).
      const claimedAt = new Date(Math.max(req.now.getTime(), Date.now()));
      const lease = await this.claimWithLease(free, claimedAt, req, hold).finally(() => this.claiming.delete(free._id));
      if (lease) return lease;
    }
    return null;
  }

  /**
   * The claim of a free slot and the lease it makes, written at once, so that a view waits for one
   * commit and not two: the lease's `_id` is known before the claim (`<slot>@<gen + 1>`), and both
   * carry the claim's token. A claim that lost takes its lease back if it still stands; one that won
   * and found another claim's lease in its place (a losing claim's, written first) replaces it. A
   * losing claim's lease that a crash left behind is replaced by the winner of that generation. A
   * slot's leases are read from its current generation down, so a call reads a loser's lease only
   * between the winner's claim and its replacing it, before any visitor is shown the number.
   */
  private async claimWithLease(free: FreeSlot, claimedAt: Date, req: AssignRequest, hold: AddressHold | null): Promise<LeaseDoc | null> {
    const token = randomUUID();
    const lease = { ...leaseFor({ ...free, gen: free.gen + 1 }, req), claim: token };
    const [claimed, inserted] = await Promise.allSettled([
      this.claims.claim(free, claimedAt, { freeAt: req.expiresAt, visitId: req.visitId, phone: req.phone, hold }, token),
      this.newLeases.insert(lease),
    ]);
    if (claimed.status === 'rejected') throw claimed.reason;
    if (!claimed.value) {
      if (inserted.status === 'fulfilled') await this.c.leases.deleteOne({ _id: lease._id, claim: token }).catch(() => undefined);
      return null;
    }
    if (inserted.status === 'rejected') {
      if (!isDuplicateKey(inserted.reason)) throw inserted.reason;
      await this.c.leases.replaceOne({ _id: lease._id }, lease, { upsert: true });
    }
    this.rememberClaim(req, claimed.value);
    return lease;
  }

  /** The pool's next free slot, oldest first, as last read; read again when none is left, or when
   * the read is older than CANDIDATES_MAX_AGE_MS (another process may have freed older ones since).
   * Many claims may wait for one read and find it used up by the others: they read again, past the
   * slots this process is claiming, until a read has seen every free slot of the pool. */
  private async nextCandidate(pool: string, req: AssignRequest): Promise<FreeSlot | null> {
    const known = this.candidates.get(pool);
    if (known && known.slots.length > 0 && req.now.getTime() - known.readAt < CANDIDATES_MAX_AGE_MS) {
      // Read the next ones before these run out, so that no claim waits for the read.
      if (known.slots.length <= CANDIDATES / 4) void this.readOnce(pool, req).catch(() => undefined);
      return known.slots.shift()!;
    }
    for (;;) {
      const read = await this.readOnce(pool, req);
      const slot = read.slots.shift();
      if (slot) return slot;
      if (read.sawAll) return null; // every free slot is one this process is claiming: none left
    }
  }

  /** One read at a time per pool: the claims waiting for it share what it finds. */
  private readOnce(pool: string, req: AssignRequest): Promise<Candidates> {
    let reading = this.reading.get(pool);
    if (!reading) {
      const read: Promise<Candidates> = this.readCandidates(pool, req).finally(() => this.reading.get(pool) === read && this.reading.delete(pool));
      this.reading.set(pool, (reading = read));
    }
    return reading;
  }

  /** The pool's oldest free slots but the ones this process is claiming (a read may come back before
   * their claims are made): as many more are read as it is claiming, so that those never fill the read. */
  private async readCandidates(pool: string, req: AssignRequest): Promise<Candidates> {
    const releasesBefore = this.releases.get(pool) ?? 0;
    const now = new Date(Math.max(req.now.getTime(), Date.now()));
    const limit = CANDIDATES + this.claiming.size;
    const free = await this.c.slots
      .find({ domainId: req.domainId, type: req.pool.type, code: null, freeAt: { $lte: now } }, { sort: { freeAt: 1, _id: 1 }, limit, projection: { domainId: 1, type: 1, number: 1, code: 1, gen: 1 } })
      .toArray();
    const read = { slots: free.filter((slot) => !this.claiming.has(slot._id)), readAt: now.getTime(), sawAll: free.length < limit };
    // A read that began before a number was released here is used by its own claims, never kept.
    if ((this.releases.get(pool) ?? 0) === releasesBefore) this.candidates.set(pool, read);
    return read;
  }

  /** A number of the pool was released here: the next claim reads the free slots again. */
  private forgetCandidates(pool: string): void {
    this.releases.set(pool, (this.releases.get(pool) ?? 0) + 1);
    this.candidates.delete(pool);
    this.reading.delete(pool); // a read on its way began before: the next claim does not wait for it
  }

  /** A shared number serves many visitors at once, told apart by a random code; a code's slot is
   * made by its first claim, and a held one makes the upsert collide. */
  private async claimCoded(req: AssignRequest, hold: AddressHold | null): Promise<LeaseDoc | null> {
    const numbers = await this.c.trackingNumbers.find({ domainId: req.domainId, usage: 'online', type: req.pool.type, overflow: { $ne: true } }, { projection: { _id: 1 } }).toArray();
    if (numbers.length === 0) return null;
    for (let attempt = 0; attempt < CODED_ATTEMPTS; attempt++) {
      const number = numbers[randomInt(numbers.length)]!._id;
      const code = String(randomInt(10 ** req.pool.codeDigits)).padStart(req.pool.codeDigits, '0');
      try {
        const slot = await this.c.slots.findOneAndUpdate(
          { _id: slotKey(number, code), freeAt: { $lte: req.now } },
          { $inc: { gen: 1 }, $set: { freeAt: req.expiresAt, visitId: req.visitId, phone: req.phone, hold }, $setOnInsert: { domainId: req.domainId, type: req.pool.type, number, code } },
          { upsert: true, returnDocument: 'after' },
        );
        return await this.writeLease(slot!, req);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // held by another visitor: try another code
      }
    }
    return null;
  }

  private async writeLease(slot: SlotDoc, req: AssignRequest): Promise<LeaseDoc> {
    const lease = leaseFor(slot, req);
    await this.newLeases.insert(lease);
    this.rememberClaim(req, slot);
    return lease;
  }
}

/** The lease of `req`'s visit on the slot's generation `gen`. */
function leaseFor(slot: Pick<SlotDoc, '_id' | 'gen' | 'number' | 'code' | 'type'>, req: AssignRequest): LeaseDoc {
  return {
    _id: leaseIdOf(slot),
    slot: slot._id,
    gen: slot.gen,
    domainId: req.domainId,
    number: slot.number,
    code: slot.code,
    type: slot.type,
    visitId: req.visitId,
    viewId: req.viewId,
    phone: req.phone,
    clientData: req.clientData ?? null,
    assignedAt: req.now,
    expiresAt: req.expiresAt,
  };
}
