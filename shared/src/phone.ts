// One normalizer and one formatter for every phone number the platform sees.

/** Digits of a phone number in national form ("+33 1 23 45 67 89" -> "0123456789"), or null if it is not one.
 * A trunk zero in brackets after the country code ("+33 (0)1 23...") is dropped, as dialling does. */
export function normalizePhone(raw: string): string | null {
  const digits = raw
    .replace(/(\d)\s*\(0\)/, '$1')
    .replace(/[\s.\-()/]/g, '')
    .replace(/^(\+|00)33/, '0')
    .replace(/^\+/, '00');
  return /^\d{6,15}$/.test(digits) ? digits : null;
}

/** Dotted groups of two digits, as the spec shows numbers: "0800000001" -> "08.00.00.00.01". */
export function formatDotted(digits: string): string {
  return digits.match(/\d{1,2}/g)?.join('.') ?? '';
}

/** E.164 for dialling out: "0033..." -> "+33...", a national "0..." -> "+<country>...". */
export function toE164(digits: string, countryCode = '33'): string {
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  return digits.startsWith('0') ? `+${countryCode}${digits.slice(1)}` : `+${digits}`;
}

/** E.164 (`+33123456789`) in the canonical form (`0123456789`; `+14155550123` -> `0014155550123`). A
 * French number never starts with 0 after +33; one that did would read back as international, so it
 * keeps its 0033. */
export function asDialledFromFrance(e164: string): string {
  return /^\+33[1-9]/.test(e164) ? `0${e164.slice(3)}` : `00${e164.slice(1)}`;
}
