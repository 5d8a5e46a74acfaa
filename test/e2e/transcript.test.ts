// A call you can read (issue 54), with the bundled engine for real: a dual-channel recording of
// speech made in the test (espeak-ng) arrives through a signed Twilio call, the collector fetches it,
// faster-whisper on loopback transcribes each channel, the turns are merged with their speakers, the
// card number redacted, key phrases spotted; then the call page in Chromium (a click on a turn plays
// from there), the search by words and the data API. Screenshots in test-artifacts/transcript-*.png.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { conversationWav } from '../helpers/speech.ts';
import { startLocalEngine, type RunningEngine } from '../../collector/src/transcripts/local-engine.ts';

const ACCOUNT_SID = 'AC00000000000000000000000000000054';
const OWNER = { username: 'owner@shop.test', password: 'transcript e2e password' };
// Wideband (16 kHz), as many carriers and PBXs record: espeak-ng's voice at 8 kHz is more than
// tiny.en hears reliably (real voices fare better; docs/transcripts.md has the figures).
const WAV = conversationWav(
  [
    { speaker: 'agent', text: 'Thank you for calling. How can I help you?' },
    { speaker: 'caller', text: 'Hello. I would like to book an appointment for a cleaning. How much does it cost?' },
    { speaker: 'agent', text: 'A cleaning costs eighty dollars. I can see you on Tuesday at ten.' },
    { speaker: 'caller', text: 'Perfect. My card number is 4 1 1 1, 1 1 1 1, 1 1 1 1, 1 1 1 1.' },
  ],
  { rate: 16_000 },
);

let engine: RunningEngine;
let browser: Browser;
let media: http.Server;
let mediaUrl = '';
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Installed into .tools/ on the first run (a minute or two), then started on loopback.
  engine = await startLocalEngine();
  browser = await launchChromium();
  media = http.createServer((req, res) => {
    const ok = req.headers.authorization === `Basic ${Buffer.from(`${ACCOUNT_SID}:${TWILIO_TOKEN}`).toString('base64')}`;
    if (!ok) return res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': WAV.length }).end(WAV);
  });
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE0054`;
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  await new Promise<void>((resolve) => media?.close(() => resolve()));
});

describe('a recorded call, transcribed by the bundled engine', () => {
  const settings = {
    recording: { enabled: true },
    transcription: { enabled: true, language: 'en' },
    keyPhrases: [
      { label: 'booked', phrases: ['book an appointment', 'schedule a visit'], speaker: 'caller' },
      { label: 'price', phrases: ['how much', 'what does it cost'], speaker: 'any' },
      { label: 'complaint', phrases: ['not happy', 'refund'], speaker: 'caller' },
    ],
  };
  const s = useSeededCollector('e2e_transcript', trackingFixture({ settings, users: [OWNER] }), {
    twilio: { authToken: TWILIO_TOKEN },
    delivery: { pollMs: 50, firstRetryMs: 200, maxRetryMs: 1000, publicOnly: false },
    get transcribe() {
      return { url: engine.url, model: engine.model, name: 'local', englishOnly: engine.englishOnly };
    },
  });
  let callId = 0;
  let owner: ManageClient;

  it('fetches the recording of a signed Twilio call and transcribes each speaker apart, the card number redacted', async () => {
    const view = await s.collector.post('/ospView', viewParams());
    const number = `+33${view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '').slice(1)}`;
    const base = { AccountSid: ACCOUNT_SID, CallSid: 'CA-transcribed', From: '+33611223344', To: number, Direction: 'inbound', ApiVersion: '2010-04-01' };
    await twilioPost(s.collector.baseUrl, '/voice', { ...base, CallStatus: 'ringing' });
    await twilioPost(s.collector.baseUrl, '/dial', { ...base, CallStatus: 'in-progress', DialCallSid: 'CA-transcribed-leg', DialCallStatus: 'completed', DialCallDuration: '29', DialBridged: 'true' });
    const callback = { ...base, CallStatus: 'completed', RecordingSid: 'RE0054', RecordingUrl: mediaUrl, RecordingStatus: 'completed', RecordingDuration: '29', RecordingChannels: '2', RecordingSource: 'DialVerb', RecordingStartTime: new Date().toUTCString() };
    expect((await twilioPost(s.collector.baseUrl, '/recording', callback)).status).toBe(200);

    const call = () => s.t.c.calls.findOne({ callRef: 'CA-transcribed' });
    await expect.poll(async () => (await call())?.transcript?.status, { timeout: 180_000, interval: 500 }).toBe('ready');
    callId = (await call())!._id;
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const { body } = await owner.get(`/domains/shop.test/calls/${callId}/transcript`);
    expect(body).toMatchObject({ engine: 'local', model: 'tiny.en', language: 'en' });
    // Four lines, each its speaker's, in the order they were said.
    expect(body.turns.map((t: { speaker: string }) => t.speaker)).toEqual(['agent', 'caller', 'agent', 'caller']);
    const said = body.turns.map((t: { text: string }) => t.text.toLowerCase());
    expect(said[1]).toContain('appointment');
    expect(said[2]).toMatch(/dollars/);
    // The card number is never kept, here nor in the words the search reads.
    expect(said[3]).toContain('[redacted]');
    expect(JSON.stringify(body)).not.toMatch(/4111|1111/);
    expect(await s.t.c.transcriptWords.countDocuments({ _id: { $regex: '\\|(4111|1111)\\|' } })).toBe(0);
    // Spotted: the caller booking and a price asked; no complaint.
    expect((await call())!.transcript!.keyPhrases).toEqual(['booked', 'price']);
  }, 240_000);

  it('finds the call by words said, by whom, and shows the line; the data API carries the text', async () => {
    const search = async (q: string) => (await owner.get(`/domains/shop.test/reports/calls?q=${encodeURIComponent(q)}`)).body;
    const found = await search('appointment');
    expect(found.calls.map((c: { callId: number }) => c.callId)).toEqual([callId]);
    expect(found.calls[0].transcriptMatch).toMatchObject({ speaker: 'caller' });
    expect(found.calls[0].transcriptMatch.text.toLowerCase()).toContain('appointment');
    expect((await search('caller: "book an appointment"')).calls).toHaveLength(1);
    expect((await search('agent: appointment')).calls).toHaveLength(0);
    expect((await search('"appointment book"')).calls).toHaveLength(0);
    expect((await owner.get(`/domains/shop.test/reports/calls?q=${'x'.repeat(201)}`)).status).toBe(400);
    const today = new Date().toISOString().slice(0, 10);
    const data = (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: today, end_date: today, page: 1, limit: 10 })).body;
    const record = data.results.find((r: { call_id: number }) => r.call_id === callId);
    expect(record.transcript).toMatch(/^agent: .*\ncaller: .*appointment.*\nagent: .*\ncaller: .*\[redacted\]/is);
    expect(record.key_phrases).toEqual(['booked', 'price']);
  });

  it('shows the transcript under the player in Chromium; a click on a turn plays from there', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await signIn(page, s.collector.baseUrl, OWNER);
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/call?id=${callId}`);
    const card = page.getByTestId('transcript');
    await card.locator('li.turn').first().waitFor();
    expect(await card.locator('li.turn').count()).toBe(4);
    expect(await card.locator('li.turn.spotted').count()).toBeGreaterThanOrEqual(1);
    const third = card.locator('li.turn').nth(2);
    const start = (await owner.get(`/domains/shop.test/calls/${callId}/transcript`)).body.turns[2].start;
    await third.getByRole('button', { name: /^\d+:\d\d$/ }).click();
    const audio = page.getByTestId('recording').locator('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThanOrEqual(start - 0.01);
    // The player has the captions track, and the cue playing is shown as a caption: at most two lines
    // of 42 characters, not the whole turn (this one is 65 characters long).
    expect(await audio.locator('track[kind="captions"]').count()).toBe(1);
    const captionLines = () => page.getByTestId('caption').evaluate((el) => el.innerHTML.replace(/<strong>.*?<\/strong>/, '').split('<br>').map((line) => line.trim()));
    await expect.poll(async () => (await captionLines()).every((line) => line.length > 0 && line.length <= 42)).toBe(true);
    expect((await captionLines()).length).toBeLessThanOrEqual(2);
    await audio.evaluate((a: HTMLAudioElement) => a.pause());
    // A click on a turn's words plays from that turn too (issue 69), not only its time.
    const second = card.locator('li.turn').nth(1);
    const secondStart = (await owner.get(`/domains/shop.test/calls/${callId}/transcript`)).body.turns[1].start;
    expect(secondStart).toBeGreaterThan(0.5);
    // From the start, paused: only the click can bring it to the second turn.
    await audio.evaluate((a: HTMLAudioElement) => (a.currentTime = 0));
    await second.locator('.turn-text').click();
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThanOrEqual(secondStart - 0.01);
    await audio.evaluate((a: HTMLAudioElement) => a.pause());
    await page.screenshot({ path: path.join(ARTIFACTS, 'transcript-call-page.png'), fullPage: true });

    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/calls`);
    await page.getByRole('searchbox', { name: 'Words said' }).fill('"book an appointment"');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('transcript-match').waitFor();
    expect((await page.getByTestId('transcript-match').textContent())!.toLowerCase()).toContain('appointment');
    await page.screenshot({ path: path.join(ARTIFACTS, 'transcript-search.png'), fullPage: true });

    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    await page.getByTestId('engine-status').waitFor();
    expect(await page.getByTestId('engine-status').textContent()).toContain('answers');
    await page.getByTestId('transcripts-settings').screenshot({ path: path.join(ARTIFACTS, 'transcript-settings.png') });

    // The overview counts the call under each label heard, by its source.
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/overview`);
    const heard = page.getByTestId('key-phrases');
    await heard.waitFor();
    expect(await heard.locator('tbody tr').count()).toBe(2);
    expect(await heard.textContent()).toContain('booked');
    await heard.screenshot({ path: path.join(ARTIFACTS, 'transcript-overview.png') });
    await page.context().close();
  }, 60_000);

  it('says the English-only model cannot transcribe a French domain, and how to get one that can', async () => {
    const changed = await owner.call('PATCH', '/domains/shop.test', { transcription: { enabled: true, language: null } });
    expect(changed.status).toBe(200);
    const status = (await owner.get('/domains/shop.test/transcription')).body;
    expect(status).toMatchObject({ configured: true, language: 'fr', engine: { name: 'local', model: 'tiny.en', englishOnly: true, answers: true } });
    expect(status.refusal).toBe("the model tiny.en transcribes English only and this domain's calls are in fr: set TRANSCRIBE_LOCAL_MODEL to a multilingual Whisper model, or TRANSCRIBE_URL to another engine");
  });
});
