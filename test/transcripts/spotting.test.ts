// Spotting through the index of phrases' first words (issue 70) hears exactly what trying every
// phrase at every word heard: the same labels, phrases, turns and order, on random transcripts
// with misspelt words, numbers, speakers and phrases sharing their first words.
import { describe, expect, it } from 'vitest';
import type { KeyPhrase } from '../../collector/src/domains/transcription-settings.ts';
import type { Turn } from '../../collector/src/transcripts/documents.ts';
import { PhraseIndex, spotPhrases } from '../../collector/src/transcripts/spotting.ts';
import { everyPhraseEverywhere, seededRandom } from '../helpers/spotting-reference.ts';

const VOCABULARY = ['appointment', 'booked', 'price', 'quote', 'the', 'a', 'boiler', 'repair', 'emergency', 'tomorrow', 'twenty', 'five', '25', 'cancel', 'schedule', 'visit', 'plumber', 'leak', 'water', 'heater', 'okay', 'yes', 'no', 'thanks'];

/** A word as an engine may get it wrong: a letter swapped, dropped or doubled. */
function misspelt(word: string, next: () => number): string {
  const i = Math.floor(next() * word.length);
  const roll = next();
  if (word.length < 3 || roll < 0.6) return word;
  if (roll < 0.75) return word.slice(0, i) + word.slice(i + 1);
  if (roll < 0.9) return word.slice(0, i) + word[i] + word.slice(i);
  return i + 1 < word.length ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word;
}

describe('spotting through the index of first words', () => {
  it("hears what trying every phrase at every word heard, on 300 random transcripts", async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = seededRandom(seed);
      const pick = () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!;
      const keyPhrases: KeyPhrase[] = Array.from({ length: 1 + Math.floor(next() * 6) }, (_, l) => ({
        label: `label ${l}`,
        speaker: (['caller', 'agent', 'any'] as const)[Math.floor(next() * 3)]!,
        phrases: Array.from({ length: 1 + Math.floor(next() * 4) }, () => Array.from({ length: 1 + Math.floor(next() * 3) }, pick).join(' ')),
      }));
      const turns: Turn[] = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, t) => ({
        speaker: (['caller', 'agent', null] as const)[Math.floor(next() * 3)]!,
        start: t * 5,
        end: t * 5 + 4,
        text: Array.from({ length: Math.floor(next() * 25) }, () => misspelt(pick(), next)).join(next() < 0.5 ? ' ' : ', '),
      }));
      expect(await spotPhrases(turns, keyPhrases), `seed ${seed}`).toEqual(everyPhraseEverywhere(turns, keyPhrases));
    }
  });

  it("hears a phrase whose first word an engine got two letters wrong, and one index serves many transcripts", async () => {
    const index = await PhraseIndex.of([{ label: 'emergency', speaker: 'any', phrases: ['emergency plumber', 'burst pipe'] }]);
    expect(await spotPhrases([{ speaker: 'caller', start: 0, end: 3, text: 'I need an emergncy plumbr now' }], index)).toEqual([{ label: 'emergency', phrase: 'emergency plumber', turn: 0, speaker: 'caller', at: 0 }]);
    expect(await spotPhrases([{ speaker: 'caller', start: 1, end: 3, text: 'a brust pipe in the kitchen' }], index)).toEqual([{ label: 'emergency', phrase: 'burst pipe', turn: 0, speaker: 'caller', at: 1 }]);
    expect(await spotPhrases([{ speaker: 'caller', start: 1, end: 3, text: 'no burst here, pipes fine' }], index)).toEqual([]);
  });
});
