// A transcript as WebVTT captions people can read: a long turn is cut into caption-sized cues at its
// words' times, each at most CUE_SECONDS long and CUE_LINES lines of at most LINE_CHARACTERS
// characters (a word longer than a line stands alone), voiced by its speaker (`<v caller>`). The
// JSON and text forms keep their turns whole.
import type { Turn } from './documents.ts';
import type { TimedWord } from './redact.ts';

export const CUE_SECONDS = 7;
export const LINE_CHARACTERS = 42;
export const CUE_LINES = 2;

/** A turn's words with their times: as the engine gave them (`times`, `[start, end, …]`), or spread
 * evenly over the turn where they were not kept (transcripts made before, the demo's). */
function timedWords(turn: Turn, times: number[] | undefined): TimedWord[] {
  const words = turn.text.split(' ').filter(Boolean);
  if (times && times.length === words.length * 2) return words.map((word, i) => ({ word, start: times[2 * i]!, end: times[2 * i + 1]! }));
  const step = (turn.end - turn.start) / Math.max(1, words.length);
  return words.map((word, i) => ({ word, start: turn.start + i * step, end: turn.start + (i + 1) * step }));
}

/** Words laid into lines of at most LINE_CHARACTERS. */
function linesOf(words: string[]): string[] {
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= LINE_CHARACTERS) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** A turn's cues: words taken in order while the cue stays within its time and its lines. */
export function cuesOf(turn: Turn, times?: number[]): { start: number; end: number; lines: string[] }[] {
  const cues: { start: number; end: number; words: TimedWord[] }[] = [];
  for (const w of timedWords(turn, times)) {
    const cue = cues.at(-1);
    const fits = cue && w.end - cue.start <= CUE_SECONDS && linesOf([...cue.words, w].map((x) => x.word)).length <= CUE_LINES;
    if (fits) {
      cue.words.push(w);
      cue.end = Math.max(cue.end, w.end);
    } else cues.push({ start: w.start, end: w.end, words: [w] });
  }
  return cues.map((c) => ({ start: c.start, end: c.end, lines: linesOf(c.words.map((w) => w.word)) }));
}

/** `HH:MM:SS.mmm`, as WebVTT writes times. */
function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** Text as a cue's payload may hold it: no `-->`, `<` and `&` escaped. */
const cueText = (text: string) => text.replace(/-->/g, '->').replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'));

/** The turns as WebVTT, `wordTimes[i]` the times of turn i's words when kept. */
export function transcriptVtt(turns: Turn[], wordTimes: number[][] = []): string {
  let n = 0;
  const cues = turns.flatMap((turn, i) =>
    cuesOf(turn, wordTimes[i]).map((cue) => {
      const voice = turn.speaker ? `<v ${turn.speaker}>` : '';
      return `${++n}\n${vttTime(cue.start)} --> ${vttTime(Math.max(cue.end, cue.start + 0.001))}\n${voice}${cue.lines.map(cueText).join('\n')}`;
    }),
  );
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}
