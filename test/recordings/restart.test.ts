// A restart between the carrier's word and the fetch loses nothing (issue 41): a recording whose
// audio is not there yet when one collector stops is fetched by the next on the same database, once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GridFSBucket } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const AUDIO = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(2048, 3)]);
let ready = false;
let media: http.Server;
let url = '';
let t: TestDatabase;
beforeAll(async () => {
  media = http.createServer((_req, res) => (ready ? res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(AUDIO) : res.writeHead(404).end()));
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(media.address() as AddressInfo).port}/recording.mp3`;
  t = await testDatabase('recording_restart');
  await seed(t.c, trackingFixture());
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => media.close(() => resolve()));
});

const options = { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false } };

describe('a restart before the audio is there', () => {
  it('is fetched by the next collector, once', async () => {
    const first = await startCollector(t.db, options);
    const { body } = await reportCall(first.baseUrl, { callRef: 'restart-rec', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 30, recordingUrl: url });
    // Tried, not there yet.
    await expect.poll(() => t.c.deliveryLog.countDocuments({ kind: 'recording', outcome: 'retrying' }), { timeout: 20_000 }).toBeGreaterThan(0);
    await first.close();

    ready = true;
    const second = await startCollector(t.db, options);
    try {
      await expect.poll(async () => (await t.c.calls.findOne({ _id: body.callId }))?.recording?.status, { timeout: 20_000 }).toBe('stored');
      await expect.poll(() => t.c.outbox.countDocuments({ kind: 'recording' }), { timeout: 20_000 }).toBe(0);
      expect(await new GridFSBucket(t.db, { bucketName: 'recordings' }).find({ 'metadata.callId': body.callId }).toArray()).toHaveLength(1);
      expect(await t.c.deliveryLog.countDocuments({ kind: 'recording', outcome: 'delivered' })).toBe(1);
    } finally {
      await second.close();
    }
  });
});
