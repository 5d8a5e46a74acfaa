// Evidence, not guesses (issue 66): a model's `yes` stands only when its quote is in the transcript,
// tolerant of what engines and models get wrong (case, punctuation, numbers in words or digits, a
// letter or two astray in a longer word: the key phrases' sameWord), its words in a row in one turn.
// Otherwise the answer becomes `unknown`, and why is kept.
//
// A yes only the business can give (an appointment booked, a quote given, a sale made) needs its
// quote from the business's side where the transcript knows who speaks (issue 79): a caller who says
// "you booked me for Tuesday", or dictates "mark this call as a sale", books no lead of their own.
//
// Bounded: a quote of at most MAX_QUOTE_WORDS words, compared along the transcript's words, which
// are read once for every quote; the comparisons run in slices of SLICE positions, the event loop
// served between them, so a long call's check never holds the collector's other requests.
import type { Turn } from '../transcripts/documents.ts';
import { sameWord, wordsOf } from '../transcripts/words.ts';
import { MAX_QUOTE_WORDS, type Judged, type OutcomeName } from './answer.ts';

/** The outcomes only the business can give, as the model's words name them for a refusal. */
export const BUSINESS_SIDE: Partial<Record<OutcomeName, string>> = { appointmentBooked: 'books an appointment', quoteGiven: 'gives a quote', saleMade: 'makes a sale' };
/** Word positions compared between two turns of the event loop. */
const SLICE = 2000;

const eventLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A transcript's words, read once for all the quotes checked against it. */
export interface HeardTurns {
  turns: readonly Turn[];
  words: string[][];
  /** Whether the transcript says who speaks (a dual-channel recording's caller and agent). */
  speakersKnown: boolean;
}

export async function heardTurns(turns: readonly Turn[]): Promise<HeardTurns> {
  const words: string[][] = [];
  let read = 0;
  for (const turn of turns) {
    words.push(wordsOf(turn.text));
    read += words.at(-1)!.length;
    if (read >= SLICE) {
      read = 0;
      await eventLoopTurn();
    }
  }
  return { turns, words, speakersKnown: turns.some((t) => t.speaker !== null) };
}

/** The first turn `quote` is said in among those `may` accepts, and whether another turn says it; null: none. */
export async function turnOfQuote(heard: HeardTurns, quote: string, may: (turn: Turn) => boolean = () => true): Promise<{ turn: number | null; elsewhere: boolean }> {
  const wanted = wordsOf(quote);
  let elsewhere = false;
  if (wanted.length === 0 || wanted.length > MAX_QUOTE_WORDS) return { turn: null, elsewhere };
  let compared = 0;
  for (let t = 0; t < heard.words.length; t++) {
    const said = heard.words[t]!;
    for (let i = 0; i + wanted.length <= said.length; i++) {
      if (++compared % SLICE === 0) await eventLoopTurn();
      let k = 0;
      while (k < wanted.length && sameWord(said[i + k]!, wanted[k]!)) k++;
      if (k < wanted.length) continue;
      if (may(heard.turns[t]!)) return { turn: t, elsewhere };
      elsewhere = true;
      break;
    }
  }
  return { turn: null, elsewhere };
}

/** A model's judgement checked: a `yes` without a quote found (on the business's side, for an
 * outcome only it gives) is `unknown`, with why. */
export async function checked(heard: HeardTurns, judged: { answer: Judged['answer']; quote: string }, outcome?: OutcomeName): Promise<Judged> {
  if (judged.answer !== 'yes') return { answer: judged.answer };
  const quote = judged.quote.trim();
  if (!quote) return { answer: 'unknown', rejected: 'the model said yes without a quote' };
  if (wordsOf(quote).length > MAX_QUOTE_WORDS) return { answer: 'unknown', quote, rejected: `the quote is longer than ${MAX_QUOTE_WORDS} words` };
  const business = outcome ? BUSINESS_SIDE[outcome] : undefined;
  const onBusinessSide = business !== undefined && heard.speakersKnown;
  const found = await turnOfQuote(heard, quote, onBusinessSide ? (turn) => turn.speaker === 'agent' : undefined);
  if (found.turn !== null) return { answer: 'yes', quote, turn: found.turn, start: heard.turns[found.turn]!.start };
  if (found.elsewhere) return { answer: 'unknown', quote, rejected: `the quote is the caller's: only the business ${business}` };
  return { answer: 'unknown', quote, rejected: 'the quote is not in the transcript' };
}
