// Google's later word on the leads it took (issue 56): the Data Manager API processes a request's
// events after answering it, and its status (requestStatus:retrieve, asked through Google's client
// against the loopback stand-in) moves them: accepted once processed, asked again while processing,
// rejected with Google's reason when it could not process them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adCalls, ADS_OWNER, useAdsCollector } from '../helpers/ads.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startDataManager, type DataManagerStandIn } from '../helpers/google-data-manager.ts';
import { until } from '../helpers/until.ts';

let google: DataManagerStandIn;
beforeAll(async () => {
  google = await startDataManager();
});
afterAll(() => google?.close());

const s = useAdsCollector('ads_google_status', () => ({ googleDataManager: google.base }), 6, 100);
const call = adCalls(s);
const conversion = (callId: number) => s.t.c.adsConversions.findOne({ _id: `google|call:${callId}` });

describe("Google's word on the leads it took", () => {
  beforeAll(async () => {
    const owner = await signedInClient(s.collector.baseUrl, ADS_OWNER.username, ADS_OWNER.password);
    expect((await owner.call('PUT', '/domains/shop.test/ads/google', { operatingAccountId: '123-456-7890', conversionActionId: '987654321', serviceAccountKey: JSON.stringify(google.key) })).status).toBe(200);
  });

  it('marks a lead accepted once Google has processed its request, asking again while it processes', async () => {
    google.processingAsks = 2;
    const callId = await call('gclid=GCLID-PROCESSED', '0612121212');
    // Its request id is let go once the state moved, and the call marked: both waited for.
    await until(async () => {
      const doc = await conversion(callId);
      return doc?.state === 'accepted' && doc.requestId === undefined;
    }, 'the lead accepted');
    await until(async () => (await s.t.c.calls.findOne({ _id: callId }))?.adsConversions?.[0]?.state === 'accepted', 'the call marked');
    // The call says so too (its page, the data API, the pushes).
    expect((await s.t.c.calls.findOne({ _id: callId }))!.adsConversions).toEqual([{ platform: 'google', state: 'accepted', at: expect.any(Date) }]);
    // Asked three times: processing, processing, done.
    expect(google.statusAsks).toHaveLength(3);
  });

  it('marks a lead rejected with the reason Google gives when it could not process it', async () => {
    google.processingAsks = 0;
    google.unprocessable.add('GCLID-UNKNOWN-CLICK');
    const callId = await call('gclid=GCLID-UNKNOWN-CLICK', '0622222222');
    await until(async () => (await conversion(callId))?.state === 'rejected', 'the lead rejected');
    expect(await conversion(callId)).toMatchObject({ state: 'rejected', reason: 'Google could not process it: INVALID_GCLID (1)' });
  });
});
