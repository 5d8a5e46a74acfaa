// Makes a call's transcript, as one attempt of an outbox message (kind `transcript`, sent by the
// delivery worker at most TRANSCRIBE_CONCURRENCY at a time): so a slow or dead engine never slows a
// request, a restart loses nothing (the attempt is made again), and it is retried with back-off.
// A transcript is made once: a call that has one, or no stored recording any more, is done.
// Failing for good (audio the engine cannot read, a language the model does not speak), or still
// failing when the outbox gives up, the call says why.
import type { OutboxDoc, OutboxMessage } from '../webhooks/documents.ts';
import type { SendResult } from '../webhooks/send.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { transcriptionLanguage } from '../domains/transcription-settings.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { TranscriptDoc } from './documents.ts';
import { EngineFailure, type EngineClient } from './engine-client.ts';
import { hearRecording, type RecordingReader } from './recording-parts.ts';
import { labelsOf, spotPhrases } from './spotting.ts';
import type { TranscriptStore } from './transcript-store.ts';
import { transcriptText, turnsOf } from './turns.ts';
import { UnreadableAudio } from './wav.ts';

export const TRANSCRIPT_JOB = 'transcript';
const DONE: SendResult = { delivered: true, httpStatus: null, error: null, permanent: false };

/** The outbox message that makes a call's transcript (its id is the call's: queued once). */
export function transcriptMessage(accountId: string, callId: number): OutboxMessage & { id: string } {
  return { id: `transcript_${callId}`, accountId, stream: `transcript:${callId}`, kind: 'transcript', label: TRANSCRIPT_JOB, url: 'transcribe:engine', contentType: 'application/json', body: JSON.stringify({ callId }), signed: false };
}

/** Why a domain's calls cannot be transcribed by this engine (a language it does not speak), or null. */
export function languageRefusal(engine: EngineClient['settings'], domain: Pick<DomainDoc, 'transcription' | 'country'>): string | null {
  const language = transcriptionLanguage(domain);
  if (!engine.englishOnly || language === 'en') return null;
  return `the model ${engine.model} transcribes English only and this domain's calls are in ${language}: set TRANSCRIBE_LOCAL_MODEL to a multilingual Whisper model, or TRANSCRIBE_URL to another engine`;
}

/** Told of each transcript made or failed (the metrics count them). */
export type TranscriptOutcome = (result: 'made' | 'failed' | 'retrying', seconds: number) => void;

export class Transcriber {
  constructor(
    private readonly c: TelephonyCollections & DomainCollections,
    private readonly engine: EngineClient,
    private readonly recordings: RecordingReader,
    private readonly store: TranscriptStore,
    private readonly counted: TranscriptOutcome = () => {},
  ) {}

  /** One attempt; `signal` aborts it (the worker stopping). */
  async fetch(m: OutboxDoc, signal?: AbortSignal): Promise<SendResult> {
    const { callId } = JSON.parse(m.body) as { callId: number };
    const call = await this.c.calls.findOne({ _id: callId }, { projection: { domainId: 1, startedAt: 1, recording: 1, transcript: 1 } });
    const recording = call?.recording;
    if (!call || recording?.status !== 'stored' || !recording.fileId || call.transcript?.status === 'ready') return DONE;
    const domain = await this.c.domains.findOne({ _id: call.domainId });
    if (!domain) return DONE;
    const refusal = languageRefusal(this.engine.settings, domain);
    if (refusal) return this.fail(callId, refusal, true);
    const language = transcriptionLanguage(domain);
    const started = Date.now();
    try {
      const heard = await hearRecording(this.recordings, { fileId: recording.fileId, size: recording.size ?? 0, contentType: recording.contentType ?? 'audio/wav' }, (file, name, seconds) => this.engine.transcribe(file, name, language, seconds, signal));
      const turns = turnsOf(heard.streams);
      const spotted = spotPhrases(turns, domain.keyPhrases ?? []);
      const transcript: TranscriptDoc = {
        _id: callId,
        domainId: call.domainId,
        startedAt: call.startedAt,
        turns,
        spotted,
        text: transcriptText(turns),
        language,
        engine: this.engine.settings.name,
        model: this.engine.settings.model,
        audioSeconds: Math.round(heard.audioSeconds * 1000) / 1000,
        tookMs: Date.now() - started,
        madeAt: new Date(),
      };
      await this.store.save(transcript, labelsOf(spotted, domain.keyPhrases ?? []));
      this.counted('made', heard.audioSeconds);
      return DONE;
    } catch (err) {
      if (err instanceof UnreadableAudio) return this.fail(callId, `the recording cannot be read: ${err.message}`, true);
      if (!(err instanceof EngineFailure)) throw err;
      return this.fail(callId, err.message, !err.retry, err.httpStatus);
    }
  }

  /** The call says why its transcript could not be made (for good, or when the outbox gives up). */
  async failed(callId: number, reason: string): Promise<void> {
    await this.store.failed(callId, `transcript could not be made: ${reason}`);
  }

  private async fail(callId: number, reason: string, permanent: boolean, httpStatus: number | null = null): Promise<SendResult> {
    if (permanent) await this.failed(callId, reason);
    this.counted(permanent ? 'failed' : 'retrying', 0);
    return { delivered: false, httpStatus, error: reason, permanent };
  }
}
