// What a language model is asked to answer about a call (issue 66), as one zod schema: the check of
// its answer, and the JSON schema sent for structured output (z.toJSONSchema). Every `yes` carries
// a short quote of the transcript, checked afterwards (evidence.ts).
import { z } from 'zod';
import { ANALYSIS_ANSWERS, ANALYSIS_OUTCOMES, SENTIMENTS } from '../telephony/documents.ts';

export const OUTCOMES = ANALYSIS_OUTCOMES;
export type OutcomeName = (typeof OUTCOMES)[number];
export const VERDICTS = ANALYSIS_ANSWERS;
/** The longest quote kept: a short one is what "evidence" means, and it bounds its search. */
export const MAX_QUOTE_WORDS = 30;

const quote = z.string().max(400).describe('A short quote of the transcript, word for word, that shows it; empty unless the answer is yes');
const judged = z.object({ answer: z.enum(VERDICTS), quote }).strict();

/** The model's answer for one part of a call. `questions` answer the domain's own, in their order. */
export const modelAnswer = z
  .object({
    summary: z.string().max(1200).describe("At most three sentences, in the transcript's language"),
    intent: z.string().max(120).describe('Why the caller called, in a few words'),
    outcomes: z.object(Object.fromEntries(OUTCOMES.map((o) => [o, judged])) as Record<OutcomeName, typeof judged>).strict(),
    followUp: z.string().max(300).describe('What to follow up with, when followUpNeeded is yes; else empty'),
    leadScore: z.number().int().min(0).max(100).describe('How likely the caller becomes a customer, 0 to 100'),
    leadScoreReasons: z.array(z.string().max(200)).max(5),
    sentiment: z.enum(SENTIMENTS).describe("The caller's"),
    questions: z.array(judged).max(10).describe("The domain's questions, in order"),
  })
  .strict();
export type ModelAnswer = z.infer<typeof modelAnswer>;

/** The JSON schema of the answer, as OpenAI's structured output takes it. */
export const answerJsonSchema = () => z.toJSONSchema(modelAnswer, { target: 'draft-7' });

/** An answer as it is kept: each `yes` with its quote found, else `unknown` and why. */
export interface Judged {
  answer: (typeof VERDICTS)[number];
  quote?: string;
  /** The turn the quote was found in, and its start in the recording (a click plays from there). */
  turn?: number;
  start?: number;
  /** Why a `yes` became `unknown`. */
  rejected?: string;
  /** The member who corrected it: their word wins. */
  by?: string;
}
