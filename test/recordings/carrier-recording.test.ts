// Call recording through any carrier (issue 41): a call report's `recordingUrl` has the collector
// fetch the audio, and `POST /telephony/calls/{id}/recording` takes the audio itself, streamed;
// once per call, audio types only, bounded in size, nothing left behind by a refusal.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { GridFSBucket } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingRefused, RecordingStore } from '../../collector/src/recordings/store.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4096, 7)]);
let media: http.Server;
let base = '';
beforeAll(async () => {
  media = http.createServer((req, res) => {
    if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(MP3);
  });
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => media.close(() => resolve())));

describe('a recording from any carrier', () => {
  const s = useSeededCollector('carrier_recording', trackingFixture(), { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false } });
  const upload = (callId: number, body: Buffer, type = 'audio/wav', key = TELEPHONY_KEY) => fetch(`${s.collector.baseUrl}/telephony/calls/${callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body: new Uint8Array(body) });

  it('fetches the audio a call report points at, once', async () => {
    const report = { callRef: 'pbx-rec-1', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60, recordingUrl: `${base}/recordings/1.mp3` };
    const { body } = await reportCall(s.collector.baseUrl, report);
    await reportCall(s.collector.baseUrl, report); // reported again: fetched once
    await expect.poll(async () => (await s.t.c.calls.findOne({ _id: body.callId }))?.recording?.status, { timeout: 20_000 }).toBe('stored');
    expect((await s.t.c.calls.findOne({ _id: body.callId }))!.recording).toMatchObject({ size: MP3.length, contentType: 'audio/mpeg' });
    expect(await new GridFSBucket(s.t.db, { bucketName: 'recordings' }).find({ 'metadata.callId': body.callId }).toArray()).toHaveLength(1);
  });

  it('says why when what the URL answers is no audio', async () => {
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'pbx-rec-2', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60, recordingUrl: `${base}/page.html` });
    await expect.poll(async () => (await s.t.c.calls.findOne({ _id: body.callId }))?.recording?.status, { timeout: 20_000 }).toBe('failed');
    expect((await s.t.c.calls.findOne({ _id: body.callId }))!.recording!.error).toBe('recording could not be fetched: not audio: text/html');
  });

  it('takes the audio itself, once, audio only, for a call it knows', async () => {
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'pbx-rec-3', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60 });
    const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(8000, 1)]);
    const sent = await upload(body.callId, wav);
    expect([sent.status, await sent.json()]).toEqual([200, { status: 'OK', callId: body.callId, size: wav.length }]);
    expect((await s.t.c.calls.findOne({ _id: body.callId }))!.recording).toMatchObject({ status: 'stored', size: wav.length, contentType: 'audio/wav' });
    expect(await (await upload(body.callId, wav)).json()).toEqual({ status: 'ERROR', error: 'The call has a recording already' });
    expect(await (await upload(body.callId, wav, 'text/plain')).json()).toEqual({ status: 'ERROR', error: 'Content-Type must be audio: audio/wav, audio/x-wav, audio/wave, audio/mpeg, audio/mp3' });
    expect((await upload(999_999, wav)).status).toBe(404);
    expect((await upload(body.callId, wav, 'audio/wav', 'not-the-key-0123456789')).status).toBe(401);
  });

  it('refuses audio past its size while it streams, and keeps nothing of it', async () => {
    const store = new RecordingStore(s.t.db);
    await expect(store.save(424_242, Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 'audio/wav', 1000)).rejects.toThrow(RecordingRefused);
    expect(await s.t.db.collection('recordings.files').countDocuments({ 'metadata.callId': 424_242 })).toBe(0);
  });
});
