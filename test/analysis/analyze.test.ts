// A call's analysis against a loopback stand-in of OpenAI's chat completions, through the official
// `openai` client: structured output asked first, JSON mode from a server that refuses it; an answer
// that does not fit asked once more; a `yes` whose quote is not in the transcript kept as `unknown`
// with why; a long call sent in parts and merged; a 429's Retry-After, a 500 and a slow answer as
// failures that say whether to try again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTranscript } from '../../collector/src/analysis/analyze.ts';
import { AnalysisFailure, ModelClient } from '../../collector/src/analysis/model-client.ts';
import { partsOf } from '../../collector/src/analysis/parts.ts';
import type { Turn } from '../../collector/src/transcripts/documents.ts';
import { answerOf, startChatStandIn, type ChatStandIn } from '../helpers/openai-chat.ts';

const TURNS: Turn[] = [
  { speaker: 'caller', start: 0, end: 4, text: 'Hello, my boiler is leaking. How much would a repair cost?' },
  { speaker: 'agent', start: 4, end: 9, text: 'A repair is 120 euros. I can book you for Tuesday at 10.' },
  { speaker: 'caller', start: 9, end: 12, text: 'Yes, Tuesday at ten is perfect, thank you!' },
];

let model: ChatStandIn;
beforeAll(async () => {
  model = await startChatStandIn();
});
afterAll(() => model.close());

const client = (timeoutMs = 5000) => new ModelClient({ url: model.url, apiKey: 'sk-test-key', model: 'qwen2.5:7b', timeoutMs });
const yes = (quote: string) => ({ answer: 'yes', quote });
const no = { answer: 'no', quote: '' };

describe('the analysis of a call', () => {
  it('asks with a JSON schema, keeps each yes its quote proves (case, punctuation, a misspelling), and turns an unproved yes into unknown', async () => {
    model.requests.length = 0;
    model.next = [
      {
        kind: 'text',
        content: answerOf({
          outcomes: { appointmentBooked: yes('I can book you for tuesday at 10'), quoteGiven: yes('a repair is 120 euro'), saleMade: yes('I will take the premium plan'), existingCustomer: no, spam: no, followUpNeeded: no },
          questions: [yes('my boiler is leaking')],
          leadScore: 85,
          sentiment: 'positive',
        }),
      },
    ];
    const analysis = await analyzeTranscript(client(), TURNS, { language: 'English', questions: ['Did the caller ask for emergency service?'] });
    const [request] = model.requests;
    expect(request).toMatchObject({ authorization: 'Bearer sk-test-key', model: 'qwen2.5:7b', responseFormat: { type: 'json_schema', json_schema: { name: 'call_analysis', strict: true } } });
    expect(request!.messages[0]!.content).toContain('Did the caller ask for emergency service?');
    expect(request!.messages[1]!.content).toContain('caller: Hello, my boiler is leaking.');
    expect(analysis.outcomes.appointmentBooked).toEqual({ answer: 'yes', quote: 'I can book you for tuesday at 10', turn: 1, start: 4 });
    expect(analysis.outcomes.quoteGiven).toEqual({ answer: 'yes', quote: 'a repair is 120 euro', turn: 1, start: 4 });
    expect(analysis.outcomes.saleMade).toEqual({ answer: 'unknown', quote: 'I will take the premium plan', rejected: 'the quote is not in the transcript' });
    expect(analysis.questions).toEqual([{ answer: 'yes', quote: 'my boiler is leaking', turn: 0, start: 0 }]);
    expect(analysis).toMatchObject({ leadScore: 85, sentiment: 'positive', parts: 1, format: 'json_schema' });
  });

  it('asks again once, saying what did not fit, and falls back to JSON mode on a server without structured output', async () => {
    model.requests.length = 0;
    model.next = [
      { kind: 'error', status: 400, message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", param: 'response_format' },
      { kind: 'text', content: '```json\n{"summary": "Half an answer"}\n```' },
      { kind: 'text', content: answerOf({ leadScore: 55 }) },
    ];
    const c = client();
    const analysis = await analyzeTranscript(c, TURNS, { language: 'English', questions: [] });
    expect(model.requests.map((r) => r.responseFormat?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
    expect(model.requests[2]!.messages.at(-1)!.content).toMatch(/^That answer does not fit the schema: intent: .*Answer again with the JSON object only\.$/);
    expect(analysis).toMatchObject({ leadScore: 55, format: 'json_object' });
    // The client remembers: the next call asks in JSON mode at once.
    model.next = [{ kind: 'text', content: answerOf() }];
    await analyzeTranscript(c, TURNS, { language: 'English', questions: [] });
    expect(model.requests.at(-1)!.responseFormat).toEqual({ type: 'json_object' });
  });

  it('sends a long call in parts of at most ANALYZE_MAX_CHARS and merges them: a yes of any part, the last part’s sentiment, the best score', async () => {
    const long: Turn[] = Array.from({ length: 40 }, (_, i) => ({ speaker: i % 2 ? 'agent' : 'caller', start: i * 5, end: i * 5 + 4, text: i === 33 ? 'Great, you are booked for Friday morning.' : `Line ${i} of a long conversation about heating systems and radiators.` }));
    const parts = partsOf(long, 1000);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.length <= 1000)).toBe(true);
    expect(parts.join('\n').split('\n')).toHaveLength(40);
    model.requests.length = 0;
    model.fallback = (r) => {
      const last = r.messages.at(-1)!.content.includes('booked for Friday');
      return { kind: 'text', content: answerOf({ summary: last ? 'Booked for Friday.' : 'Talked about radiators.', leadScore: last ? 90 : 30, sentiment: last ? 'positive' : 'neutral', outcomes: { appointmentBooked: last ? yes('you are booked for Friday morning') : no, quoteGiven: no, saleMade: no, existingCustomer: no, spam: no, followUpNeeded: no } }) };
    };
    const analysis = await analyzeTranscript(client(), long, { language: 'English', questions: [], maxChars: 1000 });
    expect(model.requests).toHaveLength(parts.length);
    expect(model.requests[0]!.messages[1]!.content).toMatch(new RegExp(`^Part 1 of ${parts.length} of the call\\.`));
    expect(analysis.outcomes.appointmentBooked).toMatchObject({ answer: 'yes', turn: 33 });
    expect(analysis).toMatchObject({ leadScore: 90, parts: parts.length });
    expect(analysis.summary).toContain('Booked for Friday.');
  });

  it('fails as the server says: a 429 after its Retry-After, a 500 to try again, a 401 for good, a slow answer past its deadline, nonsense twice', async () => {
    const failure = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err as AnalysisFailure);
    model.next = [{ kind: 'error', status: 429, message: 'Rate limit reached', type: 'rate_limit_error', retryAfter: 7 }];
    expect(await failure(client().ask('s', 'u'))).toMatchObject({ retry: true, retryAfterMs: 7000, message: 'the model answered 429: Rate limit reached' });
    model.next = [{ kind: 'error', status: 500, message: 'The server had an error' }];
    expect(await failure(client().ask('s', 'u'))).toMatchObject({ retry: true, retryAfterMs: null });
    model.next = [{ kind: 'error', status: 401, message: 'Incorrect API key provided' }];
    expect(await failure(client().ask('s', 'u'))).toMatchObject({ retry: false, message: 'the model answered 401: Incorrect API key provided' });
    model.next = [{ kind: 'hang' }];
    expect(await failure(client(300).ask('s', 'u'))).toMatchObject({ retry: true, message: 'the model did not answer in time' });
    model.next = [{ kind: 'text', content: 'I think it went well!' }, { kind: 'text', content: 'Really, it went well.' }];
    expect(await failure(client().ask('s', 'u'))).toMatchObject({ retry: true, message: "the model's answer does not fit, twice: it is not JSON" });
  });
});
