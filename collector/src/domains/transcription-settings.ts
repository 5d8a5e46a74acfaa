// A domain's transcripts (ours, transcripts/): whether its recorded calls are transcribed, in which
// language (its country's unless it says another), and the key phrases spotted in them: a label,
// the phrases that mean it, and who must say it.
import { z } from 'zod';

export const MAX_KEY_PHRASES = 50;
export const MAX_PHRASES = 20;
export const MAX_PHRASE_WORDS = 8;
export const KEY_PHRASE_SPEAKERS = ['caller', 'agent', 'any'] as const;

/** The language most of a country's callers speak (ISO 639-1); English where none is listed. */
const LANGUAGES: Record<string, string> = {
  FR: 'fr', BE: 'fr', LU: 'fr', MC: 'fr', CH: 'de', DE: 'de', AT: 'de', LI: 'de', ES: 'es', MX: 'es', AR: 'es', CO: 'es', CL: 'es', PE: 'es',
  IT: 'it', SM: 'it', PT: 'pt', BR: 'pt', NL: 'nl', PL: 'pl', CZ: 'cs', SK: 'sk', SE: 'sv', NO: 'no', DK: 'da', FI: 'fi', GR: 'el', TR: 'tr',
  RO: 'ro', HU: 'hu', RU: 'ru', UA: 'uk', JP: 'ja', KR: 'ko', CN: 'zh', TW: 'zh', IL: 'he', SA: 'ar', AE: 'ar', EG: 'ar', MA: 'fr', TN: 'fr', IN: 'en',
};

export const languageOfCountry = (country: string) => LANGUAGES[country.toUpperCase()] ?? 'en';

export const transcriptionSettings = z
  .object({
    enabled: z.boolean().default(false),
    /** ISO 639-1; null: the language of the domain's country. */
    language: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z]{2}$/, 'must be a two-letter ISO 639-1 code, such as en or fr')
      .nullable()
      .default(null),
  })
  .strict();

export type TranscriptionSettings = z.infer<typeof transcriptionSettings>;
export const TRANSCRIPTION_OFF: TranscriptionSettings = { enabled: false, language: null };

/** The language a domain's calls are transcribed in. */
export const transcriptionLanguage = (domain: { transcription?: TranscriptionSettings; country?: string }) => domain.transcription?.language ?? languageOfCountry(domain.country ?? 'FR');

const wordCount = (phrase: string) => phrase.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length;

export const keyPhrasesIn = z
  .array(
    z
      .object({
        label: z.string().trim().min(1, 'is required').max(40, 'must be at most 40 characters'),
        phrases: z
          .array(z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').refine((p) => wordCount(p) > 0, 'must have a word').refine((p) => wordCount(p) <= MAX_PHRASE_WORDS, `must be at most ${MAX_PHRASE_WORDS} words`))
          .min(1, 'needs a phrase')
          .max(MAX_PHRASES, `at most ${MAX_PHRASES} phrases a label`),
        speaker: z.enum(KEY_PHRASE_SPEAKERS, { error: `must be one of ${KEY_PHRASE_SPEAKERS.join(', ')}` }).default('any'),
      })
      .strict(),
  )
  .max(MAX_KEY_PHRASES, `at most ${MAX_KEY_PHRASES} labels`)
  .refine((list) => new Set(list.map((k) => k.label.toLowerCase())).size === list.length, 'each label once');

export type KeyPhrase = z.infer<typeof keyPhrasesIn>[number];
