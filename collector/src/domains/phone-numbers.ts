// Phone numbers of any country (ours), on the server only: libphonenumber-js, the maintained port of
// Google's libphonenumber, with its full metadata (the smaller sets cannot tell a number's type).
// A domain's `country` (ISO 3166-1 alpha-2) says how a number written without its country code is read.
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type NumberType, type PhoneNumber } from 'libphonenumber-js/max';
import { COUNTRY_NUMBER_TYPES } from '@ringtrail/shared';

/** The country of a domain whose settings name none: the spec's numbers are French. */
export const DEFAULT_COUNTRY = 'FR';

export const isCountry = (code: string): code is CountryCode => isSupportedCountry(code);

/** The types of libphonenumber that each of our country types takes: a country that does not tell
 * fixed lines from mobiles (the US, Canada) gives FIXED_LINE_OR_MOBILE, which both take. */
const ACCEPTED: Record<number, NumberType[]> = {
  100: ['FIXED_LINE', 'FIXED_LINE_OR_MOBILE'],
  101: ['TOLL_FREE'],
  102: ['MOBILE', 'FIXED_LINE_OR_MOBILE'],
};

/** The number as written on a page or in a form, read in the domain's country; undefined when it is none. */
export function parseIn(raw: string, country: string): PhoneNumber | undefined {
  const parsed = parsePhoneNumberFromString(raw, isCountry(country) ? country : DEFAULT_COUNTRY);
  return parsed?.isValid() ? parsed : undefined;
}

/** Why a number cannot join a pool of one of our country types (100 to 102), or null when it can. */
export function countryTypeRefusal(raw: string, type: number, country: string): string | null {
  const kind = COUNTRY_NUMBER_TYPES[type];
  if (!kind) return null;
  const parsed = parseIn(raw, country);
  if (!parsed) return `${raw} is not a valid phone number in ${country}`;
  if (parsed.country !== country) return `${raw} is a number of ${parsed.country ?? `+${parsed.countryCallingCode}`}, not of ${country}, the domain's country`;
  if (!ACCEPTED[type]!.includes(parsed.getType()!)) return `${raw} is not a ${kind} number of ${country} (type ${type})`;
  return null;
}
