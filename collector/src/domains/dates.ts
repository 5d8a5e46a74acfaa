// How people read dates, on the back end's screens and in mails alike: a time zone and a locale,
// through the platform's Intl (docs/dates.md lists every surface's form).

/** Where and how dates are written: a time zone and a locale. */
export interface Clock {
  timeZone: string;
  locale: string;
}

/** A domain's people write dates as its country does: `en-US`, `en-GB`, `fr-FR`. */
export const localeOf = (country: string) => (country === 'FR' ? 'fr-FR' : `en-${country}`);

/**
 * The one way the back end writes a moment, through Intl: `11/25/2026, 2:46 PM` (US),
 * `25/11/2026, 14:46` (UK), `25/11/2026 14:46` (FR). `value` is an ISO instant, or a wall-clock
 * time `YYYY-MM-DD HH:MM:SS` already in the clock's zone (the calls log's).
 */
export function when(value: string, clock: Clock): string {
  const wallClock = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(value);
  const at = new Date(wallClock ? `${value.replace(' ', 'T')}Z` : value);
  return new Intl.DateTimeFormat(clock.locale, { timeZone: wallClock ? 'UTC' : clock.timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: 'numeric', minute: '2-digit' }).format(at);
}

/** A local day `YYYY-MM-DD` as the clock's people write it: `11/25/2026`, `25/11/2026`. */
export function day(value: string, clock: Clock): string {
  return new Intl.DateTimeFormat(clock.locale, { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(`${value}T00:00:00Z`));
}

/** An instant to the minute in UTC, as the operator's console and messages write it: `2026-11-28 01:05 UTC`. */
export function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
