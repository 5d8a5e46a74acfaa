// WAV recordings read in parts: the header says where the samples are and how they are laid out, so
// a part of any length is one byte range of the stored file (never the whole recording in memory),
// split into its channels and written back as mono 16-bit WAV files an engine accepts. Twilio's
// recordings are 16-bit PCM (dual-channel ones interleave the two legs, the caller's first); 8-bit
// and G.711 (µ-law, A-law) are widened to 16 bits on the way.

export interface WavLayout {
  /** 1 PCM, 6 A-law, 7 µ-law (WAVE_FORMAT_EXTENSIBLE read as its sub-format). */
  format: 1 | 6 | 7;
  channels: number;
  sampleRate: number;
  bitsPerSample: 8 | 16;
  /** Where the samples start in the file, and how many bytes of them. */
  dataOffset: number;
  dataBytes: number;
}

export class UnreadableAudio extends Error {}

/** The bytes of a header read before its layout is known: fmt and data come within the first few KB. */
export const WAV_HEAD_BYTES = 64 * 1024;

/** Reads a WAV file's layout from its first bytes. */
export function wavLayout(head: Buffer, fileSize: number): WavLayout {
  if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') throw new UnreadableAudio('not a RIFF WAVE file');
  let offset = 12;
  let fmt: Omit<WavLayout, 'dataOffset' | 'dataBytes'> | null = null;
  while (offset + 8 <= head.length) {
    const id = head.toString('latin1', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (body + 16 > head.length) break;
      let format = head.readUInt16LE(body);
      if (format === 0xfffe && body + 26 <= head.length) format = head.readUInt16LE(body + 24); // the sub-format GUID's first two bytes
      const channels = head.readUInt16LE(body + 2);
      const sampleRate = head.readUInt32LE(body + 4);
      const bits = head.readUInt16LE(body + 14);
      if (format !== 1 && format !== 6 && format !== 7) throw new UnreadableAudio(`WAV format ${format} is not PCM, A-law or µ-law`);
      if (format === 1 && bits !== 8 && bits !== 16) throw new UnreadableAudio(`${bits}-bit PCM is not read (8 or 16)`);
      if (format !== 1 && bits !== 8) throw new UnreadableAudio(`G.711 must be 8 bits a sample, not ${bits}`);
      if (channels < 1 || channels > 8 || sampleRate < 1000 || sampleRate > 192_000) throw new UnreadableAudio('a WAV header with no sensible channels or rate');
      fmt = { format: format as WavLayout['format'], channels, sampleRate, bitsPerSample: bits as 8 | 16 };
    } else if (id === 'data') {
      if (!fmt) throw new UnreadableAudio('WAV data before its format');
      // Streamed writers leave the size 0 or 0xFFFFFFFF: the data then runs to the end of the file.
      const dataBytes = size === 0 || size === 0xffffffff || body + size > fileSize ? fileSize - body : size;
      return { ...fmt, dataOffset: body, dataBytes };
    }
    offset = body + size + (size % 2);
  }
  throw new UnreadableAudio(`no WAV format and data within the first ${WAV_HEAD_BYTES} bytes`);
}

export const bytesPerFrame = (l: WavLayout) => l.channels * (l.bitsPerSample / 8);
export const durationOf = (l: WavLayout) => l.dataBytes / bytesPerFrame(l) / l.sampleRate;

/** The byte range (in the file, end excluded) of the frames from `startSecond` for `seconds`. */
export function frameRange(l: WavLayout, startSecond: number, seconds: number): { start: number; end: number } {
  const frame = bytesPerFrame(l);
  const first = Math.floor(startSecond * l.sampleRate);
  const last = Math.min(Math.floor((startSecond + seconds) * l.sampleRate), l.dataBytes / frame);
  return { start: l.dataOffset + first * frame, end: l.dataOffset + Math.floor(last) * frame };
}

/** One channel of interleaved frames, as 16-bit samples. */
export function channelOf(l: WavLayout, frames: Buffer, channel: number): Int16Array {
  const frame = bytesPerFrame(l);
  const count = Math.floor(frames.length / frame);
  const out = new Int16Array(count);
  const width = l.bitsPerSample / 8;
  for (let i = 0; i < count; i++) {
    const at = i * frame + channel * width;
    out[i] = l.bitsPerSample === 16 ? frames.readInt16LE(at) : l.format === 7 ? ulaw(frames[at]!) : l.format === 6 ? alaw(frames[at]!) : (frames[at]! - 128) << 8;
  }
  return out;
}

/** The channels mixed into one (a mono engine input from a recording whose channels are not two legs). */
export function mixed(l: WavLayout, frames: Buffer): Int16Array {
  const channels = Array.from({ length: l.channels }, (_, ch) => channelOf(l, frames, ch));
  const out = new Int16Array(channels[0]!.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(channels.reduce((sum, ch) => sum + ch[i]!, 0) / l.channels);
  return out;
}

/** The 44-byte header of a 16-bit PCM WAV file of `dataBytes` of samples. */
export function wavHeader(dataBytes: number, channels: number, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** A mono 16-bit PCM WAV file of `samples`. */
export function monoWav(samples: Int16Array, sampleRate: number): Buffer {
  const out = Buffer.alloc(44 + samples.length * 2);
  wavHeader(samples.length * 2, 1, sampleRate).copy(out);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, 44 + i * 2);
  return out;
}

/** G.711 µ-law to 16-bit linear (ITU-T G.711). */
function ulaw(byte: number): number {
  const u = ~byte & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - t : t - 0x84;
}

/** G.711 A-law to 16-bit linear. */
function alaw(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a & 0x70) >> 4;
  let t = (a & 0x0f) << 4;
  t = exponent === 0 ? t + 8 : (t + 0x108) << (exponent - 1);
  return a & 0x80 ? t : -t;
}
