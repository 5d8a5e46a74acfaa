// HubSpot's CRM v3 on loopback, as its API reference documents it, for the official
// `@hubspot/api-client` pointed here (HUBSPOT_API_BASE): contacts, calls and notes (create, update,
// batch upsert by a unique property, search with filterGroups and EQ, IN, HAS_PROPERTY, associations
// given at create or by the v4 PUT), properties (read, create, `hasUniqueValue`) and owners (by
// e-mail), a private app's bearer token checked. A contact's calculated
// `hs_searchable_calculated_phone_number` (and `_mobile_number`) is its phone's digits without the
// country code, read in `country` when it has none, as HubSpot derives it. Faults on demand: a 429 with Retry-After, a 5xx, a
// 401, a 400 with its words, and an answer dropped after the work was done (the client sees the
// connection reset).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

export interface HubSpotObject {
  id: string;
  properties: Record<string, string | null>;
  /** To whom it was associated at its creation: `contacts:<id>` with the association type. */
  associations: { to: string; typeId: number }[];
  createdAt: string;
  updatedAt: string;
}

export type Fault = { kind: '429'; retryAfter: number } | { kind: '500' } | { kind: '401' } | { kind: '400'; message: string } | { kind: 'drop' };

export interface HubSpotStandIn {
  base: string;
  token: string;
  objects: Record<'contacts' | 'calls' | 'notes', HubSpotObject[]>;
  properties: Record<string, { name: string; label: string; type: string; groupName: string; hasUniqueValue?: boolean }[]>;
  /** The portal's country: how a phone typed without its country code is read. */
  country: CountryCode;
  owners: { id: string; email: string; firstName: string; lastName: string }[];
  requests: { method: string; path: string; body: unknown }[];
  /** Faults for the next requests matching `when` (a method and a path's start), in order. */
  faults: { when: string; fault: Fault }[];
  close(): Promise<void>;
}

const now = () => new Date().toISOString();

export async function startHubSpot(token = 'pat-na1-11111111-2222-3333-4444-555555555555'): Promise<HubSpotStandIn> {
  let nextId = 101;
  const standIn: HubSpotStandIn = {
    base: '',
    token,
    objects: { contacts: [], calls: [], notes: [] },
    properties: { contacts: [{ name: 'phone', label: 'Phone Number', type: 'string', groupName: 'contactinformation' }], calls: [], notes: [] },
    country: 'FR',
    owners: [{ id: '7001', email: 'ada@acme.example', firstName: 'Ada', lastName: 'Lovelace' }, { id: '7002', email: 'sales@acme.example', firstName: 'Sales', lastName: 'Desk' }],
    requests: [],
    faults: [],
    close: async () => {},
  };
  const error = (res: http.ServerResponse, status: number, category: string, message: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ status: 'error', message, correlationId: 'a1b2c3d4-0000-4000-8000-000000000000', category }));
  };
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const searchable = (phone: string | null | undefined) => (phone ? (parsePhoneNumberFromString(phone, standIn.country)?.nationalNumber ?? phone.replace(/\D/g, '')) : null);
  const calculated = (o: HubSpotObject): Record<string, string | null> => ({ ...o.properties, hs_object_id: o.id, hs_searchable_calculated_phone_number: searchable(o.properties.phone), hs_searchable_calculated_mobile_number: searchable(o.properties.mobilephone) });
  const shown = (o: HubSpotObject) => ({ id: o.id, properties: calculated(o), createdAt: o.createdAt, updatedAt: o.updatedAt, archived: false });
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = text ? (JSON.parse(text) as Record<string, any>) : null;
      standIn.requests.push({ method: req.method ?? '', path: url.pathname + url.search, body });
      if (req.headers.authorization !== `Bearer ${standIn.token}`) return error(res, 401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview');
      const at = standIn.faults.findIndex((f) => `${req.method} ${url.pathname}`.startsWith(f.when));
      const fault = at >= 0 ? standIn.faults.splice(at, 1)[0]!.fault : null;
      if (fault?.kind === '429') return error(res, 429, 'RATE_LIMITS', 'You have reached your secondly limit.', { 'retry-after': String(fault.retryAfter) });
      if (fault?.kind === '500') return error(res, 502, 'BAD_GATEWAY', 'Bad Gateway');
      if (fault?.kind === '401') return error(res, 401, 'EXPIRED_AUTHENTICATION', 'The OAuth token used to make this call expired');
      if (fault?.kind === '400') return error(res, 400, 'VALIDATION_ERROR', fault.message);
      const done = (status: number, out: unknown) => (fault?.kind === 'drop' ? res.destroy() : answer(res, status, out));
      const path = url.pathname.split('/').filter(Boolean); // crm v3 objects calls [id|search]
      if (req.method === 'GET' && url.pathname === '/account-info/v3/details') return done(200, { portalId: 12345678, accountType: 'STANDARD', timeZone: 'US/Eastern', companyCurrency: 'USD', additionalCurrencies: [], utcOffset: '-05:00', utcOffsetMilliseconds: -18000000, uiDomain: 'app.hubspot.com', dataHostingLocation: 'na1' });
      if (req.method === 'GET' && url.pathname.replace(/\/$/, '') === '/crm/v3/owners') {
        const email = url.searchParams.get('email');
        const results = standIn.owners.filter((o) => !email || o.email === email).map((o) => ({ ...o, userId: Number(o.id) + 1, createdAt: now(), updatedAt: now(), archived: false }));
        return done(200, { results });
      }
      if (path[2] === 'properties') {
        const list = (standIn.properties[path[3]!] ??= []);
        if (req.method === 'GET' && path[4]) {
          const found = list.find((p) => p.name === path[4]);
          return found ? done(200, { ...found, fieldType: 'text', options: [] }) : error(res, 404, 'OBJECT_NOT_FOUND', `Unable to find property ${path[4]}`);
        }
        if (req.method === 'POST' && !path[4]) {
          if (list.some((p) => p.name === body!.name)) return error(res, 409, 'CONFLICT', `A property named '${body!.name}' already exists.`);
          list.push({ name: body!.name, label: body!.label, type: body!.type, groupName: body!.groupName, hasUniqueValue: body!.hasUniqueValue === true });
          return done(201, { ...body, options: [] });
        }
      }
      // v4: PUT /crm/v4/objects/{type}/{id}/associations/{toType}/{toId}, the labels in the body.
      if (req.method === 'PUT' && path[1] === 'v4' && path[2] === 'objects' && path[5] === 'associations') {
        const o = standIn.objects[path[3] as 'calls' | 'notes']?.find((x) => x.id === path[4]);
        if (!o || !standIn.objects[path[6] as 'contacts']?.some((x) => x.id === path[7])) return error(res, 404, 'OBJECT_NOT_FOUND', 'resource not found');
        for (const t of body as { associationCategory: string; associationTypeId: number }[]) if (!o.associations.some((a) => a.to === `${path[6]}:${path[7]}` && a.typeId === t.associationTypeId)) o.associations.push({ to: `${path[6]}:${path[7]}`, typeId: t.associationTypeId });
        return done(201, { fromObjectTypeId: path[3], fromObjectId: Number(path[4]), toObjectTypeId: path[6], toObjectId: Number(path[7]), labels: [] });
      }
      if (path[2] === 'objects' && (path[3] === 'contacts' || path[3] === 'calls' || path[3] === 'notes')) {
        const kind = path[3];
        const list = standIn.objects[kind];
        if (req.method === 'POST' && path[4] === 'search') {
          type Filter = { propertyName: string; operator: string; value?: string; values?: string[] };
          const holds = (o: HubSpotObject, f: Filter) => {
            const value = calculated(o)[f.propertyName];
            return f.operator === 'EQ' ? value === f.value : f.operator === 'IN' ? value != null && (f.values ?? []).includes(value) : f.operator === 'HAS_PROPERTY' ? value != null : false;
          };
          const groups = (body!.filterGroups ?? []) as { filters: Filter[] }[];
          if (groups.length > 5) return error(res, 400, 'VALIDATION_ERROR', 'There was a problem with the request. Too many filter groups: at most 5.');
          const found = list.filter((o) => groups.some((g) => g.filters.every((f) => holds(o, f))));
          return done(200, { total: found.length, results: found.slice(0, body!.limit ?? 10).map(shown) });
        }
        if (req.method === 'POST' && path[4] === 'batch' && path[5] === 'upsert') {
          const results = [];
          for (const input of (body!.inputs ?? []) as { idProperty: string; id: string; properties: Record<string, string> }[]) {
            if (!standIn.properties[kind]?.find((p) => p.name === input.idProperty)?.hasUniqueValue) return error(res, 400, 'VALIDATION_ERROR', `${input.idProperty} is not a unique identifier property of ${kind}`);
            const known = list.find((o) => o.properties[input.idProperty] === input.id);
            if (known) {
              Object.assign(known.properties, input.properties);
              known.updatedAt = now();
              results.push({ ...shown(known), new: false });
            } else {
              const o: HubSpotObject = { id: String(nextId++), properties: { ...input.properties, [input.idProperty]: input.id }, associations: [], createdAt: now(), updatedAt: now() };
              list.push(o);
              results.push({ ...shown(o), new: true });
            }
          }
          return done(200, { status: 'COMPLETE', results, requestedAt: now(), startedAt: now(), completedAt: now() });
        }
        if (req.method === 'POST' && !path[4]) {
          const o: HubSpotObject = { id: String(nextId++), properties: body!.properties ?? {}, associations: (body!.associations ?? []).map((a: { to: { id: string }; types: { associationTypeId: number }[] }) => ({ to: `contacts:${a.to.id}`, typeId: a.types[0]!.associationTypeId })), createdAt: now(), updatedAt: now() };
          list.push(o);
          return done(201, shown(o));
        }
        const o = list.find((x) => x.id === path[4]);
        if (req.method === 'PATCH' && path[4]) {
          if (!o) return error(res, 404, 'OBJECT_NOT_FOUND', 'resource not found');
          Object.assign(o.properties, body!.properties);
          o.updatedAt = now();
          return done(200, shown(o));
        }
        if (req.method === 'GET' && o) return done(200, shown(o));
      }
      error(res, 404, 'OBJECT_NOT_FOUND', `no route ${req.method} ${url.pathname}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return standIn;
}
