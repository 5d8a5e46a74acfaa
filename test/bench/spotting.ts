// `npm run bench`, the key phrases part (issue 70): a domain at the settings' limits (50 labels of 20
// phrases of 8 words) and hour-long calls (9,000 words, 600 turns).
//
// 1. One transcript spotted, in this process: trying every phrase at every word (the code before
//    issue 70, kept here as the comparison) against the index of first words; with the event
//    loop's longest hold while each runs (perf_hooks' monitorEventLoopDelay).
// 2. The collector as `npm start` runs it, in a process of its own, re-spotting 20 such transcripts
//    (an owner edited the phrases) while /healthz is asked 100 times a second at a steady pace (open
//    loop: each latency from the request's scheduled time): its p50, p99 and worst.
//
// Two vocabularies: 2,000 words (a call's words, the phrases' drawn from them), and the worst case of
// 30 words, where every word of the call starts 33 phrases.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { KeyPhrase } from '../../collector/src/domains/transcription-settings.ts';
import type { Turn } from '../../collector/src/transcripts/documents.ts';
import { respotMessage } from '../../collector/src/transcripts/transcriber.ts';
import { spotPhrases } from '../../collector/src/transcripts/spotting.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { databaseLabel, startBenchCollector, startCollectorProcess } from './bench-collector.ts';
import { everyPhraseEverywhere, seededRandom } from '../helpers/spotting-reference.ts';

const TRANSCRIPTS = Number(process.env.BENCH_SPOT_TRANSCRIPTS ?? 20);
const RATE = 100;

const SYLLABLES = ['ka', 'lo', 'mi', 'ter', 'pan', 'dor', 'vel', 'sun', 'ri', 'ba', 'cho', 'nel', 'gra', 'tis', 'mon', 'ple'];
function vocabulary(size: number): string[] {
  const next = seededRandom(7);
  const words = new Set<string>();
  while (words.size < size) words.add(Array.from({ length: 1 + Math.floor(next() * 3) }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
  return [...words];
}

function limits(words: string[]): KeyPhrase[] {
  const next = seededRandom(11);
  const pick = () => words[Math.floor(next() * words.length)]!;
  return Array.from({ length: 50 }, (_, l) => ({ label: `label ${l}`, speaker: 'any' as const, phrases: Array.from({ length: 20 }, () => Array.from({ length: 8 }, pick).join(' ')) }));
}

/** An hour-long call: 600 turns of 15 words, two speakers. */
function hourLong(words: string[], seed: number): Turn[] {
  const next = seededRandom(seed);
  return Array.from({ length: 600 }, (_, t) => ({ speaker: t % 2 ? 'caller' : 'agent', start: t * 6, end: t * 6 + 5, text: Array.from({ length: 15 }, () => words[Math.floor(next() * words.length)]).join(' ') }));
}

/** How long `work` takes, and the event loop's longest hold meanwhile (ms): the longest gap
 * between ticks of a 1 ms timer, less that millisecond (a synchronous work holds it whole). */
async function timed(work: () => unknown): Promise<{ ms: number; held: number }> {
  let [last, held] = [performance.now(), 0];
  const tick = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last - 1);
    last = now;
  }, 1);
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(tick);
  return { ms, held };
}

/** Both on the call's first six minutes (900 words: trying every phrase everywhere takes minutes on
 * the whole hour), then the index on the whole hour. */
async function oneTranscript(label: string, words: string[]): Promise<void> {
  const [phrases, turns] = [limits(words), hourLong(words, 3)];
  const minutes = turns.slice(0, 60);
  const before = await timed(() => everyPhraseEverywhere(minutes, phrases));
  const after = await timed(() => spotPhrases(minutes, phrases));
  const hour = await timed(() => spotPhrases(turns, phrases));
  console.log(`  ${label}, 900 words: every phrase at every word ${before.ms.toFixed(0)} ms (event loop held ${before.held.toFixed(0)} ms); index of first words ${after.ms.toFixed(1)} ms (held at most ${after.held.toFixed(0)} ms)`);
  console.log(`  ${label}, the whole hour (9,000 words), index of first words: ${hour.ms.toFixed(0)} ms (event loop held at most ${hour.held.toFixed(0)} ms)`);
}

/** GET /healthz at a steady pace until `done` settles: each latency from its scheduled time. */
async function healthzWhile(base: string, done: Promise<unknown>): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 200, timeout: 4000 });
  const latencies: number[] = [];
  const sent: Promise<void>[] = [];
  let over = false;
  void done.finally(() => (over = true));
  const start = performance.now();
  for (let n = 0; !over; n++) {
    const scheduled = start + (n * 1000) / RATE;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent.push(
      new Promise((resolve) => {
        http.get(`${base}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => (latencies.push(performance.now() - scheduled), resolve()));
        }).on('error', () => resolve());
      }),
    );
  }
  await Promise.all(sent);
  agent.destroy();
  return latencies;
}

async function respotting(label: string, words: string[]): Promise<void> {
  const bench = await startBenchCollector({ accounts: [{ name: 'Bench', domains: [{ name: 'spot.test', apiKey: 'spot-api-key', pools: [{ type: 1, usage: 'online', numbers: ['0800000001'] }] }] }] }, 'spotting');
  try {
    await bench.c.domains.updateOne({ _id: 'spot.test' }, { $set: { keyPhrases: limits(words), transcription: { enabled: true, language: null } } });
    await bench.c.transcripts.insertMany(Array.from({ length: TRANSCRIPTS }, (_, i) => ({ _id: i + 1, domainId: 'spot.test', startedAt: new Date(), turns: hourLong(words, 100 + i), spotted: [], text: '', language: 'en', engine: 'bench', model: 'bench', audioSeconds: 3600, tookMs: 0, madeAt: new Date() })));
    const collector = await startCollectorProcess(bench);
    try {
      const quiet = (await healthzWhile(collector.base, new Promise((r) => setTimeout(r, 3000)))).sort((a, b) => a - b);
      const q = (list: number[], at: number) => list[Math.min(list.length - 1, Math.floor(list.length * at))]!.toFixed(1);
      console.log(`  ${label}: /healthz at ${RATE}/s with nothing else to do (${quiet.length} requests): p50 ${q(quiet, 0.5)} ms, p99 ${q(quiet, 0.99)} ms`);
      const domain = (await bench.c.domains.findOne({ _id: 'spot.test' }))!;
      const message = respotMessage(domain.accountId, domain._id);
      const started = performance.now();
      await new Outbox(bench.c).enqueue(message);
      // Done once the message is gone from the outbox (delivered).
      const done = (async () => {
        while (await bench.c.outbox.countDocuments({ _id: message.id }, { limit: 1 })) await new Promise((r) => setTimeout(r, 50));
      })();
      const latencies = (await healthzWhile(collector.base, done)).sort((a, b) => a - b);
      const took = performance.now() - started;
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))]!.toFixed(1);
      console.log(`  ${label}: ${TRANSCRIPTS} hour-long transcripts re-spotted in ${(took / 1000).toFixed(1)} s; /healthz at ${RATE}/s meanwhile (${latencies.length} requests): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, worst ${latencies.at(-1)!.toFixed(1)} ms`);
    } finally {
      await collector.stop();
    }
  } finally {
    await bench.close();
  }
}

console.log(`Key phrases at the limits (50 labels × 20 phrases × 8 words), hour-long calls (9,000 words); ${databaseLabel()}:`);
console.log('One transcript spotted (this process):');
await oneTranscript('2,000-word vocabulary', vocabulary(2000));
await oneTranscript('worst case, 30-word vocabulary', vocabulary(30));
console.log('Re-spotting in the collector (npm start, a process of its own; open loop):');
await respotting('2,000-word vocabulary', vocabulary(2000));
await respotting('worst case, 30-word vocabulary', vocabulary(30));
