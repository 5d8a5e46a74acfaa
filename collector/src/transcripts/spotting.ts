// A domain's key phrases heard in a transcript: each phrase's words in a row in one turn of the
// speaker it asks for, tolerant of what engines get wrong (case, punctuation, numbers in words or
// digits, a letter or two astray in a longer word: words.ts). Bounded by the settings' limits
// (domains/transcription-settings.ts): at most 50 labels of 20 phrases of 8 words.
import type { KeyPhrase } from '../domains/transcription-settings.ts';
import type { SpottedPhrase, Turn } from './documents.ts';
import { sameWord, wordsOf } from './words.ts';

/** Where `phrase` is in `words`, or -1. */
function indexOfPhrase(words: string[], phrase: string[]): number {
  for (let i = 0; i + phrase.length <= words.length; i++) if (phrase.every((p, j) => sameWord(words[i + j]!, p))) return i;
  return -1;
}

/** Each label heard, once a turn, with the phrase that was heard. */
export function spotPhrases(turns: Turn[], keyPhrases: readonly KeyPhrase[]): SpottedPhrase[] {
  const wanted = keyPhrases.map((k) => ({ ...k, words: k.phrases.map((p) => ({ phrase: p, words: wordsOf(p) })) }));
  const spotted: SpottedPhrase[] = [];
  turns.forEach((turn, index) => {
    const words = wordsOf(turn.text);
    for (const k of wanted) {
      // A mono recording knows no speaker: its turns are heard for every label.
      if (k.speaker !== 'any' && turn.speaker !== null && turn.speaker !== k.speaker) continue;
      const heard = k.words.find((p) => indexOfPhrase(words, p.words) >= 0);
      if (heard) spotted.push({ label: k.label, phrase: heard.phrase, turn: index, speaker: turn.speaker, at: turn.start });
    }
  });
  return spotted;
}

/** The labels heard in a call, each once, in the order of the domain's list. */
export const labelsOf = (spotted: SpottedPhrase[], keyPhrases: readonly KeyPhrase[]) => keyPhrases.map((k) => k.label).filter((label) => spotted.some((s) => s.label === label));

/** The labels each speaker said (a rule's "said by the caller"); a mono recording's turns are nobody's. */
export function heardByOf(spotted: SpottedPhrase[]): { caller: string[]; agent: string[] } {
  const by = (speaker: 'caller' | 'agent') => [...new Set(spotted.filter((s) => s.speaker === speaker).map((s) => s.label))];
  return { caller: by('caller'), agent: by('agent') };
}
