// HubSpot through its official client (`@hubspot/api-client`) with a private app's access token, at
// HUBSPOT_API_BASE (its API, or a stand-in). The client's own retries are off (the outbox retries
// with back-off, a 429 after its Retry-After) and its limiter keeps one connection under HubSpot's
// documented private-app limit (100 requests per 10 seconds). A socket that says nothing for
// CRM_SOCKET_TIMEOUT_MS is closed: no request holds a job's slot longer.
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { Client } from '@hubspot/api-client';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { escapeHtml } from '../mail/layout.ts';
import { CrmFailure, unreachable, type CrmAccount, type CrmActivity, type CrmClient, type CrmOwner, type CrmPerson } from './crm-client.ts';

export const DEFAULT_HUBSPOT_API_BASE = 'https://api.hubapi.com';
/** How long a socket may stay silent. */
export const CRM_SOCKET_TIMEOUT_MS = 20_000;
/** HubSpot's association types (HUBSPOT_DEFINED): a call to its contact, a note to its contact. */
const ASSOCIATED = { calls: 194, notes: 202 } as const;
/** Our properties, made once by the connection where missing: the contact's first touch, and the id
 * of our call or note, a unique value (issue 80): the call is upserted by it, so a retry after a lost
 * answer creates nothing twice without a search (HubSpot says a new object takes seconds to be
 * searchable). */
const OUR_PROPERTIES = [
  { objectType: 'contacts', name: 'ringtrail_first_source', label: 'RingTrail first source', groupName: 'contactinformation', unique: false },
  { objectType: 'contacts', name: 'ringtrail_first_campaign', label: 'RingTrail first campaign', groupName: 'contactinformation', unique: false },
  { objectType: 'calls', name: 'ringtrail_id', label: 'RingTrail id', groupName: 'callinformation', unique: true },
  { objectType: 'notes', name: 'ringtrail_id', label: 'RingTrail id', groupName: 'noteinformation', unique: true },
] as const;
/** HubSpot's calculated properties: the contact's phone and mobile without their country code, digits
 * only, whatever spelling a person typed. */
const SEARCHABLE_PHONES = ['hs_searchable_calculated_phone_number', 'hs_searchable_calculated_mobile_number'] as const;

/** An agent whose sockets end after CRM_SOCKET_TIMEOUT_MS of silence. */
function silentSocketsEnd(base: string): http.Agent {
  const Agent = base.startsWith('https:') ? https.Agent : http.Agent;
  const agent = new Agent({ keepAlive: true });
  const create = agent.createConnection.bind(agent) as (options: object, callback?: unknown) => Duplex;
  agent.createConnection = ((options: object, callback?: unknown) => {
    const socket = create(options, callback) as Duplex & { setTimeout(ms: number, cb: () => void): void };
    socket.setTimeout(CRM_SOCKET_TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${CRM_SOCKET_TIMEOUT_MS / 1000} s`)));
    return socket;
  }) as typeof agent.createConnection;
  return agent;
}

/** What the client threw, as a failure: 401 and 403 break the connection, a 429 says when. */
export function failureOf(err: unknown): CrmFailure {
  if (err instanceof CrmFailure) return err;
  const e = err as { code?: number; body?: { message?: string; category?: string }; headers?: Record<string, string>; message?: string };
  if (typeof e.code === 'number' && e.code >= 100) {
    const said = e.body?.message ?? 'no words';
    const after = Number(e.headers?.['retry-after']);
    if (e.code === 401 || e.code === 403) return new CrmFailure(`HubSpot refuses the token (${e.code}): ${said}`, 'broken');
    if (e.code === 429) return new CrmFailure(`HubSpot's rate limit (429): ${said}`, 'retry', Number.isFinite(after) ? after * 1000 : null);
    if (e.code >= 500) return new CrmFailure(`HubSpot answered ${e.code}: ${said}`, 'retry');
    return new CrmFailure(`HubSpot answered ${e.code}: ${said}`, 'refused');
  }
  return new CrmFailure(unreachable('HubSpot', `${e.message ?? String(err)}`.slice(0, 300)), 'retry');
}

/** Text as HubSpot's rich-text fields (hs_call_body, hs_note_body) take it: HTML, so what a caller
 * or a form wrote is escaped (issue 79: a form's `<img onerror>` stays words), each line break a
 * <br> as HubSpot's editor shows it. */
export function richText(text: string): string {
  return text.split('\n').map(escapeHtml).join('<br>');
}

export class HubSpotCrm implements CrmClient {
  readonly crm = 'hubspot' as const;
  private readonly client: Client;
  private readonly unique = new Map<string, Promise<boolean>>();

  constructor(accessToken: string, base = DEFAULT_HUBSPOT_API_BASE) {
    this.client = new Client({ accessToken, basePath: base.replace(/\/$/, ''), numberOfApiCallRetries: 0, limiterOptions: { minTime: 100, maxConcurrent: 2 }, httpAgent: silentSocketsEnd(base) });
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw failureOf(err);
    }
  }

  /** The token works (its account is read), and our properties exist (made where missing). */
  async check(): Promise<CrmAccount> {
    const response = await this.call(() => this.client.apiRequest({ method: 'GET', path: '/account-info/v3/details' }));
    if (!response.ok) throw failureOf({ code: response.status, body: await response.json().catch(() => ({})), headers: Object.fromEntries(response.headers.entries()) });
    const account = (await response.json()) as { portalId: number; uiDomain?: string };
    for (const p of OUR_PROPERTIES) {
      const exists = await this.client.crm.properties.coreApi.getByName(p.objectType, p.name).then(
        () => true,
        (err: { code?: number }) => {
          if (err.code === 404) return false;
          throw failureOf(err);
        },
      );
      if (!exists) await this.call(() => this.client.crm.properties.coreApi.create(p.objectType, { name: p.name, label: p.label, groupName: p.groupName, type: 'string' as never, fieldType: 'text' as never, hasUniqueValue: p.unique }));
    }
    const record = (typeId: string) => `https://${account.uiDomain ?? 'app.hubspot.com'}/contacts/${account.portalId}/record/${typeId}/{id}`;
    // HubSpot's object type ids: a contact 0-1, a call 0-48, a note 0-46.
    return { name: `HubSpot portal ${account.portalId}`, links: { contact: record('0-1'), call: record('0-48'), note: record('0-46') } };
  }

  objectOf(): string {
    return 'contact';
  }

  /** HubSpot answers a merged contact's former id with the merged one: kept as it is. */
  async personNow(contactId: string): Promise<string> {
    return contactId;
  }

  async owners(): Promise<CrmOwner[]> {
    const page = await this.call(() => this.client.crm.owners.ownersApi.getPage(undefined, undefined, 100));
    return page.results.map((o) => ({ id: o.id, name: [o.firstName, o.lastName].filter(Boolean).join(' ') || (o.email ?? o.id), email: o.email ?? null }));
  }

  async ownerOf(email: string): Promise<string | null> {
    const page = await this.call(() => this.client.crm.owners.ownersApi.getPage(email, undefined, 1));
    return page.results[0]?.id ?? null;
  }

  /** The contact with one of these phones (any of their spellings, issue 80) or this e-mail, or a
   * new one: one search of five filter groups, HubSpot's most. */
  async person(p: CrmPerson): Promise<{ id: string; created: boolean }> {
    const significant = p.phones[0] ? parsePhoneNumberFromString(p.phones[0])?.nationalNumber : undefined;
    const groups = [
      ...(p.phones.length ? ['phone', 'mobilephone'].map((propertyName) => ({ filters: [{ propertyName, operator: 'IN' as never, values: p.phones }] })) : []),
      ...(significant ? SEARCHABLE_PHONES.map((propertyName) => ({ filters: [{ propertyName, operator: 'EQ' as never, value: significant }] })) : []),
      ...(p.email ? [{ filters: [{ propertyName: 'email', operator: 'EQ' as never, value: p.email }] }] : []),
    ];
    if (groups.length) {
      const found = await this.call(() => this.client.crm.contacts.searchApi.doSearch({ filterGroups: groups, properties: ['email', 'phone'], limit: 1, after: '0', sorts: [] }));
      if (found.results[0]) return { id: found.results[0].id, created: false };
    }
    const properties: Record<string, string> = { hs_lead_status: 'NEW', ...(p.phones[0] ? { phone: p.phones[0] } : {}), ...(p.email ? { email: p.email } : {}), ...(p.firstSource ? { ringtrail_first_source: p.firstSource } : {}), ...(p.firstCampaign ? { ringtrail_first_campaign: p.firstCampaign } : {}), ...(p.ownerId ? { hubspot_owner_id: p.ownerId } : {}) };
    const made = await this.call(() => this.client.crm.contacts.basicApi.create({ properties, associations: [] }));
    return { id: made.id, created: true };
  }

  /** The call or note of `a.ringtrailId` on the contact: updated by its kept id, else upserted by ours
   * (`ringtrail_id`, unique) and associated to the contact (a PUT, the same however often). A portal
   * whose `ringtrail_id` was made before it was unique cannot upsert by it: searched, then updated or
   * created, as before. */
  async activity(a: CrmActivity, contactId: string, knownId: string | null): Promise<{ id: string; created: boolean; also: [] }> {
    const objectType = a.kind === 'call' ? 'calls' : 'notes';
    const api = this.client.crm.objects[objectType];
    const properties: Record<string, string> =
      a.kind === 'call'
        ? { ringtrail_id: a.ringtrailId, hs_timestamp: a.at.toISOString(), hs_call_title: a.title, hs_call_body: richText(a.body), hs_call_direction: 'INBOUND', hs_call_duration: String(a.durationSeconds * 1000), hs_call_status: a.answered ? 'COMPLETED' : 'NO_ANSWER', ...(a.from ? { hs_call_from_number: a.from } : {}), hs_call_to_number: a.to, ...(a.recordingUrl ? { hs_call_recording_url: a.recordingUrl } : {}), ...(a.ownerId ? { hubspot_owner_id: a.ownerId } : {}) }
        : { ringtrail_id: a.ringtrailId, hs_timestamp: a.at.toISOString(), hs_note_body: richText(`${a.title}\n${a.body}`), ...(a.ownerId ? { hubspot_owner_id: a.ownerId } : {}) };
    const upserted = knownId ? null : await this.upserted(objectType, a.ringtrailId, properties);
    if (upserted) {
      await this.call(() => this.client.crm.associations.v4.basicApi.create(objectType, upserted.id, 'contacts', contactId, [{ associationCategory: 'HUBSPOT_DEFINED' as never, associationTypeId: ASSOCIATED[objectType] }]));
      return { ...upserted, also: [] };
    }
    const id = knownId ?? (await this.call(() => api.searchApi.doSearch({ filterGroups: [{ filters: [{ propertyName: 'ringtrail_id', operator: 'EQ' as never, value: a.ringtrailId }] }], properties: ['ringtrail_id'], limit: 1, after: '0', sorts: [] }))).results[0]?.id;
    if (id) {
      await this.call(() => api.basicApi.update(id, { properties }));
      return { id, created: false, also: [] };
    }
    const made = await this.call(() => api.basicApi.create({ properties, associations: [{ to: { id: contactId }, types: [{ associationCategory: 'HUBSPOT_DEFINED' as never, associationTypeId: ASSOCIATED[objectType] }] }] }));
    return { id: made.id, created: true, also: [] };
  }

  /** The object upserted by our id, or null when the portal's `ringtrail_id` is not unique (made
   * before it was), so nothing can be upserted by it. */
  private async upserted(objectType: 'calls' | 'notes', ringtrailId: string, properties: Record<string, string>): Promise<{ id: string; created: boolean } | null> {
    if (!(await this.uniqueIds(objectType))) return null;
    const answer = await this.call(() => this.client.crm.objects[objectType].batchApi.upsert({ inputs: [{ idProperty: 'ringtrail_id', id: ringtrailId, properties }] }));
    const result = answer.results[0];
    if (!result) throw new CrmFailure(`HubSpot upserted nothing: ${JSON.stringify((answer as { errors?: unknown }).errors ?? []).slice(0, 200)}`, 'retry');
    return { id: result.id, created: result._new };
  }

  /** Whether the portal's `ringtrail_id` of calls or notes is unique: read once a client. */
  private uniqueIds(objectType: 'calls' | 'notes'): Promise<boolean> {
    let known = this.unique.get(objectType);
    if (!known) {
      known = this.call(() => this.client.crm.properties.coreApi.getByName(objectType, 'ringtrail_id')).then((p) => p.hasUniqueValue === true);
      known.catch(() => this.unique.delete(objectType));
      this.unique.set(objectType, known);
    }
    return known;
  }
}
