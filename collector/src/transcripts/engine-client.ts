// The one client of every speech-to-text engine: OpenAI's `POST /v1/audio/transcriptions`, through
// the official `openai` library pointed at TRANSCRIBE_URL. whisper.cpp's server, faster-whisper
// servers, LocalAI, OpenAI and Groq all answer it; so does the bundled engine (local-engine.ts).
// The library's own retries are off: the outbox retries a job with back-off (transcriber.ts).
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, toFile } from 'openai';
import type { EngineAnswer } from './turns.ts';

export interface EngineSettings {
  /** The engine's base URL, before `/v1`. */
  url: string;
  apiKey?: string;
  model: string;
  /** What the settings screen calls it: `local` for the bundled engine, else the URL's host. */
  name: string;
  /** The bundled tiny.en model (and any `.en` model): English only. */
  englishOnly: boolean;
  /** The least time a file may take (MIN_TIMEOUT_MS; tests shorten it). */
  minTimeoutMs?: number;
}

/** OpenAI's limit for one file; parts are made smaller (transcriber.ts). */
export const MAX_ENGINE_FILE_BYTES = 25 * 1024 * 1024;

/** Why an engine's answer was no transcript, and whether trying again can help. */
export class EngineFailure extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

/** A part of audio: at most this long to transcribe per second of it, and never under a minute. */
const SECONDS_PER_AUDIO_SECOND = 2;
const MIN_TIMEOUT_MS = 60_000;

/** The deadline of one file of `audioSeconds`, in whole milliseconds: the `openai` library refuses a
 * timeout that is not an integer (44.426625 s of audio would give 88,853.25 ms). */
export function transcribeDeadlineMs(audioSeconds: number, minTimeoutMs = MIN_TIMEOUT_MS): number {
  const proportional = Number.isFinite(audioSeconds) && audioSeconds > 0 ? audioSeconds * 1000 * SECONDS_PER_AUDIO_SECOND : 0;
  return Math.ceil(Math.max(minTimeoutMs, proportional));
}

export class EngineClient {
  private readonly client: OpenAI;

  constructor(readonly settings: EngineSettings) {
    this.client = new OpenAI({ baseURL: `${settings.url.replace(/\/$/, '')}/v1`, apiKey: settings.apiKey || 'none', maxRetries: 0, timeout: transcribeDeadlineMs(0, settings.minTimeoutMs) });
  }

  /** One file (a WAV or MP3 part under 25 MB) of `audioSeconds`, in `language` (ISO 639-1). */
  async transcribe(file: Buffer, name: string, language: string | null, audioSeconds: number, signal?: AbortSignal): Promise<EngineAnswer> {
    let answer: unknown;
    try {
      answer = await this.client.audio.transcriptions.create(
        {
          file: await toFile(file, name, { type: name.endsWith('.mp3') ? 'audio/mpeg' : 'audio/wav' }),
          model: this.settings.model,
          ...(language ? { language } : {}),
          response_format: 'verbose_json',
          timestamp_granularities: ['word', 'segment'],
        },
        { timeout: transcribeDeadlineMs(audioSeconds, this.settings.minTimeoutMs), ...(signal ? { signal } : {}) },
      );
    } catch (err) {
      throw failureOf(err);
    }
    return answerOf(answer);
  }

  /** Whether the engine answers, and the models it says it has (`GET /v1/models`). */
  async check(signal?: AbortSignal): Promise<{ answers: boolean; models: string[]; error: string | null }> {
    try {
      const page = await this.client.models.list({ timeout: 5_000, ...(signal ? { signal } : {}) });
      return { answers: true, models: page.data.map((m) => m.id).slice(0, 20), error: null };
    } catch (err) {
      return { answers: false, models: [], error: failureOf(err).message };
    }
  }
}

/** What the library threw, as a failure: a 4xx but 408 and 429 is for good (the audio or the
 * settings are wrong), the rest (5xx, 429, no answer) may pass. */
function failureOf(err: unknown): EngineFailure {
  if (err instanceof APIUserAbortError) return new EngineFailure('stopped', true);
  if (err instanceof APIConnectionTimeoutError) return new EngineFailure('the engine did not answer in time', true);
  if (err instanceof APIConnectionError) return new EngineFailure(`the engine cannot be reached: ${(err.cause as Error | undefined)?.message ?? err.message}`, true);
  if (err instanceof APIError && typeof err.status === 'number') {
    const retry = err.status >= 500 || err.status === 429 || err.status === 408;
    const said = (err.error as { message?: string } | undefined)?.message ?? err.message;
    return new EngineFailure(`the engine answered ${err.status}: ${said}`.slice(0, 500), retry, err.status);
  }
  return new EngineFailure(`the engine's answer could not be read: ${(err as Error).message}`.slice(0, 500), true);
}

/** The answer as verbose_json promises it, or a failure that says it was not. */
function answerOf(answer: unknown): EngineAnswer {
  const a = answer as EngineAnswer & { text?: unknown };
  const timed = (list: unknown) => Array.isArray(list) && list.every((x) => x && typeof x === 'object' && typeof x.start === 'number' && typeof x.end === 'number');
  if (!a || typeof a !== 'object' || (a.segments !== undefined && !timed(a.segments)) || (a.words !== undefined && !timed(a.words))) throw new EngineFailure('the engine answered something that is not a verbose_json transcription', true);
  if (!a.segments && !a.words) {
    if (typeof a.text === 'string' && a.text.trim() !== '') throw new EngineFailure('the engine gave text without times: it must answer response_format=verbose_json', false);
    return { segments: [], words: [], ...(typeof a.duration === 'number' ? { duration: a.duration } : {}) };
  }
  return {
    ...(typeof a.duration === 'number' ? { duration: a.duration } : {}),
    segments: (a.segments ?? []).map((s) => ({ start: s.start, end: s.end, text: String(s.text ?? '') })),
    ...(a.words ? { words: a.words.map((w) => ({ word: String(w.word ?? ''), start: w.start, end: w.end })) } : {}),
  };
}
