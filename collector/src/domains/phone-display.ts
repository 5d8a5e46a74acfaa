// How the back end writes a domain's numbers: `(312) 555-0140` in the US, `020 7946 0010` in the UK,
// `01 23 45 67 89` in France, another country's number internationally (`+44 20 7946 0010`).
// libphonenumber stays on the server, so an answer carries, beside its numbers (in the national
// digits of the domain's country), how to write the ones that the back end's plain grouping in pairs
// would write wrong: a French domain's own numbers need nothing, and its answers are unchanged.
import { getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { DEFAULT_COUNTRY, e164Of, isCountry, nationalOf } from './phone-numbers.ts';

/** The back end's fallback (ui/format.ts): `0123456789` -> `01 23 45 67 89`. */
const inPairs = (digits: string) => digits.replace(/(\d\d)(?=\d)/g, '$1 ');

/** A canonical number as a person of `country` writes it. */
export function displayOf(canonical: string, country: string): string {
  const parsed = parsePhoneNumberFromString(e164Of(canonical));
  // A French domain's own numbers in pairs, as the spec writes them (libphonenumber has 0 800 …).
  if (!parsed || !isCountry(country) || (country === DEFAULT_COUNTRY && parsed.countryCallingCode === '33')) return inPairs(nationalOf(canonical, country));
  return parsed.countryCallingCode === getCountryCallingCode(country) ? parsed.formatNational() : parsed.formatInternational();
}

/** `{phoneDisplay: {national digits: written}}` for the numbers that need it, or nothing. Callers are
 * passed only when the domain shows them whole. */
export function withPhoneDisplay(canonicals: Iterable<string | null | undefined>, country: string): { phoneDisplay?: Record<string, string> } {
  const shown: Record<string, string> = {};
  for (const canonical of canonicals) {
    if (!canonical) continue;
    const digits = nationalOf(canonical, country);
    const written = displayOf(canonical, country);
    if (written !== inPairs(digits)) shown[digits] = written;
  }
  return Object.keys(shown).length > 0 ? { phoneDisplay: shown } : {};
}
