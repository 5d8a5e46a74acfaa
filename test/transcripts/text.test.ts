// What a transcript is made of, apart from any engine: card numbers redacted before anything is
// kept, turns merged from two speakers' words, parts joined at their seams without losing or
// doubling a word, key phrases spotted through an engine's usual errors, captions as WebVTT.
import { describe, expect, it } from 'vitest';
import { passesLuhn } from '@ringtrail/shared';
import { REDACTED, redactCards, type TimedWord } from '../../collector/src/transcripts/redact.ts';
import { keptBetween, transcriptText, turnsOf, turnsWithTimes, wordsOfAnswer } from '../../collector/src/transcripts/turns.ts';
import { CUE_LINES, CUE_SECONDS, LINE_CHARACTERS, transcriptVtt } from '../../collector/src/transcripts/captions.ts';
import { labelsOf, spotPhrases } from '../../collector/src/transcripts/spotting.ts';
import { sameWord, wordsOf } from '../../collector/src/transcripts/words.ts';
import { keyPhrasesIn } from '../../collector/src/domains/transcription-settings.ts';
import type { Turn } from '../../collector/src/transcripts/documents.ts';

/** Words said one after another from `start`, a third of a second each. */
function said(text: string, start = 0): TimedWord[] {
  return text.split(' ').map((word, i) => ({ word, start: start + i / 3, end: start + (i + 1) / 3 }));
}
const textOf = (words: TimedWord[]) => words.map((w) => w.word).join(' ');

describe('card numbers', () => {
  it('are redacted as digits, grouped or not, when they pass the Luhn check', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(textOf(redactCards(said('my number is 4111 1111 1111 1111 thanks')))).toBe(`my number is ${REDACTED} thanks`);
    expect(textOf(redactCards(said('it is 4111-1111-1111-1111.')))).toBe(`it is ${REDACTED}`);
    expect(textOf(redactCards(said('5500005555555559 ok')))).toBe(`${REDACTED} ok`);
    // As an engine writes a number read aloud: grouped by commas, its digits repeated.
    expect(textOf(redactCards(said('my car number is 4,111,111,111,111,111.')))).toBe(`my car number is ${REDACTED}`);
    expect(textOf(redactCards(said('it is 4,111,111,111,101,111,111,111 yes')))).toBe(`it is ${REDACTED} yes`);
  });

  it('are redacted when said digit by digit in words', () => {
    const spoken = 'four one one one one one one one one one one one one one one one';
    expect(textOf(redactCards(said(`yes ${spoken} right`)))).toBe(`yes ${REDACTED} right`);
  });

  it('take the digits said after "card", "CVV" or "security code", whatever their length', () => {
    expect(textOf(redactCards(said('the CVV is 123')))).toBe(`the CVV is ${REDACTED}`);
    expect(textOf(redactCards(said('and the security code, four five six.')))).toBe(`and the security code, ${REDACTED}`);
    expect(textOf(redactCards(said('my card expires 12 27')))).toBe(`my card expires ${REDACTED}`);
  });

  it('leave other numbers alone: a phone number, a price, a number that fails Luhn', () => {
    expect(textOf(redactCards(said('call me at 06 12 34 56 78')))).toBe('call me at 06 12 34 56 78');
    expect(textOf(redactCards(said('it costs 80 dollars')))).toBe('it costs 80 dollars');
    // 13 digits that fail Luhn (an ISBN): no card number is in them.
    expect(textOf(redactCards(said('isbn 9781234567897 please')))).toBe('isbn 9781234567897 please');
  });

  it('never reach the turns', () => {
    const turns = turnsOf([{ speaker: 'caller', words: said('card number 4111 1111 1111 1111') }]);
    expect(transcriptText(turns)).toBe(`caller: card number ${REDACTED}`);
  });
});

describe('turns', () => {
  it('merge two speakers by time, each turn one speaker, a long pause starting another', () => {
    const turns = turnsOf([
      { speaker: 'caller', words: [...said('hello I would like a quote', 0), ...said('is anyone there', 10)] },
      { speaker: 'agent', words: said('good morning how can I help', 3) },
    ]);
    expect(turns.map((t) => [t.speaker, t.text])).toEqual([
      ['caller', 'hello I would like a quote'],
      ['agent', 'good morning how can I help'],
      ['caller', 'is anyone there'],
    ]);
    expect(transcriptText(turns)).toBe('caller: hello I would like a quote\nagent: good morning how can I help\ncaller: is anyone there');
  });

  it('of a mono recording have no speaker, and its text no prefix', () => {
    const turns = turnsOf([{ speaker: null, words: said('just one voice') }]);
    expect(transcriptText(turns)).toBe('just one voice');
  });

  it('from an engine that gives only segments spread their words over each segment', () => {
    const words = wordsOfAnswer({ segments: [{ start: 1, end: 2, text: ' two words' }] }, 100);
    expect(words).toEqual([
      { word: 'two', start: 101, end: 101.5 },
      { word: 'words', start: 101.5, end: 102 },
    ]);
  });

  it('of overlapping parts are joined at the middle of the overlap, each word once', () => {
    // The same speech heard by two parts overlapping from 590 s to 600 s (the seam at 595 s).
    const speech = said('one two three four five six seven eight nine ten eleven twelve', 593);
    const first = speech.filter((w) => w.start < 600);
    const second = speech.filter((w) => w.start >= 590).map((w) => ({ ...w, start: w.start + 0.02, end: w.end + 0.02 })); // heard a little apart
    const joined = [...keptBetween(first, 0, 595), ...keptBetween(second, 595, Infinity)];
    expect(textOf(joined)).toBe(textOf(speech));
  });

  it('are WebVTT captions, voiced by their speaker', () => {
    const turns: Turn[] = [
      { speaker: 'caller', start: 0.5, end: 2.25, text: 'how much is it <really>' },
      { speaker: 'agent', start: 3661, end: 3662.5, text: 'eighty --> dollars' },
    ];
    expect(transcriptVtt(turns)).toBe('WEBVTT\n\n1\n00:00:00.500 --> 00:00:02.250\n<v caller>how much is it &lt;really>\n\n2\n01:01:01.000 --> 01:01:02.500\n<v agent>eighty -> dollars\n');
  });
});

describe('captions', () => {
  /** The cues of a WebVTT file: their times and lines. */
  const cuesOf = (vtt: string) =>
    vtt
      .split('\n\n')
      .slice(1)
      .map((block) => {
        const [, times, ...lines] = block.trim().split('\n');
        const [start, end] = times!.split(' --> ').map((t) => t.split(':').reduce((s, x) => s * 60 + Number(x), 0));
        return { start: start!, end: end!, lines: lines.map((l) => l.replace(/^<v \w+>/, '')) };
      });

  it('cut a long turn into cues of at most 7 seconds and two short lines, at its words\' times', () => {
    // Thirty seconds of one speaker without a pause: one turn, said at an uneven pace.
    const words = Array.from({ length: 90 }, (_, i) => ({ word: ['I', 'would', 'like', 'to', 'know', 'whether', 'the', 'appointment', 'on', 'Tuesday'][i % 10]!, start: i * 0.31 + (i % 7) * 0.01, end: i * 0.31 + 0.25 + (i % 7) * 0.01 }));
    const { turns, wordTimes } = turnsWithTimes([{ speaker: 'caller', words }]);
    expect(turns).toHaveLength(1);
    const cues = cuesOf(transcriptVtt(turns, wordTimes));
    expect(cues.length).toBeGreaterThanOrEqual(5);
    for (const cue of cues) {
      expect(cue.end - cue.start).toBeLessThanOrEqual(CUE_SECONDS + 0.001);
      expect(cue.lines.length).toBeLessThanOrEqual(CUE_LINES);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(LINE_CHARACTERS);
      // Each cue starts at a word's start and ends at a word's end.
      expect(words.some((w) => Math.abs(w.start - cue.start) < 0.0005)).toBe(true);
      expect(words.some((w) => Math.abs(w.end - cue.end) < 0.0005)).toBe(true);
    }
    // Every word once, in order; the JSON and text keep the turn whole.
    expect(cues.flatMap((c) => c.lines.join(' ').split(' '))).toEqual(words.map((w) => w.word));
    expect(transcriptText(turns).split('\n')).toHaveLength(1);
  });

  it('spread the words of a turn kept without their times evenly over it', () => {
    const turn: Turn = { speaker: 'agent', start: 10, end: 30, text: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') };
    const cues = cuesOf(transcriptVtt([turn]));
    expect(cues[0]!.start).toBe(10);
    expect(cues.at(-1)!.end).toBe(30);
    for (const cue of cues) expect(cue.end - cue.start).toBeLessThanOrEqual(CUE_SECONDS + 0.001);
  });
});

describe('key phrases', () => {
  const phrases = keyPhrasesIn.parse([
    { label: 'booked', phrases: ['book an appointment', 'schedule a visit'], speaker: 'caller' },
    { label: 'price', phrases: ['how much', 'twenty five dollars'] },
    { label: 'greeting', phrases: ['thank you for calling'], speaker: 'agent' },
  ]);

  it('are words compared without case, accents, punctuation, and numbers in words or digits', () => {
    expect(wordsOf("Don't, it's 25 DOLLARS! Café")).toEqual(['dont', 'its', '25', 'dollars', 'cafe']);
    expect(wordsOf('twenty five dollars and one hundred')).toEqual(['25', 'dollars', 'and', '100']);
    expect(sameWord('apointment', 'appointment')).toBe(true);
    expect(sameWord('shedule', 'schedule')).toBe(true);
    expect(sameWord('book', 'look')).toBe(true); // one letter in four: the limit
    expect(sameWord('an', 'in')).toBe(false); // short words must be exact
    expect(sameWord('25', '26')).toBe(false);
  });

  it("are spotted in a transcript with an engine's errors, by the speaker they ask for", async () => {
    const turns: Turn[] = [
      { speaker: 'agent', start: 0, end: 2, text: 'Thank you for caling, how can I help?' },
      { speaker: 'caller', start: 2, end: 5, text: "I'd like to bok an apointment. How much is it?" },
      { speaker: 'agent', start: 5, end: 8, text: "It's 25 dollars. Shall I book an appointment?" },
    ];
    const spotted = await spotPhrases(turns, phrases);
    expect(spotted.map((s) => [s.label, s.turn, s.speaker, s.phrase])).toEqual([
      ['greeting', 0, 'agent', 'thank you for calling'],
      ['booked', 1, 'caller', 'book an appointment'],
      ['price', 1, 'caller', 'how much'],
      ['price', 2, 'agent', 'twenty five dollars'],
    ]);
    // The agent offering an appointment is no caller booking one.
    expect(spotted.filter((s) => s.label === 'booked').map((s) => s.turn)).toEqual([1]);
    expect(labelsOf(spotted, phrases)).toEqual(['booked', 'price', 'greeting']);
  });

  it('are heard in a mono recording whoever must say them (its speakers are not known)', async () => {
    const spotted = await spotPhrases([{ speaker: null, start: 0, end: 2, text: 'I want to schedule a visit' }], phrases);
    expect(spotted.map((s) => s.label)).toEqual(['booked']);
  });

  it('refuse settings that would make spotting unbounded or ambiguous', () => {
    const refused = (value: unknown) => keyPhrasesIn.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(refused([{ label: 'x', phrases: ['one two three four five six seven eight nine'] }])).toEqual(['0.phrases.0: must be at most 8 words']);
    expect(refused([{ label: 'x', phrases: [] }])).toEqual(['0.phrases: needs a phrase']);
    expect(refused([{ label: 'X', phrases: ['a'] }, { label: 'x', phrases: ['b'] }])).toEqual([': each label once']);
    expect(refused([{ label: 'x', phrases: ['a'], speaker: 'robot' }])).toEqual(['0.speaker: must be one of caller, agent, any']);
    expect(refused(Array.from({ length: 51 }, (_, i) => ({ label: `l${i}`, phrases: ['a'] })))).toEqual([': at most 50 labels']);
  });
});
