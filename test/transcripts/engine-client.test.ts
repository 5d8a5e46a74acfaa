// Transcripts through any OpenAI-compatible engine (issue 54), against a loopback stand-in answering
// as OpenAI's API reference documents: what the collector sends (the official `openai` library:
// multipart `file`, `model`, `language`, `response_format=verbose_json`, `timestamp_granularities[]`,
// the key as a bearer token), each channel of a dual-channel recording apart, and what it does when
// the engine fails: retried where that can help (5xx, 429, garbage, no answer), for good where it
// cannot (400), the call saying why, a transcript made once, and no request slowed meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { toneWav } from '../helpers/wav.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startSttStandIn, type SttStandIn } from '../helpers/openai-stt.ts';

const OWNER = { username: 'owner@shop.test', password: 'transcripts owner password' };
let engine: SttStandIn;
beforeAll(async () => {
  engine = await startSttStandIn();
});
afterAll(() => engine.close());

describe('transcripts from an OpenAI-compatible engine', () => {
  const settings = { transcription: { enabled: true }, keyPhrases: [{ label: 'price', phrases: ['combien'], speaker: 'caller' }] };
  const s = useSeededCollector('transcripts_engine', trackingFixture({ settings, users: [OWNER] }), {
    telephonyApiKey: TELEPHONY_KEY,
    delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false, giveUpAfterMs: 1500 },
    // Resolved lazily: the stand-in starts before the collector does.
    get transcribe() {
      return { url: engine.url, apiKey: 'sk-test-key', model: 'whisper-1', name: 'stand-in', englishOnly: false, minTimeoutMs: 1000 };
    },
  });
  let calls = 0;
  /** A call with a recording of `seconds` (two channels unless said), uploaded by the carrier. */
  async function recordedCall(seconds = 3, channels: 1 | 2 = 2): Promise<number> {
    const { body } = await reportCall(s.collector.baseUrl, { callRef: `stt-${++calls}`, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: seconds });
    const sent = await fetch(`${s.collector.baseUrl}/telephony/calls/${body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: new Uint8Array(toneWav(seconds, { channels })) });
    expect(sent.status).toBe(200);
    return body.callId;
  }
  const transcriptOf = async (callId: number) => (await s.t.c.calls.findOne({ _id: callId }))?.transcript;

  it('sends each channel apart as OpenAI documents it, and merges the answers into turns', async () => {
    engine.requests.length = 0;
    engine.next = [
      { kind: 'words', words: ['bonjour', 'combien', 'ça', 'coûte'], start: 0 },
      { kind: 'words', words: ['quatre-vingts', 'euros'], start: 1.5 },
    ];
    const callId = await recordedCall();
    await expect.poll(() => transcriptOf(callId), { timeout: 20_000 }).toMatchObject({ status: 'ready', keyPhrases: ['price'] });
    expect(engine.requests).toHaveLength(2);
    for (const request of engine.requests) {
      expect(request).toMatchObject({ authorization: 'Bearer sk-test-key', model: 'whisper-1', language: 'fr', responseFormat: 'verbose_json', granularities: ['word', 'segment'], fileType: 'audio/wav', channels: 1, sampleRate: 8000 });
    }
    expect(engine.requests.map((r) => r.fileName)).toEqual(['call-part-0-caller.wav', 'call-part-0-agent.wav']);
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const transcript = await owner.get(`/domains/shop.test/calls/${callId}/transcript`);
    expect(transcript.body.turns).toEqual([
      { speaker: 'caller', start: 0, end: 1.333, text: 'bonjour combien ça coûte' },
      { speaker: 'agent', start: 1.5, end: 2.167, text: 'quatre-vingts euros' },
    ]);
    expect(transcript.body).toMatchObject({ language: 'fr', engine: 'stand-in', model: 'whisper-1', text: 'caller: bonjour combien ça coûte\nagent: quatre-vingts euros' });
    expect((await owner.get(`/domains/shop.test/calls/${callId}/transcript?format=txt`)).text).toBe('caller: bonjour combien ça coûte\nagent: quatre-vingts euros\n');
    // The data API's record carries it (ours).
    const today = new Date().toISOString().slice(0, 10);
    const data = (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: today, end_date: today, page: 1, limit: 50 })).body;
    const record = data.results.find((r: { call_id: number }) => r.call_id === callId);
    expect([record.transcript, record.key_phrases]).toEqual(['caller: bonjour combien ça coûte\nagent: quatre-vingts euros', ['price']]);
  });

  it('retries a 500, a 429 and garbage, and makes the transcript once', async () => {
    engine.requests.length = 0;
    engine.next = [
      { kind: 'error', status: 500, message: 'The server had an error while processing your request.', type: 'server_error' },
      { kind: 'error', status: 429, message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
      { kind: 'garbage' },
      { kind: 'words', words: ['allô'] },
      { kind: 'words', words: ['oui'] },
    ];
    const callId = await recordedCall(2, 1);
    await expect.poll(() => transcriptOf(callId), { timeout: 20_000 }).toMatchObject({ status: 'ready' });
    // Mono: one file an attempt; the fourth attempt made it.
    expect(engine.requests.map((r) => r.fileName)).toEqual(Array(4).fill('call-part-0-mono.wav'));
    expect((await s.t.c.transcripts.findOne({ _id: callId }))!.text).toBe('allô');
    // Its message leaves the outbox once the attempt is settled (just after the call says so).
    await expect.poll(() => s.t.c.outbox.countDocuments({ kind: 'transcript' }), { timeout: 10_000 }).toBe(0);
  });

  it('gives up at once on a 400, the call saying what the engine said', async () => {
    engine.requests.length = 0;
    engine.next = [{ kind: 'error', status: 400, message: 'Invalid file format. Supported formats: flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm' }];
    const callId = await recordedCall(2, 1);
    await expect.poll(() => transcriptOf(callId), { timeout: 20_000 }).toMatchObject({ status: 'failed' });
    expect((await transcriptOf(callId))!.error).toBe('transcript could not be made: the engine answered 400: Invalid file format. Supported formats: flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm');
    expect(engine.requests).toHaveLength(1);
  });

  it('keeps trying an engine that is down until the outbox gives up, then the call says why; requests are not slowed', async () => {
    engine.requests.length = 0;
    engine.fallback = () => ({ kind: 'hang' });
    const callId = await recordedCall(2, 1);
    await expect.poll(() => engine.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
    // The engine holds the attempt: the collector answers its doors all the same.
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/domains/shop.test/reports/calls')).status).toBe(200);
    engine.fallback = () => ({ kind: 'error', status: 503, message: 'The engine is currently overloaded, please try again later', type: 'server_error' });
    await expect.poll(() => transcriptOf(callId), { timeout: 20_000, interval: 200 }).toMatchObject({ status: 'failed' });
    expect((await transcriptOf(callId))!.error).toBe('transcript could not be made: the engine answered 503: The engine is currently overloaded, please try again later');
    engine.fallback = () => ({ kind: 'words', words: ['hello'] });
  });

  it('makes an empty transcript of silence, not an error', async () => {
    engine.next = [{ kind: 'silence' }];
    const callId = await recordedCall(2, 1);
    await expect.poll(() => transcriptOf(callId), { timeout: 20_000 }).toMatchObject({ status: 'ready', keyPhrases: [] });
    expect((await s.t.c.transcripts.findOne({ _id: callId }))!.turns).toEqual([]);
  });
});
