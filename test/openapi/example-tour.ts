// One real request to every operation that answers something worth showing, in an order that
// gives each one something to answer about: a view, a click, calls, an SMS, a cart and an order,
// the call center, then the back end. The answers are the OpenAPI document's examples
// (collector/src/openapi/examples.json), recorded by examples.test.ts and checked against it.
import { formatUtcDateTime } from '@ringtrail/shared';
import { commerceFixture, domainNamed, CC_KEY, CUSTOMER_KEY, DATA_KEY, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';
import { TELEPHONY_KEY, twilioPost } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';
import { toneWav } from '../helpers/wav.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { standInAccount, standInNumber, startTwilioApi } from '../helpers/twilio-api.ts';

export const TOUR_USER = { username: 'owner@shop.test', password: 'tour-password-1' };

/** commerceFixture with a back-end user, whispers and a no-answer redirect to show. */
export function tourFixture() {
  const fixture = commerceFixture({
    ga4: false,
    tracking: { users: [TOUR_USER], exclusive: ['0800000001', '0800000002', '0800000003', '0800000004', '0800000005', '0800000006'], settings: { whisper: true, redirectPhone: '06 11 00 00 00', redirect: { enabled: true, timetable: [] }, formTracking: { enabled: true, fields: [] }, transcription: { enabled: true, language: 'en' }, analysis: { enabled: true, questions: ['Did the caller ask for emergency service?'] }, keyPhrases: [{ label: 'price', phrases: ['how much'], speaker: 'caller' }] } },
  });
  // A US domain of the account beside it: its US texting registration (issue 81).
  fixture.accounts[0]!.domains.push({ ...domainNamed('uptown', '0100000077'), country: 'US', currency: 'USD', timeZone: 'America/Los_Angeles', sitePhones: ['4155550100'], pools: [] } as never);
  return fixture;
}

/** The account's Twilio account, at a loopback stand-in of Twilio's REST API (TWILIO_API_BASE). */
const TOUR_TWILIO = { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'tour-twilio-auth-token' };
export const tourTwilioApi = () => startTwilioApi([standInAccount(TOUR_TWILIO.accountSid, TOUR_TWILIO.authToken, { friendlyName: 'Shop calls', numbers: [standInNumber('+33800000001'), standInNumber('+14155550123', { voice_url: 'https://elsewhere.example/voice' }), standInNumber('+14155550124')], available: { FR: { TollFree: ['+33800000090', '+33800000091'] } }, brands: [{ sid: 'BN0123456789abcdef0123456789abcdef', status: 'APPROVED', failureReason: null }] })]);

/** The token of an invitation link (`…/manage/#/accept?token=…`). */
export const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.split('?')[1]).get('token')!;

/** What one operation answered: its status and body (parsed JSON, or the text of another type). */
export interface Answer {
  status: number;
  body: unknown;
}

/** `post /ospView` -> its answer. */
export type Tour = Record<string, Answer>;

const ORIGIN = 'http://shop.test';
const CALLER = '+33611223344';

/** `webhookUrl`: where the account's pushes go (a receiver the caller runs). */
export async function exampleTour(baseUrl: string, webhookUrl: string, googleKey: object, hubspotToken: string): Promise<Tour> {
  const tour: Tour = {};
  const keep = async (key: string, res: Response): Promise<any> => {
    const text = await res.text();
    const body = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    tour[key] = { status: res.status, body };
    return body;
  };
  const form = (fields: Record<string, unknown>) => new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  const post = (path: string, fields: Record<string, unknown>, headers: Record<string, string> = {}) => fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: form(fields) });
  const get = (path: string, query: Record<string, unknown> = {}, headers: Record<string, string> = {}) => fetch(`${baseUrl}${path}?${form(query)}`, { headers });
  const browser = (path: string, fields: Record<string, unknown>) => post(path, { key: 'pk-test-key', ...fields }, { origin: ORIGIN, 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8' });
  const bearer = { authorization: `Bearer ${TELEPHONY_KEY}` };
  const twilio = async (key: string, path: string, fields: Record<string, string>, token?: string) => {
    const { status, text } = await twilioPost(baseUrl, path, fields, token);
    tour[key] = { status, body: text };
    return text;
  };
  const { from, to } = daysAroundNow();

  // Call tracking: a visitor from a Google Ads click sees a number, clicks the other, keeps the first.
  const view = await keep('post /ospView', await post('/ospView', viewParams({ url: 'https://shop.test/contact?utm_source=google&utm_medium=cpc&utm_term=emergency+plumber&gclid=EAIaIQobChMI', page_title: 'Contact us' })));
  const shown = view.surtaxPhones['0123456789'].surtaxPhoneNumber as string;
  await keep('post /ospClick', await post('/ospClick', { api_key: viewParams().api_key, phone: '0987654321', view_id: view.viewId }));
  await keep('post /ospExpiration', await post('/ospExpiration', { api_key: viewParams().api_key, surtax_phone: shown, expiration: 1200 }));

  const pageAnswer = await browser('/t/view', { visit_id: 0, url: `${ORIGIN}/`, page_title: 'Home', referer_url: 'https://www.bing.com/', phones: '01 23 45 67 89' });
  const pageVisitKey = pageAnswer.headers.get('x-visit-key');
  const page = await keep('post /t/view', pageAnswer);
  await keep('post /t/click', await browser('/t/click', { visit_id: page.visitId, view_id: page.viewId, phone: '0987654321' }));
  await keep('post /t/form', await browser('/t/form', { visit_id: page.visitId, url: `${ORIGIN}/contact`, form_name: 'contact', fields: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', phone: '06 12 34 56 78', message: 'A boiler to repair' }), honeypot: '', elapsed_ms: 14_000 }));
  await keep('post /t/expiration', await browser('/t/expiration', { visit_id: page.visitId, view_id: page.viewId, surtax_phone: page.surtaxPhones['01 23 45 67 89'].surtaxPhoneNumber }));

  // Offline numbers: a leaflet campaign.
  await keep('get /offline-numbers-api', await get('/offline-numbers-api', { key: 'offline-test-key', action: 'assign', tracking_number: '0100000001', phone_number: '0123456789', description: 'Leaflet, spring', type: 6 }));
  await keep('get /offline-numbers-api/list', await get('/offline-numbers-api/list', { key: 'offline-test-key' }));

  // Telephony: where the call goes, the call itself through Twilio, a generic report, an SMS.
  const digits = shown.replaceAll('.', '');
  await keep('get /telephony/route', await get('/telephony/route', { tracking_number: digits, caller_phone: CALLER }, bearer));
  const twilioCall = { AccountSid: 'AC00000000000000000000000000000000', CallSid: 'CA0001', From: CALLER, To: `+33${digits.slice(1)}`, Direction: 'inbound', ApiVersion: '2010-04-01' };
  const voice = await twilio('post /telephony/twilio/voice', '/voice', { ...twilioCall, CallStatus: 'ringing' });
  const callId = /whisper\?call=(\d+)/.exec(voice)![1]!;
  await twilio('post /telephony/twilio/whisper', `/whisper?call=${callId}`, { ...twilioCall, CallSid: 'CA0001-leg', ParentCallSid: 'CA0001', Direction: 'outbound-dial', CallStatus: 'in-progress' });
  await twilio('post /telephony/twilio/dial', '/dial', { ...twilioCall, CallStatus: 'in-progress', DialCallSid: 'CA0001-leg', DialCallStatus: 'completed', DialCallDuration: '184', DialBridged: 'true' });
  // Twilio says no audio was made (`absent`): answered, nothing to fetch from a network the tour has not.
  await twilio('post /telephony/twilio/recording', '/recording', { ...twilioCall, CallStatus: 'completed', RecordingSid: 'RE0001', RecordingUrl: 'https://api.twilio.com/2010-04-01/Accounts/AC00000000000000000000000000000000/Recordings/RE0001', RecordingStatus: 'absent', RecordingDuration: '0', RecordingChannels: '2' });
  await twilio('post /telephony/twilio/status', '/status', { ...twilioCall, CallStatus: 'completed', CallDuration: '190' });
  await twilio('post /telephony/twilio/sms', '/sms', { AccountSid: twilioCall.AccountSid, MessageSid: 'SM0001', From: CALLER, To: twilioCall.To, Body: 'Are you open on Sunday?', NumMedia: '0' });
  const startDate = formatUtcDateTime(new Date(Date.now() - 60_000));
  const pbxCall = await fetch(`${baseUrl}/telephony/calls`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ callRef: 'pbx-0002', trackingNumber: '0100000001', callerPhone: '0698765432', status: 'SUCCESS', duration: 95, answerTime: 6, startDate }) });
  const { callId: pbxCallId } = (await pbxCall.clone().json()) as { callId: number };
  await keep('post /telephony/calls', pbxCall);
  // The call's recording itself: a second of silence.
  const silence = toneWav(1, { hertz: 0 });
  await keep('post /telephony/calls/{callId}/recording', await fetch(`${baseUrl}/telephony/calls/${pbxCallId}/recording`, { method: 'POST', headers: { ...bearer, 'content-type': 'audio/wav' }, body: new Uint8Array(silence) }));
  await keep('post /telephony/sms', await fetch(`${baseUrl}/telephony/sms`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ smsRef: 'pbx-sms-0001', trackingNumber: '0100000001', callerPhone: '0698765432', sentDate: startDate, message: 'Call me back please' }) }));

  // The recorded call's transcript is made in the background: the example waits for it, so that its
  // shape never depends on which came first (it did, once).
  const dataApi = () => get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 10 });
  await until(async () => ((await (await dataApi()).json()) as { results: { call_id: number; transcript: string | null }[] }).results.some((r) => r.call_id === pbxCallId && r.transcript !== null), 'the transcript in the data API');
  await keep('get /data-api', await dataApi());

  // Carts and orders: the visitor buys after the call.
  const products = { 'products[0][id]': 'SKU-12', 'products[0][name]': 'Boiler service', 'products[0][quantity]': 1, 'products[0][price]': '129.00' };
  await keep('post /api/customer-cart', await post('/api/customer-cart', { key: CUSTOMER_KEY, id: 'cart-1', currency: 'EUR', visit_id: view.visitId, is_logged_in: 0, ...products }));
  await keep('post /api/customer-order', await post('/api/customer-order', { key: CUSTOMER_KEY, id: 'order-1', cart_id: 'cart-1', currency: 'EUR', visit_id: view.visitId, ...products, status: 'paid', call_id: callId }));

  // The call center: a ringing call to the page's number, its agent, statistics (its webhook attempts below).
  const ringing = await keep('post /agent-api/callStart', await post('/agent-api/callStart', { apiKey: CC_KEY, callerPhone: '0611223344', destinationPhone: digits, startDate: formatUtcDateTime(new Date()), agent: 'alice' }));
  await keep('post /agent-api/setAgentToCall', await post('/agent-api/setAgentToCall', { apiKey: CC_KEY, callId: ringing.results[0]?.id ?? callId, agent: 'bob' }));
  await keep('post /agent-api/agentStats', await post('/agent-api/agentStats', { apiKey: CC_KEY }));

  // The back end.
  await keep('get /manage/api/config', await fetch(`${baseUrl}/manage/api/config`));
  await keep('post /manage/api/session', await fetch(`${baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(TOUR_USER) }));
  const owner = await signedInClient(baseUrl, TOUR_USER.username, TOUR_USER.password);
  const manage = async (key: string, method: string, path: string, body?: unknown) => {
    const answer = await owner.call(method, path, body);
    if (answer.status !== 204) tour[key] = { status: answer.status, body: answer.body ?? answer.text };
    return answer.body;
  };
  await manage('get /manage/api/session', 'GET', '/session');
  await manage('get /manage/api/domains', 'GET', '/domains');
  await manage('get /manage/api/locale', 'GET', '/locale?timeZone=America/Chicago');
  await manage('post /manage/api/domains', 'POST', '/domains', { name: 'plumber.example', allowedOrigins: ['https://plumber.example', 'https://www.plumber.example'], sitePhones: ['01 44 55 66 77'] });
  await manage('patch /manage/api/domains/{domain}', 'PATCH', '/domains/plumber.example', { timeZone: 'Europe/Paris' });
  await manage('post /manage/api/domains/{domain}/pools', 'POST', '/domains/plumber.example/pools', { type: 1, usage: 'online' });
  await manage('post /manage/api/domains/{domain}/pools/{type}/numbers', 'POST', '/domains/plumber.example/pools/1/numbers', { numbers: ['0800 10 20 30', '0800 10 20 31'] });
  await manage('delete /manage/api/domains/{domain}/numbers/{number}', 'DELETE', '/domains/plumber.example/numbers/0800102031');
  await manage('post /manage/api/domains/{domain}/keys/{kind}', 'POST', '/domains/plumber.example/keys/data');
  await manage('get /manage/api/domains/{domain}/install', 'GET', '/domains/plumber.example/install');
  await manage('get /manage/api/domains/{domain}', 'GET', '/domains/plumber.example');
  await manage('post /manage/api/domains/{domain}/offline-numbers/{number}/redirect', 'POST', '/domains/shop.test/offline-numbers/0100000001/redirect', { allowRedirect: true, timetable: [{ day: 'mon', from: '09:00', to: '18:00' }] });
  await manage('post /manage/api/domains/{domain}/offline-numbers/{number}/recording', 'POST', '/domains/shop.test/offline-numbers/0100000001/recording', { recording: false });
  await manage('post /manage/api/domains/{domain}/offline-numbers/{number}/unassign', 'POST', '/domains/shop.test/offline-numbers/0100000001/unassign');
  await manage('post /manage/api/domains/{domain}/offline-numbers/{number}/assign', 'POST', '/domains/shop.test/offline-numbers/0100000001/assign', { destination: '01 23 45 67 89', description: 'Radio, autumn' });
  await manage('post /manage/api/domains/{domain}/blocked-callers', 'POST', '/domains/shop.test/blocked-callers', { number: '06 66 66 66 66' });
  await manage('post /manage/api/domains/{domain}/calls/{callId}/block-caller', 'POST', `/domains/shop.test/calls/${callId}/block-caller`);
  await manage('get /manage/api/domains/{domain}/calls/{callId}', 'GET', `/domains/shop.test/calls/${callId}`);
  // The carrier's recording of the PBX call, transcribed by the engine (a stand-in of OpenAI's API here).
  await until(async () => (await owner.get(`/domains/shop.test/calls/${pbxCallId}/transcript`)).status === 200, 'the transcript of the recorded call');
  await manage('get /manage/api/domains/{domain}/calls/{callId}/transcript', 'GET', `/domains/shop.test/calls/${pbxCallId}/transcript`);
  // The language model read it (analysis/): a person corrects an outcome.
  await until(async () => (await owner.get(`/domains/shop.test/calls/${pbxCallId}`)).body.analysis?.status === 'ready', 'the analysis of the transcribed call');
  await manage('put /manage/api/domains/{domain}/calls/{callId}/analysis/outcomes/{name}', 'PUT', `/domains/shop.test/calls/${pbxCallId}/analysis/outcomes/quoteGiven`, { answer: 'yes' });
  // The Settings card: which model reads the calls, tried on a sample call.
  await manage('get /manage/api/domains/{domain}/analysis', 'GET', '/domains/shop.test/analysis');
  await manage('post /manage/api/domains/{domain}/analysis/try', 'POST', '/domains/shop.test/analysis/try');
  await manage('get /manage/api/domains/{domain}/transcription', 'GET', '/domains/shop.test/transcription');
  // The forms log, the contact form's page and a verdict on it.
  const { forms } = await manage('get /manage/api/domains/{domain}/reports/forms', 'GET', `/domains/shop.test/reports/forms?from=${from}&to=${to}`);
  await manage('get /manage/api/domains/{domain}/forms/{formId}', 'GET', `/domains/shop.test/forms/${forms[0].formId}`);
  await manage('put /manage/api/domains/{domain}/forms/{formId}/verdict', 'PUT', `/domains/shop.test/forms/${forms[0].formId}/verdict`, { verdict: 'lead' });
  // Tags, and a rule that tags, values and qualifies long calls: previewed, changed, then deleted.
  await manage('post /manage/api/account/tags', 'POST', '/account/tags', { name: 'Booked', colour: '#16a34a' });
  await manage('get /manage/api/account/tags', 'GET', '/account/tags');
  const rule = { name: 'Long calls', moment: 'call-ended', match: 'all', conditions: [{ field: 'duration', op: 'atLeast', value: 60 }], actions: [{ type: 'tag', tag: 'Booked' }, { type: 'value', amount: 120 }] };
  const { id: ruleId } = await manage('post /manage/api/domains/{domain}/rules', 'POST', '/domains/shop.test/rules', rule);
  await manage('get /manage/api/domains/{domain}/rules', 'GET', '/domains/shop.test/rules');
  await manage('post /manage/api/domains/{domain}/rules/{ruleId}/preview', 'POST', `/domains/shop.test/rules/${ruleId}/preview`);
  await manage('put /manage/api/domains/{domain}/rules/{ruleId}', 'PUT', `/domains/shop.test/rules/${ruleId}`, { ...rule, enabled: false });
  const { id: runId } = await manage('post /manage/api/domains/{domain}/rules/{ruleId}/apply', 'POST', `/domains/shop.test/rules/${ruleId}/apply`, { from, to });
  await until(async () => (await owner.get(`/domains/shop.test/rules/${ruleId}/runs`)).body.runs[0].state === 'done', 'the run over past calls');
  await manage('get /manage/api/domains/{domain}/rules/{ruleId}/runs', 'GET', `/domains/shop.test/rules/${ruleId}/runs`);
  await manage('post /manage/api/domains/{domain}/rules/{ruleId}/runs/{runId}/undo', 'POST', `/domains/shop.test/rules/${ruleId}/runs/${runId}/undo`);
  await until(async () => (await owner.get(`/domains/shop.test/rules/${ruleId}/runs`)).body.runs[0].state === 'undone', 'the run undone');
  await manage('delete /manage/api/domains/{domain}/rules/{ruleId}', 'DELETE', `/domains/shop.test/rules/${ruleId}`);
  // Call flows: the owner's own phone, a flow on one number tested in the simulator, then walked by
  // a PBX and by Twilio; the report of its calls.
  await manage('put /manage/api/profile/availability', 'PUT', '/profile/availability', { phone: '06 11 22 00 01', available: true });
  await manage('get /manage/api/profile/availability', 'GET', '/profile/availability');
  const week = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '00:00', to: '24:00' }]]));
  const flowBody = {
    name: 'Press 1 for sales, 2 for support',
    start: 'hours',
    assignedTo: { numbers: ['0800000006'] },
    steps: {
      hours: { kind: 'schedule', week, holidays: [{ from: '2026-12-25', name: 'Christmas' }], open: 'menu', closed: 'voicemail' },
      menu: { kind: 'menu', prompt: { text: 'Press 1 for sales, 2 for support.' }, options: [{ key: '1', label: 'Sales', next: 'sales' }, { key: '2', label: 'Support', next: 'voicemail' }], default: 'voicemail' },
      sales: { kind: 'ring', strategy: 'round-robin', targets: [{ member: TOUR_USER.username }, { number: '01 55 55 44 44', name: 'Front desk' }], ringSeconds: 20, noAnswer: 'voicemail' },
      voicemail: { kind: 'voicemail', maxSeconds: 120 },
    },
  };
  // The voicemail's greeting, recorded: uploaded, named by the flow, fetched as Twilio's <Play> would.
  const login = await fetch(`${baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(TOUR_USER) });
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const greeting = await keep('post /manage/api/domains/{domain}/flow-audio', await fetch(`${baseUrl}/manage/api/domains/shop.test/flow-audio`, { method: 'POST', headers: { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken, 'content-type': 'audio/wav' }, body: new Uint8Array(toneWav(1)) }));
  if ((await fetch(`${baseUrl}/telephony/flow-audio/${greeting.id}`)).status !== 200) throw new Error('the greeting is not served');
  flowBody.steps.voicemail = { ...flowBody.steps.voicemail, greeting: { audio: greeting.id } } as typeof flowBody.steps.voicemail;
  const { id: flowId } = await manage('post /manage/api/domains/{domain}/flows', 'POST', '/domains/shop.test/flows', flowBody);
  await manage('put /manage/api/domains/{domain}/flows/{flowId}', 'PUT', `/domains/shop.test/flows/${flowId}`, { ...flowBody, steps: { ...flowBody.steps, sales: { ...flowBody.steps.sales, stickyDays: 30 } } });
  await manage('get /manage/api/domains/{domain}/flows', 'GET', '/domains/shop.test/flows');
  await manage('post /manage/api/domains/{domain}/flows/{flowId}/simulate', 'POST', `/domains/shop.test/flows/${flowId}/simulate`, { at: '2026-12-01T10:00:00+01:00', caller: '06 55 50 00 11', keys: ['1'], answeredBy: TOUR_USER.username, source: 'paid:google', keyword: 'emergency plumber' });
  const pbxFlow = (fields: Record<string, unknown>) => fetch(`${baseUrl}/telephony/flow`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ callRef: 'pbx-flow-0003', trackingNumber: '0800000006', callerPhone: '0655500011', ...fields }) });
  const { step } = await keep('post /telephony/flow', await pbxFlow({}));
  await pbxFlow({ step, input: '2' });
  const flowCall = { AccountSid: twilioCall.AccountSid, CallSid: 'CA0003', From: '+33655500012', To: '+33800000006', Direction: 'inbound', ApiVersion: '2010-04-01' };
  const { text: menu } = await twilioPost(baseUrl, '/voice', { ...flowCall, CallStatus: 'ringing' });
  const attribute = (xml: string, pattern: RegExp) => pattern.exec(xml)![1]!.replaceAll('&amp;', '&');
  const ring = await twilio('post /telephony/twilio/flow', `/${attribute(menu, /<Gather[^>]* action="([^"]+)"/)}`, { ...flowCall, CallStatus: 'in-progress', Digits: '1' });
  await twilio('post /telephony/twilio/flow-answer', `/${attribute(ring, /<Number url="([^"]+)"/)}`, { ...flowCall, CallSid: 'CA0003-leg', ParentCallSid: 'CA0003', Direction: 'outbound-dial', CallStatus: 'in-progress' });
  await twilioPost(baseUrl, `/${attribute(ring, /<Dial[^>]* action="([^"]+)"/)}`, { ...flowCall, CallStatus: 'in-progress', DialCallSid: 'CA0003-leg', DialCallStatus: 'completed', DialCallDuration: '64' });
  await manage('get /manage/api/domains/{domain}/reports/flows', 'GET', '/domains/shop.test/reports/flows');
  await manage('delete /manage/api/domains/{domain}/flows/{flowId}', 'DELETE', `/domains/shop.test/flows/${flowId}`);
  await manage('put /manage/api/domains/{domain}/calls/{callId}/tags', 'PUT', `/domains/shop.test/calls/${callId}/tags`, { tags: ['Booked'] });
  await manage('put /manage/api/domains/{domain}/calls/{callId}/value', 'PUT', `/domains/shop.test/calls/${callId}/value`, { value: 90 });
  await manage('put /manage/api/domains/{domain}/forms/{formId}/tags', 'PUT', `/domains/shop.test/forms/${forms[0].formId}/tags`, { tags: ['Booked'] });
  // The person of the contact form's e-mail address, and their timeline.
  const { personId } = await manage('get /manage/api/domains/{domain}/people', 'GET', '/domains/shop.test/people?email=ada%40example.com');
  await manage('get /manage/api/domains/{domain}/people/{personId}', 'GET', `/domains/shop.test/people/${personId}`);
  await manage('get /manage/api/domains/{domain}/people/{personId}/export', 'GET', `/domains/shop.test/people/${personId}/export`);
  // The PBX's caller is the same person, a person says: merged by hand.
  const { personId: caller } = await manage('get /manage/api/domains/{domain}/people', 'GET', '/domains/shop.test/people?phone=0698765432');
  await manage('post /manage/api/domains/{domain}/people/{personId}/merge', 'POST', `/domains/shop.test/people/${personId}/merge`, { with: caller });
  await manage('delete /manage/api/domains/{domain}/people/{personId}', 'DELETE', `/domains/shop.test/people/${personId}`);
  await manage('put /manage/api/domains/{domain}/calls/{callId}/verdict', 'PUT', `/domains/shop.test/calls/${callId}/verdict`, { verdict: 'lead' });
  await manage('get /manage/api/domains/{domain}/blocked-callers', 'GET', '/domains/shop.test/blocked-callers');
  // Google Ads through the Data Manager API (a stand-in here): connected, tested, shown, then removed.
  await manage('put /manage/api/domains/{domain}/ads/{platform}', 'PUT', '/domains/shop.test/ads/google', { operatingAccountId: '123-456-7890', conversionActionId: '987654321', serviceAccountKey: JSON.stringify(googleKey) });
  // A page of the visit now loads tracker-ads.js, whose address carries the visit's consent key.
  const adsPage = await (await browser('/t/view', { visit_id: page.visitId, visit_key: pageVisitKey, url: `${ORIGIN}/`, page_title: 'Home', referer_url: '', phones: '' })).json();
  const adsScript = new URL(adsPage.scripts.find((src: string) => src.startsWith('/tracker-ads.js')), ORIGIN);
  await keep('post /t/consent', await browser('/t/consent', { visit_id: page.visitId, ads_consent: 'granted', consent_key: adsScript.searchParams.get('consent') }));
  await manage('post /manage/api/domains/{domain}/ads/{platform}/test', 'POST', '/domains/shop.test/ads/google/test');
  await manage('get /manage/api/domains/{domain}/ads/{platform}', 'GET', '/domains/shop.test/ads/google');
  await manage('get /manage/api/domains/{domain}/ads', 'GET', '/domains/shop.test/ads?platform=google');
  await manage('delete /manage/api/domains/{domain}/ads/{platform}', 'DELETE', '/domains/shop.test/ads/google');
  // HubSpot (a stand-in here): connected, a call sent again, its delivery listed, tested, then removed.
  await manage('put /manage/api/domains/{domain}/crm/{crm}', 'PUT', '/domains/shop.test/crm/hubspot', { accessToken: hubspotToken, send: { calls: true, forms: true, onlyLeads: false, onlyFirstCallers: false }, defaultOwner: '7002' });
  await manage('post /manage/api/domains/{domain}/crm/{crm}/resend/{deliveryId}', 'POST', `/domains/shop.test/crm/hubspot/resend/call:${callId}`);
  await until(async () => (await owner.get('/domains/shop.test/crm/hubspot')).body.deliveries.some((d: { id: string; state: string }) => d.id === `call:${callId}` && d.state !== 'queued'), 'the call in HubSpot');
  await manage('get /manage/api/domains/{domain}/crm/{crm}', 'GET', '/domains/shop.test/crm/hubspot');
  await manage('get /manage/api/domains/{domain}/crm/{crm}/owners', 'GET', '/domains/shop.test/crm/hubspot/owners');
  await manage('get /manage/api/domains/{domain}/crm/{crm}/preview', 'GET', '/domains/shop.test/crm/hubspot/preview');
  await manage('post /manage/api/domains/{domain}/crm/{crm}/test', 'POST', '/domains/shop.test/crm/hubspot/test');
  await manage('delete /manage/api/domains/{domain}/crm/{crm}', 'DELETE', '/domains/shop.test/crm/hubspot');
  await manage('post /manage/api/softphone/credentials', 'POST', '/softphone/credentials', { provider: 'sip' });
  await manage('get /manage/api/account/dialling', 'GET', '/account/dialling');
  await manage('put /manage/api/account/dialling', 'PUT', '/account/dialling', { limits: { callsPerMember: 30 } });
  await manage('get /manage/api/account/carrier', 'GET', '/account/carrier');
  await manage('put /manage/api/account/carrier', 'PUT', '/account/carrier', { provider: 'twilio', ...TOUR_TWILIO });
  await manage('get /manage/api/account/carrier/numbers', 'GET', '/account/carrier/numbers');
  await manage('post /manage/api/domains/{domain}/pools/{type}/numbers/import', 'POST', '/domains/shop.test/pools/1/numbers/import', { numbers: ['+33800000001'] });
  await manage('post /manage/api/account/carrier/check', 'POST', '/account/carrier/check');
  // The texting inbox: a text to the carrier's number, answered from it, delivered.
  await twilioPost(baseUrl, '/sms', { AccountSid: TOUR_TWILIO.accountSid, MessageSid: 'SM0002', From: '+33655500077', To: '+33800000001', Body: 'Can you come on Saturday?', NumSegments: '1' }, TOUR_TWILIO.authToken);
  const inbox = await manage('get /manage/api/domains/{domain}/conversations', 'GET', '/domains/shop.test/conversations?unread=true');
  const conversationId = inbox.conversations.find((c: { lastText: string }) => c.lastText === 'Can you come on Saturday?').id;
  const reply = await manage('post /manage/api/domains/{domain}/conversations/{conversationId}/messages', 'POST', `/domains/shop.test/conversations/${conversationId}/messages`, { body: 'Yes: Saturday at 10 suits you?' });
  await twilio('post /telephony/twilio/text-status', `/text-status?text=${encodeURIComponent(reply.id)}`, { AccountSid: TOUR_TWILIO.accountSid, MessageSid: 'SM0003', MessageStatus: 'delivered', From: '+33800000001', To: '+33655500077' }, TOUR_TWILIO.authToken);
  const texter = (await owner.get(`/domains/shop.test/conversations/${conversationId}`)).body.conversation.personId;
  const placed = await manage('post /manage/api/domains/{domain}/people/{personId}/call', 'POST', `/domains/shop.test/people/${texter}/call`, { phone: '06 11 22 33 99' });
  // Twilio's side of it: the member picks up, the person too (the announcement), the person's leg ends, then the member's.
  const outbound = { AccountSid: TOUR_TWILIO.accountSid, CallSid: 'CA0009', From: '+33800000001', To: '+33611223399', Direction: 'outbound-api', ApiVersion: '2010-04-01' };
  await twilio('post /telephony/twilio/outbound', `/outbound?call=${placed.callId}`, { ...outbound, CallStatus: 'in-progress' }, TOUR_TWILIO.authToken);
  await twilio('post /telephony/twilio/outbound-answer', `/outbound-answer?call=${placed.callId}`, { ...outbound, CallSid: 'CA0009-leg', ParentCallSid: 'CA0009', CallStatus: 'in-progress' }, TOUR_TWILIO.authToken);
  await twilio('post /telephony/twilio/outbound-dial', `/outbound-dial?call=${placed.callId}`, { ...outbound, CallStatus: 'in-progress', DialCallSid: 'CA0009-leg', DialCallStatus: 'completed', DialCallDuration: '35' }, TOUR_TWILIO.authToken);
  await twilio('post /telephony/twilio/outbound-status', `/outbound-status?call=${placed.callId}`, { ...outbound, CallStatus: 'completed', CallDuration: '41' }, TOUR_TWILIO.authToken);
  await manage('put /manage/api/domains/{domain}/conversations/{conversationId}', 'PUT', `/domains/shop.test/conversations/${conversationId}`, { read: true, name: 'Jane Carter' });
  await manage('post /manage/api/domains/{domain}/conversations/{conversationId}/notes', 'POST', `/domains/shop.test/conversations/${conversationId}/notes`, { text: 'Wants a quote for the kitchen; call after 5 pm.' });
  await manage('get /manage/api/domains/{domain}/conversations/{conversationId}', 'GET', `/domains/shop.test/conversations/${conversationId}`);
  await manage('put /manage/api/domains/{domain}/texting', 'PUT', '/domains/shop.test/texting', { businessName: 'Shop Plumbing', helpText: null, savedReplies: [{ name: 'Call back', body: 'Hello {firstName}, when may we call you?' }] });
  await manage('get /manage/api/domains/{domain}/texting', 'GET', '/domains/shop.test/texting');
  await manage('post /manage/api/domains/{domain}/numbers/{number}/fix', 'POST', '/domains/shop.test/numbers/0800000001/fix');
  await manage('get /manage/api/domains/{domain}/pools/{type}/numbers/available', 'GET', '/domains/shop.test/pools/1/numbers/available');
  await manage('get /manage/api/domains/{domain}/pools/{type}/numbers/price', 'GET', '/domains/shop.test/pools/1/numbers/price?count=2');
  // A US domain's local number, imported (its pool made by the import), then registered for US texting.
  await owner.call('POST', '/domains/uptown.test/pools/100/numbers/import', { numbers: ['+14155550124'] });
  await manage('get /manage/api/domains/{domain}/texting/us-registration', 'GET', '/domains/uptown.test/texting/us-registration');
  await manage('post /manage/api/domains/{domain}/texting/us-registration/campaign', 'POST', '/domains/uptown.test/texting/us-registration/campaign', { brandRegistrationSid: 'BN0123456789abcdef0123456789abcdef', useCase: 'CUSTOMER_CARE', description: 'Answers to customers who text our numbers about plumbing quotes and appointments.', messageFlow: 'Customers text our number first, from our website or ads; we only reply, and they may text STOP.', messageSamples: ['Hi Jane, yes we can come on Saturday at 10 am. Does that suit you?', 'Sorry we missed your call! How can we help? Reply to this text.'] });
  await manage('post /manage/api/domains/{domain}/pools/{type}/numbers/buy', 'POST', '/domains/shop.test/pools/1/numbers/buy', { count: 1 });
  await manage('get /manage/api/domains/{domain}/numbers/{number}/release', 'GET', '/domains/shop.test/numbers/0800000090/release');
  await manage('post /manage/api/domains/{domain}/numbers/{number}/release', 'POST', '/domains/shop.test/numbers/0800000090/release');
  await manage('put /manage/api/account/webhook', 'PUT', '/account/webhook', { url: webhookUrl });
  await manage('put /manage/api/account/webhook/events', 'PUT', '/account/webhook/events', { events: ['call'] });
  await manage('post /manage/api/account/webhook/test', 'POST', '/account/webhook/test');
  await manage('get /manage/api/mail', 'GET', '/mail');
  await manage('post /manage/api/mail/test', 'POST', '/mail/test');
  await manage('get /manage/api/alerts', 'GET', '/alerts');
  await manage('put /manage/api/domains/{domain}/alerts', 'PUT', '/domains/shop.test/alerts', { newLead: 'hourly', weekly: true });
  await until(async () => ((await owner.get('/account/deliveries')).body as unknown[]).length > 0, 'a logged webhook attempt', { timeoutMs: 15_000 });
  const deliveries = await manage('get /manage/api/account/deliveries', 'GET', '/account/deliveries?limit=2');
  await manage('post /manage/api/account/deliveries/{id}/resend', 'POST', `/account/deliveries/${encodeURIComponent(deliveries[0].id)}/resend`);
  await keep('post /agent-api/webhookDeliveries', await post('/agent-api/webhookDeliveries', { apiKey: CC_KEY, limit: 2 }));
  await manage('post /manage/api/account/webhook/secret', 'POST', '/account/webhook/secret');
  await manage('post /manage/api/account/keys/call-center', 'POST', '/account/keys/call-center');
  await manage('get /manage/api/account', 'GET', '/account');
  const range = `from=${from}&to=${to}`;
  await manage('get /manage/api/domains/{domain}/reports/overview', 'GET', `/domains/shop.test/reports/overview?${range}`);
  await manage('get /manage/api/domains/{domain}/reports/calls', 'GET', `/domains/shop.test/reports/calls?${range}`);
  await manage('get /manage/api/domains/{domain}/reports/calls.csv', 'GET', `/domains/shop.test/reports/calls.csv?${range}`);
  await manage('get /manage/api/domains/{domain}/reports/forms.csv', 'GET', `/domains/shop.test/reports/forms.csv?${range}`);
  await manage('get /manage/api/domains/{domain}/reports/google-ads.csv', 'GET', `/domains/shop.test/reports/google-ads.csv?${range}`);
  await manage('get /manage/api/domains/{domain}/reports/microsoft-ads.csv', 'GET', `/domains/shop.test/reports/microsoft-ads.csv?${range}`);
  await manage('get /manage/api/domains/{domain}/reports/pools', 'GET', `/domains/shop.test/reports/pools?${range}`);
  await manage('get /manage/api/reports/agents', 'GET', `/reports/agents?${range}`);

  // The team: an invitation accepted, a role changed, a reset link, an invitation revoked, a member removed.
  const json = (path: string, body: unknown) => fetch(`${baseUrl}/manage/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const invited = await manage('post /manage/api/account/members', 'POST', '/account/members', { username: 'analyst@shop.test', role: 'analyst', domains: ['shop.test'] });
  if (!invited.invitation?.url.startsWith('http')) throw new Error(JSON.stringify(invited));
  const token = tokenOf(invited.invitation.url);
  await keep('post /manage/api/invitations/check', await json('/invitations/check', { token }));
  await keep('post /manage/api/invitations/accept', await json('/invitations/accept', { token, password: 'analyst password 1' }));
  await manage('patch /manage/api/account/members/{username}', 'PATCH', '/account/members/analyst@shop.test', { role: 'agent' });
  await manage('post /manage/api/account/members/{username}/reset', 'POST', '/account/members/analyst@shop.test/reset');
  const waiting = await owner.call('POST', '/account/members', { username: 'later@shop.test', role: 'agent', domains: ['shop.test'] });
  await manage('get /manage/api/account/members', 'GET', '/account/members');
  await manage('delete /manage/api/account/invitations/{id}', 'DELETE', `/account/invitations/${waiting.body.invitation.id}`);
  await manage('delete /manage/api/account/members/{username}', 'DELETE', '/account/members/analyst@shop.test');
  await keep('post /manage/api/password-reset', await json('/password-reset', { username: 'nobody@shop.test' }));
  // A read-only report link, opened without a session.
  const shared = await manage('post /manage/api/domains/{domain}/shared-links', 'POST', '/domains/shop.test/shared-links', { label: 'For the client' });
  await manage('get /manage/api/domains/{domain}/shared-links', 'GET', '/domains/shop.test/shared-links');
  await keep('get /shared/{token}/report', await fetch(`${shared.url}/report?${range}`));
  await manage('get /manage/api/account/activity', 'GET', '/account/activity');
  await manage('get /manage/api/domains/{domain}/activity', 'GET', '/domains/shop.test/activity?kind=member');
  // Sessions: another one ended by its id, then every other; the password changed and changed back.
  await signedInClient(baseUrl, TOUR_USER.username, TOUR_USER.password);
  const sessions = await manage('get /manage/api/session/sessions', 'GET', '/session/sessions');
  await manage('delete /manage/api/session/sessions/{id}', 'DELETE', `/session/sessions/${sessions.sessions.find((x: { current: boolean }) => !x.current).id}`);
  await manage('delete /manage/api/session/sessions', 'DELETE', '/session/sessions');
  await manage('put /manage/api/session/password', 'PUT', '/session/password', { current: TOUR_USER.password, password: 'a changed password 2' });
  await owner.call('PUT', '/session/password', { current: 'a changed password 2', password: TOUR_USER.password });

  await keep('post /manage/api/signup', await fetch(`${baseUrl}/manage/api/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'Leak Busters', username: 'anna@leakbusters.example', password: 'a-long-password-1' }) }));
  await keep('get /healthz', await fetch(`${baseUrl}/healthz`));
  await keep('get /readyz', await fetch(`${baseUrl}/readyz`));
  return tour;
}
