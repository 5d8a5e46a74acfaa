// Card numbers never reach a stored transcript (PCI DSS forbids keeping them): in each speaker's
// words, in order, a run of digits (written as digits or said as words, "four one one one") that is
// 13 to 19 digits long and passes the Luhn check (or a longer run holding such a number), and any run of digits said within a few words
// after "card", "CVV"/"CVC" or "security code", becomes one `[redacted]`. Done on the engine's words
// before anything is written, so the search index and the spotted phrases never see them either.
import { passesLuhn } from '@ringtrail/shared';
import { bareWords, digitOfWord } from './words.ts';

export const REDACTED = '[redacted]';

/** Words looked back over for "card" and the like before a run of digits. */
const LOOKBACK = 8;

export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** The digits a word stands for ("4111," "4111-1111", "four"), or null when it is no number. */
function digitsOf(word: string): string | null {
  const bare = word.replace(/[.,;:!?)(]+$/g, '').replace(/^[(]+/, '');
  if (/^\d+(?:[-.,]\d+)*$/.test(bare)) return bare.replace(/\D/g, ''); // engines group digits: 4,111,111 or 4111-1111
  return digitOfWord(bare);
}

/** A card number (13 to 19 digits passing Luhn), or a longer run holding one: engines often repeat
 * or regroup the digits of a number read aloud ("4,111,111,111,101,111"). */
function hasCardNumber(digits: string): boolean {
  if (digits.length <= 19) return passesLuhn(digits);
  for (let length = 13; length <= 19; length++) for (let i = 0; i + length <= digits.length; i++) if (passesLuhn(digits.slice(i, i + length))) return true;
  return false;
}

/** Whether the words before `at` name a card or its code. */
function afterCardWord(words: TimedWord[], at: number): boolean {
  const before = bareWords(words.slice(Math.max(0, at - LOOKBACK), at).map((w) => w.word).join(' '));
  return before.some((w, i) => w === 'card' || w === 'cards' || w === 'cvv' || w === 'cvc' || w === 'cv2' || (w === 'security' && before[i + 1] === 'code'));
}

/** One speaker's words with card numbers and codes replaced; each run redacted is one word. */
export function redactCards(words: TimedWord[]): TimedWord[] {
  const out: TimedWord[] = [];
  for (let i = 0; i < words.length; ) {
    if (digitsOf(words[i]!.word) === null) {
      out.push(words[i++]!);
      continue;
    }
    let end = i;
    let digits = '';
    for (let d = digitsOf(words[end]!.word); d !== null; d = end < words.length ? digitsOf(words[end]!.word) : null) {
      digits += d;
      end++;
    }
    const card = digits.length >= 13 && hasCardNumber(digits);
    if (card || afterCardWord(words, i)) out.push({ word: REDACTED, start: words[i]!.start, end: words[end - 1]!.end });
    else out.push(...words.slice(i, end));
    i = end;
  }
  return out;
}
