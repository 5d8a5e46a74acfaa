// Microsoft Advertising's offline conversions (issue 56), over fetch against a loopback stand-in of
// its identity platform and Campaign Management REST API: an expired refresh token refused at
// connection (nothing kept), and leads from visits with an msclkid applied once with their name,
// time, value and hashed phone; a conversion refused as a partial error marked rejected, the
// others sent; a 500 retried.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adCalls, ADS_OWNER, useAdsCollector } from '../helpers/ads.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { startMicrosoftAds, type MicrosoftStandIn } from '../helpers/microsoft-ads.ts';
import { until } from '../helpers/until.ts';

let microsoft: MicrosoftStandIn;
beforeAll(async () => {
  microsoft = await startMicrosoftAds();
});
afterAll(() => microsoft?.close());

const s = useAdsCollector('ads_microsoft', () => ({ microsoftAds: microsoft.base, microsoftOAuthToken: microsoft.tokenUrl }), 8);
const call = adCalls(s);
const adCall = (msclkid: string, caller: string) => call(`msclkid=${msclkid}`, caller);
const stateOf = async (callId: number) => (await s.t.c.adsConversions.findOne({ _id: `microsoft|call:${callId}` }))?.state;
const applied = () => microsoft.requests.flatMap((r) => r.body.OfflineConversions);

describe('Microsoft Advertising offline conversions', () => {
  let owner: ManageClient;
  const path = '/domains/shop.test/ads/microsoft';
  const body = (refreshToken: string) => ({ customerId: '1111', accountId: '2222', conversionName: 'Phone leads', developerToken: 'dev-token', oauth: { clientId: 'client-1', refreshToken } });
  beforeAll(async () => {
    owner = await signedInClient(s.collector.baseUrl, ADS_OWNER.username, ADS_OWNER.password);
  });

  it('refuses an expired refresh token and keeps nothing; connects with a good one', async () => {
    expect(await owner.call('PUT', path, body('M.expired'))).toMatchObject({ status: 400, body: { error: 'microsoft refused the credentials (HTTP 401): invalid_grant: AADSTS700082: The refresh token has expired due to inactivity.; nothing was stored' } });
    expect((await owner.get(path)).body.connected).toBe(false);
    expect(await owner.call('PUT', path, body(microsoft.refreshToken))).toMatchObject({ status: 200, body: { connected: true, settings: { customerId: '1111', accountId: '2222', conversionName: 'Phone leads' }, credentials: 'OAuth client client-1' } });
    expect((await owner.call('POST', `${path}/test`)).body).toMatchObject({ ok: true, platform: 'microsoft' });
    expect(microsoft.requests).toHaveLength(0); // the test exchanged the token and sent nothing
  });

  it('applies each lead once with its msclkid, name, time, value and hashed phone; a refused one is rejected, a 500 retried', async () => {
    microsoft.answerNext({ status: 500 });
    const [good, bad] = await Promise.all([adCall('MSCLKID-GOOD', '0612121212'), adCall('MSCLKID-BAD', '0622222222')]);
    await until(async () => (await Promise.all([good, bad].map(stateOf))).every((state) => state !== 'queued'), 'both settled');
    expect(await Promise.all([good, bad].map(stateOf))).toEqual(['sent', 'rejected']);
    expect((await s.t.c.adsConversions.findOne({ _id: `microsoft|call:${bad}` }))!.reason).toBe('OfflineConversionMicrosoftClickIdInvalid: The Microsoft click ID is invalid.');
    const call = (await s.t.c.calls.findOne({ _id: good }))!;
    expect(applied().filter((c) => c.MicrosoftClickId === 'MSCLKID-GOOD')).toEqual([
      { ConversionCurrencyCode: 'EUR', ConversionName: 'Phone leads', ConversionTime: `${call.startedAt.toISOString().slice(0, 19)}Z`, ConversionValue: call.revenue ?? 0, MicrosoftClickId: 'MSCLKID-GOOD', HashedPhoneNumber: createHash('sha256').update('+33612121212').digest('hex') },
    ]);
    expect(microsoft.requests.at(-1)!.headers).toMatchObject({ developertoken: 'dev-token', customerid: '1111', customeraccountid: '2222' });
  });

  it('retracts a sent lead that a person says is not a lead, naming its click, name and time', async () => {
    const callId = await adCall('MSCLKID-RETRACT', '0633333333');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent');
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/verdict`, { verdict: 'not-lead' })).status).toBe(200);
    // The call's mark is written after the conversion's state: waited for in its turn.
    await until(async () => (await s.t.c.calls.findOne({ _id: callId }))?.adsConversions?.[0]?.state === 'retracted', 'the lead retracted');
    expect(await stateOf(callId)).toBe('retracted');
    const call = (await s.t.c.calls.findOne({ _id: callId }))!;
    const adjustments = microsoft.adjustments.flatMap((r) => r.body.OfflineConversionAdjustments);
    expect(adjustments).toEqual([
      { ConversionName: 'Phone leads', ConversionTime: `${call.startedAt.toISOString().slice(0, 19)}Z`, MicrosoftClickId: 'MSCLKID-RETRACT', HashedPhoneNumber: createHash('sha256').update('+33633333333').digest('hex'), AdjustmentType: 'Retract', AdjustmentTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
    ]);
    expect(call.adsConversions).toEqual([{ platform: 'microsoft', state: 'retracted', at: expect.any(Date) }]);
  });

  it('restates a sent lead whose value a person changes, naming its click, name and time (issue 69)', async () => {
    const callId = await adCall('MSCLKID-RESTATE', '0644444444');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent');
    const before = microsoft.adjustments.length;
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/value`, { value: 250 })).status).toBe(200);
    await until(async () => microsoft.adjustments.length > before, 'the restatement applied');
    await until(async () => (await stateOf(callId)) === 'sent', 'the lead sent again');
    const call = (await s.t.c.calls.findOne({ _id: callId }))!;
    expect(microsoft.adjustments.slice(before).flatMap((r) => r.body.OfflineConversionAdjustments)).toEqual([
      { ConversionName: 'Phone leads', ConversionTime: `${call.startedAt.toISOString().slice(0, 19)}Z`, MicrosoftClickId: 'MSCLKID-RESTATE', HashedPhoneNumber: createHash('sha256').update('+33644444444').digest('hex'), AdjustmentType: 'Restate', AdjustmentValue: 250, AdjustmentCurrencyCode: 'EUR', AdjustmentTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
    ]);
  });
});
