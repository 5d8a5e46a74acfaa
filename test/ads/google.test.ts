// Google Ads conversions through the Data Manager API (issue 56), with Google's own client against a
// loopback stand-in that answers as the API's reference documents and checks the service account's
// self-signed token: a connection checked and sealed (wrong input refused, naming the field; refused
// credentials keep nothing), the test button (validateOnly), and leads sent once, in batches, with
// their click id, value and hashed phone; a request refused whole split until the wrong lead stands
// alone; a 429 retried.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adCalls, ADS_OWNER, useAdsCollector } from '../helpers/ads.ts';
import { DATA_KEY } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { startDataManager, type DataManagerStandIn } from '../helpers/google-data-manager.ts';
import { until } from '../helpers/until.ts';
import { BATCH_WINDOW_MS, batchMessage } from '../../collector/src/ads/ads-queue.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { reportCall } from '../helpers/telephony.ts';

let google: DataManagerStandIn;
beforeAll(async () => {
  google = await startDataManager();
});
afterAll(() => google?.close());

const s = useAdsCollector('ads_google', () => ({ googleDataManager: google.base }));
const call = adCalls(s);
/** A visitor from a Google ad (its gclid kept) calls and talks two minutes: a lead. */
const adCall = (gclid: string, caller?: string) => call(`gclid=${gclid}`, caller);

const sentEvents = () => google.requests.filter((r) => !r.body.validateOnly).flatMap((r) => r.body.events);
const stateOf = async (callId: number) => (await s.t.c.adsConversions.findOne({ _id: `google|call:${callId}` }))?.state;

describe('Google Ads through the Data Manager API', () => {
  let owner: ManageClient;
  const path = '/domains/shop.test/ads/google';
  beforeAll(async () => {
    owner = await signedInClient(s.collector.baseUrl, ADS_OWNER.username, ADS_OWNER.password);
  });

  it('refuses a connection that is wrong, naming the field, or that Google refuses; keeps nothing', async () => {
    const base = { operatingAccountId: '123-456-7890', conversionActionId: '987654321', serviceAccountKey: JSON.stringify(google.key) };
    expect(await owner.call('PUT', path, { ...base, conversionActionId: 'booked calls' })).toMatchObject({ status: 400, body: { error: 'conversionActionId: must be a number' } });
    expect(await owner.call('PUT', path, { ...base, serviceAccountKey: '{"type": "authorized_user"}' })).toMatchObject({ status: 400, body: { error: 'serviceAccountKey: must be a service account key: the JSON file Google gives, with type service_account, client_email and private_key' } });
    expect(await owner.call('PUT', path, { operatingAccountId: '1', conversionActionId: '2' })).toMatchObject({ status: 400, body: { error: 'serviceAccountKey: give serviceAccountKey or oauth' } });
    // A key of the same account that Google does not know (revoked): its tokens are refused.
    const revoked = { ...google.key, private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    const refused = await owner.call('PUT', path, { ...base, serviceAccountKey: revoked });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^google refused the credentials \(HTTP 401\): Request had invalid authentication credentials\..*; nothing was stored$/);
    expect((await owner.get(path)).body).toEqual({ platform: 'google', connected: false, secretsKeySet: true });
    expect(await owner.call('PUT', '/domains/shop.test/ads/tiktok', {})).toMatchObject({ status: 404, body: { error: 'No ad platform tiktok: google, microsoft or meta' } });
    expect(await s.t.c.adsConnections.countDocuments()).toBe(0);
  });

  it('connects with a service account key, never shows it again, and sends a test Google keeps nothing of', async () => {
    const connected = await owner.call('PUT', path, { operatingAccountId: '123-456-7890', conversionActionId: '987654321', serviceAccountKey: JSON.stringify(google.key) });
    expect(connected).toMatchObject({ status: 200, body: { platform: 'google', connected: true, settings: { operatingAccountId: '1234567890', conversionActionId: '987654321' }, credentials: `service account ${google.key.client_email}`, broken: null } });
    expect(JSON.stringify((await owner.get(path)).body)).not.toContain('PRIVATE KEY');
    expect((await s.t.c.adsConnections.findOne({}))!.secret).not.toContain('PRIVATE KEY');
    const test = await owner.call('POST', `${path}/test`);
    expect(test.body).toMatchObject({ ok: true, platform: 'google' });
    const last = google.requests.at(-1)!;
    expect(last.body).toMatchObject({ validateOnly: true, destinations: [{ operatingAccount: { accountId: '1234567890' }, productDestinationId: '987654321' }] });
    expect(last.issuer).toBe(google.key.client_email);
  });

  it('sends a lead once with its gclid, time, value and hashed phone, and keeps its state', async () => {
    const before = sentEvents().length;
    const callId = await adCall('GCLID-LEAD-1');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent');
    const events = sentEvents().slice(before);
    expect(events).toHaveLength(1);
    const call = (await s.t.c.calls.findOne({ _id: callId }))!;
    expect(events[0]).toEqual({
      transactionId: `ringtrail-call-${callId}`,
      eventTimestamp: call.startedAt.toISOString(),
      adIdentifiers: { gclid: 'GCLID-LEAD-1' },
      userData: { userIdentifiers: [{ phoneNumber: createHash('sha256').update('+33612121212').digest('hex') }] },
      conversionValue: call.revenue ?? 0,
      currency: 'EUR',
      eventSource: 4, // PHONE, as the client encodes enums (enum-encoding=int)
    });
    // The call says so too: its page, the data API's record and its pushes read `ads_conversions`.
    const day = new Date().toISOString().slice(0, 10);
    const record = async () => (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: day, end_date: day, page: 1, limit: 50 })).body.results.find((r: { call_id: number }) => r.call_id === callId);
    await expect.poll(async () => (await record()).ads_conversions).toEqual([{ platform: 'google', state: 'sent', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) }]);
  });

  it('splits a request refused whole: the wrong lead is rejected with Google\'s words, the others sent', async () => {
    google.badClicks.add('GCLID-BAD');
    const [good, bad, other] = await Promise.all([adCall('GCLID-GOOD', '0611111111'), adCall('GCLID-BAD', '0622222222'), adCall('GCLID-OTHER', '0633333333')]);
    await until(async () => (await Promise.all([good, bad, other].map(stateOf))).every((state) => state !== 'queued'), 'the three settled');
    expect(await Promise.all([good, bad, other].map(stateOf))).toEqual(['sent', 'rejected', 'sent']);
    // Google names the wrong event by its place in the request: the reason keeps its words.
    expect((await s.t.c.adsConversions.findOne({ _id: `google|call:${bad}` }))!.reason).toMatch(/^events\[\d\]\.ad_identifiers\.gclid: The click identifier is not valid\.$/);
  });

  it('retries after a 429 and a 503, and sends the lead once', async () => {
    google.answerNext({ status: 429, word: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded.' }, { status: 503, word: 'UNAVAILABLE', message: 'The service is currently unavailable.' });
    const callId = await adCall('GCLID-RETRY');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent after the retries');
    expect(sentEvents().filter((e) => (e.adIdentifiers as { gclid?: string } | undefined)?.gclid === 'GCLID-RETRY')).toHaveLength(1);
  });

  it('sends the gbraid of an iOS visit when there is no gclid', async () => {
    const callId = await call('gbraid=GBRAID-IOS-1&utm_source=google', '0644444444');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent');
    expect(sentEvents().find((e) => e.transactionId === `ringtrail-call-${callId}`)!.adIdentifiers).toEqual({ gbraid: 'GBRAID-IOS-1' });
    expect(await s.t.c.calls.findOne({ _id: callId })).toMatchObject({ gbraid: 'GBRAID-IOS-1', source: 'paid:google' });
  });

  it('marks a lead without anything Google matches by (no click, an anonymous caller) as not sent, and why', async () => {
    const callId = await call('utm_source=newsletter', 'anonymous');
    await until(async () => (await stateOf(callId)) !== undefined, 'the lead marked');
    expect(await s.t.c.adsConversions.findOne({ _id: `google|call:${callId}` })).toMatchObject({ state: 'not-sent', reason: 'no click id (gclid, gbraid, wbraid), phone or e-mail' });
  });

  it('restates a sent lead that stops being one to a value of 0 (the same transaction id); one still waiting is not sent', async () => {
    const callId = await adCall('GCLID-UNLEAD');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent');
    await s.t.c.calls.updateOne({ _id: callId }, { $set: { value: 250 } });
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/verdict`, { verdict: 'not-lead' })).status).toBe(200);
    await until(async () => (await stateOf(callId)) === 'retracted', 'the lead retracted');
    const events = sentEvents().filter((e) => e.transactionId === `ringtrail-call-${callId}`);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ transactionId: `ringtrail-call-${callId}`, adIdentifiers: { gclid: 'GCLID-UNLEAD' }, conversionValue: 0 });

    // Not a lead before its request went (early in the 5 s window that gathers leads): never sent;
    // a lead again: sent then.
    await until(async () => Date.now() % BATCH_WINDOW_MS < 1000, 'the start of a window');
    const waiting = await adCall('GCLID-WAITING');
    expect((await owner.call('PUT', `/domains/shop.test/calls/${waiting}/verdict`, { verdict: 'not-lead' })).status).toBe(200);
    expect(await s.t.c.adsConversions.findOne({ _id: `google|call:${waiting}` })).toMatchObject({ state: 'not-sent', reason: 'no longer a lead' });
    expect((await owner.call('PUT', `/domains/shop.test/calls/${waiting}/verdict`, { verdict: 'lead' })).status).toBe(200);
    await until(async () => (await stateOf(waiting)) === 'sent', 'the lead again sent');
    expect(sentEvents().filter((e) => e.transactionId === `ringtrail-call-${waiting}`)).toHaveLength(1);
  });

  it('marks the connection broken when Google refuses the credentials at a send; the lead waits and goes once they work again', async () => {
    google.revoked = true;
    const callId = await adCall('GCLID-REVOKED');
    await until(async () => Boolean((await owner.get(path)).body.broken), 'the connection marked broken');
    expect((await owner.get(path)).body.broken).toEqual({ at: expect.any(String), error: expect.stringMatching(/^HTTP 401: .*invalid authentication credentials/) });
    expect(await stateOf(callId)).toBe('queued');
    // The call's page says why its lead waits (issue 81).
    const page = (await owner.get(`/domains/shop.test/calls/${callId}`)).body;
    expect(page.adsConversions).toEqual([expect.objectContaining({ platform: 'google', state: 'queued', reason: expect.stringMatching(/^waiting: Google Ads refuses the connection's credentials since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(HTTP 401: .*\); reconnect it on the Conversions screen and the lead is sent$/) })]);
    google.revoked = false;
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent once the key works again');
    // The connection is mended just after its leads are marked sent: wait for it, in its turn.
    await until(async () => (await owner.get(path)).body.broken === null, 'the connection no longer broken');
  });

  it('marks a lead older than 90 days too old, whether it is so when it becomes a lead or after waiting for a platform that was down', async () => {
    const old = new Date(Date.now() - 95 * 86_400_000);
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'ads-too-old', trackingNumber: '0800000111', startDate: old, status: 'SUCCESS', duration: 120, callerPhone: '0677777777' });
    const callId = body.callId as number;
    await until(async () => (await stateOf(callId)) !== undefined, 'the lead marked');
    expect(await s.t.c.adsConversions.findOne({ _id: `google|call:${callId}` })).toMatchObject({ state: 'not-sent', reason: 'too old: more than 90 days' });
    // The same lead as if it had been queued when young, and had waited since: the sender does not send it either.
    await s.t.c.adsConversions.updateOne({ _id: `google|call:${callId}` }, { $set: { state: 'queued', batch: null }, $unset: { reason: '' } });
    const domain = (await s.t.c.domains.findOne({ name: 'shop.test' }))!;
    await new Outbox(s.t.c).enqueue(batchMessage(domain, 'google', 'waited'));
    await until(async () => (await stateOf(callId)) !== 'queued', 'the waiting lead settled');
    expect(await s.t.c.adsConversions.findOne({ _id: `google|call:${callId}` })).toMatchObject({ state: 'not-sent', reason: 'too old: more than 90 days' });
    expect(sentEvents().filter((e) => e.transactionId === `ringtrail-call-${callId}`)).toEqual([]);
  });
});

