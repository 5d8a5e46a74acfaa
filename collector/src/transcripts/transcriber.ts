// Makes a call's transcript, as one attempt of an outbox message (kind `transcript`, sent by the
// delivery worker at most TRANSCRIBE_CONCURRENCY at a time): so a slow or dead engine never slows a
// request, a restart loses nothing (the attempt is made again), and it is retried with back-off.
// A transcript is made once: a call that has one, or no stored recording any more, is done.
// Failing for good (audio the engine cannot read, a language the model does not speak), or still
// failing when the outbox gives up, the call says why.
import { setImmediate } from 'node:timers/promises';
import type { OutboxDoc, OutboxMessage } from '../webhooks/documents.ts';
import type { SendResult } from '../webhooks/send.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { transcriptionLanguage } from '../domains/transcription-settings.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { TranscriptDoc } from './documents.ts';
import { EngineFailure, type EngineClient } from './engine-client.ts';
import { hearRecording, type RecordingReader } from './recording-parts.ts';
import { labelsOf, PhraseIndex, spotPhrases } from './spotting.ts';
import type { TranscriptStore } from './transcript-store.ts';
import { transcriptText, turnsWithTimes } from './turns.ts';
import { UnreadableAudio } from './wav.ts';

export const TRANSCRIPT_JOB = 'transcript';
const DONE: SendResult = { delivered: true, httpStatus: null, error: null, permanent: false };

/** The outbox message that makes a call's transcript (its id is the call's: queued once). */
export function transcriptMessage(accountId: string, callId: number): OutboxMessage & { id: string } {
  return { id: `transcript_${callId}`, accountId, stream: `transcript:${callId}`, kind: 'transcript', label: TRANSCRIPT_JOB, url: 'transcribe:engine', contentType: 'application/json', body: JSON.stringify({ callId }), signed: false };
}

export const RESPOT_JOB = 'respot';
/** Transcripts spotted again per attempt: the next batch is a message of its own. */
const RESPOT_BATCH = 500;

/** The outbox message that spots a domain's key phrases again in its transcripts, from call `after` on. */
export function respotMessage(accountId: string, domainId: string, after = 0): OutboxMessage & { id: string } {
  return { id: `respot_${domainId}_${after}_${Date.now()}`, accountId, stream: `respot:${domainId}`, kind: 'transcript', label: RESPOT_JOB, url: 'transcribe:respot', contentType: 'application/json', body: JSON.stringify({ domainId, after }), signed: false };
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
    /** Null: no engine is configured; only the re-spotting of transcripts made before runs. */
    private readonly engine: EngineClient | null,
    private readonly recordings: RecordingReader,
    private readonly store: TranscriptStore,
    private readonly outbox: Outbox,
    private readonly counted: TranscriptOutcome = () => {},
  ) {}

  /** One attempt; `signal` aborts it (the worker stopping). */
  async fetch(m: OutboxDoc, signal?: AbortSignal): Promise<SendResult> {
    if (m.label === RESPOT_JOB) return this.respot(m);
    if (!this.engine) return { delivered: false, httpStatus: null, error: 'no speech-to-text engine is configured (TRANSCRIBE_URL)', permanent: false };
    const engine = this.engine;
    const { callId } = JSON.parse(m.body) as { callId: number };
    const call = await this.c.calls.findOne({ _id: callId }, { projection: { domainId: 1, startedAt: 1, recording: 1, transcript: 1, voicemail: 1 } });
    const recording = call?.recording;
    if (!call || recording?.status !== 'stored' || !recording.fileId || call.transcript?.status === 'ready') return DONE;
    const domain = await this.c.domains.findOne({ _id: call.domainId });
    if (!domain) return DONE;
    const refusal = languageRefusal(engine.settings, domain);
    if (refusal) return this.fail(callId, refusal, true);
    const language = transcriptionLanguage(domain);
    const started = Date.now();
    try {
      const heard = await hearRecording(this.recordings, { fileId: recording.fileId, size: recording.size ?? 0, contentType: recording.contentType ?? 'audio/wav' }, (file, name, seconds) => engine.transcribe(file, name, language, seconds, signal));
      // A voicemail's one voice is the caller's (issue 80): rules on the caller's words read it.
      const streams = call.voicemail ? heard.streams.map((stream) => ({ ...stream, speaker: stream.speaker ?? ('caller' as const) })) : heard.streams;
      const { turns, wordTimes } = turnsWithTimes(streams, language);
      const spotted = await spotPhrases(turns, domain.keyPhrases ?? []);
      const transcript: TranscriptDoc = {
        _id: callId,
        domainId: call.domainId,
        startedAt: call.startedAt,
        turns,
        wordTimes,
        spotted,
        text: transcriptText(turns),
        language,
        engine: engine.settings.name,
        model: engine.settings.model,
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

  /** The domain's key phrases spotted again in a batch of its transcripts (the phrases changed);
   * the next batch queued after it, in the same stream. */
  private async respot(m: OutboxDoc): Promise<SendResult> {
    const { domainId, after } = JSON.parse(m.body) as { domainId: string; after: number };
    const domain = await this.c.domains.findOne({ _id: domainId }, { projection: { keyPhrases: 1, accountId: 1 } });
    if (!domain) return DONE;
    const keyPhrases = domain.keyPhrases ?? [];
    // The phrases indexed once for the batch; the event loop let through between transcripts.
    const index = await PhraseIndex.of(keyPhrases);
    let [count, last] = [0, after];
    for await (const t of this.store.batchAfter(domainId, after, RESPOT_BATCH)) {
      await setImmediate();
      const spotted = await spotPhrases(t.turns, index);
      await this.store.respotted(t._id, spotted, labelsOf(spotted, keyPhrases));
      [count, last] = [count + 1, t._id];
    }
    if (count === RESPOT_BATCH) await this.outbox.enqueue(respotMessage(domain.accountId, domainId, last));
    return DONE;
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
