// How many numbers of a domain one client address holds at once (the domain's numbersPerAddress),
// so that one address cannot drain a pool by opening visit after visit.
//
// A claim's hold is written on the slot it claims (`slot.hold`, with the claim itself): the slots
// with an address's hold and a lease not ended are its holds, the truth every process can read.
// Each process decides from its own memory of the holds it gave, so a claim waits for no read or
// write of its own: the check and the add are one synchronous step, and simultaneous claims from
// one address in one process never overshoot. The memory is read from the slots once, at the
// process's first claim (so a restart forgets nothing), and again for an address whose remembered
// hold seems to have ended (another process may have kept it alive). A process does not see what
// other processes give an address meanwhile: each gives it at most the limit, so with WORKERS
// processes one address holds at most numbersPerAddress × WORKERS (docs/security.md); with one
// process, exactly the limit.
import { randomUUID } from 'node:crypto';
import type { SlotDoc, TrackingCollections } from './documents.ts';
import { Batches, type Outcome } from '../db/batches.ts';

export interface AddressLimit {
  address: string;
  /** Numbers one address may hold at once; 0: no limit. */
  max: number;
}

export type AddressHold = NonNullable<SlotDoc['hold']>;

/** Addresses remembered before the oldest whose holds have ended are forgotten (forgetEnded): each
 * costs a few hundred bytes. */
const MAX_ADDRESSES = 100_000;
/** The oldest addresses looked at by one forgetting. */
const FORGET_BATCH = 1000;

/** An address's holds as this process knows them: token to end (ms); `read` while being read again. */
interface Known {
  holds: Map<string, number>;
  read?: Promise<void>;
}

export class AddressHolds {
  /** By `<domain>|<address>`, the least recently met first. */
  private readonly known = new Map<string, Known>();
  private loaded?: Promise<void>;
  private forgetting = false;
  /** Reads of addresses' holds from the slots, gathered (db/batches.ts). */
  private readonly reads: Batches<{ address: string; now: Date }, Map<string, number>>;

  constructor(
    private readonly c: TrackingCollections,
    private readonly maxAddresses = MAX_ADDRESSES,
  ) {
    this.reads = new Batches((items) => this.readHolds(items));
  }

  /** Addresses remembered now. */
  get remembered(): number {
    return this.known.size;
  }

  /** A hold for a lease ending at `until`; null when the address already holds its limit. */
  async reserve(domainId: string, limit: AddressLimit, until: Date, now: Date): Promise<AddressHold | null> {
    await (this.loaded ??= this.loadAll(now));
    const address = `${domainId}|${limit.address}`;
    await this.knownAt(address, now);
    // The entry as it is now: a release meanwhile may have forgotten it (it then held nothing).
    const known = this.known.get(address) ?? { holds: new Map<string, number>() };
    if (known.holds.size >= limit.max) return null;
    const token = randomUUID();
    known.holds.set(token, until.getTime());
    this.met(address, known);
    return { address, token };
  }

  /** The hold's lease now ends at `until`: kept alive, or released (a released slot is renewed by no
   * one: its hold is gone). An address this process does not remember is left alone. */
  follow(hold: AddressHold, until: Date): void {
    if (until.getTime() <= Date.now()) return this.cancel(hold);
    this.known.get(hold.address)?.holds.set(hold.token, until.getTime());
  }

  /** Gives a hold back (its claim found no number, or its lease was released); an address left with
   * none is forgotten (met again, it starts from nothing, which is what it holds). */
  cancel(hold: AddressHold): void {
    const known = this.known.get(hold.address);
    if (!known) return;
    known.holds.delete(hold.token);
    if (known.holds.size === 0 && !known.read) this.known.delete(hold.address);
  }

  /** What this process knows of an address; read again from the slots when a hold it remembers
   * ended by its count (another process may have kept it alive). */
  private async knownAt(address: string, now: Date): Promise<void> {
    for (;;) {
      const known = this.known.get(address);
      if (!known) return;
      if (known.read) {
        await known.read;
        continue;
      }
      if (![...known.holds.values()].some((end) => end <= now.getTime())) return;
      known.read = this.reads.add({ address, now }).then((stored) => merge(known, stored, now.getTime()));
      try {
        await known.read;
      } finally {
        delete known.read;
      }
      return;
    }
  }

  /** Notes that the address was met now; past MAX_ADDRESSES, the oldest are looked at to be forgotten. */
  private met(address: string, known: Known): void {
    this.known.delete(address);
    this.known.set(address, known);
    if (this.known.size > this.maxAddresses && !this.forgetting) {
      this.forgetting = true;
      void this.forgetEnded()
        .catch(() => undefined) // looked at again at the next address met
        .finally(() => (this.forgetting = false));
    }
  }

  /** Forgets the oldest addresses whose holds have all ended, those the slots confirm (none kept
   * alive elsewhere), FORGET_BATCH at a time with one read, until no more than maxAddresses are left
   * or a batch forgets none. The others are kept, as met now. */
  private async forgetEnded(): Promise<void> {
    while (this.known.size > this.maxAddresses) {
      const oldest: [string, Known][] = [];
      for (const entry of this.known) if (oldest.push(entry) === FORGET_BATCH) break;
      const now = Date.now();
      const ended = oldest.filter(([, k]) => !k.read && [...k.holds.values()].every((end) => end <= now));
      const stored = ended.length ? await this.holdsOf({ $in: ended.map(([address]) => address) }, new Date(now)) : new Map<string, Map<string, number>>();
      const before = this.known.size;
      for (const [address, known] of ended) {
        if (this.known.get(address) !== known) continue; // met again meanwhile
        merge(known, stored.get(address) ?? new Map(), now);
        if (known.holds.size === 0) this.known.delete(address);
      }
      for (const [address, known] of oldest) {
        if (this.known.get(address) !== known) continue;
        this.known.delete(address);
        this.known.set(address, known);
      }
      if (this.known.size === before) return;
    }
  }

  /** Every address's holds not ended: what this process gave before a restart, and what others gave. */
  private async loadAll(now: Date): Promise<void> {
    for (const [address, holds] of await this.holdsOf({ $exists: true }, now)) this.known.set(address, { holds });
  }

  /** Each address's holds whose lease has not ended, by token: one query for a batch of addresses. */
  private async readHolds(items: { address: string; now: Date }[]): Promise<Outcome<Map<string, number>>[]> {
    const stored = await this.holdsOf({ $in: [...new Set(items.map((i) => i.address))] }, new Date(Math.min(...items.map((i) => i.now.getTime()))));
    return items.map((item) => ({ value: stored.get(item.address) ?? new Map() }));
  }

  /** The holds of the addresses `address` matches whose lease has not ended at `now`: by address, then token to end. */
  private async holdsOf(address: Record<string, unknown>, now: Date): Promise<Map<string, Map<string, number>>> {
    const slots = await this.c.slots.find({ 'hold.address': address, freeAt: { $gt: now } }, { projection: { hold: 1, freeAt: 1 }, hint: { 'hold.address': 1 } }).toArray();
    const byAddress = new Map<string, Map<string, number>>();
    for (const { hold, freeAt } of slots) {
      const holds = byAddress.get(hold!.address) ?? byAddress.set(hold!.address, new Map()).get(hold!.address)!;
      holds.set(hold!.token, freeAt.getTime());
    }
    return byAddress;
  }
}

/** An address's holds after a read of the slots: those stored and not ended, and this process's own
 * not ended by its count (those whose claims are on their way have no slot yet). */
function merge(known: Known, stored: Map<string, number>, now: number): void {
  for (const [token, end] of known.holds) if (end <= now && !stored.has(token)) known.holds.delete(token);
  for (const [token, end] of stored) known.holds.set(token, Math.max(end, known.holds.get(token) ?? 0));
}
