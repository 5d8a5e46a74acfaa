// A domain's numbers at the account's carrier: imported (the collector wires them to itself and
// keeps where they pointed, to put back), bought into a pool (wired at once), given back, checked.
// Each number's outcome is its own: a partial failure is normal, and nothing is left bought but not
// in the pool, or in the pool but not wired. A purchase is never retried blindly. Knows nothing of HTTP.
import { COUNTRY_NUMBER_TYPES, normalizePhone, NUMBER_TYPE_PREFIXES } from '@ringtrail/shared';
import type { DomainDoc, PoolConfig, DomainCollections } from '../domains/documents.ts';
import { addPoolNumber, numberRefusal, typeRefusal } from '../domains/pool-numbers.ts';
import { canonicalIn, countryOf, e164Of } from '../domains/phone-numbers.ts';
import { CarrierError, type Carrier, type CarrierNumber, type NumberPrice, type NumberSearch } from './carrier.ts';
import type { CarrierConnections } from './connections.ts';
import type { NumberAtCarrier } from './documents.ts';
import { twilioWiring } from './wiring.ts';
import type { TrackingCollections } from '../tracking/documents.ts';

/** What a person narrows a search of the numbers on sale by. */
export type Narrowing = Pick<NumberSearch, 'areaCode' | 'locality' | 'contains'>;

/** One number's outcome. `movedFrom`: where an imported number's calls went before. */
export interface NumberResult {
  number: string;
  ok: boolean;
  error?: string;
  movedFrom?: string | null;
}

/** The carrier's price is above what the person confirmed (or no longer listed): nothing bought. */
export class PriceChanged extends Error {
  constructor(
    readonly price: NumberPrice | null,
    confirmed: number,
  ) {
    super(price ? `The monthly price changed: the carrier lists ${price.amount} ${price.currency} a number now, and ${confirmed} was confirmed. Nothing was bought: confirm the new price` : `The carrier lists no price for these numbers now (${confirmed} was confirmed). Nothing was bought`);
  }
}

export class NoCarrier extends Error {
  constructor() {
    super('No carrier account is connected: connect one first');
  }
}

/** What the carrier sells for a pool's type: ours by the domain's country, the spec's French types
 * by their prefix (found among France's numbers of that kind); null when the carrier sells none. */
export function searchFor(pool: Pick<PoolConfig, 'type'>, domain: Pick<DomainDoc, 'country'>): { country: string; kind: NumberSearch['kind'] } | null {
  const ours = COUNTRY_NUMBER_TYPES[pool.type];
  if (ours) return { country: countryOf(domain), kind: ours === 'toll-free' ? 'toll-free' : ours === 'mobile' ? 'mobile' : 'local' };
  const prefix = NUMBER_TYPE_PREFIXES[pool.type];
  if (!prefix || prefix.startsWith('00')) return null;
  return { country: 'FR', kind: /^080[0-5]/.test(prefix) ? 'toll-free' : /^0[67]/.test(prefix) ? 'mobile' : 'local' };
}

export class CarrierNumbers {
  constructor(
    private readonly c: DomainCollections & TrackingCollections,
    private readonly connections: CarrierConnections,
    private readonly publicUrl: string,
  ) {}

  /** Imports the carrier account's numbers into the pool, each wired to the collector. */
  async importInto(domain: DomainDoc, pool: PoolConfig, numbers: string[]): Promise<NumberResult[]> {
    const { carrier, accountSid } = await this.connected(domain);
    const owned = new Map((await carrier.listNumbers()).map((n) => [normalizePhone(n.number), n]));
    const results: NumberResult[] = [];
    for (const raw of numbers) {
      const canonical = canonicalIn(raw, countryOf(domain));
      const found = canonical ? owned.get(canonical) : undefined;
      if (!canonical || !found) {
        results.push({ number: raw, ok: false, error: 'not a number of the carrier account' });
        continue;
      }
      const { refused: _, ...result } = await this.track(domain, pool, accountSid, canonical, found, 'imported', () => carrier.wire(found.sid, twilioWiring(this.publicUrl)));
      results.push(result);
    }
    return results;
  }

  /** Buys `count` numbers into the pool: searched first, then bought one by one, each wired at once.
   * A number taken meanwhile is reported, not replaced: a retry picks others. */
  /** `price`: what the carrier lists for each a month, for the activity log (the answer is without it). */
  async buyInto(domain: DomainDoc, pool: PoolConfig, want: Narrowing & { count: number; monthlyPrice?: number | undefined }): Promise<{ answer: { results: NumberResult[]; reason?: string }; price: NumberPrice | null }> {
    const { carrier, accountSid } = await this.connected(domain);
    const price = await this.priceOf(carrier, domain, pool);
    // The price the person confirmed (ours): never more spent than they agreed to.
    if (want.monthlyPrice !== undefined && (!price || price.amount > want.monthlyPrice)) throw new PriceChanged(price, want.monthlyPrice);
    const { monthlyPrice: _, ...search } = want;
    const offered = await this.offered(carrier, domain, pool, search);
    if (typeof offered === 'string') return { answer: { results: [], reason: offered }, price };
    const results: NumberResult[] = [];
    let slowDown: CarrierError | null = null;
    for (const number of offered.slice(0, want.count)) {
      if (slowDown) {
        results.push({ number, ok: false, error: `not tried: ${slowDown.message}` });
        continue;
      }
      const { refused, ...result } = await this.track(domain, pool, accountSid, normalizePhone(number)!, null, 'bought', () => carrier.buy(number, twilioWiring(this.publicUrl)), (bought) => carrier.release(bought.sid));
      if (refused?.kind === 'rate-limited') slowDown = refused;
      results.push(result);
    }
    return { answer: { results, ...(offered.length < want.count ? { reason: `the carrier has ${offered.length} such numbers on sale now` } : {}) }, price };
  }

  /** What `count` numbers of the pool's type cost a month, as the carrier lists them: what a person confirms. */
  async quote(domain: DomainDoc, pool: PoolConfig, count: number): Promise<{ price: NumberPrice | null; count: number; monthlyTotal: number | null }> {
    const price = await this.priceOf((await this.connected(domain)).carrier, domain, pool);
    return { price, count, monthlyTotal: price ? Math.round(price.amount * count * 100) / 100 : null };
  }

  /** The monthly price the carrier lists for the pool's numbers; null when it lists none or cannot say
   * now (the search and the purchase go on: the person is told the price is not known). */
  private async priceOf(carrier: Carrier, domain: DomainDoc, pool: PoolConfig): Promise<NumberPrice | null> {
    const search = searchFor(pool, domain);
    return search ? carrier.monthlyPrice(search.country, search.kind).catch(() => null) : null;
  }

  /** Numbers on sale for the pool now (a person looks before buying); the reason when there are none. */
  async available(domain: DomainDoc, pool: PoolConfig, want: Narrowing): Promise<{ numbers: string[]; reason?: string }> {
    const offered = await this.offered((await this.connected(domain)).carrier, domain, pool, { count: 20, ...want });
    return typeof offered === 'string' ? { numbers: [], reason: offered } : { numbers: offered.slice(0, 20) };
  }

  /** Numbers on sale for the pool, none of them known here; a sentence when there are none. */
  private async offered(carrier: Carrier, domain: DomainDoc, pool: PoolConfig, want: Narrowing & { count: number }): Promise<string[] | string> {
    const search = searchFor(pool, domain);
    if (!search) return `the carrier sells no numbers of type ${pool.type}`;
    const { count, ...narrowing } = want;
    const found = await carrier.search({ country: search.country, kind: search.kind, limit: Math.min(count * 3 + 10, 100), ...narrowing });
    // Of the pool's type (a French type's prefix among them), and known nowhere here: one query for all.
    const canonical = new Map(found.map((n) => [n, normalizePhone(n)]));
    const known = new Set((await this.c.trackingNumbers.find({ _id: { $in: [...canonical.values()].filter((n): n is string => n !== null) } }, { projection: { _id: 1 } }).toArray()).map((t) => t._id));
    const fitting = found.filter((n) => {
      const digits = canonical.get(n);
      return digits && !known.has(digits) && !typeRefusal(domain, pool.type, digits);
    });
    return fitting.length ? fitting : `no ${search.kind} numbers${want.areaCode ? ` in area code ${want.areaCode}` : ''}${want.locality ? ` in ${want.locality}` : ''}${want.contains ? ` containing ${want.contains}` : ''} on sale in ${search.country} now`;
  }

  /** Gives a number back: an imported one's URLs put back as they were, a bought one released at the
   * carrier. The caller has taken it out of its pool; on a refusal it is put back, and the error thrown. */
  async giveBack(domain: DomainDoc, pool: PoolConfig, number: string, at: NumberAtCarrier): Promise<void> {
    const { carrier } = await this.connected(domain);
    try {
      if (at.origin === 'bought') await carrier.release(at.sid);
      else await carrier.wire(at.sid, { voiceUrl: at.previous?.voiceUrl ?? '', statusCallback: at.previous?.statusCallback ?? '', smsUrl: at.previous?.smsUrl ?? '' });
    } catch (err) {
      await addPoolNumber(this.c, domain._id, pool, number);
      await this.c.trackingNumbers.updateOne({ _id: number }, { $set: { carrier: at } });
      throw err;
    }
  }

  /** Wires a tracked number to the collector again (after the check found it pointing elsewhere). */
  async fix(domain: DomainDoc, number: string, at: NumberAtCarrier): Promise<CarrierNumber> {
    const { carrier } = await this.connected(domain);
    const wired = await carrier.wire(at.sid, twilioWiring(this.publicUrl));
    await this.c.trackingNumbers.updateOne({ _id: number }, { $set: { 'carrier.wiredAt': new Date(), 'carrier.check': { at: new Date(), voiceUrl: wired.voiceUrl, ok: true } } });
    return wired;
  }

  /** Adds the number to the pool, has the carrier send its calls here (`wire`: a purchase or an
   * update), and records where it is. A number new to the pool leaves it again when the carrier
   * refuses (`refused`: why); a purchase whose pool write fails is given back (`undo`). */
  private async track(domain: DomainDoc, pool: PoolConfig, accountSid: string, canonical: string, found: CarrierNumber | null, origin: NumberAtCarrier['origin'], wire: () => Promise<CarrierNumber>, undo?: (n: CarrierNumber) => Promise<void>): Promise<NumberResult & { refused?: CarrierError }> {
    const number = e164Of(canonical);
    const refusal = await numberRefusal(this.c, domain, pool.type, canonical);
    if (refusal) return { number, ok: false, error: refusal };
    const before = await this.c.trackingNumbers.findOne({ _id: canonical });
    if (before && before.type !== pool.type) return { number, ok: false, error: `${canonical} is already in the pool of type ${before.type}` };
    if (origin === 'imported') await addPoolNumber(this.c, domain._id, pool, canonical);
    let wired: CarrierNumber;
    try {
      wired = await wire();
    } catch (err) {
      if (origin === 'imported' && !before) await this.c.trackingNumbers.deleteOne({ _id: canonical }).then(() => this.c.slots.deleteOne({ _id: canonical }));
      if (err instanceof CarrierError) return { number, ok: false, error: err.message, refused: err };
      throw err;
    }
    const previous = found && !before?.carrier ? { voiceUrl: found.voiceUrl, statusCallback: found.statusCallback, smsUrl: found.smsUrl } : (before?.carrier?.previous ?? null);
    const at: NumberAtCarrier = { provider: 'twilio', accountSid, sid: wired.sid, origin: before?.carrier?.origin ?? origin, previous, wiredAt: new Date() };
    try {
      if (origin === 'bought') await addPoolNumber(this.c, domain._id, pool, canonical);
      await this.c.trackingNumbers.updateOne({ _id: canonical }, { $set: { carrier: at } });
    } catch (err) {
      await undo?.(wired).catch(() => undefined);
      throw err;
    }
    const movedFrom = found && found.voiceUrl !== twilioWiring(this.publicUrl).voiceUrl ? found.voiceUrl : null;
    return { number, ok: true, ...(origin === 'imported' ? { movedFrom: before?.carrier ? null : movedFrom } : {}) };
  }

  /** The account's carrier, ready to call, and its account's id there. */
  private async connected(domain: DomainDoc): Promise<{ carrier: Carrier; accountSid: string }> {
    const connected = await this.connections.connectedOf(domain.accountId);
    if (!connected) throw new NoCarrier();
    return connected;
  }
}
