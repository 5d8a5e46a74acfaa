// The call page's "What happened" card (issue 66): what the domain's language model read in the call
// (a summary, the intent, the outcomes, the lead score with its reasons, the caller's sentiment, the
// domain's questions), each `yes` with its quote: a click plays the recording from that turn. A
// person corrects an outcome; their word wins and the history keeps it. Every word of the model's is
// shown as text, never as markup.
import { useState } from 'preact/hooks';
import { api } from './api.ts';
import { Failure } from './layout.tsx';
import type { AnalysisJudged, CallAnalysis } from '../../telephony/documents.ts';

type Judged = AnalysisJudged;
/** What the call page shows of a call's analysis (reports/call-page.ts): the stored one, but its time. */
export type AnalysisView = Omit<CallAnalysis, 'at'>;

export const OUTCOME_LABELS: Record<string, string> = {
  appointmentBooked: 'Appointment booked',
  quoteGiven: 'Quote given',
  saleMade: 'Sale made',
  existingCustomer: 'Existing customer',
  spam: 'Spam',
  followUpNeeded: 'Follow-up needed',
};

/** The recording's player on the page (RecordingCard). */
const playFrom = (start: number | undefined) => {
  const audio = document.querySelector<HTMLAudioElement>('[data-testid="recording"] audio');
  if (!audio || start === undefined) return;
  audio.currentTime = start;
  void audio.play().catch(() => undefined);
};

function Quote({ judged }: { judged: Judged }) {
  if (!judged.quote) return null;
  if (judged.answer !== 'yes') return judged.rejected ? <div class="muted">not kept: {judged.rejected} (“{judged.quote}”)</div> : null;
  return (
    <button type="button" class="link quote" title="Play from here" onClick={() => playFrom(judged.start)}>
      “{judged.quote}”
    </button>
  );
}

export function AnalysisCard({ path, analysis, mayCorrect, changed }: { path: string; analysis: AnalysisView; mayCorrect: boolean; changed: () => void }) {
  const [error, setError] = useState<string | null>(null);
  if (analysis.status === 'failed') {
    return (
      <div class="card" data-testid="analysis">
        <h2>What happened</h2>
        <p class="muted">The language model could not read this call: {analysis.error}</p>
      </div>
    );
  }
  const correct = (name: string, answer: string) =>
    api('PUT', `${path}/analysis/outcomes/${name}`, { answer }).then(
      () => changed(),
      (err: Error) => setError(err.message),
    );
  return (
    <div class="card" data-testid="analysis">
      <h2>What happened</h2>
      <p data-testid="analysis-summary">{analysis.summary}</p>
      <dl class="facts">
        <dt>Why they called</dt>
        <dd>{analysis.intent}</dd>
        <dt>Lead score</dt>
        <dd>
          <strong>{analysis.leadScore}</strong>/100{analysis.leadScoreReasons?.length ? <span class="muted"> ({analysis.leadScoreReasons.join('; ')})</span> : null}
        </dd>
        <dt>Caller</dt>
        <dd>{analysis.sentiment}</dd>
        {analysis.followUp && (
          <>
            <dt>Follow up</dt>
            <dd>{analysis.followUp}</dd>
          </>
        )}
      </dl>
      <table class="stacked outcomes">
        <tbody>
          {Object.entries(analysis.outcomes ?? {}).map(([name, judged]) => (
            <tr data-outcome={name}>
              <td data-label="Outcome">{OUTCOME_LABELS[name] ?? name}</td>
              <td data-label="Answer">
                {mayCorrect ? (
                  <select aria-label={OUTCOME_LABELS[name] ?? name} value={judged.answer} onChange={(e) => void correct(name, (e.target as HTMLSelectElement).value)}>
                    <option value="yes">yes</option>
                    <option value="no">no</option>
                    <option value="unknown">unknown</option>
                  </select>
                ) : (
                  <span class={`status answer-${judged.answer}`}>{judged.answer}</span>
                )}
                {judged.by && <span class="muted"> said by {judged.by}</span>}
                <Quote judged={judged} />
              </td>
            </tr>
          ))}
          {(analysis.answers ?? []).map((q) => (
            <tr>
              <td data-label="Question">{q.question}</td>
              <td data-label="Answer">
                <span class={`status answer-${q.answer}`}>{q.answer}</span>
                <Quote judged={q} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <Failure message={error} />}
      {analysis.model && <p class="muted">Read by {analysis.model}.</p>}
    </div>
  );
}
