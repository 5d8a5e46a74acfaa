// A call's recording on its page, in Chromium (issue 41): the player knows the recording's length,
// seeks by byte ranges (206), and the recording downloads; screenshot test-artifacts/recording-call-page.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { signIn } from '../helpers/manage-ui.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { toneWav } from '../helpers/wav.ts';

const OWNER = { username: 'owner@shop.test', password: 'recording e2e password' };

let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('a recording on its call page', () => {
  const s = useSeededCollector('e2e_recording', trackingFixture({ users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY });

  it('plays with its length, seeks by byte ranges, and downloads', async () => {
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'e2e-rec', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 12 });
    const wav = toneWav(12, { hertz: 330 });
    const sent = await fetch(`${s.collector.baseUrl}/telephony/calls/${body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: new Uint8Array(wav) });
    expect(sent.status).toBe(200);

    const page = await (await browser.newContext({ viewport: { width: 1100, height: 800 } })).newPage();
    const ranges: number[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/recording')) ranges.push(res.status());
    });
    await signIn(page, s.collector.baseUrl, OWNER);
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/call?id=${body.callId}`);
    const audio = page.getByTestId('recording').locator('audio');
    await audio.waitFor();
    // The player read the recording's length from the stored file.
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration), { timeout: 20_000 }).toBeCloseTo(12, 0);
    // Seeking near the end asks for a byte range, answered 206.
    await audio.evaluate((a: HTMLAudioElement) => {
      a.currentTime = 10;
    });
    await expect.poll(() => ranges.includes(206), { timeout: 20_000 }).toBe(true);
    await page.getByTestId('recording').screenshot({ path: path.join(ARTIFACTS, 'recording-player.png') });
    await page.screenshot({ path: path.join(ARTIFACTS, 'recording-call-page.png'), fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe(`call-${body.callId}.wav`);
    await page.context().close();
  });

  it("turns recording on with the carrier's copy deleted, and off for one offline number", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await signIn(page, s.collector.baseUrl, OWNER);
    await page.goto(`${s.collector.baseUrl}/manage/#/shop.test/settings`);
    const recording = page.getByTestId('recording-settings');
    await recording.getByLabel(/Record calls from their answer/).check();
    await recording.getByLabel(/delete the carrier's copy/).check();
    await page.getByRole('button', { name: 'Update call handling' }).click();
    await expect.poll(async () => (await s.t.c.domains.findOne({ _id: 'shop.test' }))?.recording).toMatchObject({ enabled: true, deleteAtCarrier: true });
    // The form is drawn again from the stored settings once they are read back: a fresh page shows
    // them without a redraw under way.
    await page.reload();
    await expect.poll(() => recording.getByLabel(/delete the carrier's copy/).isChecked(), { timeout: 10_000 }).toBe(true);
    await recording.screenshot({ path: path.join(ARTIFACTS, 'recording-settings.png') });

    // An offline number assigned without recording, from its pool's form.
    const offline = page.locator('.pool[data-pool="6"]');
    await offline.getByLabel('Where 0100000001 forwards').fill('0155555555');
    await offline.getByLabel('Campaign of 0100000001').fill('Reception line');
    await offline.getByLabel(/record its calls \(when the domain records\)/).uncheck();
    await offline.getByRole('button', { name: 'Assign' }).click();
    const toggle = offline.getByLabel('Record calls to 0100000001');
    await expect.poll(() => toggle.isChecked(), { timeout: 10_000 }).toBe(false);
    expect((await s.t.c.offlineAssignments.findOne({ _id: '0100000001' }))?.recording).toBe(false);
    await offline.screenshot({ path: path.join(ARTIFACTS, 'recording-offline-number.png') });
    // Back on: the domain's setting applies again. (A click: the box shows the stored choice, so it
    // turns checked once the answer is read back.)
    await toggle.click();
    await expect.poll(async () => (await s.t.c.offlineAssignments.findOne({ _id: '0100000001' }))?.recording).toBe(true);
    await page.context().close();
  });
});
