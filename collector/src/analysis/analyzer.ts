// The outbox job that analyses a call (issue 66), once its transcript is ready: the transcript's
// turns (as stored, card numbers already redacted) read by the model (analyze.ts), the answer kept
// on the call through the call writes (its summaries and pushes follow), once: a call analysed
// already is not asked again, across restarts. A model that refuses for good (a wrong key, an
// unknown model) leaves the call saying why; one that may answer later is retried with back-off,
// a 429 after its Retry-After.
import type { DomainCollections } from '../domains/documents.ts';
import { transcriptionLanguage } from '../domains/transcription-settings.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import type { OutboxDoc, OutboxMessage } from '../webhooks/documents.ts';
import type { SendResult } from '../webhooks/send.ts';
import { analyzeTranscript, languageName } from './analyze.ts';
import { AnalysisFailure, type ModelClient } from './model-client.ts';
import { DEFAULT_MAX_CHARS } from './parts.ts';

const DONE: SendResult = { delivered: true, httpStatus: null, error: null, permanent: false };

/** The job names its call (`about`), so the call's page and its calls-log row say, while it is retried,
 * that the model keeps failing, in the model's words (issue 80). */
export function analysisMessage(accountId: string, callId: number): OutboxMessage & { id: string } {
  return { id: `analysis_${callId}`, accountId, stream: `analysis:${callId}`, kind: 'analysis', label: 'analysis', url: 'analyze:model', contentType: 'application/json', body: JSON.stringify({ callId }), signed: false, about: { callIds: [callId] } };
}

/** Told of each analysis made or failed (the metrics count them). */
export type AnalysisOutcome = (result: 'made' | 'failed' | 'retrying') => void;

export class Analyzer {
  constructor(
    private readonly c: TelephonyCollections & DomainCollections & TranscriptCollections,
    private readonly model: ModelClient | null,
    private readonly writes: CallWrites,
    private readonly maxChars = DEFAULT_MAX_CHARS,
    private readonly counted: AnalysisOutcome = () => {},
  ) {}

  async fetch(m: OutboxDoc, signal?: AbortSignal): Promise<SendResult> {
    if (!this.model) return { delivered: false, httpStatus: null, error: 'no language model is configured (ANALYZE_URL)', permanent: false };
    const { callId } = JSON.parse(m.body) as { callId: number };
    const call = await this.c.calls.findOne({ _id: callId }, { projection: { domainId: 1, transcript: 1, analysis: 1 } });
    if (!call || call.transcript?.status !== 'ready' || call.analysis?.status === 'ready') return DONE;
    const [domain, transcript] = await Promise.all([this.c.domains.findOne({ _id: call.domainId }), this.c.transcripts.findOne({ _id: callId }, { projection: { turns: 1 } })]);
    if (!domain?.analysis?.enabled || !transcript) return DONE;
    const questions = domain.analysis.questions;
    try {
      const a = await analyzeTranscript(this.model, transcript.turns, { language: languageName(transcriptionLanguage(domain)), questions, maxChars: this.maxChars, ...(signal ? { signal } : {}) });
      const analysis = { status: 'ready' as const, at: new Date(), model: this.model.settings.model, summary: a.summary, intent: a.intent, outcomes: a.outcomes, followUp: a.followUp, leadScore: a.leadScore, leadScoreReasons: a.leadScoreReasons, sentiment: a.sentiment, answers: a.questions.map((j, i) => ({ question: questions[i]!, ...j })) };
      await this.writes.change(callId, (now) => (now.analysis?.status === 'ready' ? null : { analysis }));
      this.counted('made');
      return DONE;
    } catch (err) {
      if (!(err instanceof AnalysisFailure)) throw err;
      // Refused for good: the outbox gives the job up at once, and its giving up marks the call (failed()).
      if (!err.retry) return { delivered: false, httpStatus: null, error: err.message, permanent: true };
      this.counted('retrying');
      return { delivered: false, httpStatus: null, error: err.message, permanent: false, retryAfterMs: err.retryAfterMs };
    }
  }

  /** The call says why it has no analysis (refused for good, or given up after its retries): the
   * outbox's giving up calls it, once a job. */
  async failed(callId: number, error: string): Promise<void> {
    this.counted('failed');
    await this.writes.change(callId, (now) => (now.analysis?.status === 'ready' ? null : { analysis: { status: 'failed', at: new Date(), error } }));
  }
}
