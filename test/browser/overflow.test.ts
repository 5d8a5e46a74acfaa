// A pool's overflow number: shown by the browser doors when every number is held (the /osp*
// endpoints keep their WARNING), never claimed, and a call to it attributed when one visit was
// shown it in the minutes before.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const ORIGIN = 'http://shop.test';
const OVERFLOW = '0800000099';
const fixture = trackingFixture({ exclusive: ['0800000001'] });
Object.assign(fixture.accounts[0]!.domains[0]!.pools[0]!, { overflowNumber: OVERFLOW });

describe('pool overflow', () => {
  const s = useSeededCollector('overflow', fixture, { telephonyApiKey: TELEPHONY_KEY });
  const door = async (path: string, fields: Record<string, string | number>, ip: string) => {
    const res = await fetch(`${s.collector.baseUrl}${path}`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8', 'x-forwarded-for': ip },
      body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString(),
    });
    return (await res.json()) as any;
  };
  const view = (ip: string) => door('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, page_title: 'Contact', referer_url: '', phones: '0123456789' }, ip);
  const callTo = async (callRef: string, startDate: Date) => {
    const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber: OVERFLOW, startDate });
    return s.t.c.calls.findOne({ _id: body.callId });
  };

  it('shows the overflow number to a visitor the full pool refuses; /ospView keeps its WARNING', async () => {
    const first = await view('198.51.100.1');
    expect(first.surtaxPhones['0123456789'].surtaxPhoneNumber).toBe('08.00.00.00.01');
    const second = await view('198.51.100.2');
    expect(second).toMatchObject({ status: 'OK', surtaxPhones: { '0123456789': { surtaxPhoneNumber: '08.00.00.00.99', surtaxPhoneCode: null } } });
    expect(await s.t.c.overflowShows.findOne({ _id: second.viewId })).toMatchObject({ number: OVERFLOW, visitId: second.visitId, phone: '0123456789' });
    expect((await s.collector.post('/ospView', viewParams({ ip: '198.51.100.3' }))).body).toMatchObject({ status: 'WARNING' });
    // Never claimed: the pool still has one number, and the overflow number has no slot.
    expect(await s.t.c.slots.countDocuments({ domainId: 'shop.test', type: 1 })).toBe(1);
    expect(await s.t.c.slots.findOne({ _id: OVERFLOW })).toBeNull();
    // A click in a full pool gets it too.
    const click = await door('/t/click', { key: 'pk-test-key', visit_id: second.visitId, view_id: second.viewId, phone: '0123456789' }, '198.51.100.2');
    expect(click).toMatchObject({ status: 'OK', surtaxPhone: { surtaxPhoneNumber: '08.00.00.00.99' } });
  });

  it('attributes a call to it when one visit was shown it in the minutes before, not when several were', async () => {
    const shown = (await s.t.c.overflowShows.find().toArray()).map((d) => d.visitId);
    expect(new Set(shown).size).toBe(1);
    expect(await callTo('o-1', new Date())).toMatchObject({ route: 'overflow', destination: '0123456789', visitId: shown[0], matchCandidates: 1, matchConfidence: 'likely', source: 'direct' });
    await view('198.51.100.4'); // another visitor refused a number: two candidates now
    expect(await callTo('o-2', new Date())).toMatchObject({ route: 'overflow', destination: '0123456789', visitId: null, matchCandidates: 2, matchConfidence: 'possible' });
    expect(await callTo('o-3', new Date(Date.now() + 20 * 60_000))).toMatchObject({ route: 'overflow', visitId: null, matchCandidates: 0, matchConfidence: 'none' });
  });
});
