// Words as search and spotting compare them: lower case, no accents or punctuation, numbers as
// digits whether the engine wrote "twenty five" or "25". Both sides of a comparison (a transcript,
// a phrase, a search) go through `wordsOf`, so they always agree.

// Maps, not objects: a word that `Object.prototype` has ("constructor") is a word (issue 79).
const UNITS = new Map(Object.entries({ zero: 0, oh: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19 }));
const TENS = new Map(Object.entries({ twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 }));
const SCALES = new Map(Object.entries({ hundred: 100, thousand: 1000 }));

/** The longest word kept: anything longer is no word a person says. */
export const MAX_WORD_LENGTH = 40;

/** A word said as a digit, "oh" included (card and phone numbers are read digit by digit). */
export function digitOfWord(word: string): string | null {
  const unit = UNITS.get(word.toLowerCase());
  return unit !== undefined && unit < 10 ? String(unit) : null;
}

/** Lower case, accents and punctuation gone; apostrophes join ("don't" is "dont"). */
export function bareWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && w.length <= MAX_WORD_LENGTH);
}

/** The words of a text, with numbers said in words written as digits ("twenty five" → "25",
 * "one hundred" → "100"). */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  let number: number | null = null;
  let lastWasTens = false;
  const flush = () => {
    if (number !== null) out.push(String(number));
    number = null;
    lastWasTens = false;
  };
  for (const word of bareWords(text)) {
    const [tens, unit, scale] = [TENS.get(word), UNITS.get(word), SCALES.get(word)];
    if (tens !== undefined) {
      flush();
      number = tens;
      lastWasTens = true;
    } else if (unit !== undefined && lastWasTens && unit < 10 && unit > 0) {
      number! += unit;
      lastWasTens = false;
    } else if (scale !== undefined && number !== null && number > 0) {
      number *= scale;
      lastWasTens = false;
    } else if (unit !== undefined) {
      flush();
      number = unit;
    } else {
      flush();
      out.push(word);
    }
  }
  flush();
  return out;
}

/** Damerau–Levenshtein distance, stopping once it passes `max` (it only says "within `max`" or not). */
export function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  if (a === b) return true;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return false;
    rows.push(row);
  }
  return rows[a.length]![b.length]! <= max;
}

/** Whether a transcript's word is taken for a phrase's word: the same, or (words of letters of 4 or
 * more) one edit apart, two from 8 letters. Numbers must be equal. */
export function sameWord(heard: string, wanted: string): boolean {
  if (heard === wanted) return true;
  if (wanted.length < 4 || /\d/.test(wanted) || /\d/.test(heard)) return false;
  return withinEdits(heard, wanted, wanted.length >= 8 ? 2 : 1);
}
