// A call's analysis in Chromium (issue 66): the "What happened" card with each yes's quote, a model's
// text carrying <script> shown as text, an outcome corrected by a person (their word kept, in the
// history), the calls log's summary line and its filters by outcome and score; the Settings card
// switched on and tried on a sample call (the model a chat completions stand-in), and the
// overview's card of appointments, sales and lead scores. Screenshots in test-artifacts/.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { useDesktopPage } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { answerOf, startChatStandIn } from '../helpers/openai-chat.ts';
import { wireWrites } from '../../collector/src/house/writes.ts';

const OWNER = { username: 'owner@shop.test', password: 'analysis e2e password' };
// The model, started before the collector that reaches it.
const chat = await startChatStandIn();
afterAll(() => chat.close());
const s = useSeededCollector('analysis_e2e', trackingFixture({ users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY, analyze: { url: chat.url, model: 'qwen2.5:7b', timeoutMs: 5000 } });

const chrome = useDesktopPage();

const judged = (answer: 'yes' | 'no' | 'unknown', quote?: string, start?: number) => ({ answer, ...(quote ? { quote, turn: 0, start } : {}) });

async function analysedCall(callRef: string, leadScore: number, summary: string, booked: boolean): Promise<number> {
  const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 90, callerPhone: `06${String(leadScore).padStart(8, '0')}` });
  // Written as the analysis job writes it: through the call writes, so the overview counts it.
  await wireWrites(s.t.c, { publicUrl: s.collector.baseUrl }).writes.change(body.callId, () => ({
        analysis: {
          status: 'ready',
          at: new Date(),
          model: 'qwen2.5:7b',
          summary,
          intent: 'boiler repair',
          outcomes: { appointmentBooked: booked ? judged('yes', 'you are booked for Friday at 9', 12.5) : judged('no'), quoteGiven: judged('yes', 'it is 120 euros', 6), saleMade: { answer: 'unknown', quote: 'I will buy two', rejected: 'the quote is not in the transcript' }, existingCustomer: judged('no'), spam: judged('no'), followUpNeeded: judged('no') },
          followUp: '',
          leadScore,
          leadScoreReasons: ['asked for a date'],
          sentiment: 'positive',
          answers: [{ question: 'Did the caller ask for emergency service?', ...judged('no') }],
        },
  }));
  return body.callId;
}

describe('a call’s analysis in the back end', () => {
  it('shows what happened with its quotes, as text, takes a correction, and filters the calls log', async () => {
    const booked = await analysedCall('analysis-e2e-1', 85, 'The caller booked a boiler repair for Friday. <script>window.pwned = 1</script>', true);
    await analysedCall('analysis-e2e-2', 20, 'A question about opening hours.', false);
    await signIn(chrome.page, s.collector.baseUrl, OWNER);
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/call?id=${booked}`);
    const card = chrome.page.getByTestId('analysis');
    await card.getByRole('heading', { name: 'What happened' }).waitFor();
    expect(await card.getByTestId('analysis-summary').textContent()).toBe('The caller booked a boiler repair for Friday. <script>window.pwned = 1</script>');
    expect(await chrome.page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await card.locator('[data-outcome="appointmentBooked"]').textContent()).toContain('“you are booked for Friday at 9”');
    expect(await card.locator('[data-outcome="saleMade"]').textContent()).toContain('not kept: the quote is not in the transcript');
    await card.screenshot({ path: path.join(ARTIFACTS, 'analysis-card.png') });

    // The owner says no sale was made… and no appointment either: their word is kept, with the history.
    await card.getByLabel('Appointment booked').selectOption('no');
    await expect.poll(async () => (await s.t.c.calls.findOne({ _id: booked }))?.analysis?.outcomes?.appointmentBooked).toEqual({ answer: 'no', by: OWNER.username });
    await card.locator('[data-outcome="appointmentBooked"]').getByText(`said by ${OWNER.username}`).waitFor();
    expect((await s.t.c.calls.findOne({ _id: booked }))!.history!.at(-1)).toMatchObject({ by: OWNER.username, what: 'appointmentBooked no (the model said yes)' });

    // The calls log: the summary under each call; by outcome, by score.
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/calls`);
    await chrome.page.getByTestId('analysis-line').first().waitFor();
    expect(await chrome.page.getByTestId('analysis-line').count()).toBe(2);
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/calls?outcome=quoteGiven&scoreMin=50`);
    await expect.poll(() => chrome.page.getByTestId('analysis-line').count()).toBe(1);
    expect(await chrome.page.getByTestId('analysis-line').textContent()).toContain('85');
    await chrome.page.screenshot({ path: path.join(ARTIFACTS, 'analysis-calls-log.png'), fullPage: true });
  }, 90_000);

  it('is switched on and tried in Settings, the raw answer shown as text, and counted in the overview', async () => {
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    const card = chrome.page.getByTestId('analysis-settings');
    expect(await card.getByTestId('model-status').textContent()).toContain(`Read by qwen2.5:7b at ${chat.url}`);
    await card.getByLabel('Read each transcribed call').check();
    await card.getByLabel('Your own questions').fill('Did the caller ask for emergency service?');
    await card.getByRole('button', { name: 'Update call analysis' }).click();
    await card.getByText('Saved.').waitFor();
    expect((await s.t.c.domains.findOne({ name: 'shop.test' }))!.analysis).toEqual({ enabled: true, questions: ['Did the caller ask for emergency service?'] });

    // The model's words, markup included, come back as text.
    const raw = answerOf({ summary: 'Boiler repair booked for 2 pm. <img src=x onerror="window.pwned=2">', leadScore: 88, sentiment: 'positive', outcomes: { appointmentBooked: { answer: 'yes', quote: 'you are booked for two today' }, quoteGiven: { answer: 'yes', quote: 'the call-out is 89 dollars' }, saleMade: { answer: 'no', quote: '' }, existingCustomer: { answer: 'no', quote: '' }, spam: { answer: 'no', quote: '' }, followUpNeeded: { answer: 'no', quote: '' } }, questions: [{ answer: 'yes', quote: 'can someone come today' }] });
    chat.fallback = () => ({ kind: 'text', content: raw });
    await card.getByTestId('analysis-try').click();
    await card.getByTestId('analysis-raw').waitFor();
    expect(await card.getByTestId('analysis-raw').textContent()).toBe(raw);
    expect(await card.getByTestId('analysis-tried').textContent()).toContain('qwen2.5:7b answered in');
    expect(await chrome.page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await card.screenshot({ path: path.join(ARTIFACTS, 'analysis-settings.png') });

    // Two calls read (as the analysis job writes them): the overview counts them.
    const { writes } = wireWrites(s.t.c, { publicUrl: s.collector.baseUrl });
    for (const [ref, score, booked] of [['analysis-e2e-3', 90, true], ['analysis-e2e-4', 30, false]] as const) {
      const { body } = await reportCall(s.collector.baseUrl, { callRef: ref, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 90, callerPhone: `06${String(score).padStart(8, '1')}` });
      await writes.change(body.callId, () => ({ analysis: { status: 'ready', at: new Date(), model: 'qwen2.5:7b', summary: '…', intent: '…', outcomes: { appointmentBooked: booked ? judged('yes', 'see you Friday', 3) : judged('no'), quoteGiven: judged('no'), saleMade: judged('no'), existingCustomer: judged('no'), spam: judged('no'), followUpNeeded: judged('no') }, followUp: '', leadScore: score, leadScoreReasons: [], sentiment: 'neutral', answers: [] } }));
    }
    await chrome.page.goto(`${s.collector.baseUrl}/manage/#/shop.test/overview`);
    const figures = chrome.page.getByTestId('analysis-figures');
    await figures.waitFor();
    expect(await figures.textContent()).toContain('Of 4 calls read by the language model: 1 appointment booked, 0 sales made, an average lead score of 56.3.');
    await figures.screenshot({ path: path.join(ARTIFACTS, 'analysis-overview.png') });
  }, 90_000);
});
