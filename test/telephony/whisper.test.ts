// The whisper's sentence for each class of source, and /telephony/route saying it to any carrier.
import { describe, expect, it } from 'vitest';
import { whisperOf } from '../../collector/src/telephony/whisper.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { routeCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const led = (source: string | null, keyword: string | null = null, offlineDescription: string | null = null) => ({ source, keyword, offlineDescription });

describe('whisper', () => {
  it('says where the caller came from, for each class of source', () => {
    expect(whisperOf(led('paid:google', 'emergency plumber'))).toBe('Call from Google Ads, keyword emergency plumber');
    expect(whisperOf(led('paid:bing'))).toBe('Call from Microsoft Advertising');
    expect(whisperOf(led('paid:newsletter-partner', 'boiler'))).toBe('Call from an ad on newsletter-partner, keyword boiler');
    expect(whisperOf(led('paid'))).toBe('Call from an ad');
    expect(whisperOf(led('organic:www.google.com', 'plumber paris'))).toBe('Call from a Google search, keyword plumber paris');
    expect(whisperOf(led('organic:duckduckgo.com'))).toBe('Call from a DuckDuckGo search');
    expect(whisperOf(led('social:m.facebook.com'))).toBe('Call from Facebook');
    expect(whisperOf(led('social'))).toBe('Call from social media');
    expect(whisperOf(led('referral:www.pagesjaunes.fr'))).toBe('Call from a link on pagesjaunes.fr');
    expect(whisperOf(led('direct'))).toBe('Call from a visitor who came to the website directly');
    expect(whisperOf(led(null))).toBe('Call that no website visit led to');
    expect(whisperOf(led('offline', null, 'leaflet'))).toBe('Call from the leaflet campaign');
  });

  const s = useSeededCollector('whisper', trackingFixture({ settings: { whisper: true } }), { telephonyApiKey: TELEPHONY_KEY });

  it('is in the route’s answer when the domain whispers', async () => {
    const view = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/', referer_url: 'https://www.bing.com/search?q=boiler+repair' }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    expect((await routeCall(s.collector.baseUrl, { tracking_number: number })).body.whisper).toBe('Call from a Microsoft search, keyword boiler repair');
    expect((await routeCall(s.collector.baseUrl, { tracking_number: '0800000003' })).body).toMatchObject({ reason: 'not-assigned', whisper: 'Call that no website visit led to' });
  });
});
