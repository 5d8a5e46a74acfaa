// A transcript that fails is said while it is retried (issue 64), not 24 hours later when the outbox
// gives up: an engine that answers 500 (a loopback stand-in of OpenAI's API, as OpenAI documents its
// errors) makes the call's page and the calls log say "retrying since …" with the engine's words,
// in Chromium (screenshots in test-artifacts/transcript-retrying-*.png); the owner is mailed
// "transcription failing" through a real SMTP server on loopback; and once the engine answers
// again, the transcript is made and nothing says it is retried any more.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { alertingOptions, useMailedCollector } from '../helpers/mailed-collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { toneWav } from '../helpers/wav.ts';
import { startSttStandIn, type SttStandIn } from '../helpers/openai-stt.ts';

const OWNER = { username: 'owner@shop.test', password: 'retrying owner password' };
const ENGINE_ERROR = 'The server had an error while processing your request. Sorry about that!';

let engine: SttStandIn;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  engine = await startSttStandIn();
  engine.fallback = () => ({ kind: 'error', status: 500, message: ENGINE_ERROR, type: 'server_error' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

describe('a transcript the engine keeps refusing', () => {
  const m = useMailedCollector('e2e_transcript_retrying', trackingFixture({ settings: { transcription: { enabled: true, language: 'en' } }, users: [OWNER] }), {
    ...alertingOptions('https://calls.shop.test'),
    // The outbox's own back-off (1 s, 2 s, 4 s…); warnings looked for every 200 ms instead of every minute.
    delivery: { pollMs: 50, firstRetryMs: 1000, maxRetryMs: 60_000, publicOnly: false },
    alertTimings: { everyMs: 50, gatherMs: 1500, warningsEveryMs: 200 },
    get transcribe() {
      return { url: engine.url, model: 'whisper-1', name: 'stand-in', englishOnly: false, minTimeoutMs: 1000 };
    },
  });
  let callId = 0;

  it('says why on the call page and in the calls log while it is retried, and mails the warning', async () => {
    const { body } = await reportCall(m.collector.baseUrl, { callRef: 'retrying-1', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 44 });
    callId = body.callId;
    const sent = await fetch(`${m.collector.baseUrl}/telephony/calls/${callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: new Uint8Array(toneWav(44, { channels: 2 })) });
    expect(sent.status).toBe(200);
    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    const today = new Date().toISOString().slice(0, 10);
    const row = async () => (await owner.get(`/domains/shop.test/reports/calls?from=${today}&to=${today}`)).body.calls.find((c: { callId: number }) => c.callId === callId);
    await expect.poll(async () => (await row())?.retrying?.[0], { timeout: 60_000 }).toMatchObject({ kind: 'transcript', job: 'Transcript', error: `the engine answered 500: ${ENGINE_ERROR}` });
    const page = (await owner.get(`/domains/shop.test/calls/${callId}`)).body;
    expect(page.retrying).toEqual([expect.objectContaining({ kind: 'transcript', since: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), attempts: expect.any(Number) })]);
    expect(page.call.transcript).toBeNull();

    const browserPage = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await signIn(browserPage, m.collector.baseUrl, OWNER);
    await browserPage.goto(`${m.collector.baseUrl}/manage/#/shop.test/call?id=${callId}`);
    const said = browserPage.getByTestId('transcript').getByTestId('retrying');
    await said.waitFor();
    expect(await said.textContent()).toMatch(new RegExp(`^Transcript retrying since .+ \\(\\d+ attempts?\\): the engine answered 500: ${ENGINE_ERROR.replace(/[.!]/g, '\\$&')}$`));
    await browserPage.screenshot({ path: path.join(ARTIFACTS, 'transcript-retrying-call.png'), fullPage: true });
    await browserPage.goto(`${m.collector.baseUrl}/manage/#/shop.test/calls`);
    await browserPage.locator('tr', { has: browserPage.getByTestId('retrying') }).first().waitFor();
    expect(await browserPage.getByTestId('retrying').first().textContent()).toContain('the engine answered 500');
    await browserPage.screenshot({ path: path.join(ARTIFACTS, 'transcript-retrying-log.png'), fullPage: true });

    // The third failure in a row (about 3 s at the outbox's back-off) starts the warning.
    const warningOf = () => m.inbox.messages.find((mail) => mail.subject === 'RingTrail: transcription failing for Test account');
    await expect.poll(warningOf, { timeout: 60_000 }).toBeDefined();
    const warning = warningOf();
    expect(warning!.to).toMatchObject({ text: OWNER.username });
    expect(warning!.text).toContain(`The engine last said: the engine answered 500: ${ENGINE_ERROR}`);
    await browserPage.context().close();
  }, 120_000);

  it('once the engine answers, makes the transcript and says nothing is retried any more', async () => {
    engine.fallback = () => ({ kind: 'words', words: ['hello', 'there'] });
    await expect.poll(async () => (await m.t.c.calls.findOne({ _id: callId }))?.transcript?.status, { timeout: 90_000 }).toBe('ready');
    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get(`/domains/shop.test/calls/${callId}`)).body.retrying).toEqual([]);
    await expect.poll(() => m.inbox.messages.map((mail) => mail.subject), { timeout: 60_000 }).toContain('RingTrail: transcription works again for Test account');
  }, 120_000);
});
