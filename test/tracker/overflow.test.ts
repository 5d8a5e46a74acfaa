// tracker.js on a page whose pool is full: it shows the pool's overflow number, in the site's own
// format, as it would any tracking number.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { openPage } from '../helpers/site-page.ts';

const fixture = trackingFixture({ exclusive: ['0800000001'] });
Object.assign(fixture.accounts[0]!.domains[0]!.pools[0]!, { overflowNumber: '0800000099' });
const s = useSeededCollector('tracker_overflow', fixture);

describe('tracker.js and a full pool', () => {
  it("shows the pool's overflow number to the visitor the pool has no number for", async () => {
    const first = await openPage({ collector: s.collector.baseUrl, body: '<p id="text">Call 01 23 45 67 89 today</p>' });
    await first.ready();
    expect(first.text('#text')).toBe('Call 08 00 00 00 01 today');
    const second = await openPage({ collector: s.collector.baseUrl, body: '<p id="text">Call 01 23 45 67 89 today</p>' });
    await second.ready();
    expect(second.text('#text')).toBe('Call 08 00 00 00 99 today');
    first.close();
    second.close();
  });
});
