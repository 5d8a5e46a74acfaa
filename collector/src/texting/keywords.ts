// The words a texter controls their texts with, as US texting law (the TCPA) and the carriers' rules
// (CTIA) require: STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT opt out; START, YES, UNSTOP opt back
// in; HELP asks who is texting. Where French is written (France, Belgium, Switzerland, Luxembourg,
// Monaco, Canada), ARRET opts out too, as the French operators' code of conduct has it. A keyword
// counts alone in the text, in any case, said once or repeated ("STOP STOP"); "please stop texting
// me" is none. The text is read as a person sees it (issue 79): compatibility forms folded (NFKC:
// full-width ＳＴＯＰ is STOP), accents, zero-width and other invisible characters, punctuation and
// symbols gone, so no look-alike keeps texting someone who said stop.
export const OPT_OUT_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
export const OPT_IN_WORDS = ['START', 'YES', 'UNSTOP'] as const;
export const HELP_WORDS = ['HELP', 'INFO'] as const;
/** The opt-out words added where French is written, by the domain's country. */
export const FRENCH_OPT_OUT_WORDS = ['ARRET'] as const;
const FRENCH_WRITING = new Set(['FR', 'BE', 'CH', 'LU', 'MC', 'CA']);

export type Keyword = 'opt-out' | 'opt-in' | 'help';

/** Longer than this, a text is a sentence, never a keyword (and costs no more to read). */
const LONGEST_KEYWORD_TEXT = 200;

/** The text's words as a keyword is compared: folded, upper case, only letters and digits. */
function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/[\p{M}\p{Cf}]/gu, '') // accents; zero-width spaces, joiners, marks of direction
    .toUpperCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The keyword the text is, read as the domain's `country` writes (FR: ARRET too); null: none. */
export function keywordOf(text: string, country = ''): { keyword: Keyword; word: string } | null {
  if (text.length > LONGEST_KEYWORD_TEXT) return null;
  const words = wordsOf(text);
  const word = words[0];
  if (!word || words.some((w) => w !== word)) return null;
  const optOut: readonly string[] = FRENCH_WRITING.has(country) ? [...OPT_OUT_WORDS, ...FRENCH_OPT_OUT_WORDS] : OPT_OUT_WORDS;
  if (optOut.includes(word)) return { keyword: 'opt-out', word };
  if ((OPT_IN_WORDS as readonly string[]).includes(word)) return { keyword: 'opt-in', word };
  if ((HELP_WORDS as readonly string[]).includes(word)) return { keyword: 'help', word };
  return null;
}
