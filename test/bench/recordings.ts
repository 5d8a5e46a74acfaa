// `npm run bench`, the recordings part: `npm start`'s collector (main.ts, the demo site, the embedded
// database) and a loopback stand-in for Twilio's media URL in this process.
// - Memory: the collector's resident memory (VmRSS, sampled every 20 ms) while it stores a 60-minute
//   dual-channel WAV (8 kHz, 16-bit: 115 MB), fetched after Twilio's signed recording callback, and
//   again sent to `POST /telephony/calls/{id}/recording`. The stand-in and the sender stream it a
//   second at a time: what grows is the collector's.
// - Latency: a 10-minute dual-channel WAV (19 MB), from Twilio's recording callback to playable (the
//   data API's link answers the audio), BENCH_RECORDINGS (5) times, one after the other.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { exitOf, startMain } from '../helpers/main-process.ts';
import { reportCall, TELEPHONY_KEY, TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';
import { toneWavStream } from '../helpers/wav.ts';

const TIMES = Number(process.env.BENCH_RECORDINGS ?? 5);
const ACCOUNT_SID = 'AC00000000000000000000000000000042';
const wavOf = (minutes: number) => toneWavStream(minutes * 60, { channels: 2 });
const HOUR = wavOf(60);
const TEN_MINUTES = wavOf(10);
const MB = 1024 * 1024;

/** Twilio's media URLs: /…/Recordings/RE<minutes>-<n>, the WAV of that many minutes. */
const media = http.createServer((req, res) => {
  const wav = wavOf(Number(/Recordings\/RE(\d+)-/.exec(req.url ?? '')![1]));
  res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': wav.size });
  wav.stream().pipe(res);
});
await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
const mediaBase = `http://127.0.0.1:${(media.address() as AddressInfo).port}/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings`;

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** The largest resident memory of `pid` while `work` runs, above what it was before. */
async function growthDuring(pid: number, work: () => Promise<void>): Promise<{ before: number; peak: number }> {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return { before, peak: Math.max(peak, rssOf(pid)) };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-recordings-'));
const started = await startMain(dataDir, { TELEPHONY_API_KEY: TELEPHONY_KEY, TWILIO_AUTH_TOKEN: TWILIO_TOKEN, ALLOW_PRIVATE_WEBHOOKS: 'true' });
const client = await MongoClient.connect(started.databaseUri);
const calls = client.db('ringtrail').collection<{ callRef: string; recording?: { status: string; size?: number } }>('calls');
const pid = started.child.pid!;
let n = 0;

/** A call reported, then Twilio's signed callback for its recording of `minutes`; resolves once stored. */
async function twilioRecording(minutes: number): Promise<number> {
  const callRef = `CA-bench-${++n}`;
  const { body } = await reportCall(started.baseUrl, { callRef, trackingNumber: '0100000001', startDate: new Date(), duration: minutes * 60 });
  const sid = `RE${minutes}-${n}`;
  const answer = await twilioPost(started.baseUrl, '/recording', { AccountSid: ACCOUNT_SID, CallSid: callRef, RecordingSid: sid, RecordingUrl: `${mediaBase}/${sid}`, RecordingStatus: 'completed', RecordingDuration: String(minutes * 60), RecordingChannels: '2' });
  if (answer.status !== 200) throw new Error(`callback answered ${answer.status}`);
  for (;;) {
    const call = await calls.findOne({ callRef }, { projection: { recording: 1 } });
    if (call?.recording?.status === 'stored') return body.callId as number;
    if (call?.recording?.status === 'failed') throw new Error(JSON.stringify(call.recording));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The data API's link answers the audio's first bytes: playable. */
async function playable(callId: number): Promise<void> {
  const res = await fetch(`${started.baseUrl}/data-api/calls/${callId}/recording?api_key=data-acme-demo`, { headers: { range: 'bytes=0-1023' } });
  await res.arrayBuffer();
  if (res.status !== 206) throw new Error(`the link answered ${res.status}`);
}

const growth = ({ before, peak }: { before: number; peak: number }) => `${(before / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB, growth ${((peak - before) / MB).toFixed(1)} MB (limit 32)`;

try {
  console.log("recordings: npm start's collector on the embedded SecantusDB, a loopback stand-in for Twilio's media URL, 2 cores");
  await new Promise((resolve) => setTimeout(resolve, 2000)); // the demo's start-up writes done

  const atStart = rssOf(pid);
  const latencies: number[] = [];
  for (let i = 0; i < TIMES; i++) {
    const t0 = performance.now();
    await playable(await twilioRecording(10));
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  console.log(`a 10-minute dual WAV (${(TEN_MINUTES.size / MB).toFixed(0)} MB), Twilio's callback to playable, ${TIMES} one after the other: median ${latencies[Math.floor(latencies.length / 2)]!.toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`);
  console.log(`memory, the first recordings after the start (code loaded, the heap at its working size): ${(atStart / MB).toFixed(0)} MB at the start, ${(rssOf(pid) / MB).toFixed(0)} MB after them`);

  // The first recordings after the start load the code of GridFS and of the fetch, and the heap
  // grows to its working size under the first busy traffic, whatever their length: the latency runs
  // above come first, as for a collector that has stored recordings before. Then 60-minute ones,
  // three times: what storing one costs.
  for (const which of ['', ', again', ', a third time']) {
    const fetched = await growthDuring(pid, async () => void (await twilioRecording(60)));
    console.log(`memory, a 60-minute dual WAV (${(HOUR.size / MB).toFixed(0)} MB) fetched after Twilio's callback${which}: ${growth(fetched)}`);
  }

  const { body } = await reportCall(started.baseUrl, { callRef: 'CA-bench-upload', trackingNumber: '0100000001', startDate: new Date(), duration: 3600 });
  const uploaded = await growthDuring(pid, async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${started.baseUrl}/telephony/calls/${body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav', 'content-length': HOUR.size } }, resolve);
      req.on('error', reject);
      HOUR.stream().pipe(req);
    });
    res.resume();
    if (res.statusCode !== 200) throw new Error(`the upload answered ${res.statusCode}`);
  });
  console.log(`memory, the same WAV sent to POST /telephony/calls/{id}/recording: ${growth(uploaded)}`);
} finally {
  await client.close();
  started.child.kill('SIGTERM');
  await exitOf(started.child);
  media.close();
  rmSync(dataDir, { recursive: true, force: true });
}
