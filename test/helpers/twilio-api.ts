// A loopback stand-in of Twilio's REST API (2010-04-01), answering as Twilio's published API
// description (twilio_api_v2010, its OpenAPI document) shows: the account, incoming phone numbers
// (list, create, update, delete), available phone numbers (local, toll-free, mobile), messages sent
// (from one of the account's numbers; a landline refused with 21614), HTTP basic
// authentication by the account's SID and auth token or an API key's SID and secret, and Twilio's
// media of MMS received (a redirect to its store), and Twilio's error bodies with its own codes (20003 authenticate, 20404 not found, 21422 number not
// available, 20429 too many requests). The collector reaches it through TWILIO_API_BASE.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInNumber {
  sid: string;
  phone_number: string;
  friendly_name: string;
  voice_url: string;
  voice_method: string;
  status_callback: string;
  status_callback_method: string;
  sms_url: string;
  sms_method: string;
}

export interface StandInAccount {
  sid: string;
  authToken: string;
  /** API keys (SK…) and their secrets. */
  apiKeys: Record<string, string>;
  status: 'active' | 'suspended' | 'closed';
  friendlyName: string;
  numbers: StandInNumber[];
  /** Numbers on sale, by country and type (Local, TollFree, Mobile). */
  available: Record<string, Partial<Record<'Local' | 'TollFree' | 'Mobile', string[]>>>;
  /** Messaging Services (messaging.twilio.com/v1/Services), with their numbers (PN…) and A2P campaign. */
  services: StandInService[];
  /** A2P brands (/v1/a2p/BrandRegistrations). */
  brands: { sid: string; status: string; failureReason: string | null }[];
}

export interface StandInService {
  sid: string;
  friendlyName: string;
  useInboundWebhookOnNumber: boolean;
  numberSids: string[];
  campaign: null | { sid: string; status: string; useCase: string; brandRegistrationSid: string; description: string; messageFlow: string; messageSamples: string[]; form: Record<string, string> };
}

/** Monthly prices by country, as Twilio's Pricing API lists them (pricing.twilio.com/v1/PhoneNumbers/Countries). */
export const STAND_IN_PRICES: Record<string, { country: string; prices: [string, string][] }> = {
  US: { country: 'United States', prices: [['local', '1.15'], ['toll free', '2.15']] },
  GB: { country: 'United Kingdom', prices: [['local', '1.15'], ['mobile', '1.15'], ['toll free', '2.15']] },
  FR: { country: 'France', prices: [['local', '1.50'], ['mobile', '3.00'], ['toll free', '22.00']] },
};

/** A text sent through the Messages API. */
export interface StandInMessage {
  sid: string;
  accountSid: string;
  from: string;
  to: string;
  body: string;
  statusCallback: string | null;
}

/** A call placed through the Calls API. */
export interface StandInCall {
  sid: string;
  accountSid: string;
  from: string;
  to: string;
  url: string;
  statusCallback: string | null;
}

export interface TwilioApiStandIn {
  base: string;
  accounts: Map<string, StandInAccount>;
  /** The texts sent, in order. */
  messages: StandInMessage[];
  /** The calls placed, in order. */
  calls: StandInCall[];
  /** Numbers that cannot take texts (landlines): a text to one is refused with Twilio's 21614. */
  landlines: Set<string>;
  /** Every request: method, path (with query) and body fields. */
  requests: { method: string; path: string; form: Record<string, string> }[];
  /** Answer the next request of this method and path pattern with Twilio's 429 once. */
  throttleNext(pattern: RegExp): void;
  /** Someone else buys this number between a search and our purchase: still listed, refused (21422). */
  takenBeforePurchase(number: string): void;
  /** An MMS's media kept at Twilio: its address as the messaging webhook gives it (MediaUrl0), answered
   * as Twilio's Media resource does: with the account's credentials, a redirect to its store. */
  addMedia(accountSid: string, contentType: string, body: Buffer): string;
  close(): Promise<void>;
}

const API = '/2010-04-01';
let sequence = 0;
const sid = (prefix: string) => `${prefix}${(++sequence).toString(16).padStart(32, '0')}`;

export function standInAccount(accountSid: string, authToken: string, extra: Partial<StandInAccount> = {}): StandInAccount {
  return { sid: accountSid, authToken, apiKeys: {}, status: 'active', friendlyName: `Account ${accountSid.slice(-4)}`, numbers: [], available: {}, services: [], brands: [], ...extra };
}

export function standInNumber(phoneNumber: string, urls: Partial<Pick<StandInNumber, 'voice_url' | 'status_callback' | 'sms_url'>> = {}): StandInNumber {
  return { sid: sid('PN'), phone_number: phoneNumber, friendly_name: phoneNumber, voice_url: '', voice_method: 'POST', status_callback: '', status_callback_method: 'POST', sms_url: '', sms_method: 'POST', ...urls };
}

function twilioError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}

function numberResource(account: StandInAccount, n: StandInNumber) {
  const now = new Date().toUTCString();
  return {
    account_sid: account.sid, address_requirements: 'none', address_sid: null, api_version: '2010-04-01', beta: false,
    capabilities: { voice: true, sms: true, mms: false, fax: false }, date_created: now, date_updated: now,
    emergency_status: 'Inactive', friendly_name: n.friendly_name, identity_sid: null, origin: 'twilio', phone_number: n.phone_number,
    sid: n.sid, sms_application_sid: '', sms_fallback_method: 'POST', sms_fallback_url: '', sms_method: n.sms_method, sms_url: n.sms_url,
    status_callback: n.status_callback, status_callback_method: n.status_callback_method, trunk_sid: null,
    uri: `${API}/Accounts/${account.sid}/IncomingPhoneNumbers/${n.sid}.json`, voice_application_sid: '', voice_caller_id_lookup: false,
    voice_fallback_method: 'POST', voice_fallback_url: '', voice_method: n.voice_method, voice_url: n.voice_url, status: 'in-use',
  };
}

/** Twilio's form fields as a number's: VoiceUrl -> voice_url. */
const FIELDS: Record<string, keyof StandInNumber> = { VoiceUrl: 'voice_url', VoiceMethod: 'voice_method', StatusCallback: 'status_callback', StatusCallbackMethod: 'status_callback_method', SmsUrl: 'sms_url', SmsMethod: 'sms_method', FriendlyName: 'friendly_name' };

export async function startTwilioApi(accounts: StandInAccount[] = []): Promise<TwilioApiStandIn> {
  const byId = new Map(accounts.map((a) => [a.sid, a]));
  const requests: TwilioApiStandIn['requests'] = [];
  const throttled: RegExp[] = [];
  const taken = new Set<string>();
  const messages: StandInMessage[] = [];
  const calls: StandInCall[] = [];
  const landlines = new Set<string>();
  const media = new Map<string, { contentType: string; body: Buffer }>();
  /** Each request's raw form (a list field, MessageSamples, comes several times). */
  const reqBodies = new WeakMap<http.IncomingMessage, string>();
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    reqBodies.set(req, raw);
    const url = new URL(req.url!, 'http://twilio.test');
    const form = Object.fromEntries(new URLSearchParams(raw));
    requests.push({ method: req.method!, path: `${url.pathname}${url.search}`, form });
    const stored = media.get(url.pathname);
    if (stored && url.pathname.startsWith('/media-store/')) return res.writeHead(200, { 'content-type': stored.contentType, 'content-length': stored.body.length }).end(stored.body);
    const mediaPath = /^\/2010-04-01\/Accounts\/(AC\w+)\/Messages\/MM\w+\/Media\/(ME\w+)$/.exec(url.pathname);
    if (mediaPath) {
      const owner = byId.get(mediaPath[1]!);
      const [u, p] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
      if (!owner || !((u === owner.sid && p === owner.authToken) || (u !== undefined && owner.apiKeys[u] === p && p !== undefined))) return twilioError(res, 401, 20003, 'Authenticate');
      if (!media.has(url.pathname)) return twilioError(res, 404, 20404, `The requested resource ${url.pathname} was not found`);
      return res.writeHead(307, { location: `/media-store/${mediaPath[2]}` }).end();
    }
    if (url.pathname.startsWith('/v1/')) return v1(req, res, url, form);
    const match = /^\/2010-04-01\/Accounts\/(AC\w+)(\/.*)?\.json$/.exec(url.pathname);
    const account = match && byId.get(match[1]!);
    const [user, pass] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
    const authentic = account && ((user === account.sid && pass === account.authToken) || (user !== undefined && account.apiKeys[user] === pass && pass !== undefined));
    if (!match || !authentic) return twilioError(res, 401, 20003, 'Authenticate');
    const hit = throttled.findIndex((p) => p.test(`${req.method} ${url.pathname}`));
    if (hit >= 0) {
      throttled.splice(hit, 1);
      return twilioError(res, 429, 20429, 'Too Many Requests');
    }
    const rest = match[2] ?? '';
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (rest === '' && req.method === 'GET') {
      return json(200, { auth_token: account.authToken, date_created: new Date().toUTCString(), date_updated: new Date().toUTCString(), friendly_name: account.friendlyName, owner_account_sid: account.sid, sid: account.sid, status: account.status, subresource_uris: {}, type: 'Full', uri: `${API}/Accounts/${account.sid}.json` });
    }
    if (rest === '/IncomingPhoneNumbers' && req.method === 'GET') {
      const pageSize = Number(url.searchParams.get('PageSize') ?? 50);
      const page = account.numbers.slice(0, pageSize).map((n) => numberResource(account, n));
      return json(200, { end: page.length - 1, first_page_uri: `${url.pathname}?PageSize=${pageSize}&Page=0`, incoming_phone_numbers: page, next_page_uri: null, page: 0, page_size: pageSize, previous_page_uri: null, start: 0, uri: `${url.pathname}${url.search}` });
    }
    if (rest === '/IncomingPhoneNumbers' && req.method === 'POST') {
      const wanted = form.PhoneNumber ?? '';
      const onSale = Object.values(account.available).flatMap((types) => Object.values(types).flat());
      if (!onSale.includes(wanted) || taken.has(wanted)) return twilioError(res, 400, 21422, 'PhoneNumber requested is not available');
      for (const types of Object.values(account.available)) for (const [type, list] of Object.entries(types)) types[type as 'Local'] = list!.filter((n) => n !== wanted);
      const bought = standInNumber(wanted);
      for (const [field, key] of Object.entries(FIELDS)) if (form[field] !== undefined) bought[key] = form[field]!;
      account.numbers.push(bought);
      return json(201, numberResource(account, bought));
    }
    if (rest === '/Calls' && req.method === 'POST') {
      const { From: from = '', To: to = '', Url: callUrl = '', StatusCallback: statusCallback } = form;
      if (!account.numbers.some((n) => n.phone_number === from)) return twilioError(res, 400, 21210, `The source phone number provided, ${from}, is not yet verified for your account. You may only make calls from phone numbers that you've verified or purchased from Twilio.`);
      if (!callUrl) return twilioError(res, 400, 21205, 'Url parameter is required.');
      const call: StandInCall = { sid: sid('CA'), accountSid: account.sid, from, to, url: callUrl, statusCallback: statusCallback ?? null };
      calls.push(call);
      const now = new Date().toUTCString();
      return json(201, { account_sid: account.sid, answered_by: null, api_version: '2010-04-01', caller_name: null, date_created: now, date_updated: now, direction: 'outbound-api', duration: null, end_time: null, forwarded_from: null, from, from_formatted: from, parent_call_sid: null, phone_number_sid: null, price: null, price_unit: 'USD', sid: call.sid, start_time: null, status: 'queued', subresource_uris: {}, to, to_formatted: to, uri: `${API}/Accounts/${account.sid}/Calls/${call.sid}.json` });
    }
    if (rest === '/Messages' && req.method === 'POST') {
      const { From: from = '', To: to = '', Body: body = '', StatusCallback: statusCallback } = form;
      if (!account.numbers.some((n) => n.phone_number === from)) return twilioError(res, 400, 21606, `The From phone number ${from} is not a valid, SMS-capable inbound phone number or short code for your account.`);
      if (landlines.has(to)) return twilioError(res, 400, 21614, `'To' number ${to} is not a valid mobile number`);
      if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
      const message: StandInMessage = { sid: sid('SM'), accountSid: account.sid, from, to, body, statusCallback: statusCallback ?? null };
      messages.push(message);
      const now = new Date().toUTCString();
      return json(201, { account_sid: account.sid, api_version: '2010-04-01', body, date_created: now, date_sent: null, date_updated: now, direction: 'outbound-api', error_code: null, error_message: null, from, messaging_service_sid: null, num_media: '0', num_segments: '1', price: null, price_unit: 'USD', sid: message.sid, status: 'queued', subresource_uris: {}, to, uri: `${API}/Accounts/${account.sid}/Messages/${message.sid}.json` });
    }
    const one = /^\/IncomingPhoneNumbers\/(PN\w+)$/.exec(rest);
    const number = one && account.numbers.find((n) => n.sid === one[1]);
    if (one && !number) return twilioError(res, 404, 20404, `The requested resource ${url.pathname} was not found`);
    if (number && req.method === 'GET') return json(200, numberResource(account, number));
    if (number && req.method === 'POST') {
      for (const [field, key] of Object.entries(FIELDS)) if (form[field] !== undefined) number[key] = form[field]!;
      return json(200, numberResource(account, number));
    }
    if (number && req.method === 'DELETE') {
      account.numbers = account.numbers.filter((n) => n !== number);
      return res.writeHead(204).end();
    }
    const available = /^\/AvailablePhoneNumbers\/([A-Z]{2})\/(Local|TollFree|Mobile)$/.exec(rest);
    if (available && req.method === 'GET') {
      const [, country, type] = available;
      const contains = url.searchParams.get('Contains');
      const areaCode = url.searchParams.get('AreaCode');
      const list = (account.available[country!]?.[type as 'Local'] ?? []).filter((n) => (!contains || n.includes(contains.replace(/\*/g, ''))) && (!areaCode || n.startsWith(`+1${areaCode}`)));
      const pageSize = Number(url.searchParams.get('PageSize') ?? 50);
      return json(200, {
        available_phone_numbers: list.slice(0, pageSize).map((n) => ({ friendly_name: n, phone_number: n, lata: null, locality: null, rate_center: null, latitude: null, longitude: null, region: null, postal_code: null, iso_country: country, address_requirements: 'none', beta: false, capabilities: { voice: true, SMS: true, MMS: false } })),
        uri: `${url.pathname}${url.search}`,
      });
    }
    return twilioError(res, 404, 20404, `The requested resource ${url.pathname} was not found`);
  });
  /** Twilio's v1 APIs (messaging.twilio.com, pricing.twilio.com), their lists paged with `meta.key`. */
  function v1(req: http.IncomingMessage, res: http.ServerResponse, url: URL, form: Record<string, string>) {
    const [user, pass] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
    const account = [...byId.values()].find((a) => (user === a.sid && pass === a.authToken) || (user !== undefined && pass !== undefined && a.apiKeys[user] === pass));
    if (!account) return twilioError(res, 401, 20003, 'Authenticate');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const page = (key: string, items: unknown[]) => json(200, { [key]: items, meta: { page: 0, page_size: 50, first_page_url: `https://messaging.twilio.com${url.pathname}?PageSize=50&Page=0`, previous_page_url: null, url: `https://messaging.twilio.com${url.pathname}?PageSize=50&Page=0`, next_page_url: null, key } });
    const now = new Date().toISOString();
    const serviceOf = (x: StandInService) => ({ account_sid: account.sid, sid: x.sid, friendly_name: x.friendlyName, use_inbound_webhook_on_number: x.useInboundWebhookOnNumber, us_app_to_person_registered: x.campaign?.status === 'VERIFIED', date_created: now, date_updated: now, url: `https://messaging.twilio.com/v1/Services/${x.sid}`, links: {} });
    const campaignOf = (x: StandInService) => ({ sid: x.campaign!.sid, account_sid: account.sid, brand_registration_sid: x.campaign!.brandRegistrationSid, messaging_service_sid: x.sid, description: x.campaign!.description, message_samples: x.campaign!.messageSamples, us_app_to_person_usecase: x.campaign!.useCase, has_embedded_links: false, has_embedded_phone: false, campaign_status: x.campaign!.status, campaign_id: null, is_externally_registered: false, rate_limits: {}, message_flow: x.campaign!.messageFlow, date_created: now, date_updated: now, url: `https://messaging.twilio.com/v1/Services/${x.sid}/Compliance/Usa2p/${x.campaign!.sid}`, mock: false, errors: [] });
    const priced = /^\/v1\/PhoneNumbers\/Countries\/([A-Z]{2})$/.exec(url.pathname);
    if (priced && req.method === 'GET') {
      const listed = STAND_IN_PRICES[priced[1]!];
      if (!listed) return twilioError(res, 404, 20404, `The requested resource ${url.pathname} was not found`);
      return json(200, { country: listed.country, iso_country: priced[1], phone_number_prices: listed.prices.map(([type, price]) => ({ number_type: type, base_price: price, current_price: price })), price_unit: 'USD', url: `https://pricing.twilio.com${url.pathname}` });
    }
    if (url.pathname === '/v1/a2p/BrandRegistrations' && req.method === 'GET') return page('data', account.brands.map((b) => ({ sid: b.sid, account_sid: account.sid, status: b.status, failure_reason: b.failureReason, brand_type: 'STANDARD', identity_status: 'VERIFIED', date_created: now, url: `https://messaging.twilio.com/v1/a2p/BrandRegistrations/${b.sid}` })));
    if (url.pathname === '/v1/Services' && req.method === 'GET') return page('services', account.services.map(serviceOf));
    if (url.pathname === '/v1/Services' && req.method === 'POST') {
      const made: StandInService = { sid: sid('MG'), friendlyName: form.FriendlyName ?? '', useInboundWebhookOnNumber: form.UseInboundWebhookOnNumber === 'true', numberSids: [], campaign: null };
      account.services.push(made);
      return json(201, serviceOf(made));
    }
    const sub = /^\/v1\/Services\/(MG\w+)\/(PhoneNumbers|Compliance\/Usa2p)$/.exec(url.pathname);
    const service = sub && account.services.find((x) => x.sid === sub[1]);
    if (sub && !service) return twilioError(res, 404, 20404, `The requested resource ${url.pathname} was not found`);
    if (service && sub![2] === 'PhoneNumbers' && req.method === 'GET') {
      return page('phone_numbers', service.numberSids.flatMap((pn) => account.numbers.filter((n) => n.sid === pn)).map((n) => ({ sid: n.sid, account_sid: account.sid, service_sid: service.sid, phone_number: n.phone_number, country_code: 'US', capabilities: ['SMS', 'Voice'], date_created: now, url: `https://messaging.twilio.com/v1/Services/${service.sid}/PhoneNumbers/${n.sid}` })));
    }
    if (service && sub![2] === 'PhoneNumbers' && req.method === 'POST') {
      const n = account.numbers.find((x) => x.sid === form.PhoneNumberSid);
      if (!n) return twilioError(res, 400, 21710, 'Phone Number SID not found');
      if (account.services.some((x) => x.numberSids.includes(n.sid))) return twilioError(res, 409, 21712, 'Phone Number is already in a Messaging Service');
      service.numberSids.push(n.sid);
      return json(201, { sid: n.sid, account_sid: account.sid, service_sid: service.sid, phone_number: n.phone_number, country_code: 'US', capabilities: ['SMS', 'Voice'], date_created: now });
    }
    if (service && req.method === 'GET') return page('compliance', service.campaign ? [campaignOf(service)] : []);
    if (service && req.method === 'POST') {
      if (service.campaign) return twilioError(res, 409, 21713, 'A campaign is already registered for this Messaging Service');
      if (!account.brands.some((b) => b.sid === form.BrandRegistrationSid && b.status === 'APPROVED')) return twilioError(res, 400, 21714, 'The brand is not approved');
      const samples = new URLSearchParams(reqBodies.get(req) ?? '').getAll('MessageSamples');
      service.campaign = { sid: sid('QE'), status: 'PENDING', useCase: form.UsAppToPersonUsecase ?? '', brandRegistrationSid: form.BrandRegistrationSid ?? '', description: form.Description ?? '', messageFlow: form.MessageFlow ?? '', messageSamples: samples, form };
      return json(201, campaignOf(service));
    }
    return twilioError(res, 404, 20404, `The requested resource ${url.pathname} was not found`);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accounts: byId,
    messages,
    calls,
    landlines,
    requests,
    throttleNext: (pattern) => throttled.push(pattern),
    takenBeforePurchase: (number) => taken.add(number),
    addMedia(accountSid, contentType, body) {
      const me = sid('ME');
      const path = `${API}/Accounts/${accountSid}/Messages/${sid('MM')}/Media/${me}`;
      media.set(path, { contentType, body });
      media.set(`/media-store/${me}`, { contentType, body });
      return `https://api.twilio.com${path}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
