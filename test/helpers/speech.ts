// Speech made in the test: each line said by espeak-ng (Debian's package), resampled to 8 kHz and
// laid out as a telephone recording: one line after another, the caller's on the first channel and
// the agent's on the second (Twilio's `record-from-answer-dual`), or all on one (mono).
import { execFileSync } from 'node:child_process';

const RATE = 8000;

export interface SpokenLine {
  speaker: 'caller' | 'agent';
  text: string;
}

/** One line as 8 kHz 16-bit samples (espeak-ng speaks at 22,050 Hz: resampled linearly). */
export function spoken(text: string, voice = 'en-us'): Int16Array {
  const wav = execFileSync('espeak-ng', ['-v', voice, '-s', '150', '--stdout', text], { maxBuffer: 64 * 1024 * 1024 });
  // espeak-ng writes a 44-byte header whose sizes it cannot know on a pipe: the samples follow it.
  const rate = wav.readUInt32LE(24);
  const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - ((wav.length - 44) % 2)));
  const out = new Int16Array(Math.floor((samples.length * RATE) / rate));
  for (let i = 0; i < out.length; i++) {
    const at = (i * rate) / RATE;
    const j = Math.floor(at);
    out[i] = Math.round(samples[j]! + (at - j) * ((samples[j + 1] ?? samples[j]!) - samples[j]!));
  }
  return out;
}

/** A recording of the lines, `pauseSeconds` apart: two channels (caller, agent), or mixed into one. */
export function conversationWav(lines: SpokenLine[], { channels = 2, pauseSeconds = 0.8 }: { channels?: 1 | 2; pauseSeconds?: number } = {}): Buffer {
  const said = lines.map((line) => ({ ...line, samples: spoken(line.text, line.speaker === 'caller' ? 'en-us' : 'en-gb') }));
  const pause = Math.round(pauseSeconds * RATE);
  const frames = said.reduce((n, l) => n + l.samples.length + pause, pause);
  const data = Buffer.alloc(frames * channels * 2);
  let at = pause;
  for (const line of said) {
    const channel = channels === 2 && line.speaker === 'agent' ? 1 : 0;
    for (let i = 0; i < line.samples.length; i++) data.writeInt16LE(line.samples[i]!, ((at + i) * channels + channel) * 2);
    at += line.samples.length + pause;
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
