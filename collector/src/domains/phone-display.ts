// How RingTrail writes a domain's numbers, everywhere (screens, mails, chat messages, answers):
// `(312) 555-0140` in the US, `020 7946 0010` in the UK, `01 23 45 67 89` in France, another
// country's number internationally (`+44 20 7946 0010`). libphonenumber stays on the server, so a
// back-end answer carries, beside its numbers, how to write the ones that the back end's plain
// grouping in pairs would write wrong (`phoneDisplay`): a French domain's own numbers need nothing,
// and its answers are unchanged.
import { formatDotted } from '@ringtrail/shared';
import { getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { maskCaller } from './caller-privacy.ts';
import { DEFAULT_COUNTRY, asDialledFromFrance, countryOf, e164Of, isCountry, nationalOf } from './phone-numbers.ts';

/** The back end's fallback (ui/format.ts): `0123456789` -> `01 23 45 67 89`. */
const inPairs = (digits: string) => digits.replace(/(\d\d)(?=\d)/g, '$1 ');

/** Whether a domain of `country` writes its numbers as the spec does (France, or a country unknown). */
export const writesAsSpec = (country: string) => country === DEFAULT_COUNTRY || !isCountry(country);

/** A canonical number as a person of `country` writes it. */
export function displayOf(canonical: string, country: string): string {
  const parsed = parsePhoneNumberFromString(e164Of(canonical));
  // A French domain's own numbers in pairs, as the spec writes them (libphonenumber has 0 800 …).
  if (!parsed || !isCountry(country) || (country === DEFAULT_COUNTRY && parsed.countryCallingCode === '33')) return inPairs(nationalOf(canonical, country));
  return parsed.countryCallingCode === getCountryCallingCode(country) ? parsed.formatNational() : parsed.formatInternational();
}

/** An E.164 number as a person of its own country writes it (`+14155550181` -> `(415) 555-0181`):
 * for lists of an account's numbers, which belong to no one domain. */
export function displayInItsCountry(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.country ? displayOf(asDialledFromFrance(parsed.number), parsed.country) : e164;
}

/** A tracking number as /ospView, /ospClick and the browser doors answer it: the spec's dotted pairs
 * for a French domain (`01.23.45.67.89`), the domain's own national format for another country's
 * (`(415) 555-0105`); both read back by /ospExpiration. */
export function answeredNumber(canonical: string, country: string): string {
  return writesAsSpec(country) ? formatDotted(nationalOf(canonical, country)) : displayOf(canonical, country);
}

/** A caller (canonical, or null when anonymous) as the domain shows callers: written whole, without
 * its last four digits (`(707) 555-XXXX`; a French domain's in digits, `061234XXXX`, as always),
 * `hidden`, or `anonymous`. */
export function callerWritten(caller: string | null, domain: { callerPrivacy: string; country?: string }): string {
  const country = countryOf(domain);
  if (caller === null || domain.callerPrivacy === 'full' || (domain.callerPrivacy === 'partial' && writesAsSpec(country))) return maskCaller(caller, domain.callerPrivacy);
  const written = displayOf(caller, country);
  if (domain.callerPrivacy !== 'partial') return written;
  let hidden = 4;
  return [...written].reverse().map((ch) => (/\d/.test(ch) && hidden-- > 0 ? 'X' : ch)).reverse().join('');
}

/** The `phoneDisplay` of calls' rows (the calls log, a call's page): their tracking numbers and
 * destinations, and their callers as the domain shows them, whole or, hidden in part, keyed by the
 * masked digits the rows carry (`415555XXXX`: `(415) 555-XXXX`). */
export function callsPhoneDisplay(calls: { trackingNumber: string; destination: string | null; caller: string | null; direction?: string }[], domain: { callerPrivacy: string; country?: string }): { phoneDisplay?: Record<string, string> } {
  const country = countryOf(domain);
  // A call placed goes to its caller's number: written as callers are, never whole here.
  const numbers = withPhoneDisplay(calls.flatMap((call) => [call.trackingNumber, call.direction === 'outbound' ? null : call.destination]), country).phoneDisplay;
  const callers = callersDisplay(calls.map((call) => call.caller), domain, (caller) => nationalOf(caller, country)).phoneDisplay;
  return numbers || callers ? { phoneDisplay: { ...numbers, ...callers } } : {};
}

/** The `phoneDisplay` of callers (canonical) as the domain shows them, whole or hidden in part,
 * keyed by `carried` masked as the answer carries it (a national form, or the canonical one). */
export function callersDisplay(callers: (string | null)[], domain: { callerPrivacy: string; country?: string }, carried: (caller: string) => string): { phoneDisplay?: Record<string, string> } {
  const shown: Record<string, string> = {};
  if (domain.callerPrivacy === 'full') return {};
  for (const caller of callers) {
    if (!caller) continue;
    const [digits, written] = [maskCaller(carried(caller), domain.callerPrivacy), callerWritten(caller, domain)];
    if (written !== inPairs(digits)) shown[digits] = written;
  }
  return Object.keys(shown).length > 0 ? { phoneDisplay: shown } : {};
}

/** `{phoneDisplay: {digits: written}}` for the numbers that need it, or nothing. Each is keyed by its
 * national digits, what the screens' answers carry; `byCanonical`: by its canonical form, what the
 * activity log's details carry. Callers are passed only when the domain shows them whole. */
export function withPhoneDisplay(canonicals: Iterable<string | null | undefined>, country: string, { byCanonical = false } = {}): { phoneDisplay?: Record<string, string> } {
  const shown: Record<string, string> = {};
  for (const canonical of canonicals) {
    if (!canonical) continue;
    const digits = byCanonical ? canonical : nationalOf(canonical, country);
    const written = displayOf(canonical, country);
    if (written !== inPairs(digits)) shown[digits] = written;
  }
  return Object.keys(shown).length > 0 ? { phoneDisplay: shown } : {};
}
