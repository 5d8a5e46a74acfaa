// A recording outside the back end (issue 41): the data API's records carry our `recording`, a link
// that serves the audio (by byte ranges) to the same api_key and to nobody else; the account's `call`
// push is sent again once the recording is stored, with that link. Without PUBLIC_URL the link is
// the request's own origin; with it, PUBLIC_URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { commerceFixture, DATA_KEY, trackingFixture, WEBHOOK_SECRET } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { startReceiver, verifiedPush, type Receiver } from '../helpers/receiver.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { toneWav } from '../helpers/wav.ts';
import { migrateDatabase } from '../../collector/src/house/migrations.ts';

const WAV = toneWav(2, { channels: 1 });
const OWNER = { username: 'owner@shop.test', password: 'recording links password' };
const DELIVERY = { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false };

let media: http.Server;
let mediaBase = '';
let receiver: Receiver;
beforeAll(async () => {
  media = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end(WAV));
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  mediaBase = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
  receiver = await startReceiver();
});
afterAll(async () => {
  await new Promise<void>((resolve) => media.close(() => resolve()));
  await receiver.close();
});

const TODAY = new Date().toISOString().slice(0, 10);
const dataQuery = (extra: Record<string, string> = {}) => new URLSearchParams({ api_key: DATA_KEY, type: 'calls', start_date: TODAY, end_date: TODAY, page: '1', limit: '10', ...extra });

describe('a recording in the data API, without PUBLIC_URL', () => {
  const s = useSeededCollector('recording_links', trackingFixture({ users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY, delivery: DELIVERY });
  const records = async (extra: Record<string, string> = {}) => (await (await fetch(`${s.collector.baseUrl}/data-api?${dataQuery(extra)}`)).json()).results as { call_id: number; recording: string | null }[];

  it("links each recorded call's record to its audio, at the request's own origin; null for the others", async () => {
    const recorded = await reportCall(s.collector.baseUrl, { callRef: 'link-1', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 30, callerPhone: '0611111111', recordingUrl: `${mediaBase}/1.wav` });
    const plain = await reportCall(s.collector.baseUrl, { callRef: 'link-2', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 30, callerPhone: '0622222222' });
    const link = `${s.collector.baseUrl}/data-api/calls/${recorded.body.callId}/recording`;
    await expect.poll(async () => (await records()).find((r) => r.call_id === recorded.body.callId)?.recording, { timeout: 20_000 }).toBe(link);
    expect((await records()).find((r) => r.call_id === plain.body.callId)?.recording).toBeNull();
    // The same through a caller filter (read from the calls, not the page buckets).
    expect((await records({ caller_phone: '0611111111' })).map((r) => r.recording)).toEqual([link]);
  });

  it('links the recordings stored by the release before, once the upgrade has run', async () => {
    const [record] = await records({ caller_phone: '0611111111' });
    // The entry as the release before packed it: a head of six, nothing of a recording.
    const bucket = (await s.t.c.callPages.findOne({ [`calls.${record!.call_id}`]: { $exists: true } }))!;
    const packed = bucket.calls[record!.call_id]!;
    const head = JSON.parse(packed.slice(0, packed.indexOf('\n'))) as unknown[];
    await s.t.c.callPages.updateOne({ _id: bucket._id }, { $set: { [`calls.${record!.call_id}`]: `${JSON.stringify(head.slice(0, 6))}${packed.slice(packed.indexOf('\n'))}` } });
    await s.t.c.domains.updateMany({}, { $unset: { recordingLinksVersion: '' } });
    expect((await records()).find((r) => r.call_id === record!.call_id)?.recording).toBeNull();
    await migrateDatabase(s.t.c);
    expect((await records()).find((r) => r.call_id === record!.call_id)?.recording).toBe(record!.recording);
  });

  it('serves the audio to the same api_key, by byte ranges, and to nobody else', async () => {
    const [record] = await records({ caller_phone: '0611111111' });
    const withKey = new URL(record!.recording!);
    withKey.searchParams.set('api_key', DATA_KEY);
    const whole = await fetch(withKey);
    expect([whole.status, whole.headers.get('content-type'), whole.headers.get('accept-ranges')]).toEqual([200, 'audio/wav', 'bytes']);
    expect(Buffer.from(await whole.arrayBuffer()).equals(WAV)).toBe(true);
    const part = await fetch(withKey, { headers: { range: 'bytes=0-99' } });
    expect([part.status, part.headers.get('content-range'), (await part.arrayBuffer()).byteLength]).toEqual([206, `bytes 0-99/${WAV.length}`, 100]);

    // No key, another key: refused, in the data family's envelope; nothing of the audio.
    for (const url of [record!.recording!, `${record!.recording!}?api_key=not-the-key`]) {
      const refused = await fetch(url);
      expect([refused.status, await refused.json()]).toEqual([403, { status: 'ERROR', errors: ['Invalid api key'] }]);
    }
    // A call without a stored recording, or none at all: 404.
    const plain = (await records()).find((r) => r.recording === null)!;
    for (const id of [plain.call_id, 999_999, 'abc']) {
      const missing = await fetch(`${s.collector.baseUrl}/data-api/calls/${id}/recording?api_key=${DATA_KEY}`);
      expect([missing.status, await missing.json()]).toEqual([404, { status: 'ERROR', errors: [`No recording of call ${id}`] }]);
    }
  });

  it('says null again once the recording is deleted, and no longer serves it', async () => {
    const [record] = await records({ caller_phone: '0611111111' });
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('DELETE', `/domains/shop.test/calls/${record!.call_id}/recording`)).status).toBe(204);
    expect((await records()).find((r) => r.call_id === record!.call_id)?.recording).toBeNull();
    expect((await fetch(`${record!.recording}?api_key=${DATA_KEY}`)).status).toBe(404);
  });
});

describe('a recording in the call push, with PUBLIC_URL', () => {
  const PUBLIC_URL = 'https://calls.shop.example';
  const f = commerceFixture({ ga4: false, webhookUrl: 'https://hooks.example/ringtrail', tracking: { users: [OWNER] } });
  const s = useSeededCollector('recording_push', { accounts: [{ ...f.accounts[0]!, webhookEvents: ['call'] }] }, { telephonyApiKey: TELEPHONY_KEY, delivery: DELIVERY, publicUrl: PUBLIC_URL });

  it('is pushed again once stored, linked at PUBLIC_URL, as the data API links it', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    await owner.call('PUT', '/account/webhook', { url: receiver.url() });
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'push-rec', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 30, recordingUrl: `${mediaBase}/2.wav` });
    const link = `${PUBLIC_URL}/data-api/calls/${body.callId}/recording`;
    const pushes = () => receiver.received.map((r) => verifiedPush(r, WEBHOOK_SECRET)).filter((p) => p.type === 'call' && p.callId === body.callId);
    await expect.poll(() => pushes().map((p) => p.call.recording), { timeout: 20_000 }).toEqual([null, link]);
    const answer = await (await fetch(`${s.collector.baseUrl}/data-api?${dataQuery()}`)).json();
    expect(answer.results.find((r: { call_id: number }) => r.call_id === body.callId).recording).toBe(link);
    // The link's path serves it to the key at this collector.
    expect((await fetch(`${s.collector.baseUrl}${new URL(link).pathname}?api_key=${DATA_KEY}`)).status).toBe(200);
  });
});
