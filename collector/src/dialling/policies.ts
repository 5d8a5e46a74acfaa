// The account's dialling rules read from the database (rules.ts checks a number against them), and
// the one check every dialled or texted number goes through: the rules, no tracking number of the
// account (a leg to one would enter its flow again, and a simultaneous group of two such legs would
// double at each pass), and for a call or text placed now, the hour's limits (limits.ts).
import type { DomainCollections } from '../domains/documents.ts';
import { countryOf, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import type { RateLimitCollections } from '../http/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import { DialCounts, limitsOf, type DialLimits } from './limits.ts';
import { DiallingRefused } from './refused.ts';
import { diallingRefusal, internationalOf, SPECIAL_RANGES, type DiallingPolicy, type SpecialRange } from './rules.ts';

/** A number to check (canonical), and the field that named it (`phone`, `steps.ring.targets.0.number`). */
export interface NamedNumber {
  field: string;
  number: string;
}

/** What the rules read; the counters (`rateLimits`) only where calls and texts are placed. */
export type DiallingCollections = Pick<TeamCollections, 'accounts'> & DomainCollections & Partial<RateLimitCollections>;

export interface AccountPolicy extends DiallingPolicy {
  domainIds: string[];
  limits: DialLimits;
}

export class DiallingPolicies {
  private readonly counts: DialCounts | null;

  constructor(private readonly c: DiallingCollections) {
    this.counts = c.rateLimits ? new DialCounts({ rateLimits: c.rateLimits }) : null;
  }

  private countsOrThrow(): DialCounts {
    if (!this.counts) throw new Error('the dialling rules were given no counters: nothing can be placed');
    return this.counts;
  }

  /** The account's rules: its own countries, else those of its domains (`newDomainCountry`: of one being made). */
  async of(accountId: string, newDomainCountry?: string): Promise<AccountPolicy> {
    const [account, domains] = await Promise.all([
      this.c.accounts.findOne({ _id: accountId }, { projection: { dialling: 1 } }),
      this.c.domains.find({ accountId }, { projection: { country: 1 } }).toArray(),
    ]);
    const own = account?.dialling;
    // An account of no domain yet reads numbers as a domain of no country does (DEFAULT_COUNTRY).
    const ofDomains = [...domains.map((d) => countryOf(d)), ...(newDomainCountry ? [newDomainCountry] : [])];
    const countries = own?.countries ?? [...new Set(ofDomains.length ? ofDomains : [DEFAULT_COUNTRY])].sort();
    const allowed = (own?.allowed ?? []).filter((r): r is SpecialRange => (SPECIAL_RANGES as readonly string[]).includes(r));
    return { countries, allowed, domainIds: domains.map((d) => d._id), limits: limitsOf(own) };
  }

  /** Each number refused, by its place in `numbers`, with why (the field named first). */
  async refusals(accountId: string, numbers: NamedNumber[], policy?: AccountPolicy): Promise<Map<number, string>> {
    const refused = new Map<number, string>();
    if (numbers.length === 0) return refused;
    const rules = policy ?? (await this.of(accountId));
    const unique = [...new Set(numbers.map((n) => n.number))];
    const tracking = new Set((await this.c.trackingNumbers.find({ _id: { $in: unique }, domainId: { $in: rules.domainIds } }, { projection: { _id: 1 } }).toArray()).map((t) => t._id));
    numbers.forEach(({ field, number }, i) => {
      const why = tracking.has(number) ? `${internationalOf(number)} is a tracking number of this account: a call to it would come back in` : diallingRefusal(number, rules);
      if (why) refused.set(i, `${field}: ${why}`);
    });
    return refused;
  }

  /** Throws DiallingRefused naming the first number the account may not dial or text. */
  async check(accountId: string, numbers: NamedNumber[], policy?: AccountPolicy): Promise<void> {
    const first = [...(await this.refusals(accountId, numbers, policy)).values()][0];
    if (first) throw new DiallingRefused(first);
  }

  /** A call `member` places now to `numbers`: checked, then counted against the hour's limits. */
  async placeCall(accountId: string, member: string, numbers: NamedNumber[]): Promise<void> {
    const policy = await this.of(accountId);
    await this.check(accountId, numbers, policy);
    await this.countsOrThrow().call(accountId, member, policy.limits);
  }

  /** A text sent now (`member` null: by RingTrail itself, the answer to HELP). */
  async sendText(accountId: string, member: string | null, numbers: NamedNumber[]): Promise<void> {
    const policy = await this.of(accountId);
    await this.check(accountId, numbers, policy);
    await this.countsOrThrow().text(accountId, member, policy.limits);
  }
}
