// The data API's page of a domain that transcribes its answered calls (a labelled comparison beside
// the default, where nothing is transcribed: TRANSCRIBE_URL is unset by default): the answered calls
// of a page get a transcript of their length (about 2.5 words a second, a turn every 15 s, each
// word's times kept), as the transcriber stores it, and their page entries are written again.
import { CallPages } from '../../collector/src/data/call-pages.ts';
import type { TranscriptDoc, Turn } from '../../collector/src/transcripts/documents.ts';
import { transcriptText } from '../../collector/src/transcripts/turns.ts';
import type { BenchCollector } from './bench-collector.ts';

const WORDS = 'yes hello I am calling about the boiler repair you quoted last week could someone come on thursday morning what does it cost with the parts included thank you for calling how can I help'.split(' ');
const WORDS_PER_SECOND = 2.5;
const TURN_SECONDS = 15;

function transcriptOf(callId: number, domainId: string, startedAt: Date, seconds: number): TranscriptDoc {
  const turns: Turn[] = [];
  const wordTimes: number[][] = [];
  for (let start = 0, n = 0; start < seconds; start += TURN_SECONDS, n++) {
    const end = Math.min(seconds, start + TURN_SECONDS);
    const count = Math.max(1, Math.round((end - start) * WORDS_PER_SECOND));
    const words = Array.from({ length: count }, (_, k) => WORDS[(callId + n * 7 + k) % WORDS.length]!);
    turns.push({ speaker: n % 2 ? 'agent' : 'caller', start, end, text: words.join(' ') });
    wordTimes.push(words.flatMap((_, k) => [start + k / WORDS_PER_SECOND, start + (k + 0.8) / WORDS_PER_SECOND]));
  }
  return { _id: callId, domainId, startedAt, turns, wordTimes, spotted: [], text: transcriptText(turns), language: 'en', engine: 'local', model: 'tiny.en', audioSeconds: seconds, tookMs: seconds * 100, madeAt: startedAt };
}

/** Transcribes the answered calls of ids [firstId, lastId] of `domainId`; answers how many. */
export async function transcribeCalls(bench: BenchCollector, domainId: string, firstId: number, lastId: number): Promise<number> {
  const pages = new CallPages(bench.c);
  const calls = await bench.c.calls.find({ _id: { $gte: firstId, $lte: lastId }, domainId, status: 'SUCCESS', duration: { $gt: 0 } }).toArray();
  await bench.c.transcripts.insertMany(calls.map((call) => transcriptOf(call._id, domainId, call.startedAt, call.duration)));
  for (const before of calls) {
    const after = { ...before, transcript: { status: 'ready' as const, keyPhrases: before._id % 4 === 0 ? ['booked'] : [], at: before.startedAt }, rev: before.rev + 1 };
    await bench.c.calls.replaceOne({ _id: before._id }, after);
    await pages.record(before, after);
  }
  return calls.length;
}
