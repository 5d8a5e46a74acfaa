// A WAV made in the test: `seconds` of a tone (or of silence, at 0 Hz), 8 kHz, 16-bit PCM, one or
// two channels (Twilio's dual-channel recordings have two: the second at half the loudness here).
import { Readable } from 'node:stream';
import { wavHeader as wavHeaderOf } from '../../collector/src/transcripts/wav.ts';

const RATE = 8000;

interface ToneOptions {
  channels?: 1 | 2;
  hertz?: number;
}

export function toneWav(seconds: number, { channels = 1, hertz = 440 }: ToneOptions = {}): Buffer {
  const samples = tone(RATE * seconds, channels, hertz);
  return Buffer.concat([wavHeader(samples.length, channels), samples]);
}

/** The same, a second at a time, for a long recording never whole in memory (a whole tone, in hertz,
 * repeats every second). `size`: its bytes. */
export function toneWavStream(seconds: number, { channels = 1, hertz = 440 }: ToneOptions = {}): { size: number; stream: () => Readable } {
  const second = tone(RATE, channels, hertz);
  const bytes = second.length * seconds;
  return {
    size: 44 + bytes,
    stream: () =>
      Readable.from(
        (function* () {
          yield wavHeader(bytes, channels);
          for (let i = 0; i < seconds; i++) yield second;
        })(),
      ),
  };
}

const wavHeader = (bytes: number, channels: number) => wavHeaderOf(bytes, channels, RATE);

function tone(samples: number, channels: number, hertz: number): Buffer {
  const pcm = Buffer.alloc(samples * channels * 2);
  for (let i = 0; i < samples; i++) {
    const v = Math.round(Math.sin((2 * Math.PI * hertz * i) / RATE) * 8000);
    pcm.writeInt16LE(v, i * channels * 2);
    if (channels === 2) pcm.writeInt16LE(v >> 1, i * 4 + 2);
  }
  return pcm;
}
