// What the ad platforms' tests share: a collector whose platform addresses are a test's stand-ins
// (read once they are started), SECRETS_KEY set and quick retries; and a lead's call: a visitor who
// landed with a click id in the URL calls the number shown and talks two minutes.
import { randomBytes } from 'node:crypto';
import type { AdsEndpoints } from '../../collector/src/ads/platform-clients.ts';
import { useSeededCollector, type SeededCollector } from './collector.ts';
import { commerceFixture, viewParams } from './fixtures.ts';
import { reportCall, TELEPHONY_KEY } from './telephony.ts';

export const ADS_OWNER = { username: 'owner@shop.test', password: 'ads owner password' };

/** `numbers`: the pool's size (each call's visitor holds one); `statusAfterMs`: when Google is asked
 * what it made of a request (a minute by default, so that the other tests see leads `sent`). */
export function useAdsCollector(label: string, endpoints: () => Partial<AdsEndpoints>, numbers = 12, statusAfterMs?: number): SeededCollector {
  const exclusive = Array.from({ length: numbers }, (_, i) => `08000001${String(i).padStart(2, '0')}`);
  return useSeededCollector(label, commerceFixture({ ga4: false, tracking: { users: [ADS_OWNER], exclusive } }), {
    telephonyApiKey: TELEPHONY_KEY,
    secretsKey: randomBytes(32),
    delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 400, publicOnly: false },
    get adsEndpoints() {
      return endpoints();
    },
    ...(statusAfterMs ? { adsStatusAfterMs: statusAfterMs } : {}),
  });
}

/** A lead's call from a visit that landed with `query` (`gclid=…`); answers the call's id. */
export function adCalls(s: SeededCollector): (query: string, caller?: string) => Promise<number> {
  let ip = 0;
  return async (query, caller = '0612121212') => {
    const n = ++ip;
    const view = await s.collector.post('/ospView', viewParams({ url: `https://shop.test/?${query}`, ip: `198.51.100.${n}` }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const { body } = await reportCall(s.collector.baseUrl, { callRef: `ads-${n}-${query}`, trackingNumber: number, startDate: new Date(), status: 'SUCCESS', duration: 120, callerPhone: caller });
    return body.callId as number;
  };
}
