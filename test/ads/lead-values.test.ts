// A lead reaches Google with its value (issue 69), tried as a US agency did: a USD domain whose
// transcripts are valued by a rule at `transcript-ready` (120) and whose people set a value later
// (250). The lead waits for its transcript, goes with 120, and is restated to 250 under the same
// transaction id; the connection's test event is in the domain's currency. Google's own client
// against the Data Manager stand-in (helpers/google-data-manager.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adCalls, ADS_OWNER, useAdsCollector } from '../helpers/ads.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { startDataManager, type DataManagerStandIn } from '../helpers/google-data-manager.ts';
import { until } from '../helpers/until.ts';
import { VALUE_WAIT_MS } from '../../collector/src/ads/ads-queue.ts';
import { wireWrites } from '../../collector/src/house/writes.ts';

let google: DataManagerStandIn;
beforeAll(async () => {
  google = await startDataManager();
});
afterAll(() => google?.close());

const s = useAdsCollector('ads_lead_values', () => ({ googleDataManager: google.base }));
const adCall = adCalls(s);

const eventsOf = (callId: number) => google.requests.filter((r) => !r.body.validateOnly).flatMap((r) => r.body.events as { transactionId: string; conversionValue: number; currency: string }[]).filter((e) => e.transactionId === `ringtrail-call-${callId}`);
const conversion = (callId: number) => s.t.c.adsConversions.findOne({ _id: `google|call:${callId}` });

describe('a lead with its value', () => {
  let owner: ManageClient;
  beforeAll(async () => {
    owner = await signedInClient(s.collector.baseUrl, ADS_OWNER.username, ADS_OWNER.password);
    expect((await owner.call('PATCH', '/domains/shop.test', { currency: 'USD', transcription: { enabled: true }, recording: { enabled: true } })).status).toBe(200);
  });

  it("checks the connection with a test event in the domain's currency", async () => {
    const connected = await owner.call('PUT', '/domains/shop.test/ads/google', { operatingAccountId: '123-456-7890', conversionActionId: '987654321', serviceAccountKey: JSON.stringify(google.key) });
    expect(connected.status).toBe(200);
    const check = google.requests.find((r) => r.body.validateOnly)!;
    expect(check.body.events[0]).toMatchObject({ currency: 'USD' });
  });

  it('waits for the transcript a rule values, sends the lead at 120, then restates it to 250 when a person values it', async () => {
    const rule = await owner.call('POST', '/domains/shop.test/rules', { name: 'Booked on the phone', moment: 'transcript-ready', match: 'all', conditions: [], actions: [{ type: 'value', amount: 120 }] });
    expect(rule.status).toBe(201);
    const callId = await adCall('gclid=GCLID-VALUED');
    // A lead at once (the lead rule), held for its transcript: its message is due when the wait ends.
    await until(async () => (await conversion(callId))?.state === 'queued', 'the lead queued');
    expect((await conversion(callId))!.holdUntil!.getTime()).toBeGreaterThan(Date.now() + VALUE_WAIT_MS - 60_000);
    const held = await s.t.c.outbox.findOne({ _id: { $regex: /^ads_google_shop\.test_held_/ } });
    expect(held).toMatchObject({ stream: 'ads-held:shop.test:google', nextAttemptAt: expect.any(Date) });
    expect(held!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + VALUE_WAIT_MS - 60_000);
    expect(eventsOf(callId)).toEqual([]);

    // The transcript is made: the rule values the call at 120, and the lead goes with it.
    const { writes } = wireWrites(s.t.c, { publicUrl: s.collector.baseUrl });
    await writes.change(callId, () => ({ transcript: { status: 'ready', keyPhrases: [], at: new Date() } }));
    await until(async () => (await conversion(callId))?.state === 'sent', 'the lead sent once its transcript came');
    expect((await s.t.c.calls.findOne({ _id: callId }))!.value).toBe(120);
    expect(eventsOf(callId)).toEqual([expect.objectContaining({ conversionValue: 120, currency: 'USD' })]);

    // A person values it at 250 after it was sent: restated under the same transaction id.
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/value`, { value: 250 })).status).toBe(200);
    await until(async () => eventsOf(callId).length === 2, 'the restatement sent');
    expect(eventsOf(callId)[1]).toMatchObject({ conversionValue: 250, currency: 'USD' });
    await until(async () => (await conversion(callId))?.state === 'sent', 'the lead sent again');
    expect((await conversion(callId))!.reason).toBeUndefined();
  });

  it('waits for the analysis a rule reads: "appointment booked" makes it a lead of 200, sent to Google with its value', async () => {
    await s.t.c.rules.updateMany({}, { $set: { enabled: false } });
    expect((await owner.call('PATCH', '/domains/shop.test', { analysis: { enabled: true, questions: [] } })).status).toBe(200);
    const rule = await owner.call('POST', '/domains/shop.test/rules', { name: 'Appointment booked', moment: 'analysis-ready', match: 'all', conditions: [{ field: 'outcome', name: 'appointmentBooked', op: 'is', value: 'yes' }], actions: [{ type: 'verdict', verdict: 'lead' }, { type: 'value', amount: 200 }] });
    expect(rule.status).toBe(201);
    const callId = await adCall('gclid=GCLID-BOOKED');
    await until(async () => (await conversion(callId))?.state === 'queued', 'the lead queued');
    expect((await conversion(callId))!.holdUntil).toBeDefined();

    // The transcript alone does not release it: the analysis that a rule values is still to come.
    const { writes } = wireWrites(s.t.c, { publicUrl: s.collector.baseUrl });
    await writes.change(callId, () => ({ transcript: { status: 'ready', keyPhrases: [], at: new Date() } }));
    expect(await conversion(callId)).toMatchObject({ state: 'queued', holdUntil: expect.any(Date) });

    // The model read "appointment booked" (as the analysis job writes it): the rule qualifies and values the call, and the lead goes at 200.
    const judged = (answer: 'yes' | 'no') => ({ answer, ...(answer === 'yes' ? { quote: 'see you Friday at nine', turn: 3, start: 41.2 } : {}) });
    await writes.change(callId, () => ({
      analysis: { status: 'ready', at: new Date(), model: 'qwen2.5:7b', summary: 'Booked a boiler service.', intent: 'boiler service', outcomes: { appointmentBooked: judged('yes'), quoteGiven: judged('no'), saleMade: judged('no'), existingCustomer: judged('no'), spam: judged('no'), followUpNeeded: judged('no') }, followUp: '', leadScore: 85, leadScoreReasons: [], sentiment: 'positive', answers: [] },
    }));
    await until(async () => (await conversion(callId))?.state === 'sent', 'the lead sent once its analysis came');
    expect(await s.t.c.calls.findOne({ _id: callId })).toMatchObject({ value: 200, lead: true, verdict: { value: 'lead', by: 'rule Appointment booked' } });
    expect(eventsOf(callId)).toEqual([expect.objectContaining({ conversionValue: 200, currency: 'USD' })]);
    await s.t.c.domains.updateOne({ _id: 'shop.test' }, { $unset: { analysis: '' } });
  });

  it('sends a lead at once where no rule can value it later', async () => {
    await s.t.c.rules.updateMany({}, { $set: { enabled: false } });
    const callId = await adCall('gclid=GCLID-AT-ONCE');
    await until(async () => (await conversion(callId))?.state === 'sent', 'the lead sent');
    expect((await conversion(callId))!.holdUntil).toBeUndefined();
  });

  it('never holds a lead for a transcript that cannot come: the domain records no calls, so none is made (issue 80)', async () => {
    expect((await owner.call('PATCH', '/domains/shop.test', { recording: { enabled: false } })).status).toBe(200);
    await s.t.c.rules.updateMany({ name: 'Booked on the phone' }, { $set: { enabled: true } });
    const callId = await adCall('gclid=GCLID-NO-RECORDING');
    await until(async () => (await conversion(callId))?.state === 'sent', 'the lead sent');
    expect((await conversion(callId))!.holdUntil).toBeUndefined();
    expect(eventsOf(callId)).toHaveLength(1);
  });
});
