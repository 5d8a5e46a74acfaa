// An account's carrier account: connected by its credentials, checked against the carrier at once,
// the secret sealed at rest (secrets.ts) and never shown again nor logged. Each account has its own,
// so two accounts with two Twilio accounts work on one collector. Knows nothing of HTTP.
import { z } from 'zod';
import type { Carrier, CarrierAccount } from './carrier.ts';
import type { SecretBox } from './secrets.ts';
import type { CarrierConnectionDoc } from './documents.ts';
import { TwilioCarrier } from './twilio-carrier.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';

export const carrierConnectBody = z
  .object({
    provider: z.literal('twilio', { error: 'must be twilio' }),
    accountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio Account SID (AC and 32 hexadecimal digits)'),
    authToken: z.string().min(1).max(200).optional(),
    apiKey: z.string().regex(/^SK[0-9a-fA-F]{32}$/, 'must be a Twilio API key SID (SK and 32 hexadecimal digits)').optional(),
    apiSecret: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((b) => (b.authToken !== undefined) !== (b.apiKey !== undefined || b.apiSecret !== undefined) && (b.apiKey === undefined) === (b.apiSecret === undefined), {
    message: 'give authToken, or apiKey and apiSecret',
  });
export type CarrierConnectBody = z.infer<typeof carrierConnectBody>;

/** The connection as the back end shows it: never the secret. */
export interface CarrierView {
  connected: boolean;
  /** SECRETS_KEY is set: without it nothing can be connected. */
  secretsKeySet: boolean;
  provider?: 'twilio';
  accountSid?: string;
  apiKey?: string | null;
  name?: string;
  connectedAt?: Date;
  /** The connection broke: the carrier refused the credentials at its last check. */
  broken?: { at: Date; error: string } | null;
}

/** The signer of a carrier request (CarrierConnections.signerFor). */
export type Signer = { kind: 'none' } | { kind: 'foreign' } | { kind: 'owner'; accountId: string; token: string | null };

/** A sealed secret that SECRETS_KEY no longer opens: the key changed since it was stored. */
export class SecretUnreadable extends Error {
  constructor() {
    super("The carrier account's credentials cannot be read: SECRETS_KEY changed since they were stored. Set the former SECRETS_KEY back, or connect the carrier account again");
  }
}

export class SecretsKeyMissing extends Error {
  constructor() {
    super('Set SECRETS_KEY (32 random bytes, base64: openssl rand -base64 32) to store carrier credentials; nothing was stored');
  }
}

export class CarrierConnections {
  constructor(
    private readonly c: TeamCollections & DomainCollections,
    private readonly box: SecretBox | null,
    private readonly twilioApiBase: string,
  ) {}

  /** Checks the credentials against the carrier, then keeps them (the secret sealed); a refusal keeps nothing. */
  async connect(accountId: string, body: CarrierConnectBody): Promise<CarrierView> {
    if (!this.box) throw new SecretsKeyMissing();
    const secret = body.authToken ?? body.apiSecret!;
    const checked: CarrierAccount = await this.twilio(body.accountSid, body.apiKey ?? null, secret).connect();
    const doc: CarrierConnectionDoc = {
      provider: 'twilio',
      accountSid: body.accountSid,
      apiKey: body.apiKey ?? null,
      secret: this.box.seal(secret),
      signingToken: checked.signingToken === null ? null : this.box.seal(checked.signingToken),
      name: checked.name,
      connectedAt: new Date(),
    };
    await this.c.accounts.updateOne({ _id: accountId }, { $set: { carrier: doc } });
    return this.viewOf(doc);
  }

  async view(accountId: string): Promise<CarrierView> {
    return this.viewOf(await this.connectionOf(accountId));
  }

  async disconnect(accountId: string): Promise<boolean> {
    return (await this.c.accounts.updateOne({ _id: accountId, carrier: { $exists: true } }, { $unset: { carrier: '' } })).modifiedCount > 0;
  }

  private async connectionOf(accountId: string): Promise<CarrierConnectionDoc | null> {
    return (await this.c.accounts.findOne({ _id: accountId }, { projection: { carrier: 1 } }))?.carrier ?? null;
  }

  /** HTTP basic credentials (`user:password`) of the account connected to this AccountSid, for its
   * media URLs (recordings); null when none is connected here. */
  async basicAuthFor(accountSid: string): Promise<string | null> {
    const connected = this.box && (await this.c.accounts.findOne({ 'carrier.accountSid': accountSid }, { projection: { carrier: 1 } }))?.carrier;
    return connected ? `${connected.apiKey ?? connected.accountSid}:${this.open(connected.secret)}` : null;
  }

  /**
   * Who may sign a Twilio request of this AccountSid for the number called: the auth token of the
   * account connected to that AccountSid here which owns the number (`token` null when its token is
   * unknown: TWILIO_AUTH_TOKEN checks it then). `foreign`: accounts are connected to it, but none owns
   * the number (a signed request may write only into the account that owns it). `none`: no account is
   * connected to that AccountSid here.
   */
  async signerFor(accountSid: string, calledNumber: string | null): Promise<Signer> {
    if (!this.box || !accountSid) return { kind: 'none' };
    const connected = await this.c.accounts.find({ 'carrier.accountSid': accountSid }, { projection: { carrier: 1 } }).limit(20).toArray();
    if (connected.length === 0) return { kind: 'none' };
    const owner = calledNumber && (await this.ownerOf(calledNumber));
    const chosen = connected.find((a) => a._id === owner);
    if (!chosen) return { kind: 'foreign' };
    return { kind: 'owner', accountId: chosen._id, token: chosen.carrier?.signingToken ? this.open(chosen.carrier.signingToken) : null };
  }

  /** The account a tracking or offline number belongs to, or null. */
  private async ownerOf(number: string): Promise<string | null> {
    const tracked = await this.c.trackingNumbers.findOne({ _id: number }, { projection: { domainId: 1 } });
    return (tracked && (await this.c.domains.findOne({ _id: tracked.domainId }, { projection: { accountId: 1 } }))?.accountId) ?? null;
  }

  /** The account's carrier, ready to call; null when none is connected (or the key to open it is gone). */
  async carrierOf(accountId: string): Promise<Carrier | null> {
    return (await this.connectedOf(accountId))?.carrier ?? null;
  }

  /** The same, with the carrier's id of the account (Twilio's AccountSid). */
  async connectedOf(accountId: string): Promise<{ carrier: Carrier; accountSid: string } | null> {
    const doc = await this.connectionOf(accountId);
    if (!doc || !this.box) return null;
    return { carrier: this.twilio(doc.accountSid, doc.apiKey, this.open(doc.secret)), accountSid: doc.accountSid };
  }

  /** A sealed secret opened; a SecretUnreadable when SECRETS_KEY changed since it was sealed. */
  private open(sealed: string): string {
    try {
      return this.box!.open(sealed);
    } catch {
      throw new SecretUnreadable();
    }
  }

  private twilio(accountSid: string, apiKey: string | null, secret: string): Carrier {
    return new TwilioCarrier(this.twilioApiBase, { accountSid, secret, ...(apiKey ? { apiKey } : {}) });
  }

  /** The card: a connection whose secret the key no longer opens is shown broken, saying why. */
  private viewOf(doc: CarrierConnectionDoc | null): CarrierView {
    const secretsKeySet = this.box !== null;
    if (!doc) return { connected: false, secretsKeySet };
    const unreadable = this.box && !this.opens(doc.secret) ? { at: new Date(), error: new SecretUnreadable().message } : null;
    return { connected: true, secretsKeySet, provider: doc.provider, accountSid: doc.accountSid, apiKey: doc.apiKey, name: doc.name, connectedAt: doc.connectedAt, broken: unreadable ?? doc.broken ?? null };
  }

  private opens(sealed: string): boolean {
    try {
      return this.open(sealed) !== undefined;
    } catch {
      return false;
    }
  }
}
