// Salesforce on loopback, as its OAuth 2.0 and REST API documentation shows them, for `jsforce`
// pointed here (SALESFORCE_LOGIN_URL): the token endpoint (the JWT bearer flow, its assertion's RS256
// signature checked with the connected app's certificate, and the refresh token flow), and under
// /services/data/vXX.X: SOQL queries (the SELECT … FROM … WHERE … ORDER BY … LIMIT the client sends:
// =, IN, AND, OR, brackets; text compared without case, as Salesforce does), sobject create (201 with
// the id) and update (204), with the errors Salesforce answers: REQUIRED_FIELD_MISSING,
// INVALID_FIELD_FOR_INSERT_UPDATE (TaskSubtype once made), DUPLICATE_VALUE (a campaign member twice),
// INVALID_SESSION_ID (401) when a session expired. Faults on demand: a 429 with Retry-After, a 5xx,
// a 400 with its words, a session expired, and an answer dropped after the work was done.
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type SfRecord = { Id: string; CreatedDate: string } & Record<string, unknown>;
export type SfFault = { kind: '429'; retryAfter: number } | { kind: '500' } | { kind: 'expired' } | { kind: '400'; errorCode: string; message: string } | { kind: 'drop' };

export interface SalesforceStandIn {
  /** The login URL (SALESFORCE_LOGIN_URL) and the instance URL. */
  base: string;
  /** The connected app: its consumer key and secret, the certificate's key pair (PEM), the approved user. */
  app: { clientId: string; clientSecret: string; privateKey: string; username: string };
  /** Refresh tokens granted; one revoked is refused (invalid_grant). */
  refreshTokens: Set<string>;
  records: Record<string, SfRecord[]>;
  requests: { method: string; path: string; body: unknown }[];
  /** Sessions issued: each grant adds one. */
  sessions: string[];
  /** LeadSource takes only its picklist's values (a restricted picklist). */
  restrictedLeadSources: string[] | null;
  /** Faults for the next requests matching `when` (a method and a path's start, or `TOKEN`), in order. */
  faults: { when: string; fault: SfFault }[];
  /** Every session issued so far expires (the next API request answers 401 INVALID_SESSION_ID). */
  expireSessions(): void;
  close(): Promise<void>;
}

const PREFIX: Record<string, string> = { Organization: '00D', User: '005', Lead: '00Q', Contact: '003', Task: '00T', Campaign: '701', CampaignMember: '00v' };
const REQUIRED: Record<string, string[]> = { Lead: ['LastName', 'Company'], Contact: ['LastName'], Task: [], CampaignMember: ['CampaignId'] };
/** Fields Salesforce takes at insert only. */
const CREATE_ONLY: Record<string, string[]> = { Task: ['TaskSubtype'] };

// --- A small SOQL reader: enough of the language for what a client sends. ---
type Token = { kind: 'word' | 'string' | 'symbol'; text: string };
function tokens(q: string): Token[] {
  const out: Token[] = [];
  const re = /\s*(?:('(?:\\.|[^'\\])*')|([A-Za-z_][\w.]*|\d+)|(!=|[(),=<>]))/gy;
  let m: RegExpExecArray | null;
  let read = 0;
  while ((m = re.exec(q)) && m[0].trim()) {
    read = re.lastIndex;
    if (m[1]) out.push({ kind: 'string', text: m[1].slice(1, -1).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' })[c] ?? c) });
    else if (m[2]) out.push({ kind: 'word', text: m[2] });
    else out.push({ kind: 'symbol', text: m[3]! });
  }
  if (q.slice(read).trim()) throw new Error(`unexpected token at: ${q.slice(read, read + 20)}`);
  return out;
}

type Where = (r: SfRecord) => boolean;
const sameText = (a: unknown, b: unknown) => (typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b);

function query(q: string, records: Record<string, SfRecord[]>) {
  const t = tokens(q);
  let i = 0;
  const peek = () => t[i];
  const word = (w: string) => peek()?.kind === 'word' && peek()!.text.toUpperCase() === w;
  const take = (w?: string) => {
    const token = t[i++];
    if (!token || (w && token.text.toUpperCase() !== w)) throw new Error(`expected ${w ?? 'more'} at token ${i}`);
    return token;
  };
  const value = (): unknown => {
    const v = take();
    if (v.kind === 'string') return v.text;
    if (/^(true|false)$/i.test(v.text)) return v.text.toLowerCase() === 'true';
    if (/^null$/i.test(v.text)) return null;
    if (/^\d+$/.test(v.text)) return Number(v.text);
    throw new Error(`not a value: ${v.text}`);
  };
  const factor = (): Where => {
    if (peek()?.text === '(') {
      take('(');
      const inner = or();
      take(')');
      return inner;
    }
    const field = take().text;
    if (word('IN')) {
      take('IN');
      take('(');
      const values = [value()];
      while (peek()?.text === ',') take(',') && values.push(value());
      take(')');
      return (r) => values.some((v) => sameText(r[field], v));
    }
    const op = take().text;
    const v = value();
    if (op === '=') return (r) => sameText(r[field] ?? null, v);
    if (op === '!=') return (r) => !sameText(r[field] ?? null, v);
    throw new Error(`operator ${op}`);
  };
  const and = (): Where => {
    const parts = [factor()];
    while (word('AND')) take('AND') && parts.push(factor());
    return (r) => parts.every((p) => p(r));
  };
  const or = (): Where => {
    const parts = [and()];
    while (word('OR')) take('OR') && parts.push(and());
    return (r) => parts.some((p) => p(r));
  };
  take('SELECT');
  const fields = [take().text];
  while (peek()?.text === ',') take(',') && fields.push(take().text);
  take('FROM');
  const object = take().text;
  let where: Where = () => true;
  let order: string | null = null;
  let limit = 2000;
  if (word('WHERE')) take('WHERE') && (where = or());
  if (word('ORDER')) take('ORDER') && take('BY') && (order = take().text) && (word('ASC') || word('DESC')) && take();
  if (word('LIMIT')) take('LIMIT') && (limit = Number(take().text));
  if (i !== t.length) throw new Error(`unexpected ${t[i]!.text}`);
  let found = (records[object] ?? []).filter(where);
  if (order) found = [...found].sort((a, b) => String(a[order!]).localeCompare(String(b[order!])));
  return { object, rows: found.slice(0, limit).map((r) => ({ attributes: { type: object, url: `/services/data/v62.0/sobjects/${object}/${r.Id}` }, ...Object.fromEntries(fields.map((f) => [f, r[f] ?? null])) })) };
}

export async function startSalesforce(): Promise<SalesforceStandIn> {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificate: KeyObject = keys.publicKey;
  let next = 1;
  const idOf = (object: string) => `${PREFIX[object] ?? '001'}5g0000${String(next++).padStart(6, '0')}AAA`;
  const stamp = () => new Date().toISOString().replace('Z', '+0000');
  const standIn: SalesforceStandIn = {
    base: '',
    app: { clientId: '3MVG9SalesforceConsumerKeyForRingTrail', clientSecret: 'D6C3A1B2C3D4E5F6', privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), username: 'integration@acme.example' },
    refreshTokens: new Set(['5Aep861refresh.token.granted.to.ringtrail']),
    records: {
      Organization: [{ Id: '00D5g000000AcmeEAA', CreatedDate: stamp(), Name: 'Acme Corp' }],
      User: [
        { Id: '0055g0000011111AAA', CreatedDate: stamp(), Email: 'ada@acme.example', IsActive: true, Name: 'Ada Lovelace' },
        { Id: '0055g0000022222AAA', CreatedDate: stamp(), Email: 'sales@acme.example', IsActive: true, Name: 'Sales Desk' },
      ],
      Campaign: [{ Id: '7015g0000033333AAA', CreatedDate: stamp(), Name: 'spring-sale', IsActive: true }],
      Lead: [],
      Contact: [],
      Task: [],
      CampaignMember: [],
    },
    requests: [],
    sessions: [],
    restrictedLeadSources: null,
    faults: [],
    expireSessions: () => expired.push(...standIn.sessions),
    close: async () => {},
  };
  const expired: string[] = [];
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers });
    res.end(body === null ? undefined : JSON.stringify(body));
  };
  const apiError = (res: http.ServerResponse, status: number, errorCode: string, message: string, headers: Record<string, string> = {}) => send(res, status, [{ message, errorCode, fields: [] }], headers);
  const grant = (res: http.ServerResponse) => {
    const token = `00D5g000000AcmeEAA!AR.session.${standIn.sessions.length + 1}`;
    standIn.sessions.push(token);
    send(res, 200, { access_token: token, instance_url: standIn.base, id: `${standIn.base}/id/00D5g000000AcmeEAA/0055g0000099999AAA`, token_type: 'Bearer', issued_at: String(Date.now()), signature: 'c2lnbmF0dXJl', scope: 'api refresh_token' });
  };
  /** The JWT bearer flow's checks: the signature by the app's certificate, its issuer, audience, subject and expiry. */
  const assertionRefusal = (assertion: string): string | null => {
    const [head, claims, signature] = assertion.split('.');
    if (!head || !claims || !signature) return 'invalid assertion';
    if (!verify('RSA-SHA256', Buffer.from(`${head}.${claims}`), certificate, Buffer.from(signature, 'base64url'))) return 'invalid assertion';
    const c = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { iss?: string; sub?: string; aud?: string; exp?: number };
    if (c.iss !== standIn.app.clientId) return 'invalid client credentials';
    if (c.aud !== standIn.base) return 'audience is invalid';
    if (!c.exp || c.exp * 1000 < Date.now()) return 'expired authorization code';
    if (c.sub !== standIn.app.username) return "user hasn't approved this consumer";
    return null;
  };
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const isToken = req.method === 'POST' && url.pathname === '/services/oauth2/token';
      const body = isToken ? Object.fromEntries(new URLSearchParams(text)) : text ? (JSON.parse(text) as Record<string, unknown>) : null;
      standIn.requests.push({ method: req.method ?? '', path: url.pathname + url.search, body });
      const at = standIn.faults.findIndex((f) => (isToken ? f.when === 'TOKEN' : `${req.method} ${url.pathname}`.startsWith(f.when)));
      const fault = at >= 0 ? standIn.faults.splice(at, 1)[0]!.fault : null;
      if (fault?.kind === '429') return apiError(res, 429, 'REQUEST_LIMIT_EXCEEDED', 'ConcurrentPerOrgLongTxn Limit exceeded.', { 'retry-after': String(fault.retryAfter) });
      if (fault?.kind === '500') return apiError(res, 503, 'SERVER_UNAVAILABLE', 'Server unavailable, please try again later.');
      if (fault?.kind === '400') return apiError(res, 400, fault.errorCode, fault.message);
      if (fault?.kind === 'expired') standIn.expireSessions();
      const done = (status: number, out: unknown) => (fault?.kind === 'drop' ? res.destroy() : send(res, status, out));

      if (isToken) {
        const b = body as Record<string, string>;
        if (b.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
          const refused = assertionRefusal(b.assertion ?? '');
          return refused ? send(res, 400, { error: 'invalid_grant', error_description: refused }) : grant(res);
        }
        if (b.grant_type === 'refresh_token') {
          if (b.client_id !== standIn.app.clientId || (b.client_secret !== undefined && b.client_secret !== standIn.app.clientSecret)) return send(res, 400, { error: 'invalid_client_id', error_description: 'client identifier invalid' });
          return standIn.refreshTokens.has(b.refresh_token ?? '') ? grant(res) : send(res, 400, { error: 'invalid_grant', error_description: 'expired access/refresh token' });
        }
        return send(res, 400, { error: 'unsupported_grant_type', error_description: 'grant type not supported' });
      }
      const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!standIn.sessions.includes(bearer) || expired.includes(bearer)) return apiError(res, 401, 'INVALID_SESSION_ID', 'Session expired or invalid');
      const path = url.pathname.match(/^\/services\/data\/v\d+\.\d\/(query|sobjects)\/?([A-Za-z]*)\/?([\w]*)$/);
      if (!path) return apiError(res, 404, 'NOT_FOUND', 'The requested resource does not exist');
      const [, api, object, id] = path as unknown as [string, string, string, string];
      if (api === 'query' && req.method === 'GET') {
        try {
          const { rows } = query(url.searchParams.get('q') ?? '', standIn.records);
          return done(200, { totalSize: rows.length, done: true, records: rows });
        } catch (err) {
          return apiError(res, 400, 'MALFORMED_QUERY', (err as Error).message);
        }
      }
      const list = standIn.records[object];
      if (!list) return apiError(res, 404, 'NOT_FOUND', `sObject type '${object}' is not supported.`);
      const fields = (body ?? {}) as Record<string, unknown>;
      if (req.method === 'POST' && !id) {
        const missing = (REQUIRED[object] ?? []).filter((f) => fields[f] === undefined || fields[f] === '');
        if (missing.length) return apiError(res, 400, 'REQUIRED_FIELD_MISSING', `Required fields are missing: [${missing.join(', ')}]`);
        if (object === 'Lead' && standIn.restrictedLeadSources && fields.LeadSource !== undefined && !standIn.restrictedLeadSources.includes(String(fields.LeadSource))) return apiError(res, 400, 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST', `Lead Source: bad value for restricted picklist field: ${String(fields.LeadSource)}`);
        if (object === 'CampaignMember' && list.some((m) => m.CampaignId === fields.CampaignId && ((fields.LeadId && m.LeadId === fields.LeadId) || (fields.ContactId && m.ContactId === fields.ContactId)))) return apiError(res, 400, 'DUPLICATE_VALUE', 'Already a campaign member.');
        const made: SfRecord = { ...fields, Id: idOf(object), CreatedDate: stamp() };
        if (object === 'Lead') made.IsConverted = false;
        list.push(made);
        return done(201, { id: made.Id, success: true, errors: [] });
      }
      if (req.method === 'PATCH' && id) {
        const record = list.find((r) => r.Id === id);
        if (!record) return apiError(res, 404, 'NOT_FOUND', 'Provided external ID field does not exist or is not accessible: ' + id);
        const createOnly = (CREATE_ONLY[object] ?? []).filter((f) => f in fields);
        if (createOnly.length) return apiError(res, 400, 'INVALID_FIELD_FOR_INSERT_UPDATE', `Unable to create/update fields: ${createOnly.join(', ')}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`);
        Object.assign(record, fields);
        return fault?.kind === 'drop' ? res.destroy() : send(res, 204, null);
      }
      return apiError(res, 405, 'METHOD_NOT_ALLOWED', `HTTP Method '${req.method}' not allowed. Allowed are GET,PATCH,POST`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () => new Promise((resolve) => server.close(() => resolve()));
  return standIn;
}
