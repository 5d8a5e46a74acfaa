// Rate limits counted in the database: simultaneous requests, and several collector processes on
// one database, count against one limit.
import { describe, expect, it } from 'vitest';
import { WindowLimiter } from '../../collector/src/http/rate-limits.ts';
import { startCollector, useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';
import { inOneWindow } from '../helpers/windows.ts';

describe('rate limits in the database', () => {
  const s = useSeededCollector('rate_limits', trackingFixture({ exclusive: Array.from({ length: 40 }, (_, i) => `08000000${i + 10}`) }));

  it('let exactly the limit through when its first requests come at once', async () => {
    await inOneWindow(60); // all the test's requests in one window of the limit
    for (let round = 0; round < 3; round++) {
      const limiter = new WindowLimiter(s.t.c.rateLimits, `burst-${round}`, 10, 60);
      const answers = await Promise.all(Array.from({ length: 40 }, () => limiter.secondsOver('k')));
      expect(answers.filter((a) => a === null)).toHaveLength(10);
      for (const wait of answers.filter((a) => a !== null)) expect(wait).toBeGreaterThanOrEqual(1);
    }
  });

  it('count one limit for two collectors on one database, where each process used to allow its own', async () => {
    await inOneWindow(60); // all the test's requests in one window of the limit
    const opts = { browserLimits: { perIp: 12, perVisit: 1000 }, delivery: { run: false } };
    const [a, b] = [await startCollector(s.t.db, opts), await startCollector(s.t.db, opts)];
    try {
      const view = (base: string) =>
        fetch(`${base}/t/view`, {
          method: 'POST',
          headers: { origin: 'http://shop.test', 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8' },
          body: new URLSearchParams({ key: 'pk-test-key', visit_id: '0', url: 'http://shop.test/', page_title: 'Home', referer_url: '', phones: '0123456789' }).toString(),
        }).then((r) => r.status);
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => view(i % 2 ? a.baseUrl : b.baseUrl)));
      expect(statuses.filter((st) => st === 200)).toHaveLength(12);
      expect(statuses.filter((st) => st === 429)).toHaveLength(18);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
