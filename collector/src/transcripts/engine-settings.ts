// The engine a collector process sends its transcripts to, from its configuration: TRANSCRIBE_URL
// itself, or, with `local`, the bundled engine started here (and stopped with the process).
import type { TranscribeConfig } from '../config.ts';
import type { EngineSettings } from './engine-client.ts';
import { startLocalEngine } from './local-engine.ts';

/** OpenAI's name of its Whisper model: what an engine is asked for unless TRANSCRIBE_MODEL says otherwise. */
export const DEFAULT_REMOTE_MODEL = 'whisper-1';

/** Whisper's English-only models are named `….en` (tiny.en, base.en, distil-small.en). */
export const isEnglishOnly = (model: string) => /\.en$/i.test(model);

export async function engineOf(config: TranscribeConfig, say: (line: string) => void): Promise<{ settings: EngineSettings; stop: () => Promise<void> }> {
  if (config.url !== 'local') {
    const model = config.model ?? DEFAULT_REMOTE_MODEL;
    return { settings: { url: config.url, model, name: new URL(config.url).host, englishOnly: isEnglishOnly(model), ...(config.apiKey ? { apiKey: config.apiKey } : {}) }, stop: async () => {} };
  }
  const engine = await startLocalEngine({ ...(config.localModel ? { modelDir: config.localModel } : {}), say });
  return { settings: { url: engine.url, model: engine.model, name: 'local', englishOnly: engine.englishOnly }, stop: engine.stop };
}
