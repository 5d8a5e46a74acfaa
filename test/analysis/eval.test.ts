// `npm run eval:analysis` (test/eval/analysis.ts) scores a model as it says: against a chat
// completions stand-in that answers each labelled call as labelled, every outcome's precision and
// recall is 1; one that says spam to every call and books appointments it cannot quote is scored
// down exactly as counted, its unquoted yes answers thrown out. The set itself is at least 30 calls
// in two languages, of every kind the issue names.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTCOMES, type OutcomeName } from '../../collector/src/analysis/answer.ts';
import { BUSINESS_SIDE } from '../../collector/src/analysis/evidence.ts';
import { ModelClient } from '../../collector/src/analysis/model-client.ts';
import { evaluate, labelledCalls, reportText, type LabelledCall } from '../eval/analysis.ts';
import { answerOf, startChatStandIn, type ChatStandIn } from '../helpers/openai-chat.ts';

const calls = labelledCalls();
let chat: ChatStandIn;
beforeAll(async () => {
  chat = await startChatStandIn();
});
afterAll(() => chat?.close());

/** The labelled call whose transcript the request carries. */
const callOf = (user: string) => calls.find((c) => user.includes(c.turns[0]![1]))!;
/** A quote the transcript holds: the first words of its first turn; for a yes only the business can
 * give, of the business's first turn, as a model that reads the call right quotes it. */
const quoteOf = (call: LabelledCall, outcome?: OutcomeName) => (call.turns.find(([speaker]) => !(outcome && BUSINESS_SIDE[outcome]) || speaker === 'agent') ?? call.turns[0]!)[1].split(' ').slice(0, 4).join(' ');

describe('the analysis evaluation', () => {
  it('has at least 30 labelled calls, in English and French, of every kind', () => {
    expect(calls.length).toBeGreaterThanOrEqual(30);
    expect(new Set(calls.map((c) => c.language))).toEqual(new Set(['en', 'fr']));
    expect(new Set(calls.map((c) => c.kind))).toEqual(new Set(['booking', 'quote', 'sale', 'complaint', 'wrong number', 'spam', 'voicemail', 'question']));
    expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
    for (const o of OUTCOMES) expect(calls.some((c) => c.labels[o] === 'yes'), o).toBe(true);
  });

  it('scores a model that answers as labelled at 1 everywhere', async () => {
    chat.fallback = (request) => {
      const call = callOf(request.messages[1]!.content);
      const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, call.labels[o] === 'yes' ? { answer: 'yes', quote: quoteOf(call, o) } : { answer: 'no', quote: '' }]));
      return { kind: 'text', content: answerOf({ outcomes, leadScore: call.score[0], sentiment: call.sentiment }) };
    };
    const report = await evaluate(new ModelClient({ url: chat.url, model: 'labels' }), calls);
    expect(report).toMatchObject({ calls: calls.length, answered: calls.length, failures: [], scoreWithin: 1, scoreMissBy: 0, sentimentAgreement: 1, yesRejected: 0 });
    for (const o of OUTCOMES) expect(report.outcomes[o], o).toMatchObject({ precision: 1, recall: 1, falsePositives: 0, falseNegatives: 0 });
  });

  it('scores down a model that says spam to every call and books what it cannot quote, and counts a call it fails', async () => {
    chat.fallback = (request) => {
      const call = callOf(request.messages[1]!.content);
      const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, { answer: 'no', quote: '' }]));
      return { kind: 'text', content: answerOf({ outcomes: { ...outcomes, spam: { answer: 'yes', quote: quoteOf(call) }, appointmentBooked: { answer: 'yes', quote: 'see you on the moon at noon' } }, leadScore: 100, sentiment: 'negative' }) };
    };
    chat.next = [{ kind: 'error', status: 401, message: 'Incorrect API key provided' }];
    const report = await evaluate(new ModelClient({ url: chat.url, model: 'spammy' }), calls);
    const answered = calls.slice(1);
    expect(report.failures).toEqual([{ id: calls[0]!.id, error: 'the model answered 401: Incorrect API key provided' }]);
    expect(report.answered).toBe(calls.length - 1);
    const spamAnswered = answered.filter((c) => c.labels.spam === 'yes').length;
    expect(report.outcomes.spam).toEqual({ truePositives: spamAnswered, falsePositives: answered.length - spamAnswered, falseNegatives: 0, precision: Math.round((spamAnswered / answered.length) * 1000) / 1000, recall: 1 });
    // Every appointment it claimed lacked its quote: thrown out, so it is never a yes.
    const booked = answered.filter((c) => c.labels.appointmentBooked === 'yes').length;
    expect(report.outcomes.appointmentBooked).toEqual({ truePositives: 0, falsePositives: 0, falseNegatives: booked, precision: null, recall: 0 });
    expect([report.yesGiven, report.yesRejected]).toEqual([2 * answered.length, answered.length]);
    expect(report.scoreWithin).toBe(Math.round((answered.filter((c) => c.score[1] >= 100).length / answered.length) * 1000) / 1000);
    expect(reportText(report, 'spammy')).toContain(`evidence: ${answered.length} of ${2 * answered.length} yes answers thrown out, their quote not in the transcript ( 50 %)`);
  });

  it('runs as npm run eval:analysis, and says what to set without a model', async () => {
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/eval/analysis.ts'], { env: { ...process.env, ANALYZE_URL: '' } });
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Set ANALYZE_URL') });
  });
});
