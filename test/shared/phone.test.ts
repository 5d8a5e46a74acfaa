import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDotted, normalizePhone } from '@ringtrail/shared';

describe('normalizePhone', () => {
  it.each([
    ['0123456789', '0123456789'],
    ['01 23 45 67 89', '0123456789'],
    ['01.23.45.67.89', '0123456789'],
    ['01-23-45-67-89', '0123456789'],
    ['+33 1 23 45 67 89', '0123456789'],
    ['0033 1 23 45 67 89', '0123456789'],
    ['(01) 23 45 67 89', '0123456789'],
    ['+33 (0)1 23 45 67 89', '0123456789'],
    ['+33(0)123456789', '0123456789'],
    ['(0)1 23 45 67 89', '0123456789'],
    ['01\u00a023\u00a045\u00a067\u00a089', '0123456789'],
    ['+44 20 7946 0958', '00442079460958'],
  ])('%s -> %s', (raw, digits) => expect(normalizePhone(raw)).toBe(digits));

  it.each(['', 'call us', '12345', '01 23 45 67 89 ext 2', '+', '0123456789012345678'])('refuses %j', (raw) => {
    expect(normalizePhone(raw)).toBeNull();
  });
});

describe('formatDotted', () => {
  it('writes dotted groups of two digits, as the spec shows numbers', () => {
    expect(formatDotted('0800000001')).toBe('08.00.00.00.01');
    expect(formatDotted('004420794609')).toBe('00.44.20.79.46.09');
  });

  it('round-trips through the normalizer for any number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^0[1-9]\d{8}$/), (digits) => {
        expect(normalizePhone(formatDotted(digits))).toBe(digits);
        expect(formatDotted(digits).replace(/\./g, '')).toBe(digits);
      }),
    );
  });
});
