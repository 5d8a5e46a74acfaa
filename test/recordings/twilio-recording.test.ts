// Call recording through Twilio (issue 41): the caller hears the announcement, the answered leg is
// recorded, and the recording status callback (signed, with Twilio's documented fields) has the
// collector fetch the audio from a loopback stand-in for Twilio's media URL (HTTP basic with the
// account's SID and auth token) into GridFS: once, retried when the media is not there yet.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GridFSBucket } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { toneWav } from '../helpers/wav.ts';
import { RecordingRetention } from '../../collector/src/recordings/retention.ts';
import { RecordingStore } from '../../collector/src/recordings/store.ts';
import { RecordingStates } from '../../collector/src/recordings/states.ts';
import { twilioRecordingResource } from '../../collector/src/recordings/fetcher.ts';
import { wireCallWrites } from '../../collector/src/house/writes.ts';

const ACCOUNT_SID = 'AC00000000000000000000000000000001';
const XML = '<?xml version="1.0" encoding="UTF-8"?>';
const OWNER = { username: 'owner@shop.test', password: 'recording owner password' };

const WAV = toneWav(3, { channels: 2 });

/** Twilio's media URL, as Twilio answers it: basic auth by the account, 404 until the media is ready. */
let media: http.Server;
let mediaUrl = '';
const served: { auth: string | undefined; status: number }[] = [];
/** Twilio's Recording resources deleted (`DELETE …/Recordings/RE….json`, 204), with their credentials. */
const deletedAtTwilio: { path: string; ok: boolean }[] = [];
let notReadyFor = 1;
beforeAll(async () => {
  media = http.createServer((req, res) => {
    const auth = req.headers.authorization;
    const ok = auth === `Basic ${Buffer.from(`${ACCOUNT_SID}:${TWILIO_TOKEN}`).toString('base64')}`;
    if (req.method === 'DELETE') {
      deletedAtTwilio.push({ path: req.url!, ok });
      return res.writeHead(ok ? 204 : 401).end();
    }
    const status = !ok ? 401 : notReadyFor-- > 0 ? 404 : 200;
    served.push({ auth, status });
    if (status !== 200) return res.writeHead(status).end();
    res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': WAV.length }).end(WAV);
  });
  await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE0001`;
});
afterAll(() => new Promise<void>((resolve) => media.close(() => resolve())));

/** A signed-in session's cookie, for requests with headers of their own (Range). */
let cookieOf: () => Promise<string>;
const sessionCookie = () => cookieOf();

describe('a recorded Twilio call', () => {
  const s = useSeededCollector('twilio_recording', trackingFixture({ settings: { recording: { enabled: true } }, users: [OWNER] }), { twilio: { authToken: TWILIO_TOKEN }, delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false } });

  cookieOf = async () => {
    const login = await fetch(`${s.collector.baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OWNER) });
    return login.headers.get('set-cookie')!.split(';')[0]!;
  };

  it('says the announcement, records the answered leg, and keeps the audio in the database once', async () => {
    const view = await s.collector.post('/ospView', viewParams());
    const number = `+33${view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '').slice(1)}`;
    const base = { AccountSid: ACCOUNT_SID, CallSid: 'CA-recorded', From: '+33611223344', To: number, Direction: 'inbound', ApiVersion: '2010-04-01' };
    const post = (path: string, params: Record<string, string>, token = TWILIO_TOKEN) => twilioPost(s.collector.baseUrl, path, params, token);

    const voice = await post('/voice', { ...base, CallStatus: 'ringing' });
    expect(voice.text).toBe(
      `${XML}<Response><Say language="fr-FR">Cet appel peut être enregistré pour la qualité du service.</Say><Dial callerId="+33611223344" action="dial" method="POST" timeout="30" record="record-from-answer-dual" recordingStatusCallback="recording" recordingStatusCallbackMethod="POST"><Number>+33123456789</Number></Dial></Response>`,
    );
    await post('/dial', { ...base, CallStatus: 'in-progress', DialCallSid: 'CA-recorded-leg', DialCallStatus: 'completed', DialCallDuration: '3', DialBridged: 'true' });

    const callback = { ...base, CallStatus: 'completed', RecordingSid: 'RE0001', RecordingUrl: mediaUrl, RecordingStatus: 'completed', RecordingDuration: '3', RecordingChannels: '2', RecordingSource: 'DialVerb', RecordingStartTime: new Date().toUTCString() };
    // Unsigned: refused, nothing fetched.
    expect((await post('/recording', callback, 'not-the-token')).status).toBe(403);
    expect((await post('/recording', callback)).status).toBe(200);
    // Twilio may say it twice: the recording is fetched once.
    expect((await post('/recording', callback)).status).toBe(200);

    const call = () => s.t.c.calls.findOne({ callRef: 'CA-recorded' });
    await expect.poll(async () => (await call())?.recording?.status, { timeout: 20_000 }).toBe('stored');
    const stored = (await call())!.recording!;
    expect(stored).toMatchObject({ sid: 'RE0001', duration: 3, channels: 2, size: WAV.length, contentType: 'audio/wav' });
    // The media was not there at the first try: retried, each time with the account's credentials.
    expect(served.map((r) => r.status)).toEqual([404, 200]);
    const bucket = new GridFSBucket(s.t.db, { bucketName: 'recordings' });
    const files = await bucket.find({}).toArray();
    expect(files).toHaveLength(1);
    const chunks: Buffer[] = [];
    for await (const chunk of bucket.openDownloadStream(stored.fileId!)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(WAV)).toBe(true);
  });

  it("plays to the account's people by byte ranges, so a player seeks; downloads; and to nobody else", async () => {
    const call = (await s.t.c.calls.findOne({ callRef: 'CA-recorded' }))!;
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const path = `/domains/shop.test/calls/${call._id}/recording`;
    const whole = await owner.get(path);
    expect([whole.status, whole.headers.get('content-type'), whole.headers.get('accept-ranges'), Number(whole.headers.get('content-length'))]).toEqual([200, 'audio/wav', 'bytes', WAV.length]);
    const cookie = await sessionCookie();
    const part = await fetch(`${s.collector.baseUrl}/manage/api${path}`, { headers: { cookie, range: 'bytes=44-1043' } });
    expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 44-1043/${WAV.length}`]);
    expect(Buffer.from(await part.arrayBuffer()).equals(WAV.subarray(44, 1044))).toBe(true);
    const tail = await fetch(`${s.collector.baseUrl}/manage/api${path}`, { headers: { cookie, range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(WAV.subarray(WAV.length - 10))).toBe(true);
    expect((await fetch(`${s.collector.baseUrl}/manage/api${path}`, { headers: { cookie, range: `bytes=${WAV.length}-` } })).status).toBe(416);
    expect((await owner.get(`${path}?download=1`)).headers.get('content-disposition')).toBe(`attachment; filename="call-${call._id}.wav"`);
    // The calls log says which calls have one.
    expect((await owner.get('/domains/shop.test/reports/calls')).body.calls.find((c: { callId: number }) => c.callId === call._id).recording).toEqual({ status: 'stored', duration: 3 });
    // Signed out, nothing.
    expect((await fetch(`${s.collector.baseUrl}/manage/api${path}`)).status).toBe(401);
  });

  it('is deleted by a person from its call page, or by the retention job when its day comes, the call staying', async () => {
    // A second recorded call.
    const view = await s.collector.post('/ospView', viewParams({ ip: '198.51.100.9' }));
    const number = `+33${view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '').slice(1)}`;
    const base = { AccountSid: ACCOUNT_SID, CallSid: 'CA-second', From: '+33622334455', To: number, Direction: 'inbound', ApiVersion: '2010-04-01' };
    await twilioPost(s.collector.baseUrl, '/voice', { ...base, CallStatus: 'ringing' }, TWILIO_TOKEN);
    await twilioPost(s.collector.baseUrl, '/recording', { ...base, CallStatus: 'completed', RecordingSid: 'RE0003', RecordingUrl: mediaUrl.replace('RE0001', 'RE0003'), RecordingStatus: 'completed', RecordingDuration: '3', RecordingChannels: '2' }, TWILIO_TOKEN);
    const second = async () => (await s.t.c.calls.findOne({ callRef: 'CA-second' }))!;
    await expect.poll(async () => (await second()).recording?.status, { timeout: 20_000 }).toBe('stored');
    const bucket = new GridFSBucket(s.t.db, { bucketName: 'recordings' });
    expect(await bucket.find({}).toArray()).toHaveLength(2);

    // A person deletes the second one: its audio goes, the call says who and when.
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('DELETE', `/domains/shop.test/calls/${(await second())._id}/recording`)).status).toBe(204);
    expect((await second()).recording).toMatchObject({ status: 'deleted', deletedBy: OWNER.username, deletedAt: expect.any(Date) });
    expect(await bucket.find({}).toArray()).toHaveLength(1);
    expect((await owner.get(`/domains/shop.test/calls/${(await second())._id}/recording`)).status).toBe(404);
    expect((await owner.call('DELETE', `/domains/shop.test/calls/${(await second())._id}/recording`)).status).toBe(404);

    // The first, on the retention job's clock: kept at 364 days, deleted after 365 (the default).
    const retention = new RecordingRetention(s.t.c, new RecordingStore(s.t.db), new RecordingStates(wireCallWrites(s.t.c)));
    const day = 86_400_000;
    expect(await retention.tick(new Date(Date.now() + 364 * day))).toBe(0);
    expect(await retention.tick(new Date(Date.now() + 366 * day))).toBe(1);
    const first = (await s.t.c.calls.findOne({ callRef: 'CA-recorded' }))!;
    expect(first.recording).toMatchObject({ status: 'deleted', deletedBy: 'retention' });
    expect(first.status).toBe('SUCCESS'); // the call stays
    expect(await bucket.find({}).toArray()).toHaveLength(0);
    expect(await s.t.db.collection('recordings.chunks').countDocuments()).toBe(0);
  });

  it("deletes Twilio's copy once stored, when the domain says so, and the call says when", async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PATCH', '/domains/shop.test', { recording: { enabled: true, deleteAtCarrier: true } })).status).toBe(200);
    const view = await s.collector.post('/ospView', viewParams({ ip: '198.51.100.10' }));
    const number = `+33${view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '').slice(1)}`;
    const base = { AccountSid: ACCOUNT_SID, CallSid: 'CA-third', From: '+33633445566', To: number, Direction: 'inbound', ApiVersion: '2010-04-01' };
    await twilioPost(s.collector.baseUrl, '/voice', { ...base, CallStatus: 'ringing' }, TWILIO_TOKEN);
    await twilioPost(s.collector.baseUrl, '/recording', { ...base, CallStatus: 'completed', RecordingSid: 'RE0004', RecordingUrl: mediaUrl.replace('RE0001', 'RE0004'), RecordingStatus: 'completed', RecordingDuration: '3', RecordingChannels: '2' }, TWILIO_TOKEN);
    const third = async () => (await s.t.c.calls.findOne({ callRef: 'CA-third' }))!;
    await expect.poll(async () => (await third()).recording?.carrierDeletedAt, { timeout: 20_000 }).toBeInstanceOf(Date);
    expect((await third()).recording?.status).toBe('stored');
    // Exactly Twilio's Recording resource, with the account's credentials, once.
    expect(deletedAtTwilio).toEqual([{ path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE0004.json`, ok: true }]);
    // Only a URL naming exactly that Recording resource is ever deleted.
    const job = { callId: 1, sid: 'RE0004', twilioAccountSid: ACCOUNT_SID };
    expect(twilioRecordingResource({ ...job, url: `https://media.example/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE0004.wav` })).toBe(`https://media.example/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE0004.json`);
    expect(twilioRecordingResource({ ...job, url: 'https://media.example/files/RE0004' })).toBeNull();
    expect(twilioRecordingResource({ ...job, url: `https://media.example/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE9999` })).toBeNull();
    // The calls stored before it was on were left alone at Twilio.
    expect((await s.t.c.calls.findOne({ callRef: 'CA-recorded' }))!.recording?.carrierDeletedAt).toBeUndefined();
  });

  it('answers a callback for a call it does not know, and stores nothing', async () => {
    const res = await twilioPost(s.collector.baseUrl, '/recording', { AccountSid: ACCOUNT_SID, CallSid: 'CA-unknown', RecordingSid: 'RE0002', RecordingUrl: mediaUrl, RecordingStatus: 'completed', RecordingDuration: '3', RecordingChannels: '2' }, TWILIO_TOKEN);
    expect(res.status).toBe(200);
    expect(await s.t.c.outbox.countDocuments({ kind: 'recording' })).toBe(0);
  });
});
