// The words a texter controls their texts with, as US texting law (the TCPA) and the carriers' rules
// (CTIA) require: STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT opt out; START, YES, UNSTOP opt back
// in; HELP asks who is texting. A keyword counts alone in the text, in any case (spaces and a final
// punctuation mark around it allowed): "Stop!" is one, "please stop texting me" is not.
export const OPT_OUT_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
export const OPT_IN_WORDS = ['START', 'YES', 'UNSTOP'] as const;
export const HELP_WORDS = ['HELP', 'INFO'] as const;

export type Keyword = 'opt-out' | 'opt-in' | 'help';

export function keywordOf(text: string): { keyword: Keyword; word: string } | null {
  const word = text.trim().replace(/[.!?]+$/, '').trim().toUpperCase();
  if (word.length > 12) return null;
  if ((OPT_OUT_WORDS as readonly string[]).includes(word)) return { keyword: 'opt-out', word };
  if ((OPT_IN_WORDS as readonly string[]).includes(word)) return { keyword: 'opt-in', word };
  if ((HELP_WORDS as readonly string[]).includes(word)) return { keyword: 'help', word };
  return null;
}
