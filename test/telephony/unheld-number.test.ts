// A team's finding of issue 52: a call to a pool number nobody held kept no outcome but NOTASSIGNED,
// so a missed one raised no alert and an answered one was no lead. Appendix A's status stays
// NOTASSIGNED (the data API is the spec's), but "not assigned" is about attribution only: the call
// keeps its true outcome (our `outcome`), which the back end shows, the alert and the lead rule read.
import { describe, expect, it } from 'vitest';
import { DATA_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { useMailedCollector } from '../helpers/mailed-collector.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'unheld number password' };

describe('a call to a pool number nobody holds', () => {
  const m = useMailedCollector('unheld_number', trackingFixture({ users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, publicOnly: false }, publicUrl: 'https://calls.shop.test', alertTimings: { everyMs: 50, gatherMs: 500 } });

  it('keeps its true outcome: missed raises the missed-call alert, answered is a lead; the data API says NOTASSIGNED', async () => {
    const missed = await reportCall(m.collector.baseUrl, { callRef: 'unheld-1', trackingNumber: '0800000003', startDate: new Date(), status: 'NORESPONSE', duration: 0, callerPhone: '0611000001' });
    const [mail] = await m.inbox.received(1);
    expect(mail!.subject).toBe('Missed call from 06 11 00 00 01 (shop.test)');
    expect(mail!.text).toContain('Outcome: No answer (a number nobody held: not attributed)');

    const answered = await reportCall(m.collector.baseUrl, { callRef: 'unheld-2', trackingNumber: '0800000003', startDate: new Date(Date.now() + 1000), status: 'SUCCESS', duration: 75, callerPhone: '0611000002' });
    expect(await m.t.c.calls.findOne({ _id: answered.body.callId })).toMatchObject({ status: 'NOTASSIGNED', outcome: 'SUCCESS', lead: true, visitId: null });

    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    const { calls } = (await owner.get('/domains/shop.test/reports/calls')).body;
    const rowOf = (id: number) => calls.find((c: { callId: number }) => c.callId === id);
    expect(rowOf(missed.body.callId)).toMatchObject({ status: 'NOTASSIGNED', outcome: 'NORESPONSE' });
    expect(rowOf(answered.body.callId)).toMatchObject({ status: 'NOTASSIGNED', outcome: 'SUCCESS', lead: true });

    const today = new Date().toISOString().slice(0, 10);
    const data = await (await fetch(`${m.collector.baseUrl}/data-api?${new URLSearchParams({ api_key: DATA_KEY, type: 'calls', start_date: today, end_date: today, page: '1', limit: '10' })}`)).json();
    expect(data.results.map((r: { status: string }) => r.status)).toEqual(['NOTASSIGNED', 'NOTASSIGNED']);
  });
});
