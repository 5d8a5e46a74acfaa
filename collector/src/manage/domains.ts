// The back end's domain settings: create a domain, change its settings, make its keys, and say
// whether its pages have sent views yet. Every call names the account: another account's domain
// is not found. Knows nothing of HTTP.
import type { UpdateFilter } from 'mongodb';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { CallSummaries } from '../house/call-summaries.ts';
import { DOMAIN_KEY_FIELDS, hashKey, newKey, type DomainKeyKind } from '../domains/keys.ts';
import { domainSettings, normalizeDomainName, settingsFields, type DomainSettings } from '../domains/settings.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { domainKeys } from '../data/call-days.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { PeopleCollections } from '../people/documents.ts';

export const DOMAIN_NOT_FOUND = 'No such domain';

/** The domain `name` of the account, or a 404 that says nothing of other accounts' domains. */
export async function domainOfAccount(c: DomainCollections, accountId: string, name: string): Promise<DomainDoc> {
  const domain = await c.domains.findOne({ _id: normalizeDomainName(name) });
  if (!domain || domain.accountId !== accountId) throw new ManageFailure(404, DOMAIN_NOT_FOUND);
  return domain;
}

export async function domainsOfAccount(c: DomainCollections, accountId: string): Promise<DomainDoc[]> {
  return c.domains.find({ accountId }).sort({ _id: 1 }).toArray();
}

/** A new domain of the account, with its public key made at once: the tag is ready to copy. */
export async function createDomain(c: DomainCollections, accountId: string, name: string, settings: DomainSettings): Promise<DomainDoc> {
  const publicKey = newKey('public');
  const doc: DomainDoc = { _id: name, name, accountId, ...settingsFields(settings), pools: [], publicKey, [DOMAIN_KEY_FIELDS.public]: hashKey(publicKey) };
  try {
    await c.domains.insertOne(doc);
  } catch (err) {
    // Whose it is stays unsaid (a name is no way to learn of other accounts): only an own one is named so.
    if ((err as { code?: number }).code === 11000) {
      const own = await c.domains.findOne({ _id: name, accountId }, { projection: { _id: 1 } });
      throw new ManageFailure(409, own ? `${name} is already one of this account's domains` : `${name} is not available`);
    }
    throw err;
  }
  return doc;
}

/** Changes the settings named in `changes`; the others stay. A new time zone recounts the data API's
 * daily rollups in the new days (the traffic counters of past days stay in the old zone's days). */
export async function updateDomain(c: DomainCollections & TelephonyCollections & DataCollections & ReportCollections & FormCollections & PeopleCollections, domain: DomainDoc, changes: Partial<DomainSettings>): Promise<DomainDoc> {
  const current = domainSettings.parse(domain);
  const next = settingsFields({ ...current, ...changes });
  const update: UpdateFilter<DomainDoc> = { $set: next };
  if (!next.ga4MeasurementId) update.$unset = { ga4MeasurementId: 1, ga4ApiSecret: 1 };
  // An origin allowed now is no longer one of the refused ones.
  if (changes.allowedOrigins) update.$pull = { refusedOrigins: { origin: { $in: next.allowedOrigins } } };
  const updated = await c.domains.findOneAndUpdate({ _id: domain._id }, update, { returnDocument: 'after' });
  if (!updated) throw new ManageFailure(404, DOMAIN_NOT_FOUND);
  if (next.timeZone !== domain.timeZone) await new CallSummaries(c).rebuild(domain._id, next.timeZone);
  return updated;
}

/** A new key of this kind for the domain, answered once: only its digest is kept (and the public
 * key in clear, which every page of the site publishes). The key it replaces stops working at once. */
export async function rotateDomainKey(c: DomainCollections, domain: DomainDoc, kind: DomainKeyKind): Promise<string> {
  const key = newKey(kind);
  await c.domains.updateOne({ _id: domain._id }, { $set: { [DOMAIN_KEY_FIELDS[kind]]: hashKey(key), ...(kind === 'public' ? { publicKey: key } : {}) } });
  return key;
}

/** Which keys the domain has, never the keys themselves (but the public one). */
export function keyStatus(domain: DomainDoc): Record<DomainKeyKind, boolean> {
  return Object.fromEntries(Object.entries(DOMAIN_KEY_FIELDS).map(([kind, field]) => [kind, Boolean(domain[field])])) as Record<DomainKeyKind, boolean>;
}

/** When the site's last view arrived (any page, any visitor), or null before the first. */
export async function lastViewAt(c: ReportCollections, domainId: string): Promise<Date | null> {
  const latest = await c.trafficDays.find({ _id: domainKeys(domainId), lastViewAt: { $exists: true } }, { sort: { _id: -1 }, limit: 1, projection: { lastViewAt: 1 } }).next();
  return latest?.lastViewAt ?? null;
}
