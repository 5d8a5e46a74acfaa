// A domain's connections to its team's CRM (issue 67): the credentials checked with the CRM (a
// refusal keeps nothing, and says the CRM's words), sealed at rest with SECRETS_KEY and never shown
// again; what is sent and the default owner shown and changed; broken when the CRM refuses the
// credentials at a delivery, working again at the next that goes through.
import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import { openedJson, type SecretBox } from '../carriers/secrets.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { CrmFailure, type Crm, type CrmClient } from './crm-client.ts';
import type { CrmCollections, CrmConnectionDoc, CrmDeliveryDoc } from './documents.ts';

export class CrmRefused extends Error {}

/** Why stored credentials cannot be used: SECRETS_KEY is not the key they were sealed with. */
export const UNREADABLE = 'the stored credentials cannot be opened: SECRETS_KEY is not the key they were sealed with (changed or unset since); connect it again, or set the former key back';

export const sendChoice = z
  .object({
    calls: z.boolean().default(true).describe('Send calls (once they ended)'),
    forms: z.boolean().default(true).describe('Send form submissions'),
    onlyLeads: z.boolean().default(false).describe('Only calls and forms that are leads'),
    onlyFirstCallers: z.boolean().default(false).describe("Only callers' first calls"),
  })
  .strict();

/** `PUT …/crm/hubspot`: a private app's access token, what is sent, the default owner. */
export const hubspotBody = z
  .object({
    accessToken: z.string().trim().min(10, 'must be a private app access token (pat-…)').max(500).optional().describe("A HubSpot private app's access token (scopes: crm.objects.contacts.read/write, crm.objects.calls/notes write, crm.schemas.contacts.write, crm.objects.owners.read); absent: the stored one is kept"),
    send: sendChoice.default({ calls: true, forms: true, onlyLeads: false, onlyFirstCallers: false }),
    defaultOwner: z.string().trim().regex(/^\d{1,20}$/, "must be a HubSpot owner's id (digits)").nullable().default(null).describe('The owner of what nobody answered'),
  })
  .strict();
export type HubSpotBody = z.infer<typeof hubspotBody>;

const consumerKey = z.string().trim().min(10, "must be the connected app's consumer key").max(300).describe("The connected app's consumer key (client id)");
const isPrivateKey = (pem: string) => {
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
};
const salesforceCredentials = z.discriminatedUnion('flow', [
  z
    .object({
      flow: z.literal('jwt').describe("OAuth 2.0 JWT bearer flow: the connected app's certificate key signs for a user it is approved for"),
      clientId: consumerKey,
      username: z.string().trim().min(3).max(200).describe('The Salesforce username RingTrail acts as (an integration user)'),
      privateKey: z.string().max(20_000).refine(isPrivateKey, "must be the connected app certificate's RSA private key, PEM (-----BEGIN PRIVATE KEY-----)").describe("The private key of the certificate uploaded to the connected app, PEM"),
      sandbox: z.boolean().default(false).describe('A sandbox org (test.salesforce.com)'),
    })
    .strict(),
  z
    .object({
      flow: z.literal('refresh-token').describe('OAuth 2.0 refresh token flow: a refresh token the connected app was granted'),
      clientId: consumerKey,
      clientSecret: z.string().trim().min(1).max(300).optional().describe("The connected app's consumer secret, when it requires one"),
      refreshToken: z.string().trim().min(10, 'must be a refresh token').max(500),
      sandbox: z.boolean().default(false).describe('A sandbox org (test.salesforce.com)'),
    })
    .strict(),
]);

/** `PUT …/crm/salesforce`: a connected app's credentials (either flow), what is sent, the default owner. */
export const salesforceBody = z
  .object({
    credentials: salesforceCredentials.optional().describe('absent: the stored ones are kept'),
    send: sendChoice.default({ calls: true, forms: true, onlyLeads: false, onlyFirstCallers: false }),
    defaultOwner: z.string().trim().regex(/^005[0-9A-Za-z]{12}(?:[0-9A-Za-z]{3})?$/, "must be a Salesforce user's id (005…)").nullable().default(null).describe('The owner of what nobody answered'),
  })
  .strict();
export type SalesforceBody = z.infer<typeof salesforceBody>;

/** A connection to make or change: new credentials (null: keep the stored ones) and their words. */
export interface CrmConnecting {
  secret: Record<string, unknown> | null;
  credentials: string;
  send: CrmConnectionDoc['send'];
  defaultOwner: string | null;
}

const ending = (value: string) => `…${value.slice(-4)}`;

export function hubspotConnecting(body: HubSpotBody): CrmConnecting {
  const token = body.accessToken;
  return { secret: token ? { accessToken: token } : null, credentials: token ? `private app token ${ending(token)}` : '', send: body.send, defaultOwner: body.defaultOwner };
}

export function salesforceConnecting(body: SalesforceBody): CrmConnecting {
  const c = body.credentials;
  const words = !c ? '' : `${c.flow === 'jwt' ? `JWT bearer flow as ${c.username}` : `refresh token ${ending(c.refreshToken)}`}, connected app ${ending(c.clientId)}${c.sandbox ? ', sandbox' : ''}`;
  return { secret: c ?? null, credentials: words, send: body.send, defaultOwner: body.defaultOwner };
}

/** A connection as the back end shows it: never its secret. */
export interface CrmConnectionView {
  crm: Crm;
  connected: boolean;
  secretsKeySet: boolean;
  account?: string;
  credentials?: string;
  send?: CrmConnectionDoc['send'];
  defaultOwner?: string | null;
  connectedAt?: Date;
  by?: string;
  broken?: CrmConnectionDoc['broken'];
}

/** Makes a CRM's client from its opened secret. */
export type CrmClientOf = (crm: Crm, secret: Record<string, unknown>, connectionId: string) => CrmClient;

export class CrmConnections {
  constructor(
    private readonly c: CrmCollections,
    private readonly box: SecretBox | null,
    private readonly clientOf: CrmClientOf,
  ) {}

  async view(domainId: string, crm: Crm): Promise<CrmConnectionView> {
    return this.viewOf(crm, await this.c.crmConnections.findOne({ _id: `${domainId}|${crm}` }));
  }

  /** Checks new credentials with the CRM (our properties made there), then keeps them sealed. Without
   * new credentials, changes what is sent and the owner of the stored connection. */
  async connect(domain: Pick<DomainDoc, '_id' | 'accountId'>, crm: Crm, to: CrmConnecting, by: string, now = new Date()): Promise<CrmConnectionView> {
    if (!this.box) throw new CrmRefused('Set SECRETS_KEY (32 random bytes, base64: openssl rand -base64 32) to store the credentials of a CRM; nothing was stored');
    const _id = `${domain._id}|${crm}`;
    if (!to.secret) {
      const changed = await this.c.crmConnections.findOneAndUpdate({ _id }, { $set: { send: to.send, defaultOwner: to.defaultOwner } }, { returnDocument: 'after' });
      if (!changed) throw new CrmRefused(`${crm === 'hubspot' ? 'accessToken' : 'credentials'}: is required to connect`);
      return this.viewOf(crm, changed);
    }
    let account;
    try {
      account = await this.clientOf(crm, to.secret, `${_id}|check`).check();
    } catch (err) {
      if (err instanceof CrmFailure) throw new CrmRefused(`${err.message}; nothing was stored`);
      throw err;
    }
    const doc: CrmConnectionDoc = { _id, domainId: domain._id, accountId: domain.accountId, crm, account, send: to.send, defaultOwner: to.defaultOwner, secret: this.box.seal(JSON.stringify(to.secret)), credentials: to.credentials, connectedAt: now, by, broken: null };
    await this.c.crmConnections.replaceOne({ _id }, doc, { upsert: true });
    return this.viewOf(crm, doc);
  }

  /** Tries the stored credentials again; a success clears a broken connection. */
  async test(domainId: string, crm: Crm): Promise<CrmConnectionView> {
    const opened = await this.opened(domainId, crm);
    if (!opened) throw new CrmRefused(`No ${crm} connection to test, or ${UNREADABLE}`);
    try {
      const account = await opened.client.check();
      await this.c.crmConnections.updateOne({ _id: opened.doc._id }, { $set: { account, broken: null } });
    } catch (err) {
      if (!(err instanceof CrmFailure)) throw err;
      if (err.kind === 'broken') await this.markBroken(opened.doc, err.message);
      throw new CrmRefused(err.message);
    }
    return this.view(domainId, crm);
  }

  async disconnect(domainId: string, crm: Crm): Promise<boolean> {
    return (await this.c.crmConnections.deleteOne({ _id: `${domainId}|${crm}` })).deletedCount === 1;
  }

  /** The domain's connections (readable or not). */
  ofDomain(domainId: string): Promise<CrmConnectionDoc[]> {
    return this.c.crmConnections.find({ domainId }).toArray();
  }

  /** The connection and its client; null when none, or SECRETS_KEY does not open it (then marked broken, once). */
  async opened(domainId: string, crm: Crm): Promise<{ doc: CrmConnectionDoc; client: CrmClient } | null> {
    const doc = await this.c.crmConnections.findOne({ _id: `${domainId}|${crm}` });
    if (!doc) return null;
    const secret = this.secretOf(doc);
    if (!secret) {
      if (doc.broken?.error !== UNREADABLE) await this.markBroken(doc, UNREADABLE);
      return null;
    }
    return { doc, client: this.clientOf(crm, secret, `${doc._id}|${doc.connectedAt.getTime()}`) };
  }

  async markBroken(doc: Pick<CrmConnectionDoc, '_id'>, error: string, now = new Date()): Promise<void> {
    await this.c.crmConnections.updateOne({ _id: doc._id, 'broken.error': { $ne: error } }, { $set: { broken: { at: now, error } } });
  }

  async markWorking(doc: Pick<CrmConnectionDoc, '_id' | 'broken'>): Promise<void> {
    if (doc.broken) await this.c.crmConnections.updateOne({ _id: doc._id }, { $set: { broken: null } });
  }

  /** The card's list: the last 50 deliveries, newest first. */
  deliveries(domainId: string, crm: Crm): Promise<CrmDeliveryDoc[]> {
    return this.c.crmDeliveries.find({ domainId, crm }, { sort: { at: -1 }, limit: 50 }).toArray();
  }

  private secretOf(doc: CrmConnectionDoc): Record<string, unknown> | null {
    return openedJson<Record<string, unknown>>(this.box, doc.secret);
  }


  private viewOf(crm: Crm, doc: CrmConnectionDoc | null): CrmConnectionView {
    const base = { crm, secretsKeySet: this.box !== null };
    if (!doc) return { ...base, connected: false };
    const broken = doc.broken ?? (this.secretOf(doc) ? null : { at: doc.connectedAt, error: UNREADABLE });
    return { ...base, connected: true, account: doc.account.name, credentials: doc.credentials, send: doc.send, defaultOwner: doc.defaultOwner, connectedAt: doc.connectedAt, by: doc.by, broken };
  }
}
