import { describe, expect, it } from 'vitest';
import { trackingProblem } from '@ringtrail/shared';
import { seed, startCollector, testDatabase, useSeededCollector } from '../helpers/collector.ts';
import { API_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';

const s = useSeededCollector('errors', trackingFixture());

async function problem(path: string, fields: Record<string, string | number | boolean | undefined>) {
  const { status, body } = await s.collector.post(path, fields);
  expect(status).toBe(200);
  return trackingProblem.parse(body);
}

describe('AUTHENTICATION_ERROR', () => {
  it.each(['/ospView', '/ospClick', '/ospExpiration'])('%s answers it for a missing or unknown api_key', async (path) => {
    for (const api_key of [undefined, '', 'not-a-key']) {
      expect(await problem(path, { api_key, phone: '0123456789' })).toMatchObject({ status: 'AUTHENTICATION_ERROR', errorMessage: expect.stringContaining('api_key') });
    }
  });
});

describe('MISSING_PARAMETER', () => {
  const required = ['visit_id', 'ip', 'url', 'page_title', 'is_mobile', 'referer_url', 'nr_phones', 'direct_display'];
  it.each(required)('/ospView names a missing %s', async (name) => {
    expect(await problem('/ospView', viewParams({ [name]: undefined }))).toEqual({ status: 'MISSING_PARAMETER', errorMessage: `Missing parameter ${name}` });
  });

  it('/ospView needs phones in direct display only', async () => {
    expect(await problem('/ospView', viewParams({ phones: undefined }))).toEqual({ status: 'MISSING_PARAMETER', errorMessage: 'Missing parameter phones' });
  });

  it('/ospClick names a missing phone, /ospExpiration a missing surtax_phone', async () => {
    expect(await problem('/ospClick', { api_key: API_KEY })).toEqual({ status: 'MISSING_PARAMETER', errorMessage: 'Missing parameter phone' });
    expect(await problem('/ospExpiration', { api_key: API_KEY })).toEqual({ status: 'MISSING_PARAMETER', errorMessage: 'Missing parameter surtax_phone' });
  });
});

describe('INVALID_PARAMETER', () => {
  it.each([
    ['is_mobile', 'yes', 'must be true or false'],
    ['direct_display', '1', 'must be true or false'],
    ['visit_id', 'abc', 'must be an integer'],
    ['nr_phones', '1.5', 'must be an integer'],
    ['ip', '300.1.1.1', 'IPv4'],
    ['ip', '2001:db8::1', 'IPv4'],
    ['url', 'not a url', 'URL'],
    ['type', '13', 'not a known tracking number type'],
    ['type', '2', 'not active for this domain'],
    ['expiration', '-5', 'must be -1, 0 or a positive'],
    ['phones', '0123456789:99', 'unknown type suffix'],
    ['phones', 'call us', 'not a phone number'],
  ])('/ospView refuses %s=%s', async (name, value, reason) => {
    const answer = await problem('/ospView', viewParams({ [name]: value }));
    expect(answer.status).toBe('INVALID_PARAMETER');
    expect(answer.errorMessage).toContain(name);
    expect(answer.errorMessage).toContain(reason);
  });

  it('refuses a client_data entry over 500 characters and stores nothing', async () => {
    const views = await s.t.c.views.countDocuments();
    const answer = await problem('/ospView', viewParams({ 'client_data[0123456789]': 'x'.repeat(501) }));
    expect(answer).toMatchObject({ status: 'INVALID_PARAMETER', errorMessage: expect.stringContaining('client_data') });
    expect(await s.t.c.views.countDocuments()).toBe(views);
    const ok = await s.collector.post('/ospView', viewParams({ 'client_data[0123456789]': 'x'.repeat(500) }));
    expect(ok.body.status).toBe('OK');
  });

  it('refuses an inactive type without recording the view', async () => {
    const views = await s.t.c.views.countDocuments();
    await problem('/ospView', viewParams({ phones: '0123456789:2' }));
    expect(await s.t.c.views.countDocuments()).toBe(views);
  });

  it('answers a malformed JSON body in the envelope', async () => {
    const res = await fetch(`${s.collector.baseUrl}/ospView`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"api_key":' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'INVALID_PARAMETER' });
  });
});

describe('SYSTEM_ERROR', () => {
  it('is the one answer with a 5xx status, so clients retry only it', async () => {
    const broken = await testDatabase('errors-broken');
    await seed(broken.c, trackingFixture());
    const orphan = await startCollector(broken.db);
    await broken.client.close(); // the database goes away under the collector
    try {
      const { status, body } = await orphan.post('/ospView', viewParams());
      expect(status).toBe(500);
      expect(trackingProblem.parse(body)).toMatchObject({ status: 'SYSTEM_ERROR' });
      const ready = await fetch(`${orphan.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
    } finally {
      await orphan.close();
    }
  });
});
