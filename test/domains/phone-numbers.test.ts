// The canonical form of a number (domains/phone-numbers.ts): the number as dialled from France, one
// to one with E.164; a French domain reads every number as the spec always did; a number written
// any way in its own country, or with its country code, comes to one form; the national form a
// domain's answers carry reads back to it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePhone } from '../../shared/src/phone.ts';
import { asDialledFromFrance, canonicalIn, e164Of, nationalOf } from '../../collector/src/domains/phone-numbers.ts';

describe('the canonical form of a number', () => {
  it('is what the spec always made of it for a French domain, whatever is written', () => {
    fc.assert(fc.property(fc.string(), (raw) => canonicalIn(raw, 'FR') === normalizePhone(raw)), { numRuns: 2000 });
    fc.assert(fc.property(fc.stringMatching(/^(\+33 ?|0)[1-9]( ?\d\d){4}$/), (raw) => canonicalIn(raw, 'FR') === normalizePhone(raw)));
  });

  it('is one form for every way a country writes its numbers', () => {
    for (const raw of ['(415) 555-0199', '415-555-0199', '1-415-555-0199', '+1 415 555 0199', '001 415 555 0199', '4155550199']) expect(canonicalIn(raw, 'US')).toBe('0014155550199');
    for (const raw of ['020 7946 0000', '+44 20 7946 0000', '+44 (0)20 7946 0000', '0044 20 7946 0000']) expect(canonicalIn(raw, 'GB')).toBe('00442079460000');
    // Another country's number, with its country code: the same in every domain.
    for (const country of ['FR', 'US', 'GB', 'ES']) expect(canonicalIn('+33 1 23 45 67 89', country)).toBe('0123456789');
    expect(canonicalIn('91 123 45 67', 'ES')).toBe('0034911234567');
    // Without its country code, a number that cannot be one of the domain's country is none: never a French one.
    expect(canonicalIn('020 7946 0000', 'US')).toBeNull();
  });

  it('maps one to one onto E.164', () => {
    fc.assert(fc.property(fc.stringMatching(/^\+[1-9]\d{6,13}$/), (e164) => e164Of(asDialledFromFrance(e164)) === e164));
    // Found by the property above: +33 followed by 0 is no French number, and must not read back as 00….
    expect(e164Of(asDialledFromFrance('+33000000'))).toBe('+33000000');
  });

  it("reads back from the national form a domain's answers carry", () => {
    const cases: [string, string, string][] = [
      ['0014155550199', 'US', '4155550199'],
      ['00442079460000', 'GB', '02079460000'],
      ['0123456789', 'FR', '0123456789'],
      ['0014155550199', 'FR', '0014155550199'], // another country's number stays international
      ['00442079460000', 'US', '00442079460000'],
      ['0123456789', 'US', '0033123456789'], // a French number from a US domain: with its country code
      ['0123456789', 'GB', '0033123456789'],
    ];
    for (const [canonical, country, national] of cases) {
      expect(nationalOf(canonical, country)).toBe(national);
      expect(canonicalIn(national, country)).toBe(canonical);
    }
  });
});
