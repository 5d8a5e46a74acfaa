// A stored recording read as the files an engine is sent: WAV in parts of at most PART_SECONDS (and
// under 25 MB each), each channel of a two-channel recording on its own (the caller's leg first, as
// Twilio's `record-from-answer-dual` writes it), consecutive parts overlapping by OVERLAP_SECONDS so
// no word is cut at a seam; MP3 whole, or in byte parts cut at a frame's start when larger, with no
// speakers (its channels are not split here). One part is in memory at a time.
import type { Readable } from 'node:stream';
import type { ObjectId } from 'mongodb';
import type { Speaker } from './documents.ts';
import { MAX_ENGINE_FILE_BYTES } from './engine-client.ts';
import { keptBetween, wordsOfAnswer, type EngineAnswer } from './turns.ts';
import type { TimedWord } from './redact.ts';
import { channelOf, durationOf, frameRange, mixed, monoWav, UnreadableAudio, WAV_HEAD_BYTES, wavLayout } from './wav.ts';

/** Five minutes: one part of a channel is 4.8 MB at 8 kHz, and what a part holds while it is sent
 * (its frames, a channel, the form the library encodes) stays small whatever the call's length. */
export const PART_SECONDS = 300;
export const OVERLAP_SECONDS = 10;
/** A part's file stays this far under the engine's limit (a WAV header and the form around it). */
const PART_BYTES = MAX_ENGINE_FILE_BYTES - 1024 * 1024;

/** How the store reads a recording's bytes (recordings/store.ts). */
export interface RecordingReader {
  read(fileId: ObjectId, range?: { start: number; end: number }): Readable;
}

export interface StoredAudio {
  fileId: ObjectId;
  size: number;
  contentType: string;
}

/** Sends one file to the engine: its bytes, a name, and how many seconds of audio it holds. */
export type Transcribe = (file: Buffer, name: string, seconds: number) => Promise<EngineAnswer>;

export interface HeardStreams {
  streams: { speaker: Speaker; words: TimedWord[] }[];
  audioSeconds: number;
}

async function bytesOf(reader: RecordingReader, fileId: ObjectId, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of reader.read(fileId, { start, end: end - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every word of the recording, per speaker, in its time. */
export async function hearRecording(reader: RecordingReader, audio: StoredAudio, transcribe: Transcribe): Promise<HeardStreams> {
  return audio.contentType === 'audio/mpeg' ? hearMp3(reader, audio, transcribe) : hearWav(reader, audio, transcribe);
}

async function hearWav(reader: RecordingReader, audio: StoredAudio, transcribe: Transcribe): Promise<HeardStreams> {
  const layout = wavLayout(await bytesOf(reader, audio.fileId, 0, Math.min(audio.size, WAV_HEAD_BYTES)), audio.size);
  const seconds = durationOf(layout);
  const speakers: Speaker[] = layout.channels === 2 ? ['caller', 'agent'] : [null];
  const part = Math.min(PART_SECONDS, Math.floor(PART_BYTES / (layout.sampleRate * 2)) - OVERLAP_SECONDS);
  const words = speakers.map(() => [] as TimedWord[]);
  for (let from = 0; from < seconds; from += part) {
    const start = Math.max(0, from - OVERLAP_SECONDS);
    const last = from + part >= seconds;
    const range = frameRange(layout, start, from + part - start);
    const frames = await bytesOf(reader, audio.fileId, range.start, range.end);
    const keepFrom = from === 0 ? 0 : from - OVERLAP_SECONDS / 2;
    const keepTo = last ? Infinity : from + part - OVERLAP_SECONDS / 2;
    for (const [i, speaker] of speakers.entries()) {
      const samples = speaker === null ? mixed(layout, frames) : channelOf(layout, frames, i);
      const answer = await transcribe(monoWav(samples, layout.sampleRate), `call-part-${from}-${speaker ?? 'mono'}.wav`, samples.length / layout.sampleRate);
      words[i]!.push(...keptBetween(wordsOfAnswer(answer, start), keepFrom, keepTo));
    }
  }
  return { streams: speakers.map((speaker, i) => ({ speaker, words: words[i]! })), audioSeconds: seconds };
}

/** The next MP3 frame's start at or after `at` (its sync bits: eleven 1s), or `at` when none is near. */
function frameStartFrom(bytes: Buffer, at: number): number {
  for (let i = at; i < bytes.length - 1; i++) if (bytes[i] === 0xff && (bytes[i + 1]! & 0xe0) === 0xe0) return i;
  return at;
}

async function hearMp3(reader: RecordingReader, audio: StoredAudio, transcribe: Transcribe): Promise<HeardStreams> {
  if (audio.size === 0) throw new UnreadableAudio('an empty MP3 file');
  const words: TimedWord[] = [];
  let offset = 0;
  for (let start = 0; start < audio.size; ) {
    let end = Math.min(audio.size, start + PART_BYTES);
    const bytes = await bytesOf(reader, audio.fileId, start, end);
    if (end < audio.size) end = start + frameStartFrom(bytes, bytes.length - 4096);
    const file = bytes.subarray(0, end - start);
    const answer = await transcribe(file, `call-part-${start}.mp3`, file.length / 2000); // ≥ 16 kbit/s: at most this many seconds
    words.push(...wordsOfAnswer(answer, offset));
    offset += answer.duration ?? answer.segments?.at(-1)?.end ?? 0;
    start = end;
  }
  return { streams: [{ speaker: null, words }], audioSeconds: offset };
}
