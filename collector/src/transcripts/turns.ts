// An engine's answers made into turns: the words of each channel (the caller's and the agent's, or
// one mono stream) in the recording's time, parts joined at their seams, card numbers redacted,
// then merged by time into turns of one speaker each.
import type { Speaker, Turn } from './documents.ts';
import { redactCards, type TimedWord } from './redact.ts';

/** What the engine said of one part (OpenAI's verbose_json: `segments`, and `words` when asked). */
export interface EngineAnswer {
  duration?: number;
  segments?: { start: number; end: number; text: string }[];
  words?: { word: string; start: number; end: number }[];
}

/** A pause this long, or a turn this long, starts a new turn of the same speaker. */
const TURN_PAUSE_SECONDS = 1.5;
const TURN_MAX_SECONDS = 30;

/** The words of an answer, at `offset` seconds into the recording. An engine that gives no words
 * gives segments: their words are spread evenly over each one. */
export function wordsOfAnswer(answer: EngineAnswer, offset: number): TimedWord[] {
  const at = (s: number) => Math.round((offset + s) * 1000) / 1000;
  if (answer.words?.length) return answer.words.map((w) => ({ word: w.word.trim(), start: at(w.start), end: at(w.end) })).filter((w) => w.word !== '');
  return (answer.segments ?? []).flatMap((s) => {
    const words = s.text.trim().split(/\s+/).filter(Boolean);
    const step = (s.end - s.start) / Math.max(1, words.length);
    return words.map((word, i) => ({ word, start: at(s.start + i * step), end: at(s.start + (i + 1) * step) }));
  });
}

/** One part's words, kept where the part is the one that hears them: from `from` (the middle of its
 * overlap with the part before) to `to` (the middle of the next overlap). A word said across a seam
 * starts on one side of it in both parts, so it is kept once. */
export const keptBetween = (words: TimedWord[], from: number, to: number) => words.filter((w) => w.start >= from && w.start < to);

/** Each speaker's words (in time order, card numbers redacted as `language` says them), merged into
 * turns; `wordTimes[i]` holds turn i's words' times, `[start, end, start, end, …]`, for its captions. */
export function turnsWithTimes(streams: { speaker: Speaker; words: TimedWord[] }[], language = 'en'): { turns: Turn[]; wordTimes: number[][] } {
  const all = streams.flatMap(({ speaker, words }) => redactCards(words, language).map((w) => ({ ...w, speaker })));
  all.sort((a, b) => a.start - b.start || a.end - b.end);
  const turns: Turn[] = [];
  const wordTimes: number[][] = [];
  for (const w of all) {
    const last = turns.at(-1);
    if (last && last.speaker === w.speaker && w.start - last.end <= TURN_PAUSE_SECONDS && w.end - last.start <= TURN_MAX_SECONDS) {
      last.text += ` ${w.word}`;
      last.end = Math.max(last.end, w.end);
      wordTimes.at(-1)!.push(w.start, w.end);
    } else {
      turns.push({ speaker: w.speaker, start: w.start, end: w.end, text: w.word });
      wordTimes.push([w.start, w.end]);
    }
  }
  return { turns, wordTimes };
}

/** The turns alone (turnsWithTimes). */
export const turnsOf = (streams: { speaker: Speaker; words: TimedWord[] }[], language = 'en'): Turn[] => turnsWithTimes(streams, language).turns;

/** The turns as text, one a line: `caller: …`, `agent: …`, or the words alone when no speaker is
 * known. A turn is one line whatever its words (an engine's line breaks are spaces), and a speaker's
 * name at the start of a mono turn's words is set off (`- agent: …`): no turn forges another's line
 * (issue 70). */
export const transcriptText = (turns: Turn[]) =>
  turns
    .map((t) => {
      const words = t.text.replace(/\s+/g, ' ').trim();
      return t.speaker ? `${t.speaker}: ${words}` : /^(caller|agent)\s*:/i.test(words) ? `- ${words}` : words;
    })
    .join('\n');

