// The forms tracker.js finds a site phone in, and the tracking number answered in the same form,
// so that the tracker writes it in the page's layout with no country rules of its own (it stays
// within its size budget). tracker.js reads page text as the spec reads numbers (`+` is 00, +33 is
// 0): a domain's own number is found with its country code, in its national form, and, in the
// countries of +1, with the leading 1 that their people write. A French domain's numbers have one
// form, as before.
import { getCountryCallingCode, parsePhoneNumberWithError, type PhoneNumber } from 'libphonenumber-js/max';
import { formatDotted } from '@ringtrail/shared';
import { answeredNumber, writesAsSpec } from '../domains/phone-display.ts';
import { DEFAULT_COUNTRY, e164Of, isCountry, nationalOf } from '../domains/phone-numbers.ts';

/** The digit strings tracker.js makes of a (canonical) number written the ways its country writes it. */
export function trackerForms(canonical: string, country: string): string[] {
  if (country === DEFAULT_COUNTRY || !isCountry(country)) return [canonical];
  const national = nationalOf(canonical, country);
  const withOne = getCountryCallingCode(country) === '1' && national !== canonical ? [`1${national}`] : [];
  return [...new Set([canonical, national, ...withOne])];
}

/** The tracking number in the form the tracker sent the site phone in (`sent`, one of the site
 * phone's forms), so that the tracker puts its digits in the page's layout: a French domain's dotted,
 * as the spec answers; another country's as its people write that form (`+1 415-555-0105`,
 * `(415) 555-0105`, `1-415-555-0105`); the domain's national form when the two have no form in common. */
export function answeredInFormOf(sent: string, sitePhone: string, tracking: string, country: string): string {
  const form = trackerForms(sitePhone, country).indexOf(sent);
  if (writesAsSpec(country)) return formatDotted(trackerForms(tracking, country)[form] ?? nationalOf(tracking, country));
  const number = parsed(tracking);
  if (number && form === 0) return number.formatInternational();
  // The form with the trunk 1 of the countries of +1.
  if (number && form === 2) return `1-${groupsWritten(number).join('-')}`;
  return answeredNumber(tracking, country);
}

/** A canonical number as libphonenumber reads it; null when it does not know it. */
function parsed(canonical: string): PhoneNumber | null {
  try {
    return parsePhoneNumberWithError(e164Of(canonical));
  } catch {
    return null;
  }
}

/** The groups of digits a number is written in at home (`020 7946 0000`: 3, 4, 4). */
const groupsWritten = (number: PhoneNumber) => number.formatNational().split(/\D+/).filter(Boolean);
const groupsOf = (number: PhoneNumber) => groupsWritten(number).map((g) => g.length).join();

/**
 * The tracking number written whole, as its own country writes it, when its groups of digits are not
 * the site phone's (Manchester's `0161 496 0006` for London's `020 7946 0000`: tracker.js would
 * force it into the site's `016 1496 0006`); null when the page's layout fits it. National when the
 * page wrote the site phone nationally (`sent` with no country code), international otherwise.
 */
export function writtenWhenGroupsDiffer(sent: string, sitePhone: string, tracking: string): string | null {
  const number = parsed(tracking);
  const site = parsed(sitePhone);
  if (!number || !site || groupsOf(number) === groupsOf(site)) return null;
  return sent.startsWith('00') || !sent.startsWith('0') ? number.formatInternational() : number.formatNational();
}
