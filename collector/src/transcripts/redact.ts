// Card numbers never reach a stored transcript (PCI DSS forbids keeping them): in each speaker's
// words, in order, a run of digits (written as digits or said as words, "four one one one") that is
// 13 to 19 digits long and passes the Luhn check (or a longer run holding such a number), and any run
// of digits said within a few words after "card", "CVV"/"CVC" or "security code", becomes one
// `[redacted]`. Done on the engine's words before anything is written, so the search index and the
// spotted phrases never see them either.
//
// A word is read for digits whatever an engine writes around them: signs and dots before ("-1",
// ".5,", "−1111"), grouping by commas, dots, dashes or slashes ("4,111", "4111-1111"), digits glued
// to letters ("in41", "1111and"), digits said as words alone or hyphenated ("four-one-one"), in
// English and in the domain's language, and "double"/"triple" before a digit ("double one").
import { passesLuhn } from '@ringtrail/shared';
import { bareWords, digitOfWord } from './words.ts';
import { ownEntry } from '../own-entry.ts';

export const REDACTED = '[redacted]';

/** Words looked back over for "card" and the like before a run of digits. */
const LOOKBACK = 8;

/** Digits said as words in the languages the bundled settings name most (ISO 639-1); English is
 * always read too (engines answer in English words for a digit now and then). */
const DIGIT_WORDS: Record<string, string[]> = {
  fr: ['zero', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf'],
  es: ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'],
  de: ['null', 'eins', 'zwei', 'drei', 'vier', 'funf', 'sechs', 'sieben', 'acht', 'neun'],
  it: ['zero', 'uno', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'otto', 'nove'],
  pt: ['zero', 'um', 'dois', 'tres', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove'],
  nl: ['nul', 'een', 'twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen'],
};
/** What names a card or its code, per language, beside English's. */
const CARD_WORDS: Record<string, string[]> = {
  en: ['card', 'cards', 'cvv', 'cvc', 'cv2'],
  fr: ['carte', 'cartes', 'cryptogramme'],
  es: ['tarjeta', 'tarjetas'],
  de: ['karte', 'kreditkarte', 'kartennummer', 'prufziffer'],
  it: ['carta', 'carte'],
  pt: ['cartao', 'cartoes'],
  nl: ['kaart', 'kaartnummer'],
};
/** "double four" is 44, "triple one" 111 (as numbers are read aloud in Britain and elsewhere). */
const REPEATS: Record<string, number> = { double: 2, triple: 3 };

export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** How one language's words are read for digits and card words. */
interface Reading {
  digit(piece: string): string | null;
  cardWords: Set<string>;
}

function readingOf(language: string): Reading {
  const spelled = new Map<string, string>();
  (ownEntry(DIGIT_WORDS, language) ?? []).forEach((w, digit) => spelled.set(w, String(digit)));
  return {
    digit: (piece) => digitOfWord(piece) ?? spelled.get(piece) ?? null,
    cardWords: new Set([...CARD_WORDS.en!, ...(ownEntry(CARD_WORDS, language) ?? [])]),
  };
}

/** The digits a word stands for, or null when it is no number. Every digit written in it counts,
 * whatever surrounds it; a word without digits counts when each of its pieces is a digit said. */
function digitsOf(word: string, reading: Reading): string | null {
  const written = word.normalize('NFKC').replace(/\D/g, '');
  if (written !== '') return written;
  const pieces = bareWords(word);
  if (pieces.length === 0) return null;
  let digits = '';
  for (const piece of pieces) {
    const digit = reading.digit(piece);
    if (digit === null) return null;
    digits += digit;
  }
  return digits;
}

/** A card number (13 to 19 digits passing Luhn), or a run holding one: engines often repeat or
 * regroup the digits of a number read aloud ("1,000,000,000,017 017", "4,111,111,111,101,111"). */
function hasCardNumber(digits: string): boolean {
  for (let length = 13; length <= Math.min(19, digits.length); length++) for (let i = 0; i + length <= digits.length; i++) if (passesLuhn(digits.slice(i, i + length))) return true;
  return false;
}

/** Whether the words before `at` name a card or its code. */
function afterCardWord(words: TimedWord[], at: number, reading: Reading): boolean {
  const before = bareWords(words.slice(Math.max(0, at - LOOKBACK), at).map((w) => w.word).join(' '));
  return before.some((w, i) => reading.cardWords.has(w) || (w === 'security' && before[i + 1] === 'code'));
}

/** The run of digits that starts at word `i`: its digits and the index after its last word. A
 * "double"/"triple" joins the run only before a digit. */
function runAt(words: TimedWord[], i: number, reading: Reading): { digits: string; end: number } | null {
  let digits = '';
  let end = i;
  while (end < words.length) {
    const repeat = ownEntry(REPEATS, bareWords(words[end]!.word).join(''));
    const next = repeat && end + 1 < words.length ? digitsOf(words[end + 1]!.word, reading) : null;
    if (repeat && next !== null) {
      digits += next.slice(0, 1).repeat(repeat) + next.slice(1);
      end += 2;
      continue;
    }
    const d = digitsOf(words[end]!.word, reading);
    if (d === null) break;
    digits += d;
    end++;
  }
  return end > i ? { digits, end } : null;
}

/** One speaker's words with card numbers and codes replaced; each run redacted is one word.
 * `language` (ISO 639-1) adds its digit and card words to English's. */
export function redactCards(words: TimedWord[], language = 'en'): TimedWord[] {
  const reading = readingOf(language);
  const out: TimedWord[] = [];
  for (let i = 0; i < words.length; ) {
    const run = runAt(words, i, reading);
    if (!run) {
      out.push(words[i++]!);
      continue;
    }
    const card = run.digits.length >= 13 && hasCardNumber(run.digits);
    if (card || afterCardWord(words, i, reading)) out.push({ word: REDACTED, start: words[i]!.start, end: words[run.end - 1]!.end });
    else out.push(...words.slice(i, run.end));
    i = run.end;
  }
  return out;
}
