// A French, a US and a UK domain side by side (issue 24): pools of each, views and clicks, calls
// through signed Twilio requests and through the PBX API with national numbers, SMS, the agent
// service, the data API, the offline numbers API, the reports, and the tracker in Chromium on each
// country's layouts (screenshots test-artifacts/countries-*.png). Each domain's answers carry its
// own national form; the French one's are what they always were.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { visitorContext } from '../helpers/chromium.ts';
import { sitePage } from '../helpers/test-site.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, routeCall, TELEPHONY_KEY, TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';
import { localTime } from '../../collector/src/domains/time-zone.ts';

const PASSWORD = 'three countries password';

interface Country {
  domain: string;
  country: string;
  timeZone: string;
  /** The site phone as its pages write it, and its E.164. */
  sitePhone: string;
  siteE164: string;
  online: string[];
  offline: string[];
  /** A caller of the country, as a carrier of it and as Twilio write them, and as the data API shows it. */
  caller: { national: string; e164: string; shown: string };
  /** A second caller, reported through the PBX API. */
  pbxCaller: { national: string; shown: string };
  offlineDestination: { written: string; shown: string };
}

const PARIS: Country = {
  domain: 'paris.test', country: 'FR', timeZone: 'Europe/Paris',
  sitePhone: '01 23 45 67 89', siteE164: '+33123456789',
  online: ['0800000101', '0800000102', '0800000103'], offline: ['0100000101'],
  caller: { national: '06 11 22 33 44', e164: '+33611223344', shown: '0611223344' },
  pbxCaller: { national: '06 55 44 33 22', shown: '0655443322' },
  offlineDestination: { written: '01 98 76 54 32', shown: '0198765432' },
};
const CHICAGO: Country = {
  domain: 'chicago.test', country: 'US', timeZone: 'America/Chicago',
  sitePhone: '(312) 555-0199', siteE164: '+13125550199',
  online: ['(312) 555-0140', '(312) 555-0141', '(312) 555-0142'], offline: ['1-800-555-0150'],
  caller: { national: '(773) 555-0123', e164: '+17735550123', shown: '7735550123' },
  pbxCaller: { national: '773-555-0124', shown: '7735550124' },
  offlineDestination: { written: '(312) 555-0188', shown: '3125550188' },
};
const LONDON: Country = {
  domain: 'london.test', country: 'GB', timeZone: 'Europe/London',
  sitePhone: '020 7946 0000', siteE164: '+442079460000',
  online: ['020 7946 0010', '020 7946 0011', '020 7946 0012'], offline: ['020 7946 0020'],
  caller: { national: '07700 900123', e164: '+447700900123', shown: '07700900123' },
  pbxCaller: { national: '07700 900124', shown: '07700900124' },
  offlineDestination: { written: '020 7946 0088', shown: '02079460088' },
};
const COUNTRIES = [PARIS, CHICAGO, LONDON];

const keys = (d: Country) => ({ api: `${d.domain}-api`, data: `${d.domain}-data`, offline: `${d.domain}-offline`, public: `pk-${d.domain}` });
/** Our types outside France; the spec's in France, whose prefixes they keep. */
const onlineType = (d: Country) => (d.country === 'FR' ? 1 : 100);
const offlineType = (d: Country) => (d.country === 'FR' ? 6 : d.country === 'US' ? 101 : 100);
/** The digits of a number as answered: dotted for France, written as its country writes it elsewhere. */
const digits = (answered: string) => answered.replace(/\D/g, '');

const s = useBrowserSite(
  'three_countries',
  (origin) => ({
    accounts: [{
      name: 'Agency', callCenterApiKey: 'three-cc-key',
      users: [{ username: 'owner@agency.test', password: PASSWORD }],
      domains: COUNTRIES.map((d) => ({
        name: d.domain, country: d.country, timeZone: d.timeZone, apiKey: keys(d).api, dataApiKey: keys(d).data, offlineApiKey: keys(d).offline, offlineApiEnabled: true, publicKey: keys(d).public,
        sitePhones: [d.sitePhone], allowedOrigins: [`https://${d.domain}`, origin], numbersPerAddress: 0,
        pools: [{ type: onlineType(d), usage: 'online', numbers: d.online }, { type: offlineType(d), usage: 'offline', numbers: d.offline }],
      })),
    }],
  }),
  { telephonyApiKey: TELEPHONY_KEY, twilio: { authToken: TWILIO_TOKEN } },
);

const view = (d: Country, fields: Record<string, string | number | boolean> = {}) =>
  s.collector.post('/ospView', {
    api_key: keys(d).api, visit_id: 0, ip: '203.0.113.20', url: `https://${d.domain}/contact?utm_source=google&utm_medium=cpc&utm_term=plumber`, page_title: 'Contact',
    is_mobile: false, referer_url: 'https://www.google.com/', nr_phones: 1, direct_display: true, phones: d.sitePhone,
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', ...fields,
  });

/** E.164 of a number in the national form the domain's answers carry. */
const e164 = (d: Country, national: string) => (d.country === 'FR' ? `+33${national.slice(1)}` : d.country === 'US' ? `+1${national}` : `+44${national.slice(1)}`);

describe('a French, a US and a UK domain side by side', () => {
  const shownNumber: Record<string, string> = {};
  const answered: Record<string, string> = {};

  it("answers each domain's views and clicks with a number of its own pool, in its national form", async () => {
    for (const d of COUNTRIES) {
      const shown = await view(d);
      expect(shown.body.status).toBe('OK');
      answered[d.domain] = shown.body.surtaxPhones[d.sitePhone].surtaxPhoneNumber;
      const number = digits(answered[d.domain]!);
      expect(d.online.map((n) => n.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, ''))).toContain(number);
      shownNumber[d.domain] = number;
      // Click display: the number shown on click, the same form.
      const hidden = await view(d, { direct_display: false, ip: '203.0.113.21' });
      const clicked = await s.collector.post('/ospClick', { api_key: keys(d).api, visit_id: hidden.body.visitId, view_id: hidden.body.viewId, ip: '203.0.113.21', phone: d.sitePhone });
      expect(clicked.body).toMatchObject({ status: 'OK', surtaxPhone: { surtaxPhoneCode: null } });
      expect(digits(clicked.body.surtaxPhone.surtaxPhoneNumber)).not.toBe(number);
    }
    expect(shownNumber).toEqual({ 'paris.test': '0800000101', 'chicago.test': '3125550140', 'london.test': '02079460010' });
    // The spec's dots are French: the others answer as their people write their numbers.
    expect(answered).toEqual({ 'paris.test': '08.00.00.01.01', 'chicago.test': '(312) 555-0140', 'london.test': '020 7946 0010' });
  });

  it('forwards a call through signed Twilio requests to the site phone in E.164, and credits the visit', async () => {
    for (const d of COUNTRIES) {
      const to = e164(d, shownNumber[d.domain]!);
      const voice = await twilioPost(s.collector.baseUrl, '/voice', { CallSid: `CA-${d.country}`, From: d.caller.e164, To: to, CallStatus: 'ringing' });
      expect(voice.text).toContain(`<Dial callerId="${d.caller.e164}" action="dial" method="POST" timeout="30"><Number>${d.siteE164}</Number></Dial>`);
      await twilioPost(s.collector.baseUrl, '/dial', { CallSid: `CA-${d.country}`, From: d.caller.e164, To: to, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '75' });
      expect((await twilioPost(s.collector.baseUrl, '/status', { CallSid: `CA-${d.country}`, From: d.caller.e164, To: to, CallStatus: 'completed', CallDuration: '81' })).status).toBe(200);
    }
  });

  it('takes a PBX of the country writing national numbers: the route, the call report and an SMS', async () => {
    for (const d of COUNTRIES) {
      const held = shownNumber[d.domain]!;
      const route = await routeCall(s.collector.baseUrl, { tracking_number: held, caller_phone: d.pbxCaller.national });
      expect(route.body).toMatchObject({ status: 'OK', trackingNumber: held, reason: 'online', destination: d.sitePhone.replace(/\D/g, '') });
      const startDate = new Date(Math.floor(Date.now() / 1000) * 1000);
      const report = await reportCall(s.collector.baseUrl, { callRef: `pbx-${d.country}`, trackingNumber: held, callerPhone: d.pbxCaller.national, startDate, duration: 40 });
      expect(report).toMatchObject({ status: 200, body: { status: 'OK' } });
      const call = await s.t.c.calls.findOne({ _id: report.body.callId });
      expect(call).toMatchObject({ domainId: d.domain, route: 'online', source: 'paid:google', keyword: 'plumber' });
      expect(call!.caller).toBe(d.country === 'FR' ? d.pbxCaller.shown : `00${e164(d, d.pbxCaller.shown).slice(1)}`);
      const sms = await fetch(`${s.collector.baseUrl}/telephony/sms`, {
        method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ smsRef: `sms-${d.country}`, trackingNumber: held, callerPhone: d.pbxCaller.national, sentDate: new Date().toISOString().slice(0, 19).replace('T', ' '), message: 'Open on Sunday?' }),
      });
      expect(sms.status).toBe(200);
    }
    // A number with its country code reads the same wherever it is sent from.
    expect((await routeCall(s.collector.baseUrl, { tracking_number: '+1 312 555 0140' })).body).toMatchObject({ trackingNumber: '3125550140', reason: 'online' });
    expect((await routeCall(s.collector.baseUrl, { tracking_number: '+44 20 7946 0010' })).body).toMatchObject({ trackingNumber: '02079460010', reason: 'online' });
    // A national number no domain of any country has is unknown.
    expect((await routeCall(s.collector.baseUrl, { tracking_number: '(312) 555-0177' })).body).toMatchObject({ reason: 'unknown-number', destination: null });
  });

  it("shows each domain's calls and SMS in the data API in its national form", async () => {
    const { from, to } = daysAroundNow();
    for (const d of COUNTRIES) {
      const calls = await s.collector.get('/data-api', { api_key: keys(d).data, type: 'calls', start_date: from, end_date: to, page: 1, limit: 10 });
      expect(calls.body.total_results).toBe(2);
      const sitePhone = d.sitePhone.replace(/\D/g, '');
      expect(calls.body.results).toEqual([
        expect.objectContaining({ tracking_number: shownNumber[d.domain], phone: sitePhone, caller: d.caller.shown, status: 'SUCCESS', source: 'paid:google' }),
        expect.objectContaining({ tracking_number: shownNumber[d.domain], phone: sitePhone, caller: d.pbxCaller.shown }),
      ]);
      // The phone filters read numbers as the domain's country writes them.
      const byCaller = await s.collector.get('/data-api', { api_key: keys(d).data, type: 'calls', start_date: from, end_date: to, page: 1, limit: 10, caller_phone: d.caller.national });
      expect(byCaller.body.results.map((r: { caller: string }) => r.caller)).toEqual([d.caller.shown]);
      const byNumber = await s.collector.get('/data-api', { api_key: keys(d).data, type: 'calls', start_date: from, end_date: to, page: 1, limit: 10, tracking_phone: d.online[0]! });
      expect(byNumber.body.total_results).toBe(2);
      const sms = await s.collector.get('/data-api', { api_key: keys(d).data, type: 'sms', start_date: from, end_date: to, page: 1, limit: 10 });
      expect(sms.body.results).toEqual([expect.objectContaining({ caller_phone: d.pbxCaller.shown, tracking_phone: shownNumber[d.domain], message_content: 'Open on Sunday?' })]);
    }
  });

  it('finds the ringing call for a call center writing national numbers', async () => {
    for (const d of COUNTRIES) {
      const call = await s.t.c.calls.findOne({ domainId: d.domain, callRef: `pbx-${d.country}` });
      const { day, time } = localTime(call!.startedAt, d.timeZone);
      const started = await s.collector.post('/agent-api/callStart', { apiKey: 'three-cc-key', destinationPhone: d.online[0]!, callerPhone: d.pbxCaller.national, startDate: `${day} ${time}` });
      expect(started.body).toMatchObject({ status: 'OK', resultsNb: 1 });
      expect(started.body.results[0].call.id).toBe(call!._id);
    }
  });

  it("assigns offline numbers through the offline numbers API in each domain's national form", async () => {
    for (const d of COUNTRIES) {
      const api = (fields: Record<string, string | number>) => s.collector.get('/offline-numbers-api', { key: keys(d).offline, ...fields });
      const offline = d.offline[0]!.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
      const assigned = await api({ action: 'assign', phone_number: d.offlineDestination.written, description: 'Flyer', type: offlineType(d) });
      expect(assigned.body).toEqual({ status: 'success', phone_number: d.offlineDestination.shown, tracking_number: offline, description: 'Flyer', type: offlineType(d), allow_redirect: '0', timetable: 0 });
      expect((await api({ action: 'check', tracking_number: d.offline[0]! })).body).toMatchObject({ phone_number: d.offlineDestination.shown, tracking_number: offline });
      expect((await api({ action: 'check', phone_number: d.offlineDestination.written })).body).toMatchObject({ tracking_number: offline });
      const list = await s.collector.get('/offline-numbers-api/list', { key: keys(d).offline });
      expect(list.body).toEqual({ [offline]: d.offlineDestination.shown });
      // A call to it, reported by a PBX as the country writes it, forwards to its destination.
      expect((await routeCall(s.collector.baseUrl, { tracking_number: d.offline[0]! })).body).toMatchObject({ reason: 'offline', destination: d.offlineDestination.shown });
    }
    // Outside France a number of another country is written with its country code.
    const refused = await s.collector.get('/offline-numbers-api', { key: keys(CHICAGO).offline, action: 'reassign', tracking_number: '8005550150', phone_number: '01 23 45 67 89' });
    expect(refused.body).toEqual({ status: 'error', error: "Invalid parameter phone_number: not a phone number of US; write another country's number with its country code" });
    const french = await s.collector.get('/offline-numbers-api', { key: keys(CHICAGO).offline, action: 'reassign', tracking_number: '8005550150', phone_number: '+33 1 23 45 67 89' });
    expect(french.body).toMatchObject({ status: 'success', phone_number: '0033123456789' });
  });

  it("counts each domain's calls in its reports, with the numbers in its national form", async () => {
    const owner = await signedInClient(s.collector.baseUrl, 'owner@agency.test', PASSWORD);
    const { from, to } = daysAroundNow();
    for (const d of COUNTRIES) {
      const overview = await owner.get(`/domains/${d.domain}/reports/overview?from=${from}&to=${to}`);
      expect(overview.body.totals).toMatchObject({ visits: 2, views: 2, calls: 2 });
      expect(overview.body.sources.find((r: { source: string }) => r.source === 'paid')).toMatchObject({ calls: 2 });
      const log = await owner.get(`/domains/${d.domain}/reports/calls?from=${from}&to=${to}`);
      expect(log.body.calls.map((c: { trackingNumber: string; caller: string; destination: string }) => [c.trackingNumber, c.caller, c.destination])).toEqual([
        [shownNumber[d.domain], d.pbxCaller.shown, d.sitePhone.replace(/\D/g, '')],
        [shownNumber[d.domain], d.caller.shown, d.sitePhone.replace(/\D/g, '')],
      ]);
      // How the back end writes them: given outside France only (a French domain's go in pairs).
      const written = { 'paris.test': undefined, 'chicago.test': { '3125550140': '(312) 555-0140', '7735550123': '(773) 555-0123', '7735550124': '(773) 555-0124', '3125550199': '(312) 555-0199' }, 'london.test': { '02079460010': '020 7946 0010', '07700900123': '07700 900123', '07700900124': '07700 900124', '02079460000': '020 7946 0000' } }[d.domain];
      expect(log.body.phoneDisplay).toEqual(written);
      const pools = await owner.get(`/domains/${d.domain}/reports/pools?from=${from}&to=${to}`);
      expect(pools.body.offline).toEqual([expect.objectContaining({ number: d.offline[0]!.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, ''), destination: d === CHICAGO ? '0033123456789' : d.offlineDestination.shown })]); // reassigned to Paris above
    }
  });

  it('dials the no-answer redirect, written as each country writes it, in E.164', async () => {
    const owner = await signedInClient(s.collector.baseUrl, 'owner@agency.test', PASSWORD);
    const redirects = { 'paris.test': ['06 11 22 33 99', '+33611223399'], 'chicago.test': ['(312) 555-0177', '+13125550177'], 'london.test': ['07400 123999', '+447400123999'] };
    for (const d of COUNTRIES) {
      const [written, dialled] = redirects[d.domain as keyof typeof redirects];
      expect((await owner.call('PATCH', `/domains/${d.domain}`, { redirectPhone: written, redirect: { enabled: true, timetable: [] } })).status).toBe(200);
      // A call to the number the click showed: to the site's number, then the redirect.
      const to = e164(d, d.online[1]!.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, ''));
      const call = { CallSid: `CA-redirect-${d.country}`, From: d.caller.e164, To: to };
      expect((await twilioPost(s.collector.baseUrl, '/voice', { ...call, CallStatus: 'ringing' })).text).toContain(`<Number>${d.siteE164}</Number>`);
      const redirected = await twilioPost(s.collector.baseUrl, '/dial', { ...call, CallStatus: 'in-progress', DialCallStatus: 'no-answer', DialCallDuration: '0' });
      expect(redirected.text).toContain(`action="dial?leg=redirect" method="POST" timeout="30"><Number>${dialled}</Number></Dial>`);
    }
  });

  /** A visitor on a page of the domain's site; the page's text once the tracker is done. */
  async function visit(d: Country, body: string) {
    s.site.pages[`/${d.country}`] = sitePage(body).replace('pk-test-key', keys(d).public);
    const context = await visitorContext(s.browser);
    const tab = await context.newPage();
    await tab.goto(`${s.site.origin}/${d.country}`);
    await tab.evaluate(() => (window as any).RingTrail.ready);
    return { tab, context, text: (id: string) => tab.locator(`#${id}`).innerText() };
  }

  it("swaps each site's phone, in Chromium, in every layout its people write it, for the number left in its pool", async () => {
    // A US number written nationally, with +1 and with a leading 1.
    const us = await visit(CHICAGO, '<h1>Chicago Plumbing</h1><p id="national">Call (312) 555-0199</p><p id="intl">From abroad: +1 312-555-0199</p><p id="one">Toll: 1-312-555-0199</p>');
    expect(await us.text('national')).toBe('Call (312) 555-0142');
    expect(await us.text('intl')).toBe('From abroad: +1 312-555-0142');
    expect(await us.text('one')).toBe('Toll: 1-312-555-0142');
    await us.tab.screenshot({ path: path.join(ARTIFACTS, 'countries-us.png') });
    await us.context.close();
    // A UK number written nationally and with +44.
    const uk = await visit(LONDON, '<h1>London Plumbing</h1><p id="national">Call 020 7946 0000</p><p id="intl">From abroad: +44 20 7946 0000</p>');
    expect(await uk.text('national')).toBe('Call 020 7946 0012');
    expect(await uk.text('intl')).toBe('From abroad: +44 20 7946 0012');
    await uk.tab.screenshot({ path: path.join(ARTIFACTS, 'countries-uk.png') });
    await uk.context.close();
    // A French number as before.
    const fr = await visit(PARIS, '<h1>Paris Plomberie</h1><p id="national">Appelez le 01 23 45 67 89</p><p id="intl">De l’étranger : +33 1 23 45 67 89</p>');
    expect(await fr.text('national')).toBe('Appelez le 08 00 00 01 03');
    expect(await fr.text('intl')).toBe('De l’étranger : +33 8 00 00 01 03');
    await fr.tab.screenshot({ path: path.join(ARTIFACTS, 'countries-fr.png') });
    await fr.context.close();
  });
});
