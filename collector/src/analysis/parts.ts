// A long call sent in parts the model's context allows (ANALYZE_MAX_CHARS): whole turns, in order,
// each part at most `maxChars` of text (a longer turn cut at word boundaries); then the parts'
// answers merged into the call's. The transcript sent is the stored one, its card numbers already
// `[redacted]` (transcripts/redact.ts): nothing redacted is sent.
import type { Speaker, Turn } from '../transcripts/documents.ts';
import { OUTCOMES, type Judged, type OutcomeName } from './answer.ts';

export const DEFAULT_MAX_CHARS = 12_000;

/** A turn as the model reads it: `caller: …`, `agent: …` (a mono recording's without a speaker). */
const lineOf = (speaker: Speaker | undefined, text: string) => (speaker === 'caller' || speaker === 'agent' ? `${speaker}: ${text}` : text);

/** The transcript's text in parts of at most `maxChars`, a turn a line. The quotes of every part are
 * looked for in the whole call (evidence.ts). */
export function partsOf(turns: readonly Turn[], maxChars = DEFAULT_MAX_CHARS): string[] {
  const parts: string[] = [];
  let lines: string[] = [];
  let size = 0;
  const close = () => {
    if (lines.length) parts.push(lines.join('\n'));
    [lines, size] = [[], 0];
  };
  for (const turn of turns) {
    // A turn longer than a part is cut at word boundaries.
    for (const piece of pieces(lineOf(turn.speaker, turn.text.trim()), maxChars)) {
      if (size + piece.length + 1 > maxChars && lines.length) close();
      lines.push(piece);
      size += piece.length + 1;
    }
  }
  close();
  return parts;
}

function pieces(line: string, maxChars: number): string[] {
  if (line.length <= maxChars) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > maxChars) {
    const cut = rest.lastIndexOf(' ', maxChars) > maxChars / 2 ? rest.lastIndexOf(' ', maxChars) : maxChars;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

/** One part's answer, its judgements checked (evidence.ts). */
export interface PartAnswer {
  summary: string;
  intent: string;
  outcomes: Record<OutcomeName, Judged>;
  followUp: string;
  leadScore: number;
  leadScoreReasons: string[];
  sentiment: 'positive' | 'neutral' | 'negative';
  questions: Judged[];
}

/** A yes in any part wins (with its quote); then unknown; no only when every part says no. A
 * rejected yes is kept as such when no part proves it. */
function mergeJudged(list: Judged[]): Judged {
  return list.find((j) => j.answer === 'yes') ?? list.find((j) => j.rejected) ?? list.find((j) => j.answer === 'unknown') ?? { answer: 'no' };
}

/** The call's answer from its parts' (in order): the summaries and intents of the parts joined (the
 * first's intent), the best lead score and its reasons, the last part's sentiment (how the call ended). */
export function merged(answers: PartAnswer[], questions: number): PartAnswer {
  if (answers.length === 1) return answers[0]!;
  const best = answers.reduce((a, b) => (b.leadScore > a.leadScore ? b : a));
  return {
    summary: answers.map((a) => a.summary.trim()).filter(Boolean).join(' '),
    intent: answers.find((a) => a.intent.trim())?.intent ?? '',
    outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, mergeJudged(answers.map((a) => a.outcomes[o]))])) as Record<OutcomeName, Judged>,
    followUp: answers.map((a) => a.followUp.trim()).filter(Boolean).join(' '),
    leadScore: best.leadScore,
    leadScoreReasons: best.leadScoreReasons,
    sentiment: answers.at(-1)!.sentiment,
    questions: Array.from({ length: questions }, (_, q) => mergeJudged(answers.map((a) => a.questions[q] ?? { answer: 'unknown' }))),
  };
}
