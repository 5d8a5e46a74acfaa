// `npm run eval:analysis`: the labelled calls of analysis-calls.json (bookings, quotes, sales,
// complaints, wrong numbers, spam, voicemails; English and French) read by whatever model
// ANALYZE_URL and ANALYZE_MODEL name, exactly as the collector reads a call (analysis/analyze.ts),
// and scored against what a person answered: each outcome's precision and recall (yes is the
// positive), how often the lead score falls in the labelled range, the sentiment's agreement, how
// many of the model's yes answers were thrown out for a quote not in the transcript, and seconds
// per call. Nothing in the test suite depends on a model's quality; this is how one is measured.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeTranscript, languageName } from '../../collector/src/analysis/analyze.ts';
import { OUTCOMES } from '../../collector/src/analysis/answer.ts';
import { AnalysisFailure, ModelClient } from '../../collector/src/analysis/model-client.ts';
import type { Turn } from '../../collector/src/transcripts/documents.ts';
import { loadConfigOrExit } from '../../collector/src/config.ts';
import { serverShown } from '../../collector/src/manage/analysis-routes.ts';

export interface LabelledCall {
  id: string;
  language: string;
  kind: string;
  turns: [Turn['speaker'], string][];
  labels: Record<(typeof OUTCOMES)[number], 'yes' | 'no'>;
  /** The range a fair lead score falls in. */
  score: [number, number];
  sentiment: 'positive' | 'neutral' | 'negative';
}

export interface OutcomeScore {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** null: the model never said yes (precision), or no call is labelled yes (recall). */
  precision: number | null;
  recall: number | null;
}

export interface EvalReport {
  calls: number;
  answered: number;
  failures: { id: string; error: string }[];
  outcomes: Record<string, OutcomeScore>;
  /** Of the answered calls: the score within the labelled range, and by how many points it missed on average. */
  scoreWithin: number;
  scoreMissBy: number;
  sentimentAgreement: number;
  /** The model's yes answers, and those thrown out for a quote not found in the transcript. */
  yesGiven: number;
  yesRejected: number;
  secondsPerCall: number;
}

export function labelledCalls(file = new URL('./analysis-calls.json', import.meta.url)): LabelledCall[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { calls: LabelledCall[] }).calls;
}

/** A labelled call's turns as a transcript has them, five seconds each. */
export const turnsOf = (call: LabelledCall): Turn[] => call.turns.map(([speaker, text], i) => ({ speaker, text, start: i * 5, end: i * 5 + 5 }));

const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 1000 : null);

export async function evaluate(model: ModelClient, calls: LabelledCall[], { maxChars }: { maxChars?: number } = {}): Promise<EvalReport> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, { truePositives: 0, falsePositives: 0, falseNegatives: 0 }]));
  const failures: EvalReport['failures'] = [];
  let [answered, within, missBy, sentiment, yesGiven, yesRejected, seconds] = [0, 0, 0, 0, 0, 0, 0];
  for (const call of calls) {
    const started = performance.now();
    try {
      const a = await analyzeTranscript(model, turnsOf(call), { language: languageName(call.language), questions: [], ...(maxChars ? { maxChars } : {}) });
      seconds += (performance.now() - started) / 1000;
      answered += 1;
      for (const o of OUTCOMES) {
        const said = a.outcomes[o];
        if (said.answer === 'yes' || said.rejected) yesGiven += 1;
        if (said.rejected) yesRejected += 1;
        const [modelYes, labelYes] = [said.answer === 'yes', call.labels[o] === 'yes'];
        if (modelYes && labelYes) counts[o]!.truePositives += 1;
        if (modelYes && !labelYes) counts[o]!.falsePositives += 1;
        if (!modelYes && labelYes) counts[o]!.falseNegatives += 1;
      }
      const [low, high] = call.score;
      const off = a.leadScore < low ? low - a.leadScore : a.leadScore > high ? a.leadScore - high : 0;
      if (!off) within += 1;
      missBy += off;
      if (a.sentiment === call.sentiment) sentiment += 1;
    } catch (err) {
      if (!(err instanceof AnalysisFailure)) throw err;
      failures.push({ id: call.id, error: err.message });
    }
  }
  return {
    calls: calls.length,
    answered,
    failures,
    outcomes: Object.fromEntries(Object.entries(counts).map(([o, c]) => [o, { ...c, precision: share(c.truePositives, c.truePositives + c.falsePositives), recall: share(c.truePositives, c.truePositives + c.falseNegatives) }])),
    scoreWithin: share(within, answered) ?? 0,
    scoreMissBy: answered ? Math.round((missBy / answered) * 10) / 10 : 0,
    sentimentAgreement: share(sentiment, answered) ?? 0,
    yesGiven,
    yesRejected,
    secondsPerCall: answered ? Math.round((seconds / answered) * 100) / 100 : 0,
  };
}

const pct = (n: number | null) => (n === null ? '  –  ' : `${(n * 100).toFixed(0).padStart(3)} %`);

export function reportText(r: EvalReport, about: string): string {
  return [
    `${about}: ${r.answered} of ${r.calls} calls answered`,
    ...r.failures.map((f) => `  no answer for ${f.id}: ${f.error}`),
    'outcome            precision  recall   (true+, false+, false-)',
    ...Object.entries(r.outcomes).map(([o, s]) => `${o.padEnd(18)} ${pct(s.precision)}     ${pct(s.recall)}    (${s.truePositives}, ${s.falsePositives}, ${s.falseNegatives})`),
    `lead score in the labelled range: ${pct(r.scoreWithin)} (missed by ${r.scoreMissBy} points on average)`,
    `sentiment as labelled: ${pct(r.sentimentAgreement)}`,
    `evidence: ${r.yesRejected} of ${r.yesGiven} yes answers thrown out, their quote not in the transcript (${pct(share(r.yesRejected, r.yesGiven))})`,
    `seconds per call: ${r.secondsPerCall}`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The collector's own reading of ANALYZE_* (its defaults and checks).
  const { analyze } = loadConfigOrExit();
  if (!analyze) {
    console.error('Set ANALYZE_URL (an OpenAI-compatible server, with its /v1: http://127.0.0.1:11434/v1 for Ollama) and ANALYZE_MODEL, then run npm run eval:analysis again.');
    process.exit(1);
  }
  const report = await evaluate(new ModelClient(analyze), labelledCalls(), { maxChars: analyze.maxChars });
  console.log(reportText(report, `${analyze.model} at ${serverShown(analyze.url)}`));
}
