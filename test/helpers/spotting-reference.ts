// What the spotting tests and the benchmark compare the index of first words with (issue 70): the
// spotting of before, every phrase of every label at every word of every turn; and a seeded random
// generator, so that a failure or a figure comes again with its seed.
import type { KeyPhrase } from '../../collector/src/domains/transcription-settings.ts';
import type { SpottedPhrase, Turn } from '../../collector/src/transcripts/documents.ts';
import { sameWord, wordsOf } from '../../collector/src/transcripts/words.ts';

/** What spotting was before: every phrase of every label at every word of every turn. */
export function everyPhraseEverywhere(turns: Turn[], keyPhrases: readonly KeyPhrase[]): SpottedPhrase[] {
  const wanted = keyPhrases.map((k) => ({ ...k, words: k.phrases.map((p) => ({ phrase: p, words: wordsOf(p) })) }));
  const at = (words: string[], phrase: string[]) => {
    for (let i = 0; i + phrase.length <= words.length; i++) if (phrase.every((p, j) => sameWord(words[i + j]!, p))) return i;
    return -1;
  };
  const spotted: SpottedPhrase[] = [];
  turns.forEach((turn, index) => {
    const words = wordsOf(turn.text);
    for (const k of wanted) {
      if (k.speaker !== 'any' && turn.speaker !== null && turn.speaker !== k.speaker) continue;
      const heard = k.words.find((p) => at(words, p.words) >= 0);
      if (heard) spotted.push({ label: k.label, phrase: heard.phrase, turn: index, speaker: turn.speaker, at: turn.start });
    }
  });
  return spotted;
}

/** A seeded generator, so a failure says its seed. */
export function seededRandom(seed: number) {
  // mulberry32: 32-bit integer steps, exact in JavaScript's numbers.
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
