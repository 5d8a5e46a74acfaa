// Keeps the wiring true: once a day (and when a person asks), each number imported or bought through
// an account's carrier is compared with where the carrier sends its calls now. A number whose voice
// URL no longer points here (someone changed it in the carrier's console), or that left the carrier
// account, is flagged on the pools screen until it is fixed. One list of the carrier account's
// numbers per account and round, whatever the number of numbers.
import type { Logger } from '../logger.ts';
import { Rounds } from '../rounds.ts';
import { CarrierError } from './carrier.ts';
import { NoCarrier } from './carrier-numbers.ts';
import type { CarrierConnections } from './connections.ts';
import { twilioWiring } from './wiring.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';

const DAY_MS = 86_400_000;

/** A number whose calls no longer come here: where its voice URL points (null: it left the carrier account). */
export interface MiswiredNumber {
  domain: string;
  number: string;
  voiceUrl: string | null;
}

export class NumberCheck {
  private readonly rounds: Rounds;

  constructor(
    private readonly c: TeamCollections & DomainCollections,
    private readonly connections: CarrierConnections,
    private readonly publicUrl: string,
    private readonly log?: Logger,
  ) {
    this.rounds = new Rounds(() => this.everyAccount(), 'checking numbers at the carrier', log);
  }

  start(): void {
    this.rounds.start(DAY_MS);
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** Checks one account's carrier account and numbers now; the numbers whose calls no longer come
   * here. Refused credentials (or a suspended account) mark the connection broken until it answers. */
  async account(accountId: string, now = new Date()): Promise<{ checked: number; miswired: MiswiredNumber[] }> {
    const carrier = await this.connections.carrierOf(accountId);
    if (!carrier) throw new NoCarrier();
    try {
      await carrier.connect();
      await this.c.accounts.updateOne({ _id: accountId, carrier: { $exists: true } }, { $unset: { 'carrier.broken': '' } });
    } catch (err) {
      if (err instanceof CarrierError && (err.kind === 'credentials' || err.kind === 'suspended')) await this.c.accounts.updateOne({ _id: accountId, carrier: { $exists: true } }, { $set: { 'carrier.broken': { at: now, error: err.message } } });
      throw err;
    }
    const domains = (await this.c.domains.find({ accountId }, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
    const tracked = await this.c.trackingNumbers.find({ domainId: { $in: domains }, carrier: { $exists: true } }, { projection: { domainId: 1, carrier: 1 } }).toArray();
    if (tracked.length === 0) return { checked: 0, miswired: [] };
    const atCarrier = new Map((await carrier.listNumbers()).map((n) => [n.sid, n]));
    const expected = twilioWiring(this.publicUrl).voiceUrl;
    const checks = tracked.map((t) => {
      const current = atCarrier.get(t.carrier!.sid);
      const voiceUrl = current?.voiceUrl ?? null;
      return { t, voiceUrl, ok: Boolean(current) && voiceUrl === expected };
    });
    await this.c.trackingNumbers.bulkWrite(checks.map(({ t, voiceUrl, ok }) => ({ updateOne: { filter: { _id: t._id }, update: { $set: { 'carrier.check': { at: now, voiceUrl, ok } } } } })));
    return { checked: tracked.length, miswired: checks.filter((x) => !x.ok).map(({ t, voiceUrl }) => ({ domain: t.domainId, number: t._id, voiceUrl })) };
  }

  private async everyAccount(): Promise<void> {
    for await (const account of this.c.accounts.find({ carrier: { $exists: true } }, { projection: { _id: 1 } })) {
      await this.account(account._id).catch((err) => this.log?.warn({ err, accountId: account._id }, 'the carrier check of an account failed'));
    }
  }
}
