// Phone numbers of any country (ours), on the server only: libphonenumber-js, the maintained port of
// Google's libphonenumber, with its full metadata (the smaller sets cannot tell a number's type).
// A domain's `country` (ISO 3166-1 alpha-2) says how a number written without its country code is read.
//
// One canonical form inside the collector, whatever the domain's country: the number as dialled
// from France, the spec's own form (its type table lists London as 004420): `+33 1 23 45 67 89` is
// `0123456789`, `+1 415 555 0199` is `0014155550199`. It maps one to one onto E.164 (+33 <-> 0,
// + <-> 00), so it is as unambiguous, and every number a French domain ever stored is in it already:
// no stored number changes, and a French domain's answers stay byte for byte what they were.
import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type NumberType } from 'libphonenumber-js/max';
import { asDialledFromFrance, COUNTRY_NUMBER_TYPES, normalizePhone } from '@ringtrail/shared';

/** The country of a domain whose settings name none: the spec's numbers are French. */
export const DEFAULT_COUNTRY = 'FR';

export const isCountry = (code: string): code is CountryCode => isSupportedCountry(code);

/** A domain's country: FR for a domain stored before countries were kept. */
export const countryOf = (domain: { country?: string }) => domain.country ?? DEFAULT_COUNTRY;

/** The types of libphonenumber that each of our country types takes: a country that does not tell
 * fixed lines from mobiles (the US, Canada) gives FIXED_LINE_OR_MOBILE, which both take. */
const ACCEPTED: Record<number, NumberType[]> = {
  100: ['FIXED_LINE', 'FIXED_LINE_OR_MOBILE'],
  101: ['TOLL_FREE'],
  102: ['MOBILE', 'FIXED_LINE_OR_MOBILE'],
};

/** A number as a person, a page or a carrier of a domain of `country` writes it, in the canonical
 * form; null when it is no phone number. A French domain's numbers read as the spec reads them.
 * `anyPossible`: a number of a possible length passes too, for the callers a carrier reports (they
 * exist, whatever the metadata knows); a number a person writes must be valid. */
export function canonicalIn(raw: string, country: string, { anyPossible = false } = {}): string | null {
  // A number with its country code (+ or 00) reads the same in every country.
  if (country === DEFAULT_COUNTRY || !isCountry(country) || /^\s*(\+|00)/.test(raw)) return normalizePhone(raw);
  // Without a country code it must be a number of the domain's country: never read as a French one,
  // and valid, not merely of a possible length (0123456789 is no US number).
  const parsed = parsePhoneNumberFromString(raw, country);
  return parsed && (anyPossible ? parsed.isPossible() : parsed.isValid()) ? asDialledFromFrance(parsed.number) : null;
}

/** A number a person writes in the settings: read in the domain's country, and of a length its
 * country's numbers have (libphonenumber's isPossible): `012345678901234` reads as French digits,
 * and no French number has fifteen. */
export function writtenNumberIn(raw: string, country: string): string | null {
  const digits = canonicalIn(raw, country);
  return digits && parsePhoneNumberFromString(e164Of(digits))?.isPossible() ? digits : null;
}

/** E.164 in the canonical form (shared: the back end's screens use it too). */
export { asDialledFromFrance } from '@ringtrail/shared';

/** The canonical form in E.164, for dialling out and for libphonenumber. */
export function e164Of(canonical: string): string {
  return canonical.startsWith('00') ? `+${canonical.slice(2)}` : canonical.startsWith('0') ? `+33${canonical.slice(1)}` : `+${canonical}`;
}

/** A canonical number as the domain's country writes its own numbers, digits only (`4155550199` in
 * the US, `02079460000` in the UK); another country's number with 00 and its country code
 * (`0033123456789`), which every country reads back the same; a French domain's as it is stored. */
export function nationalOf(canonical: string, country: string): string {
  if (country === DEFAULT_COUNTRY || !isCountry(country)) return canonical;
  const e164 = e164Of(canonical);
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed || parsed.countryCallingCode !== getCountryCallingCode(country)) return `00${e164.slice(1)}`;
  return parsed.formatNational().replace(/\D/g, '');
}

/** Why a number (canonical) cannot join a pool of one of our country types (100 to 102), or null when it can. */
export function countryTypeRefusal(canonical: string, type: number, country: string): string | null {
  const kind = COUNTRY_NUMBER_TYPES[type];
  if (!kind) return null;
  const shown = nationalOf(canonical, country);
  const parsed = parsePhoneNumberFromString(e164Of(canonical));
  if (!parsed?.isValid()) return `${shown} is not a valid phone number in ${country}`;
  if (parsed.countryCallingCode !== getCountryCallingCode(country as CountryCode)) return `${shown} is a number of ${parsed.country ?? `+${parsed.countryCallingCode}`}, not of ${country}, the domain's country`;
  if (!ACCEPTED[type]!.includes(parsed.getType()!)) return `${shown} is not a ${kind} number of ${country} (type ${type})`;
  return null;
}

/** Every stored number a domain of `country` may mean by `raw`: as its country reads it, then as the
 * spec reads it (a spec type's French number written 0800…, on a US domain); one for a French domain. */
export function readingsIn(raw: string, country: string): string[] {
  return [...new Set([canonicalIn(raw, country), normalizePhone(raw)].filter((n): n is string => n !== null))];
}
