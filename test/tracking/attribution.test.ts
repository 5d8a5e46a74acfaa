import { describe, expect, it } from 'vitest';
import { attribute } from '../../collector/src/tracking/attribution.ts';

describe('source attribution', () => {
  it.each([
    ['https://shop.test/', 'https://www.google.com/search?q=red+shoes', 'organic', 'red shoes'],
    ['https://shop.test/', 'https://www.bing.com/search?q=plumber', 'organic', 'plumber'],
    ['https://shop.test/', 'https://search.yahoo.com/search?p=boots', 'organic', 'boots'],
    ['https://shop.test/', 'https://www.google.com/', 'organic', null],
    ['https://shop.test/?gclid=abc123', 'https://www.google.com/', 'paid', null],
    ['https://shop.test/?utm_medium=cpc&utm_term=cheap+shoes&utm_source=google', '', 'paid', 'cheap shoes'],
    ['https://shop.test/', 'https://m.facebook.com/story', 'social', null],
    ['https://shop.test/?utm_medium=social&utm_source=newsletter', '', 'social', null],
    ['https://shop.test/', 'https://blog.example.org/post', 'referral', null],
    ['https://shop.test/?utm_source=partner', '', 'referral', null],
    ['https://shop.test/', '', 'direct', null],
    ['https://shop.test/b', 'https://shop.test/a', 'direct', null],
  ])('%s from %j is %s', (url, referrer, source, keyword) => {
    expect(attribute(url, referrer)).toMatchObject({ source, keyword });
  });

  it('keeps the utm values and the gclid', () => {
    expect(attribute('https://shop.test/?utm_source=g&utm_campaign=spring&gclid=XYZ', '')).toMatchObject({
      gclid: 'XYZ',
      sourceName: 'g',
      utm: { utm_source: 'g', utm_campaign: 'spring' },
    });
  });
});
