// The worst inputs of every family's routes (issue 37), for test/http/bounded-work.test.ts and
// test/bench/worst-inputs.ts: the largest legal request where a parameter sets the work (a range, a
// list, a string a pattern reads), the largest illegal one the body limits let through (a body over
// them is refused before it is read, and its sender may see the connection closed), and the
// requests of the probe that once stopped the service. Each names the answer it must get: its
// family's error, or a bounded answer. Run against commerceFixture() with a user
// owner@shop.test / owner-password-1, TELEPHONY_KEY and sign-up on.
import { CC_KEY, CUSTOMER_KEY, DATA_KEY } from './fixtures.ts';
import { TELEPHONY_KEY } from './telephony.ts';

export interface WorstInput {
  name: string;
  send(signal: AbortSignal): Promise<Response>;
  status: number;
  /** What the body must say. */
  answer: RegExp;
}

/** How often /healthz is asked while the cases run. */
export const HEALTH_PROBE_MS = 20;

const repeat = (text: string, times: number) => Array.from({ length: times }, () => text).join('');
const DIGITS_60K = repeat('1234567890', 6000);
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

export async function worstInputs(baseUrl: string): Promise<WorstInput[]> {
  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) => (signal: AbortSignal) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString(), signal });
  const json = (path: string, body: unknown, headers: Record<string, string> = {}) => (signal: AbortSignal) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
  const get = (path: string, query: Record<string, string>, headers: Record<string, string> = {}) => (signal: AbortSignal) =>
    fetch(`${baseUrl}${path}?${new URLSearchParams(query)}`, { headers, signal });
  const browser = (path: string, fields: Record<string, string>, origin = 'http://shop.test') =>
    form(path, { key: 'pk-test-key', ...fields }, { origin, 'user-agent': CHROME, 'content-type': 'text/plain;charset=UTF-8' });

  const view = { api_key: 'track-test-key', visit_id: '0', ip: '203.0.113.7', url: 'https://shop.test/', page_title: 'Home', is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789' };
  const data = { api_key: DATA_KEY, type: 'calls', start_date: '2026-01-01', end_date: '2026-01-31', page: '1', limit: '10' };

  const signIn = await fetch(`${baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'owner@shop.test', password: 'owner-password-1' }) });
  const { csrfToken } = (await signIn.json()) as { csrfToken: string };
  const manage = { cookie: signIn.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken };

  return [
    // Call tracking (/ospView and its family): status and errorMessage.
    { name: '/ospView, every text at its largest', send: form('/ospView', { ...view, url: `https://shop.test/?q=${'a'.repeat(60_000)}`, page_title: 'x'.repeat(60_000), referer_url: `https://www.google.com/?q=${'b'.repeat(60_000)}`, unique_visitor_id: 'v'.repeat(200) }), status: 200, answer: /"status":"OK"/ },
    { name: '/ospView, one phone written 20,000 times', send: form('/ospView', { ...view, phones: repeat('0123456789,', 20_000) }), status: 200, answer: /"status":"OK","visitId":\d+,"viewId":\d+,"surtaxPhones":\{"0123456789":/ },
    { name: '/ospView, 51 phones', send: form('/ospView', { ...view, phones: Array.from({ length: 51 }, (_, i) => `01234567${String(i).padStart(2, '0')}`).join() }), status: 200, answer: /"errorMessage":"Invalid parameter phones: must list at most 50 numbers"/ },
    { name: '/ospView, 40,000 phones none of which is one', send: form('/ospView', { ...view, phones: repeat('9 ', 80_000) }), status: 200, answer: /"status":"INVALID_PARAMETER"/ },
    { name: '/ospView, client_data of 100 entries of 500 characters', send: form('/ospView', { ...view, ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`client_data[0${i}]`, 'c'.repeat(500)])) }), status: 200, answer: /"status":"(OK|INVALID_PARAMETER)"/ },
    { name: '/ospView, an over-long visitor id', send: form('/ospView', { ...view, unique_visitor_id: 'v'.repeat(201) }), status: 200, answer: /"errorMessage":"Invalid parameter unique_visitor_id: must be at most 200 characters"/ },
    { name: '/ospClick, a phone of 60,000 digits', send: form('/ospClick', { api_key: 'track-test-key', phone: DIGITS_60K }), status: 200, answer: /"status":"INVALID_PARAMETER"/ },
    { name: '/ospExpiration, a number of 60,000 characters', send: form('/ospExpiration', { api_key: 'track-test-key', surtax_phone: `0${'8'.repeat(60_000)}`, surtax_phone_code: DIGITS_60K }), status: 200, answer: /"status":"INVALID_PARAMETER"/ },
    // The browser doors.
    { name: '/t/view, a _ga cookie of 60,000 digits', send: browser('/t/view', { visit_id: '0', url: 'http://shop.test/', page_title: 'Home', referer_url: '', _ga: DIGITS_60K }), status: 200, answer: /"status":"OK"/ },
    { name: '/t/view, a session cookie of 60,000 digits', send: browser('/t/view', { visit_id: '0', url: 'http://shop.test/', page_title: 'Home', referer_url: '', _ga: 'GA1.1.1.2', _ga_ABC: `GS2.1.s${DIGITS_60K}` }), status: 200, answer: /"status":"OK"/ },
    { name: '/t/view, a _ga cookie of 60,000 digits and dots', send: browser('/t/view', { visit_id: '0', url: 'http://shop.test/', page_title: 'Home', referer_url: '', _ga: repeat('1.', 30_000) }), status: 200, answer: /"status":"OK"/ },
    { name: '/t/view, a ga_client_id of 60,000 digits', send: browser('/t/view', { visit_id: '0', url: 'http://shop.test/', page_title: 'Home', referer_url: '', ga_client_id: `${DIGITS_60K}x` }), status: 200, answer: /"status":"INVALID_PARAMETER"/ },
    { name: '/t/view, a forged origin of 15 KB', send: browser('/t/view', { visit_id: '0', url: 'http://shop.test/', page_title: 'Home', referer_url: '' }, `http://a.test/${'x'.repeat(15_000)}`), status: 403, answer: /^\{"status":"AUTHENTICATION_ERROR","errorMessage":"Origin http:\/\/a\.test\/x{241}\.\.\. is not allowed for this key"\}$/ },
    { name: '/t/click, a phone of 60,000 characters', send: browser('/t/click', { visit_id: '0', view_id: '1', phone: `${repeat('01 ', 20_000)}x` }), status: 200, answer: /"status":"INVALID_PARAMETER"/ },
    // Data: status ERROR and errors[].
    { name: '/data-api, 0001-01-01 to 9999-12-31', send: get('/data-api', { ...data, start_date: '0001-01-01', end_date: '9999-12-31' }), status: 200, answer: /"errors":\["Invalid parameter end_date: a request covers at most 400 days"\]/ },
    { name: '/data-api, 0001-01-01 to 9999-12-31 by day', send: get('/data-api', { ...data, start_date: '0001-01-01', end_date: '9999-12-31', group_by_day: 'true' }), status: 200, answer: /a request covers at most 400 days/ },
    { name: '/data-api, 400 days by day', send: get('/data-api', { ...data, start_date: '2025-01-01', end_date: '2026-02-04', group_by_day: 'true' }), status: 200, answer: /"status":"OK"/ },
    { name: '/data-api, 400 days by day and caller', send: get('/data-api', { ...data, start_date: '2025-01-01', end_date: '2026-02-04', group_by_day: 'true', caller_phone: '0611223344' }), status: 200, answer: /"status":"OK"/ },
    { name: '/data-api, the deepest page of 5,000', send: get('/data-api', { ...data, start_date: '2025-01-01', end_date: '2026-02-04', page: '999999999', limit: '5000' }), status: 200, answer: /"status":"OK"/ },
    { name: '/data-api, the deepest page of 5,000 of a caller', send: get('/data-api', { ...data, start_date: '2025-01-01', end_date: '2026-02-04', page: '999999999', limit: '5000', caller_phone: '0611223344' }), status: 200, answer: /"status":"OK"/ },
    { name: '/data-api, the deepest page of 5,000 SMS', send: get('/data-api', { ...data, type: 'sms', start_date: '2025-01-01', end_date: '2026-02-04', page: '999999999', limit: '5000' }), status: 200, answer: /"status":"OK"/ },
    { name: '/data-api, 1,500 statuses', send: get('/data-api', { ...data, status: repeat('SUCCESS,', 1500) }), status: 200, answer: /"status":"OK"/ },
    { name: '/data-api, a query over the header limit', send: get('/data-api', { ...data, status: repeat('SUCCESS,', 3000) }), status: 431, answer: /^$/ },
    { name: '/data-api, filters of 5,000 characters', send: get('/data-api', { ...data, caller_phone: '1'.repeat(5000), offline_phone_description: 'd'.repeat(5000) }), status: 200, answer: /"Invalid parameter caller_phone"/ },
    // Offline numbers: status error and error.
    { name: '/offline-numbers-api, parameters of 5,000 characters', send: get('/offline-numbers-api', { key: 'offline-test-key', action: 'reassign', tracking_number: '0'.repeat(5000), phone_number: '1'.repeat(5000), description: 'd'.repeat(5000) }), status: 200, answer: /"status":"error"/ },
    { name: '/offline-numbers-api/list', send: get('/offline-numbers-api/list', { key: 'offline-test-key' }), status: 200, answer: /^\{"0100000001":/ },
    // Carts and orders: status and message.
    { name: '/api/customer-cart, 100 products of long names', send: form('/api/customer-cart', { key: CUSTOMER_KEY, id: 'cart-1', visit_id: '1', status: '1', total_cost: '10', ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`products[${i}][name]`, 'p'.repeat(2000)])) }), status: 200, answer: /"status":"(success|error)"/ },
    { name: '/api/customer-order, products as 100 KB of JSON', send: form('/api/customer-order', { key: CUSTOMER_KEY, id: 'order-1', status: 'paid', products: `[${repeat('{"name":"p","price":1,"quantity":1},', 2800)}{}]` }), status: 200, answer: /"status":"(success|error)","message":"(?!Invalid request body)/ },
    // The call-center agent service: NOK and error.
    { name: '/agent-api/agentStats, every day ever', send: form('/agent-api/agentStats', { apiKey: CC_KEY, startDate: '0001-01-01', endDate: '9999-12-31' }), status: 200, answer: /"error":"Invalid parameter endDate: a request covers at most 400 days"/ },
    { name: '/agent-api/agentStats, no dates', send: form('/agent-api/agentStats', { apiKey: CC_KEY }), status: 200, answer: /"status":"OK"/ },
    { name: '/agent-api/callStart, parameters of 60,000 characters', send: form('/agent-api/callStart', { apiKey: CC_KEY, destinationPhone: DIGITS_60K, callerPhone: DIGITS_60K, startDate: DIGITS_60K }), status: 200, answer: /"status":"NOK"/ },
    { name: '/agent-api, a key of 60,000 characters', send: form('/agent-api/agentStats', { apiKey: 'k'.repeat(60_000) }), status: 200, answer: /"error":"Invalid apiKey kkkk\.\.\."/ },
    // Telephony.
    { name: '/telephony/calls, every text at its largest', send: json('/telephony/calls', { callRef: 'r'.repeat(128), trackingNumber: DIGITS_60K, callerPhone: DIGITS_60K, startDate: '2026-03-01 10:00:00', status: 'SUCCESS', duration: 30 }, { authorization: `Bearer ${TELEPHONY_KEY}` }), status: 400, answer: /"error":"/ },
    { name: '/telephony/sms, ten parts of 1,600 characters', send: json('/telephony/sms', { smsRef: 's-1', trackingNumber: '0800000001', callerPhone: '0611223344', sentDate: '2026-03-01 10:00:00', parts: Array(10).fill('m'.repeat(1600)) }, { authorization: `Bearer ${TELEPHONY_KEY}` }), status: 200, answer: /./ },
    { name: '/telephony/route, numbers of 5,000 digits', send: get('/telephony/route', { tracking_number: '1'.repeat(5000), caller_phone: '1'.repeat(5000) }, { authorization: `Bearer ${TELEPHONY_KEY}` }), status: 400, answer: /"error":"Invalid parameter tracking_number/ },
    { name: '/telephony/twilio/voice, 200 KB unsigned', send: form('/telephony/twilio/voice', { CallSid: 'CA1', From: DIGITS_60K, To: DIGITS_60K, Digits: DIGITS_60K }, { 'x-twilio-signature': 'forged' }), status: 403, answer: /"error":"/ },
    // The back end.
    { name: 'sign-up, an e-mail address of 240 KB', send: json('/manage/api/signup', { account: 'Big', username: `${'a'.repeat(240_000)}@example.com`, password: 'a long enough password' }), status: 400, answer: /"error":"username: must be at most 254 characters"/ },
    { name: 'sign-up, an e-mail address of many dots', send: json('/manage/api/signup', { account: 'Dots', username: `a@${'.'.repeat(250)}`, password: 'a long enough password' }), status: 400, answer: /"error":"username: must be an e-mail address"/ },
    { name: 'sign-in, a username and password of 100 KB', send: json('/manage/api/session', { username: 'u'.repeat(100_000), password: 'p'.repeat(100_000) }), status: 401, answer: /"error":"Wrong username or password"/ },
    { name: 'the overview, every day ever', send: get('/manage/api/domains/shop.test/reports/overview', { from: '0001-01-01', to: '9999-12-31' }, manage), status: 400, answer: /"error":"A report covers at most 400 days"/ },
    { name: 'the overview, 400 days', send: get('/manage/api/domains/shop.test/reports/overview', { from: '2025-01-01', to: '2026-02-04' }, manage), status: 200, answer: /"days":/ },
    { name: 'the calls log, its deepest page', send: get('/manage/api/domains/shop.test/reports/calls', { from: '2025-01-01', to: '2026-02-04', page: '10000' }, manage), status: 200, answer: /./ },
    { name: 'the calls CSV, 400 days', send: get('/manage/api/domains/shop.test/reports/calls.csv', { from: '2025-01-01', to: '2026-02-04' }, manage), status: 200, answer: /./ },
    { name: 'the agents report, every day ever', send: get('/manage/api/reports/agents', { from: '0001-01-01', to: '9999-12-31' }, manage), status: 400, answer: /A report covers at most 400 days/ },
    { name: 'a domain, 100 origins and 100 site phones', send: (signal: AbortSignal) => fetch(`${baseUrl}/manage/api/domains/shop.test`, { method: 'PATCH', headers: { ...manage, 'content-type': 'application/json' }, body: JSON.stringify({ allowedOrigins: [`http://shop.test`, ...Array.from({ length: 99 }, (_, i) => `https://s${i}.shop.test`)], sitePhones: Array.from({ length: 100 }, (_, i) => `01 23 45 67 ${String(i).padStart(2, '0')}`) }), signal }), status: 200, answer: /"name":"shop.test"/ },
    { name: 'a domain named 127.0.0.1', send: (signal: AbortSignal) => fetch(`${baseUrl}/manage/api/domains`, { method: 'POST', headers: { ...manage, 'content-type': 'application/json' }, body: JSON.stringify({ name: '127.0.0.1' }), signal }), status: 400, answer: /"error":"name: must be a domain name, not an address"/ },
    // Described and documented.
    { name: '/openapi.json', send: get('/openapi.json', {}), status: 200, answer: /"openapi"/ },
  ];
}
