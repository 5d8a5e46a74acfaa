// Recordings of every length reach the engine (issue 64): a part's deadline grew with its audio as
// `seconds × 2000` ms, not a whole number for most calls over 30 s (44.426625 s gave 88,853.25 ms),
// and the `openai` library refuses a timeout that is not an integer, so such calls were never
// transcribed. Over random lengths, rates and channels, the recording is split as the transcriber
// splits it and every part is handed to the official client, which must send it to the loopback
// stand-in of OpenAI's API.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ObjectId } from 'mongodb';
import { EngineClient, EngineFailure, transcribeDeadlineMs } from '../../collector/src/transcripts/engine-client.ts';
import { hearRecording, type RecordingReader } from '../../collector/src/transcripts/recording-parts.ts';
import { wavHeader } from '../../collector/src/transcripts/wav.ts';
import { startSttStandIn, type SttStandIn } from '../helpers/openai-stt.ts';

let engine: SttStandIn;
beforeAll(async () => {
  engine = await startSttStandIn();
});
afterAll(() => engine.close());

/** A recording of silence, `frames` long, read as the store reads one (a byte range of it). */
function recordingOf(frames: number, channels: 1 | 2, rate: number): { reader: RecordingReader; size: number } {
  const data = Buffer.alloc(frames * channels * 2);
  const file = Buffer.concat([wavHeader(data.length, channels, rate), data]);
  return { size: file.length, reader: { read: (_id: ObjectId, range) => Readable.from([range ? file.subarray(range.start, range.end + 1) : file]) } };
}

describe('the deadline of a part handed to the engine', () => {
  it('is whole milliseconds, at least the minimum and twice the audio, for any length', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 6 * 3600, noNaN: true }), fc.option(fc.double({ min: 1, max: 120_000, noNaN: true })), (seconds, min) => {
        const ms = transcribeDeadlineMs(seconds, min ?? undefined);
        expect(Number.isInteger(ms)).toBe(true);
        expect(ms).toBeGreaterThanOrEqual(Math.max(seconds * 2000, min ?? 60_000));
      }),
      { numRuns: 2000 },
    );
    expect(transcribeDeadlineMs(44.426625)).toBe(88_854);
  });

  it('is one the official client accepts: every part of recordings of random lengths is sent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 330 * 16_000 }),
        fc.constantFrom<1 | 2>(1, 2),
        fc.constantFrom(8000, 16_000, 11_025),
        fc.option(fc.double({ min: 2000, max: 10_000, noNaN: true })),
        async (frames, channels, rate, minTimeoutMs) => {
          const client = new EngineClient({ url: engine.url, model: 'whisper-1', name: 'stand-in', englishOnly: false, ...(minTimeoutMs === null ? {} : { minTimeoutMs }) });
          const { reader, size } = recordingOf(frames, channels, rate);
          const sent: number[] = [];
          const heard = await hearRecording(reader, { fileId: null as unknown as ObjectId, size, contentType: 'audio/wav' }, (file, name, seconds) => {
            sent.push(seconds);
            return client.transcribe(file, name, 'en', seconds);
          }).catch((err: unknown) => {
            throw err instanceof EngineFailure ? new Error(`a part was refused: ${err.message}`) : err;
          });
          expect(sent.length).toBeGreaterThan(0);
          expect(heard.streams).toHaveLength(channels);
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);
});
