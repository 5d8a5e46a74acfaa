// The OpenAPI document's examples are real answers: example-tour.ts asks every operation once, and
// each stored example (collector/src/openapi/examples.json) must fit its operation's answer schema
// and have the shape the collector answers today. `RECORD_EXAMPLES=1 npx vitest run
// test/openapi/examples.test.ts` records them again after an answer changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_FILE, successStatus, type Examples } from '../../collector/src/openapi/examples.ts';
import { openApiPath } from '../../collector/src/openapi/document.ts';
import { OPERATIONS } from '../../collector/src/openapi/operations.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { TELEPHONY_KEY, TWILIO_TOKEN } from '../helpers/telephony.ts';
import { exampleTour, tourFixture, tourTwilioApi, type Tour } from './example-tour.ts';
import { startSttStandIn } from '../helpers/openai-stt.ts';
import { answerOf, startChatStandIn } from '../helpers/openai-chat.ts';
import { startDataManager } from '../helpers/google-data-manager.ts';
import { startHubSpot } from '../helpers/hubspot-stand-in.ts';

// Mail configured, so the mail routes answer their success; nothing listens on port 9 (discard),
// so the test e-mail stays in the outbox, retried.
// The account's Twilio account is a loopback stand-in of Twilio's REST API.
const twilioApi = await tourTwilioApi();
afterAll(() => twilioApi.close());
// Transcripts come from a loopback stand-in of OpenAI's speech-to-text API.
const engine = await startSttStandIn();
engine.fallback = () => ({ kind: 'words', words: ['Hello,', 'how', 'much', 'is', 'a', 'new', 'boiler?'] });
afterAll(() => engine.close());
// The owner's language model reads the transcribed call: a loopback stand-in of chat completions.
const model = await startChatStandIn();
model.fallback = () => ({ kind: 'text', content: answerOf({ summary: 'The caller asked the price of a new boiler.', intent: 'a new boiler', outcomes: { appointmentBooked: { answer: 'no', quote: '' }, quoteGiven: { answer: 'no', quote: '' }, saleMade: { answer: 'no', quote: '' }, existingCustomer: { answer: 'unknown', quote: '' }, spam: { answer: 'no', quote: '' }, followUpNeeded: { answer: 'yes', quote: 'how much is a new boiler' } }, followUp: 'send a quote', leadScore: 70 }) });
afterAll(() => model.close());
// Google's Data Manager API is a loopback stand-in too (ads/).
const google = await startDataManager();
afterAll(() => google.close());
// And HubSpot's CRM API (crm/).
const hubspot = await startHubSpot();
afterAll(() => hubspot.close());
const s = useSeededCollector('openapi_examples', tourFixture(), { adsEndpoints: { googleDataManager: google.base }, telephonyApiKey: TELEPHONY_KEY, twilio: { authToken: TWILIO_TOKEN }, delivery: { publicOnly: false }, signUp: true, mail: { smtpUrl: 'smtp://127.0.0.1:9', from: 'RingTrail <calls@shop.test>' }, twilioApiBase: twilioApi.base, hubspotApiBase: hubspot.base, secretsKey: Buffer.alloc(32, 7), transcribe: { url: engine.url, model: 'whisper-1', name: 'transcribe.example', englishOnly: false }, analyze: { url: model.url, model: 'qwen2.5:7b' }, softphone: { wsUri: 'wss://sip.shop.test:8443', domain: 'sip.shop.test', secret: 'the-secret-the-sip-edge-shares-with-ringtrail', ttlSeconds: 4 * 3600, iceUrls: ['stun:turn.shop.test:3478', 'turn:turn.shop.test:3478?transport=udp'] } });
let tour: Tour;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  tour = await exampleTour(s.collector.baseUrl, receiver.url(), google.key, hubspot.token);
  if (process.env.RECORD_EXAMPLES) writeFileSync(EXAMPLES_FILE, `${JSON.stringify(tour, null, 2)}\n`);
}, 60_000);
afterAll(() => receiver?.close());

const stored = () => JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples;
const opOf = (key: string) => OPERATIONS.find((op) => `${op.method} ${openApiPath(op.path)}` === key)!;

/** A value's structure without its values: keys, and the types of what they hold. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, shape(v)]));
  if (typeof value === 'string' && value.startsWith('<?xml')) return value.match(/<\w+/g); // TwiML: its verbs in order
  if (typeof value === 'string' && value.includes('\n')) return value.split('\n')[0]; // CSV: its header
  return value === null ? 'null' : typeof value;
}

describe('the examples of the OpenAPI document', () => {
  it('come from an answer of every operation that answers a body, each its success', () => {
    const withBody = OPERATIONS.filter((op) => {
      const answer = op.responses[successStatus(op)];
      return (answer?.schema || answer?.type === 'text/xml' || answer?.type === 'text/csv') && op.path !== '/openapi.json';
    }).map((op) => `${op.method} ${openApiPath(op.path)}`);
    expect(Object.keys(tour).sort()).toEqual(withBody.sort());
    // HTTP 200 is not enough: the families answer their errors with it too.
    // (The back end answers errors with their HTTP status: a `status` in its answers is a call's.)
    const familyStatus = (key: string, body: unknown) => (!key.includes(' /manage/') && body && typeof body === 'object' && 'status' in body ? body.status : 'OK');
    const failed = Object.entries(tour).filter(([key, answer]) => answer.status !== successStatus(opOf(key)) || !['OK', 'success', 'ok', 'ready'].includes(familyStatus(key, answer.body) as string));
    expect(Object.fromEntries(failed)).toEqual({});
  });

  it('fit the schema the document gives each answer', () => {
    for (const [key, answer] of Object.entries(stored())) {
      const schema = opOf(key).responses[answer.status]!.schema;
      if (schema) expect(schema.safeParse(answer.body).error, key).toBeUndefined();
    }
  });

  it('have the shape of what the collector answers today', () => {
    const examples = stored();
    expect(Object.keys(examples).sort()).toEqual(Object.keys(tour).sort());
    for (const [key, answer] of Object.entries(tour)) expect(shape(examples[key]!.body), key).toEqual(shape(answer.body));
  });
});
