// Salesforce through `jsforce`, signed in by OAuth 2.0: the JWT bearer flow (a connected app's
// consumer key and certificate key, for a user it was approved for), or a refresh token (a connected
// app's consumer key and secret). An expired session (401 INVALID_SESSION_ID) is renewed and the
// request sent again, once. A person is a Contact, or else an open Lead (made with its LeadSource);
// a call or form a completed Task on them, found again by its CallObject (ours); the Lead or Contact
// joins the Campaign named like the visit's utm_campaign when one exists (never a new Campaign).
// jsforce's own retries are off (the outbox retries with back-off, a 429 after its Retry-After), each
// request ends within CRM_SOCKET_TIMEOUT_MS, and one connection starts at most 5 a second: Salesforce
// counts every request against the org's daily allocation and refuses more than 25 long ones at once.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createPrivateKey, sign } from 'node:crypto';
import { Connection, type Record as SfRecord } from 'jsforce';
import { Transport } from 'jsforce/lib/transport.js';
import type { HttpRequest, HttpRequestOptions } from 'jsforce/lib/types/index.js';
import { CrmFailure, unreachable, type CrmAccount, type CrmActivity, type CrmClient, type CrmOwner, type CrmPerson, type CrmRecordRef } from './crm-client.ts';
import { CRM_SOCKET_TIMEOUT_MS } from './hubspot.ts';
import { paced } from './paced.ts';

export const SALESFORCE_LOGIN_URLS = { production: 'https://login.salesforce.com', sandbox: 'https://test.salesforce.com' } as const;
const API_VERSION = '62.0';
const GAP_MS = 200;
const JWT_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The sealed credentials of one flow, and whether the org is a sandbox. */
export type SalesforceSecret = ({ flow: 'jwt'; clientId: string; username: string; privateKey: string } | { flow: 'refresh-token'; clientId: string; clientSecret?: string; refreshToken: string }) & { sandbox?: boolean };

/** What one operation's requests were answered (the last): jsforce's errors do not say their status. */
interface Answered {
  status?: number;
  token?: boolean;
  retryAfterMs?: number | null;
  renewals: number;
  /** The token endpoint's refusal as it said it (jsforce wraps one met while renewing a session). */
  tokenError?: unknown;
}
const answered = new AsyncLocalStorage<Answered>();

/** jsforce's transport without its retries, each request bounded in time, its answer noted. */
class BoundedTransport extends Transport {
  override httpRequest(req: HttpRequest, options: HttpRequestOptions = {}) {
    const seen = answered.getStore();
    if (seen) Object.assign(seen, { status: undefined, token: req.url.endsWith('/services/oauth2/token'), retryAfterMs: null });
    const answer = super.httpRequest(req, { ...options, retry: { maxRetries: 0 }, timeout: CRM_SOCKET_TIMEOUT_MS });
    answer.then(
      (res) => {
        const after = Number(res.headers['retry-after']);
        if (seen) Object.assign(seen, { status: res.statusCode, retryAfterMs: Number.isFinite(after) ? after * 1000 : null });
      },
      () => {},
    );
    return answer;
  }
}

/** A JWT for the bearer flow (RS256): the consumer key as issuer, the user as subject, the login host as audience. */
function assertion(clientId: string, username: string, audience: string, privateKey: string): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${part({ alg: 'RS256' })}.${part({ iss: clientId, sub: username, aud: audience, exp: Math.floor(Date.now() / 1000) + 180 })}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), createPrivateKey(privateKey)).toString('base64url')}`;
}

/** A string inside SOQL quotes. */
export const soql = (value: string) => `'${value.replace(/[\\'"\n\r\t\b\f]/g, (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' })[c] ?? `\\${c}`)}'`;

/** What went wrong, by what was last answered: the token refused breaks the connection, so do a 401
 * and a 403 (permissions) other than the API's request limit; a 429 says when; 5xx and no answer wait. */
function failureOf(thrown: unknown, seen: Answered): CrmFailure {
  if (thrown instanceof CrmFailure) return thrown;
  const err = (seen.token && seen.tokenError) || thrown;
  const e = err as { name?: string; errorCode?: string; message?: string };
  const said = `${e.errorCode ?? e.name ?? 'Error'}: ${(e.message ?? String(err)).replace(/^Unable to refresh session due to: /, '')}`.slice(0, 300);
  const status = seen.status;
  if (status === undefined) return new CrmFailure(unreachable('Salesforce', said), 'retry');
  if (status === 429) return new CrmFailure(`Salesforce's rate limit (429): ${said}`, 'retry', seen.retryAfterMs ?? null);
  if (status >= 500) return new CrmFailure(`Salesforce answered ${status}: ${said}`, 'retry');
  if (seen.token) return new CrmFailure(`Salesforce refuses the credentials (${status}): ${said}`, 'broken');
  if (status === 401) return new CrmFailure(`Salesforce refuses the session (401): ${said}`, 'broken');
  if (status === 403) return new CrmFailure(`Salesforce answered 403: ${said}`, e.errorCode === 'REQUEST_LIMIT_EXCEEDED' ? 'retry' : 'broken');
  return new CrmFailure(`Salesforce answered ${status}: ${said}`, e.errorCode === 'UNABLE_TO_LOCK_ROW' ? 'retry' : 'refused');
}

interface TokenAnswer {
  access_token: string;
  instance_url: string;
}

export class SalesforceCrm implements CrmClient {
  readonly crm = 'salesforce' as const;
  private readonly conn: Connection;
  private readonly turn = paced(GAP_MS);
  private readonly loginUrl: string;
  private signingIn: Promise<unknown> | null = null;

  /** `loginUrl`: SALESFORCE_LOGIN_URL when set, else production's or a sandbox's login host. */
  constructor(
    private readonly secret: SalesforceSecret,
    loginUrl: string | null,
  ) {
    this.loginUrl = (loginUrl ?? SALESFORCE_LOGIN_URLS[secret.sandbox ? 'sandbox' : 'production']).replace(/\/$/, '');
    const oauth2 = secret.flow === 'jwt' ? { loginUrl: this.loginUrl } : { loginUrl: this.loginUrl, clientId: secret.clientId, ...(secret.clientSecret ? { clientSecret: secret.clientSecret } : {}) };
    this.conn = new Connection({
      loginUrl: this.loginUrl,
      version: API_VERSION,
      oauth2,
      // An expired session: a new one, once an operation (a new one refused too breaks the connection).
      refreshFn: (_conn, done) => {
        const seen = answered.getStore();
        if (seen && ++seen.renewals > 1) return done(new Error('a new session is refused too'));
        this.token().then((t) => done(undefined, t.access_token, t as never), (err: Error) => done(err));
      },
    });
    const transport = new BoundedTransport();
    this.conn._transport = transport;
    this.conn.oauth2._transport = transport;
  }

  /** A new session by the connection's flow. */
  private async token(): Promise<TokenAnswer> {
    const s = this.secret;
    const answer = (await (s.flow === 'jwt' ? this.conn.oauth2.requestToken({ grant_type: JWT_GRANT, assertion: assertion(s.clientId, s.username, this.loginUrl, s.privateKey) }) : this.conn.oauth2.refreshToken(s.refreshToken)).catch((err: unknown) => {
      const seen = answered.getStore();
      if (seen) seen.tokenError = err;
      throw err;
    })) as unknown as TokenAnswer;
    this.conn._establish({ instanceUrl: answer.instance_url, accessToken: answer.access_token });
    return answer;
  }

  /** One operation in its turn, signed in first if need be, its failure in words. */
  private call<T>(work: () => Promise<T>): Promise<T> {
    const seen: Answered = { renewals: 0 };
    return answered.run(seen, async () => {
      await this.turn();
      try {
        if (!this.conn.accessToken) await (this.signingIn ??= this.token().finally(() => (this.signingIn = null)));
        return await work();
      } catch (err) {
        throw failureOf(err, seen);
      }
    });
  }

  private async first(query: string): Promise<string | null> {
    const found = await this.call(async () => await this.conn.query<SfRecord>(query));
    return (found.records[0]?.Id as string | undefined) ?? null;
  }

  async check(): Promise<CrmAccount> {
    const found = await this.call(async () => await this.conn.query<SfRecord>('SELECT Id, Name FROM Organization LIMIT 1'));
    const org = found.records[0] as { Id?: string; Name?: string } | undefined;
    // Salesforce takes a record's id on its instance to its page.
    const record = `${this.conn.instanceUrl}/{id}`;
    return { name: `Salesforce org ${org?.Name ?? '?'} (${org?.Id ?? '?'})`, links: { lead: record, contact: record, task: record, campaignMember: record } };
  }

  objectOf(personId: string): string {
    return personId.startsWith('00Q') ? 'lead' : 'contact';
  }

  async personNow(personId: string): Promise<string | null> {
    if (this.objectOf(personId) === 'contact') return (await this.first(`SELECT Id FROM Contact WHERE Id = ${soql(personId)}`)) ?? null;
    const found = await this.call(async () => await this.conn.query<SfRecord>(`SELECT Id, IsConverted, ConvertedContactId FROM Lead WHERE Id = ${soql(personId)}`));
    const lead = found.records[0] as { IsConverted?: boolean; ConvertedContactId?: string | null } | undefined;
    return !lead ? null : lead.IsConverted && lead.ConvertedContactId ? lead.ConvertedContactId : personId;
  }

  async owners(): Promise<CrmOwner[]> {
    const found = await this.call(async () => await this.conn.query<SfRecord>('SELECT Id, Name, Email FROM User WHERE IsActive = true ORDER BY Name LIMIT 200'));
    return found.records.map((u) => ({ id: String(u.Id), name: String(u.Name ?? u.Id), email: (u.Email as string | undefined) ?? null }));
  }

  ownerOf(email: string): Promise<string | null> {
    return this.first(`SELECT Id FROM User WHERE Email = ${soql(email)} AND IsActive = true LIMIT 1`);
  }

  /** A Contact with one of these phones or this e-mail, else such an open Lead, else a new Lead. */
  async person(p: CrmPerson): Promise<{ id: string; created: boolean }> {
    const phones = p.phones.map(soql).join(', ');
    const matches = [...(phones ? [`Phone IN (${phones})`, `MobilePhone IN (${phones})`] : []), ...(p.email ? [`Email = ${soql(p.email)}`] : [])].join(' OR ');
    const known = (await this.first(`SELECT Id FROM Contact WHERE ${matches} ORDER BY CreatedDate LIMIT 1`)) ?? (await this.first(`SELECT Id FROM Lead WHERE IsConverted = false AND (${matches}) ORDER BY CreatedDate LIMIT 1`));
    if (known) return { id: known, created: false };
    const firstTouch = [p.firstSource && `source ${p.firstSource}`, p.firstCampaign && `campaign ${p.firstCampaign}`].filter(Boolean).join(', ');
    const lead = {
      // Both required by Salesforce; "[not provided]" is what its own Web-to-Lead writes for no company.
      LastName: p.name ?? p.phones[0] ?? p.email ?? 'Caller',
      Company: '[not provided]',
      ...(p.phones[0] ? { Phone: p.phones[0] } : {}),
      ...(p.email ? { Email: p.email } : {}),
      ...(firstTouch ? { Description: `First touch in RingTrail: ${firstTouch}` } : {}),
      ...(p.ownerId ? { OwnerId: p.ownerId } : {}),
    };
    // LeadSource: the first touch's source, else Salesforce's own value for a call or a web form. An
    // org whose LeadSource takes only its picklist's values gets the next one (the first touch is in
    // the description whatever it takes).
    const standard = p.cameBy === 'call' ? 'Phone Inquiry' : 'Web';
    const create = async ([LeadSource, ...others]: (string | null)[]): Promise<{ id?: string }> => {
      try {
        return await this.conn.sobject('Lead').create({ ...lead, ...(LeadSource ? { LeadSource } : {}) });
      } catch (err) {
        if ((err as { errorCode?: string }).errorCode !== 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST' || !others.length) throw err;
        return create(others);
      }
    };
    const made = await this.call(() => create([...new Set([p.firstSource?.slice(0, 40) ?? standard, standard]), null]));
    return { id: made.id!, created: true };
  }

  /** The completed Task of `a.ringtrailId` on the person: updated when it exists (by its kept id, or
   * found by its CallObject), else made; then the campaign member, when the Campaign exists. */
  async activity(a: CrmActivity, personId: string, knownId: string | null): Promise<{ id: string; created: boolean; also: CrmRecordRef[] }> {
    const fields = {
      Subject: a.title.slice(0, 255),
      Description: a.body.slice(0, 32_000),
      Status: 'Completed',
      ActivityDate: a.at.toISOString().slice(0, 10),
      CallObject: a.ringtrailId,
      WhoId: personId,
      ...(a.kind === 'call' ? { Type: 'Call', CallType: 'Inbound', CallDurationInSeconds: a.durationSeconds, CallDisposition: a.answered ? 'Answered' : 'Not answered' } : {}),
      ...(a.ownerId ? { OwnerId: a.ownerId } : {}),
    };
    const id = knownId ?? (await this.first(`SELECT Id FROM Task WHERE CallObject = ${soql(a.ringtrailId)} LIMIT 1`));
    const also = a.campaign ? await this.campaignMember(a.campaign, personId) : [];
    if (id) {
      await this.call(() => this.conn.sobject('Task').update({ Id: id, ...fields }));
      return { id, created: false, also };
    }
    const made = await this.call(() => this.conn.sobject('Task').create({ ...fields, TaskSubtype: a.kind === 'call' ? 'Call' : 'Task' }));
    return { id: made.id!, created: true, also };
  }

  /** The person in the Campaign of that name: found, or added when the Campaign exists. */
  private async campaignMember(name: string, personId: string): Promise<CrmRecordRef[]> {
    const campaignId = await this.first(`SELECT Id FROM Campaign WHERE Name = ${soql(name.slice(0, 80))} ORDER BY CreatedDate LIMIT 1`);
    if (!campaignId) return [];
    const who = this.objectOf(personId) === 'lead' ? 'LeadId' : 'ContactId';
    const member = await this.first(`SELECT Id FROM CampaignMember WHERE CampaignId = ${soql(campaignId)} AND ${who} = ${soql(personId)} LIMIT 1`);
    if (member) return [{ object: 'campaignMember', id: member }];
    const made = await this.call(() => this.conn.sobject('CampaignMember').create({ CampaignId: campaignId, [who]: personId }));
    return [{ object: 'campaignMember', id: made.id! }];
  }
}
