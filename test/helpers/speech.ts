// Speech made in the test: each line said by espeak-ng (Debian's package), resampled (8 kHz unless said) and
// laid out as a telephone recording: one line after another, the caller's on the first channel and
// the agent's on the second (Twilio's `record-from-answer-dual`), or all on one (mono).
import { execFileSync } from 'node:child_process';
import { wavHeader } from '../../collector/src/transcripts/wav.ts';

/** Twilio's recordings' rate: telephone speech. */
const RATE = 8000;

export interface SpokenLine {
  speaker: 'caller' | 'agent';
  text: string;
}

/** One line as 16-bit samples at `rate` (espeak-ng speaks at 22,050 Hz: resampled linearly). */
export function spoken(text: string, voice = 'en-us', rate = RATE): Int16Array {
  const wav = execFileSync('espeak-ng', ['-v', voice, '-s', '150', '--stdout', text], { maxBuffer: 64 * 1024 * 1024 });
  // espeak-ng writes a 44-byte header whose sizes it cannot know on a pipe: the samples follow it.
  const samples = samplesOf(wav);
  return resampled(samples, wav.readUInt32LE(24), rate);
}

/** 16-bit samples at `from` Hz, at `to` Hz (linear interpolation). */
export function resampled(samples: Int16Array, from: number, to: number): Int16Array {
  const out = new Int16Array(Math.floor((samples.length * to) / from));
  for (let i = 0; i < out.length; i++) {
    const at = (i * from) / to;
    const j = Math.floor(at);
    out[i] = Math.round(samples[j]! + (at - j) * ((samples[j + 1] ?? samples[j]!) - samples[j]!));
  }
  return out;
}

/** The samples of a 16-bit mono WAV whose samples follow a 44-byte header (espeak-ng's, whisper.cpp's clips). */
export const samplesOf = (wav: Buffer) => new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - ((wav.length - 44) % 2)));

/** A recording of the lines, `pauseSeconds` apart: two channels (caller, agent), or mixed into one. */
export function conversationWav(lines: SpokenLine[], { channels = 2, pauseSeconds = 0.8, rate = RATE }: { channels?: 1 | 2; pauseSeconds?: number; rate?: number } = {}): Buffer {
  const said = lines.map((line) => ({ ...line, samples: spoken(line.text, line.speaker === 'caller' ? 'en-us+m1' : 'en-us', rate) }));
  const pause = Math.round(pauseSeconds * rate);
  const frames = said.reduce((n, l) => n + l.samples.length + pause, pause);
  const data = Buffer.alloc(frames * channels * 2);
  let at = pause;
  for (const line of said) {
    const channel = channels === 2 && line.speaker === 'agent' ? 1 : 0;
    for (let i = 0; i < line.samples.length; i++) data.writeInt16LE(line.samples[i]!, ((at + i) * channels + channel) * 2);
    at += line.samples.length + pause;
  }
  return Buffer.concat([wavHeader(data.length, channels, rate), data]);
}

/** A line said at `at` seconds into a recording. */
export interface TimedLine extends SpokenLine {
  at: number;
}

/** A recording exactly `seconds` long (to the frame), each line said from its time on and silence
 * between: real call lengths (44.43 s, 5 min 3.3 s) with speech at their start, end and seams. */
export function recordingOfLength(seconds: number, lines: TimedLine[], { channels = 2, rate = RATE }: { channels?: 1 | 2; rate?: number } = {}): Buffer {
  const frames = Math.round(seconds * rate);
  const data = Buffer.alloc(frames * channels * 2);
  for (const line of lines) {
    const samples = spoken(line.text, line.speaker === 'caller' ? 'en-us+m1' : 'en-us', rate);
    const channel = channels === 2 && line.speaker === 'agent' ? 1 : 0;
    const from = Math.round(line.at * rate);
    if (from + samples.length > frames) throw new Error(`"${line.text}" at ${line.at} s does not fit in ${seconds} s`);
    for (let i = 0; i < samples.length; i++) data.writeInt16LE(samples[i]!, ((from + i) * channels + channel) * 2);
  }
  return Buffer.concat([wavHeader(data.length, channels, rate), data]);
}
