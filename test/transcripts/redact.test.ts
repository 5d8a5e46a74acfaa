// Card numbers as engines really write them (issue 64): tiny.en heard 4111 1111 1111 1111 read aloud
// as "card number in 41 -1 -1 -1 …", and only "41" was redacted. Every shape an engine writes around
// digits (signs, dots, commas, dashes, repeated groups, digits glued to words, digits said as words,
// in another language) is redacted whole, checked over many card numbers written many ways.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { REDACTED, redactCards, type TimedWord } from '../../collector/src/transcripts/redact.ts';
import { turnsOf } from '../../collector/src/transcripts/turns.ts';

const words = (tokens: string[], start = 0): TimedWord[] => tokens.map((word, i) => ({ word, start: start + i / 3, end: start + (i + 1) / 3 }));
const said = (text: string) => words(text.split(' '));
const textOf = (out: TimedWord[]) => out.map((w) => w.word).join(' ');

/** The Luhn check digit that makes `body` a valid card number. */
function withCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

const EN = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const FR = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf'];

/** Groups of `size` digits (the last shorter). */
const groups = (digits: string, size: number) => digits.match(new RegExp(`.{1,${size}}`, 'g'))!;

/** "four double one one …": a digit said twice in a row is said "double". */
function saidWithDoubles(digits: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < digits.length; ) {
    const twice = digits[i] === digits[i + 1];
    out.push(...(twice ? ['double'] : []), EN[Number(digits[i])]!);
    i += twice ? 2 : 1;
  }
  return out;
}

/** Ways an engine writes a number read aloud, each as the tokens it answers. */
const SHAPES: Record<string, (digits: string) => string[]> = {
  plain: (d) => [d],
  spaced: (d) => groups(d, 4),
  dashed: (d) => [groups(d, 4).join('-')],
  dotted: (d) => [`${groups(d, 4).join('.')}.`],
  commas: (d) => [`${groups(d, 3).join(',')},`],
  'leading signs': (d) => [d.slice(0, 2), ...d.slice(2).split('').map((x) => `-${x}`)],
  'leading dots': (d) => d.split('').map((x, i) => (i % 2 ? `.${x},` : x)),
  'minus signs and dashes': (d) => groups(d, 4).map((g, i) => (i === 0 ? g : `${['−', '–', '—', '-'][i % 4]}${g}`)),
  'glued to words': (d) => [`in${d.slice(0, 2)}`, ...groups(d.slice(2), 5).map((g, i, all) => (i === all.length - 1 ? `${g}and` : g))],
  'repeated groups': (d) => [`${d.slice(0, 1)},${groups(d.slice(1), 3).join(',')}`, groups(d.slice(1), 3).at(-1)!],
  'said as words': (d) => d.split('').map((x) => EN[Number(x)]!),
  'said hyphenated': (d) => groups(d, 4).map((g) => g.split('').map((x) => EN[Number(x)]).join('-')),
  'said with doubles': saidWithDoubles,
  'words and digits mixed': (d) => d.split('').map((x, i) => (i % 3 === 0 ? EN[Number(x)]! : x)),
  'quoted and bracketed': (d) => [`"${d.slice(0, 8)}`, `(${d.slice(8)})`],
};

const cardNumber = fc
  .tuple(fc.integer({ min: 13, max: 19 }), fc.stringMatching(/^[1-9][0-9]{18}$/))
  .map(([length, digits]) => withCheckDigit(digits.slice(0, length - 1)));
const context = fc.constantFrom(['my', 'number', 'is'], ['it', 'is'], ['yes', 'so'], ['okay', 'ready']);
const after = fc.constantFrom(['thanks'], ['is', 'that', 'right'], ['okay'], []);

/** No word but the redaction holds a digit, or a digit said as a word. */
const leftDigits = (out: TimedWord[], language: string[] = EN) => out.filter((w) => w.word !== REDACTED && (/\d/.test(w.word) || w.word.toLowerCase().split(/[^\p{L}]+/u).some((p) => language.includes(p))));

describe('card numbers as an engine writes them', () => {
  it('the shape tiny.en wrote for 4111 1111 1111 1111 read aloud is redacted whole', () => {
    const out = redactCards(said('card number in 41 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1. thank you'));
    expect(textOf(out)).toBe(`card number in ${REDACTED} thank you`);
    expect(textOf(redactCards(said('the number is .5, -1111 -1111 -1111, 4111 ok')))).not.toMatch(/\d/);
  });

  for (const [name, write] of Object.entries(SHAPES)) {
    it(`is redacted whole, ${name}, with or without "card" before it`, () => {
      fc.assert(
        fc.property(cardNumber, context, after, fc.boolean(), (digits, before, rest, named) => {
          const tokens = [...(named ? ['card', ...before] : before), ...write(digits), ...rest];
          const out = redactCards(words(tokens));
          expect(leftDigits(out), textOf(out)).toEqual([]);
          expect(out.filter((w) => w.word === REDACTED)).toHaveLength(1);
          // The words around the number stay.
          for (const w of rest) expect(out.map((o) => o.word)).toContain(w);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('is redacted said in the domain language (French digits after "carte", or 16 of them)', () => {
    fc.assert(
      fc.property(cardNumber, fc.boolean(), (digits, named) => {
        const tokens = [...(named ? ['ma', 'carte', 'c’est'] : ['alors']), ...digits.split('').map((x) => FR[Number(x)]!), 'merci'];
        const out = redactCards(words(tokens), 'fr');
        expect(leftDigits(out, FR), textOf(out)).toEqual([]);
        expect(textOf(out)).toMatch(new RegExp(`${REDACTED.replace(/[[\]]/g, '\\$&')} merci$`));
      }),
      { numRuns: 150 },
    );
    expect(textOf(turnsOf([{ speaker: 'caller', words: said('carte quatre un un un') }], 'fr').map((t) => ({ word: t.text, start: t.start, end: t.end })))).toBe(`carte ${REDACTED}`);
  });

  it('leaves other numbers and the words around them alone', () => {
    expect(textOf(redactCards(said('call me at 06 12 34 56 78')))).toBe('call me at 06 12 34 56 78');
    expect(textOf(redactCards(said('it costs -80 dollars, or 1.5 times that')))).toBe('it costs -80 dollars, or 1.5 times that');
    expect(textOf(redactCards(said('a double room for one night')))).toBe('a double room for one night');
    expect(textOf(redactCards(said('order 2024112800123 please')))).toBe('order 2024112800123 please');
    expect(textOf(redactCards(said('my number is 0033 6 12 34 56 78')))).toBe('my number is 0033 6 12 34 56 78');
    // French "un" is a word before it is a digit: only after "carte" or in a card-long run.
    expect(textOf(redactCards(said('je voudrais un rendez-vous'), 'fr'))).toBe('je voudrais un rendez-vous');
  });
});
