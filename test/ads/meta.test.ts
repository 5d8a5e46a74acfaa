// Meta through its Conversions API (issue 56), over fetch against a loopback stand-in that answers
// as the Graph API documents: a connection checked with Meta (an expired token refused, nothing
// kept), the test button (test_event_code), and a lead from a visit with an fbclid sent once as a
// `Lead` event with its fbc, hashed phone, value and event_id; a request refused whole split until
// the wrong lead stands alone.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adCalls, ADS_OWNER, useAdsCollector } from '../helpers/ads.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { startMetaCapi, type MetaStandIn } from '../helpers/meta-capi.ts';
import { until } from '../helpers/until.ts';

let meta: MetaStandIn;
beforeAll(async () => {
  meta = await startMetaCapi();
});
afterAll(() => meta?.close());

const s = useAdsCollector('ads_meta', () => ({ metaGraph: meta.base }), 8);
const call = adCalls(s);
const adCall = (fbclid: string, caller: string) => call(`fbclid=${fbclid}`, caller);
const stateOf = async (callId: number) => (await s.t.c.adsConversions.findOne({ _id: `meta|call:${callId}` }))?.state;
const sentEvents = () => meta.requests.filter((r) => !r.body.test_event_code).flatMap((r) => r.body.data);

describe('Meta through the Conversions API', () => {
  let owner: ManageClient;
  const path = '/domains/shop.test/ads/meta';
  beforeAll(async () => {
    owner = await signedInClient(s.collector.baseUrl, ADS_OWNER.username, ADS_OWNER.password);
  });

  it('refuses an expired token and keeps nothing; connects with a good one; tests with a test event code', async () => {
    expect(await owner.call('PUT', path, { datasetId: 'pixel', accessToken: meta.token })).toMatchObject({ status: 400, body: { error: 'datasetId: must be a number' } });
    const expired = await owner.call('PUT', path, { datasetId: '1234567890', accessToken: 'EAAB-expired' });
    expect(expired).toMatchObject({ status: 400, body: { error: 'meta refused the credentials (HTTP 401): Error validating access token: Session has expired. (code 190); nothing was stored' } });
    expect((await owner.get(path)).body.connected).toBe(false);
    expect(await owner.call('PUT', path, { datasetId: '1234567890', accessToken: meta.token })).toMatchObject({ status: 200, body: { connected: true, settings: { datasetId: '1234567890' }, credentials: `access token …${meta.token.slice(-4)}` } });
    expect((await owner.call('POST', `${path}/test`)).body).toMatchObject({ ok: true, platform: 'meta' });
    expect(meta.requests.at(-1)!).toMatchObject({ path: '/v24.0/1234567890/events', body: { test_event_code: 'RINGTRAIL_TEST' } });
  });

  it('sends a lead once as a Lead event with its fbc, hashed phone, value and event id', async () => {
    const callId = await adCall('FBCLID-LEAD', '0612121212');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent');
    const events = sentEvents().filter((e) => e.event_id === `ringtrail-call-${callId}`);
    expect(events).toHaveLength(1);
    const call = (await s.t.c.calls.findOne({ _id: callId }))!;
    expect(events[0]).toEqual({
      event_name: 'Lead',
      event_time: Math.floor(call.startedAt.getTime() / 1000),
      event_id: `ringtrail-call-${callId}`,
      action_source: 'phone_call',
      user_data: { ph: [createHash('sha256').update('33612121212').digest('hex')], fbc: `fb.1.${call.lastTouch!.at.getTime()}.FBCLID-LEAD` },
      custom_data: { value: call.revenue ?? 0, currency: 'EUR' },
    });
  });

  it('splits a request Meta refuses whole, and retries after too many calls', async () => {
    meta.answerNext({ code: 17, message: 'User request limit reached' });
    const [good, bad] = await Promise.all([adCall('FBCLID-GOOD', '0611111111'), adCall('FBCLID-BAD', '0622222222')]);
    await until(async () => (await Promise.all([good, bad].map(stateOf))).every((state) => state !== 'queued'), 'both settled');
    expect(await Promise.all([good, bad].map(stateOf))).toEqual(['sent', 'rejected']);
    expect((await s.t.c.adsConversions.findOne({ _id: `meta|call:${bad}` }))!.reason).toMatch(/^Invalid parameter: data\[\d\]\.user_data\.fbc \(code 100\)$/);
  });

  it('cannot take a sent lead back: it stays sent and says why', async () => {
    const callId = await adCall('FBCLID-NOT-A-LEAD', '0655555555');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent');
    const sent = sentEvents().length;
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/verdict`, { verdict: 'not-lead' })).status).toBe(200);
    await until(async () => (await s.t.c.adsConversions.findOne({ _id: `meta|call:${callId}` }))?.reason !== undefined, 'the reason said');
    expect(await s.t.c.adsConversions.findOne({ _id: `meta|call:${callId}` })).toMatchObject({ state: 'sent', reason: "no longer a lead: Meta's Conversions API cannot take a sent event back" });
    expect(sentEvents()).toHaveLength(sent);
  });

  it("cannot restate a sent lead's value: it stays sent and says why (issue 69)", async () => {
    const callId = await adCall('FBCLID-REVALUED', '0656565656');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent');
    const sent = sentEvents().length;
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/value`, { value: 250 })).status).toBe(200);
    await until(async () => (await s.t.c.adsConversions.findOne({ _id: `meta|call:${callId}` }))?.reason !== undefined, 'the reason said');
    expect(await s.t.c.adsConversions.findOne({ _id: `meta|call:${callId}` })).toMatchObject({ state: 'sent', reason: "value changed after it was sent: Meta's Conversions API cannot change a sent event's value" });
    expect(sentEvents()).toHaveLength(sent);
  });
});

