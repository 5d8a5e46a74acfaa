// A French site's day, as the release before numbers of any country (dcf71ea) lived it. That
// release ran this file: it seeded `releaseFixture`, ran `liveDay`, dumped every collection with
// EJSON (canonical) into test/db/release-dcf71ea/database.json, then ran `replay` and kept its
// answers in answers.json. Main runs `replay` on a copy of that data (release-upgrade.test.ts).
// To record again: `git worktree add /tmp/rel dcf71ea`, copy this file beside a test there that
// does the above, and run it with that tree's vitest.
import type { Db } from 'mongodb';
import { startCollector, type RunningCollector } from '../helpers/collector.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, routeCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

export const RELEASE_PASSWORD = 'release owner password';

export const releaseFixture = {
  accounts: [{
    name: 'Plomberie Martin', callCenterApiKey: 'release-cc-key',
    users: [{ username: 'owner@martin.test', password: RELEASE_PASSWORD }],
    domains: [{
      name: 'martin.test', apiKey: 'release-api', dataApiKey: 'release-data', offlineApiKey: 'release-offline', offlineApiEnabled: true,
      timeZone: 'Europe/Paris', sitePhones: ['01 23 45 67 89', '+44 20 7946 0000'], allowedOrigins: ['https://martin.test'], numbersPerAddress: 0,
      redirectPhone: '06 11 22 33 44', blockedCallers: ['06 66 66 66 66'],
      pools: [
        { type: 1, usage: 'online', numbers: ['0800000101', '0800000102'] },
        { type: 9, usage: 'online', codeDigits: 4, numbers: ['0400000101'] },
        { type: 6, usage: 'offline', numbers: ['0100000101', '0100000102'] },
        { type: 23, usage: 'offline', numbers: ['00442000000101'] },
      ],
    }],
  }],
};

const view = (c: RunningCollector, fields: Record<string, string | number | boolean>) =>
  c.post('/ospView', {
    api_key: 'release-api', visit_id: 0, ip: '203.0.113.30', url: 'https://martin.test/contact?utm_source=google&utm_medium=cpc&utm_term=fuite+eau&gclid=rel-1', page_title: 'Contact',
    is_mobile: false, referer_url: 'https://www.google.fr/', nr_phones: 2, direct_display: true, phones: '01 23 45 67 89,+44 20 7946 0000',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', ...fields,
  });

/** The day's writes, on the release: views, calls of each kind, an SMS, offline assignments. */
export async function liveDay(c: RunningCollector): Promise<Record<string, unknown>> {
  const first = await view(c, {});
  const held = (first.body.surtaxPhones['01 23 45 67 89'].surtaxPhoneNumber as string).replaceAll('.', '');
  const shared = await view(c, { ip: '203.0.113.31', type: 9, phones: '01 23 45 67 89' });
  const sharedNumber = (shared.body.surtaxPhones['01 23 45 67 89'].surtaxPhoneNumber as string).replaceAll('.', '');
  const start = new Date(Math.floor(Date.now() / 1000) * 1000 + 1000);
  await reportCall(c.baseUrl, { callRef: 'rel-call-1', trackingNumber: held, startDate: start, callerPhone: '06 11 22 33 44', duration: 95 });
  await reportCall(c.baseUrl, { callRef: 'rel-call-2', trackingNumber: sharedNumber, code: shared.body.surtaxPhones['01 23 45 67 89'].surtaxPhoneCode, startDate: start, callerPhone: '+33 7 11 22 33 44', duration: 12 });
  await reportCall(c.baseUrl, { callRef: 'rel-call-3', trackingNumber: held, startDate: start, callerPhone: '06 66 66 66 66' });
  await reportCall(c.baseUrl, { callRef: 'rel-call-4', trackingNumber: '0800000102', startDate: start, callerPhone: 'anonymous', status: 'NORESPONSE' });
  await fetch(`${c.baseUrl}/telephony/sms`, {
    method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ smsRef: 'rel-sms-1', trackingNumber: held, callerPhone: '+44 7700 900123', sentDate: start.toISOString().slice(0, 19).replace('T', ' '), message: 'Ouvert dimanche ?' }),
  });
  const offline = (fields: Record<string, string | number>) => c.get('/offline-numbers-api', { key: 'release-offline', ...fields });
  await offline({ action: 'assign', phone_number: '01 98 76 54 32', description: 'Flyer', type: 6, allow_redirect: 1 });
  await offline({ action: 'assign', phone_number: '+44 20 7946 0088', description: 'London ad', type: 23 });
  await reportCall(c.baseUrl, { callRef: 'rel-call-5', trackingNumber: '0100000101', startDate: start, callerPhone: '0033612345678', duration: 200 });
  return { held, sharedNumber, day: start.toISOString().slice(0, 10) };
}

/** What is asked after the data was copied: a write that leans on the stored data, then reads. */
export async function replay(c: RunningCollector, day: string): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const dayBefore = new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
  const dayAfter = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
  // A caller's second call on the offline number, at a fixed time of the stored day: a repeat caller.
  answers.offlineCall = (await reportCall(c.baseUrl, { callRef: 'replay-call-1', trackingNumber: '01 00 00 01 01', startDate: new Date(`${day}T12:00:00Z`), callerPhone: '+33 6 12 34 56 78', duration: 30 })).body;
  const data = (query: Record<string, string | number>) => c.get('/data-api', { api_key: 'release-data', start_date: dayBefore, end_date: dayAfter, page: 1, limit: 10, ...query });
  answers.calls = (await data({ type: 'calls' })).body;
  answers.callsByDay = (await data({ type: 'calls', group_by_day: 'true' })).body;
  answers.callsByCaller = (await data({ type: 'calls', caller_phone: '06 11 22 33 44' })).body;
  answers.callsByNumber = (await data({ type: 'calls', tracking_phone: '01.00.00.01.01' })).body;
  answers.sms = (await data({ type: 'sms' })).body;
  answers.offlineList = (await c.get('/offline-numbers-api/list', { key: 'release-offline' })).body;
  answers.offlineDetails = (await c.get('/offline-numbers-api/list', { key: 'release-offline', details: 1 })).body;
  answers.offlineCheck = (await c.get('/offline-numbers-api', { key: 'release-offline', action: 'check', phone_number: '+44 20 7946 0088' })).body;
  answers.routeOffline = (await routeCall(c.baseUrl, { tracking_number: '0100000101', caller_phone: '0611223344' })).body;
  answers.routeBlocked = (await routeCall(c.baseUrl, { tracking_number: '0100000101', caller_phone: '+33666666666' })).body;
  answers.routeUnknown = (await routeCall(c.baseUrl, { tracking_number: '0899999999' })).body;
  const owner = await signedInClient(c.baseUrl, 'owner@martin.test', RELEASE_PASSWORD);
  const range = `from=${dayBefore}&to=${dayAfter}`;
  answers.overview = (await owner.get(`/domains/martin.test/reports/overview?${range}`)).body;
  answers.callsLog = (await owner.get(`/domains/martin.test/reports/calls?${range}`)).body;
  answers.callsCsv = (await owner.get(`/domains/martin.test/reports/calls.csv?${range}`)).text;
  // The offline numbers' part: the online pools' `heldNow` is the leases held at the time of asking.
  answers.offlinePools = (await owner.get(`/domains/martin.test/reports/pools?${range}`)).body.offline;
  answers.blocked = (await owner.get('/domains/martin.test/blocked-callers')).body;
  return answers;
}

/** Starts a collector on `db` with the options both runs use. */
export const releaseCollector = (db: Db) => startCollector(db, { telephonyApiKey: TELEPHONY_KEY });
