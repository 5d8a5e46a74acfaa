// Every length of recording is transcribed by the bundled engine (issue 64): calls over 30 s were
// never transcribed, their deadline not a whole number of milliseconds. Recordings of real call
// lengths (29.9 s, 30.1 s, 44.43 s, 61.7 s, and 5 min 3.3 s in two parts), mono and two-channel,
// 8 kHz (an ordinary phone call) and 16 kHz, with speech at their start, their end and across the
// seam of the long one's parts, go the whole way: uploaded by the carrier, stored in GridFS, sent
// to faster-whisper on loopback, made into turns. Each must say its first and last lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalEngine, type RunningEngine } from '../../collector/src/transcripts/local-engine.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { recordingOfLength, type TimedLine } from '../helpers/speech.ts';

let engine: RunningEngine;
beforeAll(async () => {
  engine = await startLocalEngine();
}, 600_000);
afterAll(() => engine?.stop());

interface Case {
  name: string;
  seconds: number;
  channels: 1 | 2;
  rate: number;
  lines: TimedLine[];
  /** What the transcript must say, in order: a word of each line at least. */
  heard: RegExp[];
}

const opening: TimedLine = { speaker: 'agent', at: 0.5, text: 'Thank you for calling the dental office.' };
const closing = (at: number): TimedLine => ({ speaker: 'caller', at, text: 'Goodbye and have a nice day.' });
const CASES: Case[] = [
  { name: '29.9 s, mono, 16 kHz', seconds: 29.9, channels: 1, rate: 16_000, lines: [opening, closing(26.5)], heard: [/calling/, /goodbye|nice day/] },
  { name: '30.1 s, mono, 16 kHz', seconds: 30.1, channels: 1, rate: 16_000, lines: [opening, closing(26.7)], heard: [/calling/, /goodbye|nice day/] },
  { name: '44.43 s, two channels, 8 kHz (an ordinary phone call)', seconds: 44.426625, channels: 2, rate: 8000, lines: [opening, { speaker: 'caller', at: 4, text: 'I would like to book an appointment please.' }, closing(41)], heard: [/calling|dental/, /appointment|book/, /goodbye|nice|day/] },
  { name: '61.7 s, two channels, 16 kHz', seconds: 61.7, channels: 2, rate: 16_000, lines: [opening, { speaker: 'caller', at: 30, text: 'How much does a cleaning cost?' }, closing(58.3)], heard: [/calling/, /cleaning|cost/, /goodbye|nice day/] },
  {
    name: '5 min 3.3 s, mono, 16 kHz, in two parts',
    seconds: 303.3,
    channels: 1,
    rate: 16_000,
    // Parts of 300 s overlapping by 10 s: a line across the seam, and one in the second part only.
    lines: [opening, { speaker: 'caller', at: 297.5, text: 'The appointment is on Tuesday morning.' }, closing(300)],
    heard: [/calling/, /appointment|tuesday/, /goodbye|nice day/],
  },
];

describe('recordings of every length, transcribed by the bundled engine', () => {
  const s = useSeededCollector('e2e_transcript_lengths', trackingFixture({ settings: { transcription: { enabled: true, language: 'en' } } }), {
    telephonyApiKey: TELEPHONY_KEY,
    delivery: { pollMs: 50, firstRetryMs: 200, maxRetryMs: 1000, publicOnly: false },
    get transcribe() {
      return { url: engine.url, model: engine.model, name: 'local', englishOnly: engine.englishOnly };
    },
  });

  it('makes a transcript of each, from its first line to its last, each said once', async () => {
    const calls: { c: Case; callId: number }[] = [];
    for (const [i, c] of CASES.entries()) {
      const { body } = await reportCall(s.collector.baseUrl, { callRef: `length-${i}`, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: Math.ceil(c.seconds) });
      const wav = recordingOfLength(c.seconds, c.lines, { channels: c.channels, rate: c.rate });
      const sent = await fetch(`${s.collector.baseUrl}/telephony/calls/${body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: new Uint8Array(wav) });
      expect(sent.status, c.name).toBe(200);
      calls.push({ c, callId: body.callId });
    }
    for (const { c, callId } of calls) {
      await expect.poll(async () => (await s.t.c.calls.findOne({ _id: callId }))?.transcript, { timeout: 240_000, interval: 500 }).toMatchObject({ status: 'ready' });
      const transcript = (await s.t.c.transcripts.findOne({ _id: callId }))!;
      const text = transcript.text.toLowerCase();
      expect(transcript.audioSeconds, c.name).toBeCloseTo(c.seconds, 2);
      let from = 0;
      for (const heard of c.heard) {
        const at = text.slice(from).search(heard);
        expect(at, `${c.name}: ${heard} after ${from} in "${text}"`).toBeGreaterThanOrEqual(0);
        from += at + 1;
      }
      // Said once: no line doubled at a seam.
      expect(text.match(/goodbye/g)?.length ?? 1, `${c.name}: "${text}"`).toBeLessThanOrEqual(1);
      if (c.channels === 2) expect(new Set(transcript.turns.map((t) => t.speaker)), c.name).toEqual(new Set(['agent', 'caller']));
      // The last words are timed where they were said.
      expect(transcript.turns.at(-1)!.end, c.name).toBeGreaterThan(c.lines.at(-1)!.at);
    }
  }, 480_000);
});
