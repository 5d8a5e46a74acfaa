// How sure a call's attribution is: the visits that held the number in the reservation window
// before the call, and a confidence, kept on the call and shown by the data API (our own field).
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const MINUTE = 60_000;
/** Before the first call: the data API's range from this day to today holds the calls made "now". */
const started = new Date();

describe('call match confidence', () => {
  // One exclusive number, held 30 minutes by default: the reservation window.
  const s = useSeededCollector('call_match', trackingFixture({ exclusive: ['0800000001'], defaultExpiration: 1800 }), { telephonyApiKey: TELEPHONY_KEY });
  const holdFor = async (ip: string, expiration: number) => {
    const view = await s.collector.post('/ospView', viewParams({ ip, expiration }));
    return { visitId: view.body.visitId as number, number: view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '') as string };
  };
  const matchOf = async (callRef: string, trackingNumber: string, startDate: Date) => {
    const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber, startDate });
    const call = (await s.t.c.calls.findOne({ _id: body.callId }))!;
    return { candidates: call.matchCandidates, confidence: call.matchConfidence, visitId: call.visitId };
  };

  it('is certain when one visit held the number and still holds it', async () => {
    const a = await holdFor('198.51.100.1', 1);
    expect(await matchOf('m-1', a.number, new Date())).toEqual({ candidates: 1, confidence: 'certain', visitId: a.visitId });
  });

  it('is likely when the number changed hands shortly before, possible after the hold ended, none when nobody held it', async () => {
    await new Promise((r) => setTimeout(r, 1100)); // the first visit's second ends: the number goes back to the pool
    const b = await holdFor('198.51.100.2', 60);
    expect(await s.t.c.leases.countDocuments({ number: b.number })).toBe(2); // the first visit held it, then this one
    expect(await matchOf('m-2', b.number, new Date())).toEqual({ candidates: 2, confidence: 'likely', visitId: b.visitId });
    // Twenty minutes on, nobody holds it (the second hold was 60 s), both visits did in the 30 minutes before.
    expect(await matchOf('m-3', b.number, new Date(Date.now() + 20 * MINUTE))).toMatchObject({ candidates: 2, confidence: 'possible' });
    // Two hours on, both holds ended before the window.
    expect(await matchOf('m-4', b.number, new Date(Date.now() + 120 * MINUTE))).toMatchObject({ candidates: 0, confidence: 'none' });
    expect(await matchOf('m-6', '0100000001', new Date())).toMatchObject({ candidates: null, confidence: null }); // offline
  });

  it('shows it in the data API records, as our own fields', async () => {
    const day = (at: Date) => at.toISOString().slice(0, 10);
    const { body } = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: day(started), end_date: day(new Date()), page: 1, limit: 50 });
    const confidences = body.results.map((r: { match_confidence?: string; match_candidates?: number }) => [r.match_confidence, r.match_candidates]);
    expect(confidences).toEqual(expect.arrayContaining([['certain', 1], ['likely', 2], [undefined, undefined]]));
  });
});

describe('the caller and the visitor of a call (issue 52)', () => {
  const s = useSeededCollector('call_match_people', trackingFixture({ exclusive: ['0800000001'], defaultExpiration: 1800 }), { telephonyApiKey: TELEPHONY_KEY });
  const hold = async (ip: string, expiration: number, visitor: string) => (await s.collector.post('/ospView', viewParams({ ip, expiration, unique_visitor_id: visitor }))).body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '') as string;
  const call = async (callRef: string, trackingNumber: string, callerPhone: string) => {
    const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber, startDate: new Date(), callerPhone });
    const stored = (await s.t.c.calls.findOne({ _id: body.callId }))!;
    const keys = (await s.t.c.personKeys.find({ personId: stored.personId! }).toArray()).map((k) => k._id);
    return { confidence: stored.matchConfidence, keys: keys.sort() };
  };

  it('are joined only when the match is certain: a number that changed hands joins the caller to no visitor', async () => {
    // One visitor held it, and still does: the caller is that visitor.
    const number = await hold('198.51.100.3', 1, 'visitor-one');
    expect(await call('p-1', number, '0655555501')).toEqual({ confidence: 'certain', keys: ['shop.test|phone:0655555501', 'shop.test|visitor:visitor-one'] });
    // The number changed hands shortly before: the caller may be either visitor, and joins neither.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await hold('198.51.100.4', 60, 'visitor-two')).toBe(number);
    expect(await call('p-2', number, '0655555502')).toEqual({ confidence: 'likely', keys: ['shop.test|phone:0655555502'] });
  });
});
