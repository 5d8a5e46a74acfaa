// A call's analysis through the collector (issue 66): its recording transcribed (a loopback
// speech-to-text stand-in), the transcript queued for the owner's model (a loopback chat completions
// stand-in, through the official client), the answer kept on the call once, across a restart, a
// `yes` its quote does not prove kept as `unknown`, the data API's `analysis` and the `analysis` push.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCollector, seed, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture, WEBHOOK_SECRET } from '../helpers/fixtures.ts';
import { startReceiver, verifiedPush, type Receiver } from '../helpers/receiver.ts';
import { answerOf, startChatStandIn, type ChatStandIn } from '../helpers/openai-chat.ts';
import { startSttStandIn, type SttStandIn } from '../helpers/openai-stt.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { toneWav } from '../helpers/wav.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { analysisMessage } from '../../collector/src/analysis/analyzer.ts';
import { daysAroundNow } from '../helpers/days.ts';

let t: TestDatabase;
let stt: SttStandIn;
let chat: ChatStandIn;
let collector: RunningCollector;
let receiver: Receiver;
const QUESTION = 'Did the caller ask for emergency service?';
const OWNER = { username: 'owner@shop.test', password: 'analysis-job-password' };
const options = () => ({
  telephonyApiKey: TELEPHONY_KEY,
  delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false },
  transcribe: { url: stt.url, apiKey: 'sk-stt', model: 'whisper-1', name: 'stand-in', englishOnly: false, minTimeoutMs: 1000 },
  analyze: { url: chat.url, apiKey: 'sk-llm', model: 'qwen2.5:7b', timeoutMs: 5000 },
  metricsKey: METRICS_KEY,
});
const METRICS_KEY = 'metrics-analysis-key';
/** A metric's value in the collector's scrape. */
const metric = async (line: string) => {
  const text = await (await fetch(`${collector.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_KEY}` } })).text();
  return Number(text.split('\n').find((l) => l.startsWith(`${line} `))?.slice(line.length + 1));
};
beforeAll(async () => {
  [stt, chat, receiver] = await Promise.all([startSttStandIn(), startChatStandIn(), startReceiver()]);
  stt.fallback = () => ({ kind: 'words', words: ['my', 'boiler', 'is', 'leaking', 'please', 'come', 'today', 'it', 'is', 'urgent'] });
  t = await testDatabase('analysis_job');
  const fixture = trackingFixture({ users: [OWNER], settings: { transcription: { enabled: true, language: 'en' }, analysis: { enabled: true, questions: [QUESTION] } } });
  // The account asks for the `analysis` push only.
  Object.assign(fixture.accounts[0]!, { webhookUrl: receiver.url(), webhookSecret: WEBHOOK_SECRET, webhookEvents: ['analysis'] });
  await seed(t.c, fixture);
  collector = await startCollector(t.db, options());
});
afterAll(async () => {
  await collector?.close();
  await t?.close();
  await Promise.all([stt?.close(), chat?.close(), receiver?.close()]);
});

async function recordedCall(callRef: string): Promise<number> {
  const { body } = await reportCall(collector.baseUrl, { callRef, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 3 });
  const sent = await fetch(`${collector.baseUrl}/telephony/calls/${body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: new Uint8Array(toneWav(3, { channels: 1 })) });
  expect(sent.status).toBe(200);
  return body.callId;
}
/** The pushes received, each once: a push delivered again (its answer lost at a restart) has the same `webhook-id`. */
const pushes = () => [...new Map(receiver.received.map((r) => [r.headers['webhook-id'], verifiedPush(r, WEBHOOK_SECRET)])).values()];
const analysisOf = async (callId: number) => (await t.c.calls.findOne({ _id: callId }))?.analysis;

describe('a call analysed by the owner’s model', () => {
  it('is analysed once its transcript is ready, each yes proved by its quote, kept once across a restart, and shown by the data API', async () => {
    chat.requests.length = 0;
    chat.fallback = () => ({
      kind: 'text',
      content: answerOf({
        summary: 'A leaking boiler, urgent.',
        intent: 'boiler repair',
        outcomes: { appointmentBooked: { answer: 'yes', quote: 'I booked you for Friday' }, quoteGiven: { answer: 'no', quote: '' }, saleMade: { answer: 'no', quote: '' }, existingCustomer: { answer: 'unknown', quote: '' }, spam: { answer: 'no', quote: '' }, followUpNeeded: { answer: 'yes', quote: 'please come today' } },
        followUp: 'send a plumber today',
        leadScore: 80,
        sentiment: 'negative',
        questions: [{ answer: 'yes', quote: 'it is urgent' }],
      }),
    });
    const callId = await recordedCall('analysis-1');
    await expect.poll(() => analysisOf(callId), { timeout: 20_000 }).toMatchObject({ status: 'ready' });
    const analysis = (await analysisOf(callId))!;
    expect(analysis).toMatchObject({ model: 'qwen2.5:7b', summary: 'A leaking boiler, urgent.', leadScore: 80, sentiment: 'negative' });
    expect(analysis.outcomes!.followUpNeeded).toEqual({ answer: 'yes', quote: 'please come today', turn: 0, start: 0 });
    expect(analysis.outcomes!.appointmentBooked).toEqual({ answer: 'unknown', quote: 'I booked you for Friday', rejected: 'the quote is not in the transcript' });
    expect(analysis.answers).toEqual([{ question: QUESTION, answer: 'yes', quote: 'it is urgent', turn: 0, start: 0 }]);
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]!.messages[0]!.content).toContain(QUESTION);
    expect(chat.requests[0]!.messages[1]!.content).toContain('my boiler is leaking please come today it is urgent');

    const { from, to } = daysAroundNow();
    const records = (await collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 50 })).body.results as any[];
    expect(records.find((r) => r.call_id === callId).analysis).toEqual({
      summary: 'A leaking boiler, urgent.',
      intent: 'boiler repair',
      outcomes: { appointmentBooked: 'unknown', quoteGiven: 'no', saleMade: 'no', existingCustomer: 'unknown', spam: 'no', followUpNeeded: 'yes' },
      lead_score: 80,
      sentiment: 'negative',
      answers: [{ question: QUESTION, answer: 'yes' }],
    });
    // The `analysis` push, signed, carries the same answers; the account did not ask for `call` pushes.
    await receiver.waitFor(1);
    expect(pushes()).toEqual([{ callId, type: 'analysis', view: null, cart: null, order: null, analysis: records.find((r) => r.call_id === callId).analysis }]);

    // After a restart, the job of an analysed call met again (a process that died before the outbox
    // knew it was done) asks nothing: the call keeps its analysis.
    await collector.close();
    await new Outbox(t.c).enqueue({ ...analysisMessage('Test account', callId), id: `analysis_${callId}_again` });
    collector = await startCollector(t.db, options());
    await expect.poll(() => t.c.outbox.countDocuments({ kind: 'analysis' }), { timeout: 20_000 }).toBe(0);
    expect(chat.requests).toHaveLength(1);
    expect(await analysisOf(callId)).toEqual(analysis);
    expect(await t.c.outbox.countDocuments({ label: 'analysis', kind: 'webhook' })).toBe(0);
    expect(pushes()).toHaveLength(1);
  });

  it('leaves the call saying why when the model refuses for good', async () => {
    chat.next = [{ kind: 'error', status: 404, message: "model 'qwen2.5:7b' not found, try pulling it first", type: 'not_found_error' }];
    const callId = await recordedCall('analysis-2');
    await expect.poll(() => analysisOf(callId), { timeout: 20_000 }).toMatchObject({ status: 'failed', error: "the model answered 404: model 'qwen2.5:7b' not found, try pulling it first" });
  });

  it('says on the call page and its calls-log row, while it retries, that the model keeps failing, in its words (issue 80)', async () => {
    const loading = { kind: 'error' as const, status: 503, message: "model 'qwen2.5:7b' is loading", type: 'server_error' };
    chat.next = Array.from({ length: 400 }, () => loading);
    const callId = await recordedCall('analysis-retrying');
    const owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
    const said = (jobs: { job: string; error: string; attempts: number }[] | undefined) => jobs?.find((j) => j.job === 'Analysis by the language model');
    await expect.poll(async () => said((await owner.get(`/domains/shop.test/calls/${callId}`)).body.retrying), { timeout: 20_000 }).toMatchObject({ kind: 'analysis', error: expect.stringContaining("model 'qwen2.5:7b' is loading"), attempts: expect.any(Number) });
    const { from, to } = daysAroundNow();
    const row = (await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}`)).body.calls.find((c: { callId: number }) => c.callId === callId);
    expect(said(row.retrying)).toMatchObject({ error: expect.stringContaining("model 'qwen2.5:7b' is loading") });
    // The model is back: the analysis is made, and nothing says it fails any more.
    chat.next = [];
    await expect.poll(() => analysisOf(callId), { timeout: 20_000 }).toMatchObject({ status: 'ready' });
    expect(said((await owner.get(`/domains/shop.test/calls/${callId}`)).body.retrying)).toBeUndefined();
  });

  it('counts the analyses by result and the queue waiting for the model', async () => {
    expect(await metric('ringtrail_analyses_total{result="failed"}')).toBe(1);
    await expect.poll(() => metric('ringtrail_analyses_queued')).toBe(0);
    // A call waiting for the model (its attempt due in an hour) is in the queue's depth.
    const waiting = await new Outbox(t.c).enqueue({ ...analysisMessage('Test account', 999_999), id: 'analysis_waiting' }, new Date(), new Date(Date.now() + 3600_000));
    expect(await metric('ringtrail_analyses_queued')).toBe(1);
    await t.c.outbox.deleteOne({ _id: waiting });
  });

  it("names the server and model in Settings, and tries them on a sample call: the raw answer as it came, each yes checked against the sample", async () => {
    const owner = await signedInClient(collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/domains/shop.test/analysis')).body).toEqual({ configured: true, server: chat.url, model: 'qwen2.5:7b', enabled: true, questions: [QUESTION] });
    chat.requests.length = 0;
    const raw = answerOf({ summary: 'A boiler repair booked for two o clock.', leadScore: 90, sentiment: 'positive', outcomes: { appointmentBooked: { answer: 'yes', quote: 'you are booked for two today' }, quoteGiven: { answer: 'yes', quote: 'the call-out is 200 dollars' }, saleMade: { answer: 'no', quote: '' }, existingCustomer: { answer: 'unknown', quote: '' }, spam: { answer: 'no', quote: '' }, followUpNeeded: { answer: 'no', quote: '' } }, questions: [{ answer: 'yes', quote: 'can someone come today' }] });
    chat.fallback = () => ({ kind: 'text', content: raw });
    const tried = await owner.call('POST', '/domains/shop.test/analysis/try');
    expect(tried.status).toBe(200);
    expect(tried.body).toMatchObject({ server: chat.url, model: 'qwen2.5:7b', format: 'json_schema', raw, seconds: expect.any(Number) });
    expect(tried.body.transcript).toContain('caller: That works, please book me for two o clock.');
    // The business's words book it (issue 79: the caller's "please book me" would not).
    expect(tried.body.analysis.outcomes.appointmentBooked).toMatchObject({ answer: 'yes', turn: 4, start: 21 });
    // The sample says 89 dollars: a quote it does not hold is not kept.
    expect(tried.body.analysis.outcomes.quoteGiven).toMatchObject({ answer: 'unknown', rejected: 'the quote is not in the transcript' });
    expect(tried.body.analysis.answers).toEqual([{ question: QUESTION, answer: 'yes', quote: 'can someone come today', turn: 1, start: 3 }]);
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]!.messages[0]!.content).toContain(QUESTION);

    // One try at a time: a second while the model still reads is refused; a model that fails says so.
    chat.next = [{ kind: 'hang' }];
    const first = owner.call('POST', '/domains/shop.test/analysis/try');
    await expect.poll(() => chat.requests.length).toBe(2);
    expect(await owner.call('POST', '/domains/shop.test/analysis/try')).toMatchObject({ status: 429, body: { error: 'A try is already running: wait for its answer' } });
    expect(await first).toMatchObject({ status: 502, body: { error: 'The model gave no answer: the model did not answer in time' } });
    chat.next = [{ kind: 'error', status: 401, message: 'Incorrect API key provided' }];
    expect(await owner.call('POST', '/domains/shop.test/analysis/try')).toMatchObject({ status: 502, body: { error: 'The model gave no answer: the model answered 401: Incorrect API key provided' } });
  });
});
