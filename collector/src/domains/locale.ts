// Where a person is, from what their browser knows: the country of an IANA time zone
// (countries-and-timezones, the IANA zone table's countries) and that country's currency
// (country-to-currency, ISO 4217). A new domain's set-up proposes them; the owner can change both.
import timezones from 'countries-and-timezones';
import currencies from 'country-to-currency';
import { DEFAULT_COUNTRY } from './phone-numbers.ts';

/** The currency of a country (ISO 3166-1 alpha-2), EUR when none is known. */
export function currencyOf(country: string): string {
  return (currencies as Record<string, string>)[country.toUpperCase()] ?? 'EUR';
}

/** The country a time zone is of (its first, for a zone several share), and its currency; the
 * default country for a zone of none (UTC) or unknown. */
export function localeOfTimeZone(timeZone: string): { country: string; currency: string } {
  const country = timezones.getTimezone(timeZone)?.countries[0] ?? DEFAULT_COUNTRY;
  return { country, currency: currencyOf(country) };
}
