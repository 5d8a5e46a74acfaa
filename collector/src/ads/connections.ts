// A domain's connections to the ad platforms: the platform's ids and credentials checked (a service
// account key's shape, then the platform itself: refused credentials keep nothing), the credentials
// sealed at rest with SECRETS_KEY (carriers/secrets.ts) and never shown again, the ids shown.
import { createPrivateKey } from 'node:crypto';
import { openedJson, type SecretBox } from '../carriers/secrets.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { AdsCollections, AdsConnectionDoc, AdsPlatform } from './documents.ts';
import type { ConnectionBody } from './connection-input.ts';
import type { PlatformClients } from './platform-clients.ts';

export class AdsRefused extends Error {}

/** A connection as the back end shows it: never its secret. */
export interface AdsConnectionView {
  platform: AdsPlatform;
  connected: boolean;
  /** SECRETS_KEY is set: without it nothing can be connected. */
  secretsKeySet: boolean;
  settings?: Record<string, string>;
  credentials?: string;
  connectedAt?: Date;
  by?: string;
  broken?: { at: Date; error: string } | null;
}

/** Why a connection's credentials cannot be used: the key they were sealed with is not SECRETS_KEY now. */
export const UNREADABLE = 'the stored credentials cannot be opened: SECRETS_KEY is not the key they were sealed with (changed or unset since); connect it again, or set the former key back';

export class AdsConnections {
  constructor(
    private readonly c: AdsCollections,
    private readonly box: SecretBox | null,
    private readonly clients: PlatformClients,
    /** Told when a connection is made or removed (the browser door's ConnectedDomains). */
    private readonly changed: () => void = () => {},
  ) {}

  async view(domainId: string, platform: AdsPlatform): Promise<AdsConnectionView> {
    return this.viewOf(platform, await this.c.adsConnections.findOne({ _id: `${domainId}|${platform}` }));
  }

  /** Checks the credentials with the platform, then keeps them sealed; a refusal keeps nothing. */
  async connect<P extends AdsPlatform>(domain: Pick<DomainDoc, '_id' | 'accountId' | 'currency'>, platform: P, body: ConnectionBody<P>, by: string, now = new Date()): Promise<AdsConnectionView> {
    if (!this.box) throw new AdsRefused('Set SECRETS_KEY (32 random bytes, base64: openssl rand -base64 32) to store the credentials of an ad platform; nothing was stored');
    const { settings, secret, credentials } = splitBody(platform, body);
    const refusal = await this.clients.check(platform, settings, secret, domain.currency);
    if (refusal) throw new AdsRefused(refusal);
    const doc: AdsConnectionDoc = { _id: `${domain._id}|${platform}`, domainId: domain._id, accountId: domain.accountId, platform, settings, secret: this.box.seal(JSON.stringify(secret)), credentials, connectedAt: now, by, broken: null };
    await this.c.adsConnections.replaceOne({ _id: doc._id }, doc, { upsert: true });
    this.changed();
    return this.viewOf(platform, doc);
  }

  async disconnect(domainId: string, platform: AdsPlatform): Promise<boolean> {
    const removed = (await this.c.adsConnections.deleteOne({ _id: `${domainId}|${platform}` })).deletedCount === 1;
    this.changed();
    return removed;
  }

  /** The connection and its secret opened; null when none, or SECRETS_KEY no longer opens it (then
   * the connection is marked broken, once: its leads wait, they are not lost as "not connected"). */
  async opened(domainId: string, platform: AdsPlatform): Promise<{ doc: AdsConnectionDoc; secret: Record<string, unknown> } | null> {
    const doc = await this.c.adsConnections.findOne({ _id: `${domainId}|${platform}` });
    if (!doc) return null;
    const secret = this.secretOf(doc);
    if (!secret && doc.broken?.error !== UNREADABLE) await this.markBroken(domainId, platform, UNREADABLE);
    return secret ? { doc, secret } : null;
  }

  /** Marks broken every connection SECRETS_KEY does not open (run at start: a key changed means a
   * restart), so that the Conversions card and the warnings say so before any lead tries them. */
  async markUnreadable(): Promise<void> {
    for await (const doc of this.c.adsConnections.find({ 'broken.error': { $ne: UNREADABLE } })) {
      if (!this.secretOf(doc)) await this.markBroken(doc.domainId, doc.platform, UNREADABLE);
    }
  }

  /** Whether the domain has a connection to the platform, readable or not. */
  async exists(domainId: string, platform: AdsPlatform): Promise<boolean> {
    return (await this.c.adsConnections.countDocuments({ _id: `${domainId}|${platform}` }, { limit: 1 })) > 0;
  }

  /** The secret, or null when SECRETS_KEY (unset, or changed since) does not open it. */
  private secretOf(doc: AdsConnectionDoc): Record<string, unknown> | null {
    return openedJson<Record<string, unknown>>(this.box, doc.secret);
  }


  /** The platform refused the credentials (or answers again): shown, and warned of once. */
  async markBroken(domainId: string, platform: AdsPlatform, error: string | null, now = new Date()): Promise<void> {
    await this.c.adsConnections.updateOne({ _id: `${domainId}|${platform}` }, { $set: { broken: error ? { at: now, error } : null } });
  }

  private viewOf(platform: AdsPlatform, doc: AdsConnectionDoc | null): AdsConnectionView {
    const base = { platform, secretsKeySet: this.box !== null };
    if (!doc) return { ...base, connected: false };
    // Credentials SECRETS_KEY no longer opens are broken, said at once, before any send tries them.
    const broken = doc.broken ?? (this.secretOf(doc) ? null : { at: doc.connectedAt, error: UNREADABLE });
    return { ...base, connected: true, settings: doc.settings, credentials: doc.credentials, connectedAt: doc.connectedAt, by: doc.by, broken };
  }
}

/** A body's ids (shown), its secret (sealed) and what the credentials are, in words. */
function splitBody(platform: AdsPlatform, body: ConnectionBody<AdsPlatform>): { settings: Record<string, string>; secret: Record<string, unknown>; credentials: string } {
  if (platform === 'google') {
    const { serviceAccountKey, oauth, ...settings } = body as ConnectionBody<'google'>;
    if (oauth) return { settings: clean(settings), secret: { oauth }, credentials: `OAuth client ${oauth.clientId}` };
    const key = serviceAccountKeyOf(serviceAccountKey!);
    return { settings: clean(settings), secret: { serviceAccountKey: key }, credentials: `service account ${key.client_email}` };
  }
  if (platform === 'microsoft') {
    const { developerToken, oauth, ...settings } = body as ConnectionBody<'microsoft'>;
    return { settings: clean(settings), secret: { developerToken, oauth }, credentials: `OAuth client ${oauth.clientId}` };
  }
  const { accessToken, ...settings } = body as ConnectionBody<'meta'>;
  return { settings: clean(settings), secret: { accessToken }, credentials: `access token …${accessToken.slice(-4)}` };
}

const clean = (settings: Record<string, string | undefined>) => Object.fromEntries(Object.entries(settings).filter((e): e is [string, string] => e[1] !== undefined));

/** A service account's key, read and checked: refused, naming the field, when it is not one. */
export function serviceAccountKeyOf(raw: string | Record<string, unknown>) {
  const refused = new AdsRefused('serviceAccountKey: must be a service account key: the JSON file Google gives, with type service_account, client_email and private_key');
  let key: Record<string, unknown>;
  try {
    key = typeof raw === 'string' ? (JSON.parse(raw) as Record<string, unknown>) : raw;
  } catch {
    throw refused;
  }
  if (!key || key.type !== 'service_account' || typeof key.client_email !== 'string' || typeof key.private_key !== 'string') throw refused;
  try {
    createPrivateKey(key.private_key);
  } catch {
    throw new AdsRefused('serviceAccountKey: its private_key is no private key (PEM)');
  }
  return { type: 'service_account' as const, client_email: key.client_email, private_key: key.private_key, ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}), ...(typeof key.project_id === 'string' ? { project_id: key.project_id } : {}) };
}
