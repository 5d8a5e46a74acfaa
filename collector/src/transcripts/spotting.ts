// A domain's key phrases heard in a transcript: each phrase's words in a row in one turn of the
// speaker it asks for, tolerant of what engines get wrong (case, punctuation, numbers in words or
// digits, a letter or two astray in a longer word: words.ts). Bounded by the settings' limits
// (domains/transcription-settings.ts): at most 50 labels of 20 phrases of 8 words.
//
// Linear in the transcript's words (issue 70): the phrases are indexed once by their first word
// and, for the words a letter or two may miss, by that word with one or two letters deleted (the
// "deletion neighbourhood" of SymSpell: two words within that many edits, transpositions included,
// share a string of it). A transcript's word looks up only the phrases that may start with it, and
// each pair of words is compared once (sameWord, remembered). Before, every phrase was tried at every
// word: a 3,000-word call with the most phrases held the event loop a second.
import { setImmediate } from 'node:timers/promises';
import type { KeyPhrase } from '../domains/transcription-settings.ts';
import type { SpottedPhrase, Turn } from './documents.ts';
import { sameWord, wordsOf } from './words.ts';

/** How many letters a word of a phrase may miss: what sameWord tolerates (none for short words and numbers). */
const editsFor = (word: string) => (word.length < 4 || /\d/.test(word) ? 0 : word.length >= 8 ? 2 : 1);

/** The word with up to `edits` letters deleted, itself included. */
function deletions(word: string, edits: number): Set<string> {
  const out = new Set([word]);
  let layer = [word];
  for (let round = 0; round < edits; round++) {
    const next: string[] = [];
    for (const w of layer) {
      for (let i = 0; i < w.length; i++) {
        const shorter = w.slice(0, i) + w.slice(i + 1);
        if (!out.has(shorter)) (out.add(shorter), next.push(shorter));
      }
    }
    layer = next;
  }
  return out;
}

interface Phrase {
  label: number;
  /** Its place in its label's list: the first heard is the one named. */
  order: number;
  text: string;
  words: string[];
}

/** Indexes kept, by their phrases: the domains transcribed lately. */
const MADE_KEPT = 20;
const MADE = new Map<string, PhraseIndex>();

/** The domain's phrases, indexed once for all its transcripts (a re-spot runs hundreds). */
export class PhraseIndex {
  /** By how many letters their first word may miss (0, 1, 2): keys of that many deletions. */
  private readonly byEdits = [new Map<string, Phrase[]>(), new Map<string, Phrase[]>(), new Map<string, Phrase[]>()];

  private constructor(readonly keyPhrases: readonly KeyPhrase[]) {}

  /** The index of a domain's phrases: made once for the same phrases (the latest few domains'),
   * a label at a time, letting the event loop through (at the limits it takes tens of ms). */
  static async of(keyPhrases: readonly KeyPhrase[]): Promise<PhraseIndex> {
    const id = JSON.stringify(keyPhrases);
    const known = MADE.get(id);
    if (known) return known;
    const index = new PhraseIndex(keyPhrases);
    let slice = performance.now();
    for (const [label, k] of keyPhrases.entries()) {
      if (performance.now() - slice > SPOT_SLICE_MS) {
        await setImmediate();
        slice = performance.now();
      }
      k.phrases.forEach((text, order) => index.add({ label, order, text, words: wordsOf(text) }));
    }
    MADE.set(id, index);
    if (MADE.size > MADE_KEPT) MADE.delete(MADE.keys().next().value!);
    return index;
  }

  private add(phrase: Phrase): void {
    const first = phrase.words[0];
    if (first === undefined) return;
    const edits = editsFor(first);
    const index = this.byEdits[edits]!;
    for (const key of deletions(first, edits)) {
      const list = index.get(key);
      if (list) list.push(phrase);
      else index.set(key, [phrase]);
    }
  }

  /** The phrases that may start at a transcript's word: those whose first word is within its
   * tolerance of it (each checked after). */
  startingAt(word: string): Phrase[] {
    const found = new Set<Phrase>();
    this.byEdits.forEach((index, edits) => {
      if (!index.size) return;
      for (const key of deletions(word, edits)) for (const phrase of index.get(key) ?? []) if (Math.abs(phrase.words[0]!.length - word.length) <= edits) found.add(phrase);
    });
    return [...found];
  }

}

/** Longest the event loop is held while spotting: then it lets other work through (a worst case of
 * phrases sharing their first words still costs time, never a stall). */
export const SPOT_SLICE_MS = 10;
/** Pairs of words one transcript's spotting remembers at most. */
const MEMO_PAIRS = 200_000;

/** Each label heard, once a turn, with the phrase that was heard (the first of its list heard there). */
export async function spotPhrases(turns: Turn[], keyPhrases: readonly KeyPhrase[] | PhraseIndex): Promise<SpottedPhrase[]> {
  const index = keyPhrases instanceof PhraseIndex ? keyPhrases : await PhraseIndex.of(keyPhrases);
  const labels = index.keyPhrases;
  const starts = new Map<string, Phrase[]>();
  // sameWord, each pair of words of this transcript once (at most as many pairs as MEMO_PAIRS).
  const memo = new Map<string, boolean>();
  const same = (heard: string, wanted: string) => {
    const key = `${heard}\u0000${wanted}`;
    let answer = memo.get(key);
    if (answer === undefined) {
      answer = sameWord(heard, wanted);
      if (memo.size < MEMO_PAIRS) memo.set(key, answer);
    }
    return answer;
  };
  const spotted: SpottedPhrase[] = [];
  let slice = performance.now();
  for (const [at, turn] of turns.entries()) {
    if (performance.now() - slice > SPOT_SLICE_MS) {
      await setImmediate();
      slice = performance.now();
    }
    const words = wordsOf(turn.text);
    // Per label, the phrase heard first in its list order.
    const heard = new Map<number, Phrase>();
    words.forEach((word, i) => {
      let candidates = starts.get(word);
      if (!candidates) starts.set(word, (candidates = index.startingAt(word)));
      for (const phrase of candidates) {
        const k = labels[phrase.label]!;
        // A mono recording knows no speaker: its turns are heard for every label.
        if (k.speaker !== 'any' && turn.speaker !== null && turn.speaker !== k.speaker) continue;
        const best = heard.get(phrase.label);
        if (best && best.order <= phrase.order) continue;
        if (i + phrase.words.length > words.length) continue;
        if (phrase.words.every((w, j) => same(words[i + j]!, w))) heard.set(phrase.label, phrase);
      }
    });
    for (const [label, phrase] of [...heard].sort(([a], [b]) => a - b)) spotted.push({ label: labels[label]!.label, phrase: phrase.text, turn: at, speaker: turn.speaker, at: turn.start });
  }
  return spotted;
}

/** The labels heard in a call, each once, in the order of the domain's list. */
export const labelsOf = (spotted: SpottedPhrase[], keyPhrases: readonly KeyPhrase[]) => keyPhrases.map((k) => k.label).filter((label) => spotted.some((s) => s.label === label));

/** The labels each speaker said (a rule's "said by the caller"); a mono recording's turns are nobody's. */
export function heardByOf(spotted: SpottedPhrase[]): { caller: string[]; agent: string[] } {
  const by = (speaker: 'caller' | 'agent') => [...new Set(spotted.filter((s) => s.speaker === speaker).map((s) => s.label))];
  return { caller: by('caller'), agent: by('agent') };
}
