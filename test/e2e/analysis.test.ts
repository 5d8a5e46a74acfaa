// A call's analysis in Chromium (issue 66): the "What happened" card with each yes's quote, a model's
// text carrying <script> shown as text, an outcome corrected by a person (their word kept, in the
// history), the calls log's summary line and its filters by outcome and score. Screenshots in
// test-artifacts/.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'analysis e2e password' };
const s = useSeededCollector('analysis_e2e', trackingFixture({ users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY });

let browser: Browser;
let page: Page;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
});
afterAll(() => browser?.close());

const judged = (answer: 'yes' | 'no' | 'unknown', quote?: string, start?: number) => ({ answer, ...(quote ? { quote, turn: 0, start } : {}) });

async function analysedCall(callRef: string, leadScore: number, summary: string, booked: boolean): Promise<number> {
  const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 90, callerPhone: `06${String(leadScore).padStart(8, '0')}` });
  await s.t.c.calls.updateOne(
    { _id: body.callId },
    {
      $set: {
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
      },
    },
  );
  return body.callId;
}

describe('a call’s analysis in the back end', () => {
  it('shows what happened with its quotes, as text, takes a correction, and filters the calls log', async () => {
    const booked = await analysedCall('analysis-e2e-1', 85, 'The caller booked a boiler repair for Friday. <script>window.pwned = 1</script>', true);
    await analysedCall('analysis-e2e-2', 20, 'A question about opening hours.', false);
    await signIn(page, s.collector.baseUrl, OWNER);
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/call?id=${booked}`);
    const card = page.getByTestId('analysis');
    await card.getByRole('heading', { name: 'What happened' }).waitFor();
    expect(await card.getByTestId('analysis-summary').textContent()).toBe('The caller booked a boiler repair for Friday. <script>window.pwned = 1</script>');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await card.locator('[data-outcome="appointmentBooked"]').textContent()).toContain('“you are booked for Friday at 9”');
    expect(await card.locator('[data-outcome="saleMade"]').textContent()).toContain('not kept: the quote is not in the transcript');
    await card.screenshot({ path: path.join(ARTIFACTS, 'analysis-card.png') });

    // The owner says no sale was made… and no appointment either: their word is kept, with the history.
    await card.getByLabel('Appointment booked').selectOption('no');
    await expect.poll(async () => (await s.t.c.calls.findOne({ _id: booked }))?.analysis?.outcomes?.appointmentBooked).toEqual({ answer: 'no', by: OWNER.username });
    await card.locator('[data-outcome="appointmentBooked"]').getByText(`said by ${OWNER.username}`).waitFor();
    expect((await s.t.c.calls.findOne({ _id: booked }))!.history!.at(-1)).toMatchObject({ by: OWNER.username, what: 'appointmentBooked no (the model said yes)' });

    // The calls log: the summary under each call; by outcome, by score.
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/calls`);
    await page.getByTestId('analysis-line').first().waitFor();
    expect(await page.getByTestId('analysis-line').count()).toBe(2);
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/calls?outcome=quoteGiven&scoreMin=50`);
    await expect.poll(() => page.getByTestId('analysis-line').count()).toBe(1);
    expect(await page.getByTestId('analysis-line').textContent()).toContain('85');
    await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-calls-log.png'), fullPage: true });
  }, 90_000);
});
