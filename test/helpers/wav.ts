// A WAV made in the test: `seconds` of a tone (or of silence, at 0 Hz), 8 kHz, 16-bit PCM, one or
// two channels (Twilio's dual-channel recordings have two: the second at half the loudness here).
export function toneWav(seconds: number, { channels = 1, hertz = 440 }: { channels?: 1 | 2; hertz?: number } = {}): Buffer {
  const rate = 8000;
  const samples = rate * seconds;
  const bytes = samples * channels * 2;
  const wav = Buffer.alloc(44 + bytes);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + bytes, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(channels, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * channels * 2, 28);
  wav.writeUInt16LE(channels * 2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(bytes, 40);
  for (let i = 0; i < samples; i++) {
    const v = Math.round(Math.sin((2 * Math.PI * hertz * i) / rate) * 8000);
    wav.writeInt16LE(v, 44 + i * channels * 2);
    if (channels === 2) wav.writeInt16LE(v >> 1, 44 + i * 4 + 2);
  }
  return wav;
}
