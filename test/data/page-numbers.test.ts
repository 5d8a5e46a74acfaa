// A page of a US domain's calls to several numbers: each record shows its own numbers in the
// country's national form (a page makes each pair's forms once; a mix-up would show one number for all).
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const DATA_KEY = 'chicago-data-key';
const NUMBERS = ['(312) 555-0140', '(312) 555-0141', '(312) 555-0142'];
const fixture = {
  accounts: [
    {
      name: 'Chicago',
      users: [],
      domains: [
        {
          name: 'chicago.test',
          country: 'US',
          timeZone: 'America/Chicago',
          dataApiKey: DATA_KEY,
          sitePhones: ['(312) 555-0199'],
          pools: [{ type: 100, usage: 'online', numbers: NUMBERS }],
        },
      ],
    },
  ],
};

describe('a data API page of calls to several numbers', () => {
  const s = useSeededCollector('page_numbers', fixture, { telephonyApiKey: TELEPHONY_KEY });

  it("shows each call's own tracking number in the domain's national form", async () => {
    const called: string[] = [];
    for (let i = 0; i < 9; i++) {
      const number = NUMBERS[(i * 2) % 3]!;
      called.push(number.replace(/\D/g, ''));
      const res = await reportCall(s.collector.baseUrl, { callRef: `pn-${i}`, trackingNumber: number, callerPhone: `(773) 555-01${String(i).padStart(2, '0')}`, startDate: new Date(Date.UTC(2026, 2, 3, 15, i)) });
      expect(res.status).toBe(200);
    }
    const page = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: '2026-03-01', end_date: '2026-03-31', page: 1, limit: 10 });
    expect(page.body.status).toBe('OK');
    expect(page.body.results.map((r: { tracking_number: string }) => r.tracking_number)).toEqual(called);
    expect(page.body.results.map((r: { caller: string }) => r.caller)).toEqual(called.map((_, i) => `773555010${i}`));
    expect(new Set(page.body.results.map((r: { phone: string }) => r.phone))).toEqual(new Set(['3125550199']));
  });
});
