// A domain's analysis of its calls (ours, issue 66): whether each transcribed call (and voicemail) is
// read by the owner's language model (ANALYZE_URL), and the domain's own yes/no questions.
import { z } from 'zod';

export const MAX_QUESTIONS = 10;

export const analysisSettings = z
  .object({
    enabled: z.boolean({ error: 'must be true or false' }).default(false).describe('Analyse each call once its transcript is ready'),
    questions: z
      .array(z.string().trim().min(3, 'must be a question of at least 3 characters').max(200, 'must be at most 200 characters'))
      .max(MAX_QUESTIONS, `at most ${MAX_QUESTIONS} questions`)
      .default([])
      .describe('Yes/no questions of your own ("Did the caller ask for emergency service?"), each answered with a quote'),
  })
  .strict();

export type AnalysisSettings = z.infer<typeof analysisSettings>;
