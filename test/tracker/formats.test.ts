// Finding the site's numbers in page text and writing tracking numbers in the site's own format.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePhone } from '@ringtrail/shared';
import { formatLike, PHONE_PATTERN } from '../../tracker/src/phones.ts';

const found = (text: string) => (text.match(PHONE_PATTERN) ?? []).map((m) => [m, normalizePhone(m)]);
const swap = (text: string, dotted = '08.00.00.00.01') => formatLike({ text, phone: normalizePhone(text)! }, dotted);

describe('finding numbers in text', () => {
  it.each([
    ['Call 01 23 45 67 89 today', '01 23 45 67 89'],
    ['Call 01.23.45.67.89.', '01.23.45.67.89'],
    ['Call 01-23-45-67-89', '01-23-45-67-89'],
    ['Call 0123456789', '0123456789'],
    ['Call +33 1 23 45 67 89', '+33 1 23 45 67 89'],
    ['Call +33 (0)1 23 45 67 89', '+33 (0)1 23 45 67 89'],
    ['Call +33(0)123456789', '+33(0)123456789'],
    ['Call 0033 1 23 45 67 89', '0033 1 23 45 67 89'],
    ['Call (01) 23 45 67 89', '(01) 23 45 67 89'],
    ['Call 01\u00a023\u00a045\u00a067\u00a089', '01\u00a023\u00a045\u00a067\u00a089'],
    ['Call 01\u202f23\u202f45\u202f67\u202f89', '01\u202f23\u202f45\u202f67\u202f89'],
    ['Call 01/23/45/67/89', '01/23/45/67/89'],
  ])('%j finds %j', (text, number) => {
    expect(found(text)).toEqual([[number, '0123456789']]);
  });

  it.each([
    ['Call (714) 225 - 1326', '(714) 225 - 1326', '7142251326'],
    ['<a>06 98 29 34\n      98</a>', '06 98 29 34\n      98', '0698293498'],
    ['Call 020 . 7946 . 0000', '020 . 7946 . 0000', '02079460000'],
  ])('%j is one number (issue 81: a spaced dash, a line break in the markup, spaced dots)', (text, number, digits) => {
    expect(found(text)).toEqual([[number, digits]]);
  });

  it('keeps two numbers, or a number next to another figure, apart', () => {
    expect(found('Tel 01 23 45 67 89, fax 09 87 65 43 21')).toEqual([
      ['01 23 45 67 89', '0123456789'],
      ['09 87 65 43 21', '0987654321'],
    ]);
    expect(found('Order 12345678 - 01 23 45 67 89')).toContainEqual(['01 23 45 67 89', '0123456789']);
  });

  it('finds nothing phone-like in prices, dates and short figures', () => {
    for (const text of ['Price: 12.50 EUR', 'Open 9-18', 'Since 2024', 'Room 12']) {
      expect(found(text).filter(([, digits]) => digits !== null)).toEqual([]);
    }
  });
});

describe('writing a tracking number in the format of the original', () => {
  it.each([
    ['01 23 45 67 89', '08 00 00 00 01'],
    ['01.23.45.67.89', '08.00.00.00.01'],
    ['01-23-45-67-89', '08-00-00-00-01'],
    ['0123456789', '0800000001'],
    ['+33 1 23 45 67 89', '+33 8 00 00 00 01'],
    ['+33 (0)1 23 45 67 89', '+33 (0)8 00 00 00 01'],
    ['0033 1 23 45 67 89', '0033 8 00 00 00 01'],
    ['(01) 23 45 67 89', '(08) 00 00 00 01'],
    ['+33123456789', '+33800000001'],
  ])('%j becomes %j', (original, tracking) => {
    expect(swap(original)).toBe(tracking);
  });

  it.each([
    // The collector answers the tracking number in the form the page wrote the site phone in.
    ['(415) 555-0199', '41.55.55.01.42', '(415) 555-0142'],
    ['415.555.0199', '41.55.55.01.42', '415.555.0142'],
    ['+1 415-555-0199', '00.14.15.55.50.14.2', '+1 415-555-0142'],
    ['1-415-555-0199', '14.15.55.50.14.2', '1-415-555-0142'],
    ['020 7946 0000', '02.07.94.60.00.1', '020 7946 0001'],
    ['+44 20 7946 0000', '00.44.20.79.46.00.01', '+44 20 7946 0001'],
    // The UK's common form: the trunk zero in brackets stays where it was (issue 39).
    ['+44 (0)20 7946 0000', '00.44.20.79.46.00.01', '+44 (0)20 7946 0001'],
    ['+44(0)2079460000', '00.44.20.79.46.00.01', '+44(0)2079460001'],
  ])('%j with %j becomes %j, in its country\'s layout', (original, tracking, written) => {
    expect(swap(original, tracking)).toBe(written);
  });

  it('writes a number that does not fit the layout of the original dotted', () => {
    expect(swap('01 23 45 67 89', '00.44.20.79.46.09.58')).toBe('00.44.20.79.46.09.58');
    expect(swap('+44 20 7946 0958')).toBe('08.00.00.00.01');
  });

  it('keeps every character but the digits, and dials the tracking number, for any layout', () => {
    const separator = fc.constantFrom(' ', '.', '-', '', '\u00a0');
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{8}$/), fc.stringMatching(/^[1-9]\d{8}$/), separator, fc.constantFrom('0', '+33 ', '0033 '), (site, tracking, sep, prefix) => {
        const original = prefix + site.match(/^\d|\d\d/g)!.join(sep);
        const written = swap(original, `0${tracking}`.match(/\d\d/g)!.join('.'));
        expect(written.replace(/\d/g, '#')).toBe(original.replace(/\d/g, '#'));
        expect(normalizePhone(written)).toBe(`0${tracking}`);
      }),
    );
  });
});
