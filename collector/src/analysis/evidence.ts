// Evidence, not guesses (issue 66): a model's `yes` stands only when its quote is in the transcript,
// tolerant of what engines and models get wrong (case, punctuation, numbers in words or digits, a
// letter or two astray in a longer word: the key phrases' sameWord), its words in a row in one turn.
// Otherwise the answer becomes `unknown`, and why is kept. Bounded: a quote of at most
// MAX_QUOTE_WORDS words, compared along the transcript's words once.
import type { Turn } from '../transcripts/documents.ts';
import { sameWord, wordsOf } from '../transcripts/words.ts';
import { MAX_QUOTE_WORDS, type Judged } from './answer.ts';

/** The turn `quote` is said in, or null. */
export function turnOfQuote(turns: readonly Turn[], quote: string): number | null {
  const wanted = wordsOf(quote);
  if (wanted.length === 0 || wanted.length > MAX_QUOTE_WORDS) return null;
  for (let t = 0; t < turns.length; t++) {
    const heard = wordsOf(turns[t]!.text);
    for (let i = 0; i + wanted.length <= heard.length; i++) {
      let k = 0;
      while (k < wanted.length && sameWord(heard[i + k]!, wanted[k]!)) k++;
      if (k === wanted.length) return t;
    }
  }
  return null;
}

/** A model's judgement checked: a `yes` without a quote found is `unknown`, with why. */
export function checked(turns: readonly Turn[], judged: { answer: Judged['answer']; quote: string }): Judged {
  if (judged.answer !== 'yes') return { answer: judged.answer };
  const quote = judged.quote.trim();
  if (!quote) return { answer: 'unknown', rejected: 'the model said yes without a quote' };
  if (wordsOf(quote).length > MAX_QUOTE_WORDS) return { answer: 'unknown', quote, rejected: `the quote is longer than ${MAX_QUOTE_WORDS} words` };
  const turn = turnOfQuote(turns, quote);
  return turn === null ? { answer: 'unknown', quote, rejected: 'the quote is not in the transcript' } : { answer: 'yes', quote, turn, start: turns[turn]!.start };
}
