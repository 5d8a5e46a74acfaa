// Local days of a domain's time zone: the data API's date ranges, daily rows and displayed times.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface LocalTime {
  day: string; // YYYY-MM-DD
  time: string; // HH:MM:SS
}

/** `00` to `59`, for the clock's fields. */
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const DAY_MS = 86_400_000;
/** Each day's `YYYY-MM-DD` by its number since 1970 (a page of 5,000 records spans a few days:
 * formatting each record's date anew was a third of a data API page's rendering). */
const dayNames = new Map<number, string>();

export function localTime(date: Date, timeZone: string): LocalTime {
  const wall = date.getTime() + offsetAt(date.getTime(), timeZone);
  const dayNumber = Math.floor(wall / DAY_MS);
  let day = dayNames.get(dayNumber);
  if (day === undefined) {
    day = new Date(dayNumber * DAY_MS).toISOString().slice(0, -14);
    if (dayNames.size >= 100_000) dayNames.clear();
    dayNames.set(dayNumber, day);
  }
  const seconds = Math.floor((wall - dayNumber * DAY_MS) / 1000);
  return { day, time: `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}` };
}

const HOUR_MS = 3_600_000;
/** Each zone's offset through each UTC hour, or null when it changes within that hour. */
const hourOffsets = new Map<string, Map<number, number | null>>();
let cachedHours = 0;

/** The zone's offset from UTC at `t` (ms). Intl is slow, so it is asked once per zone and UTC hour
 * (at both ends of the hour: an offset change inside the hour falls back to asking for `t` itself).
 * Keyed by the hour's number, no string: a page of 5,000 records asks 5,000 times. */
function offsetAt(t: number, timeZone: string): number {
  const hour = Math.floor(t / HOUR_MS) * HOUR_MS;
  let zone = hourOffsets.get(timeZone);
  if (!zone) hourOffsets.set(timeZone, (zone = new Map()));
  let offset = zone.get(hour);
  if (offset === undefined) {
    const start = intlOffset(hour, timeZone);
    offset = start === intlOffset(hour + HOUR_MS - 1, timeZone) ? start : null;
    if (cachedHours >= 100_000) {
      hourOffsets.clear();
      cachedHours = 0;
      hourOffsets.set(timeZone, (zone = new Map()));
    }
    cachedHours++;
    zone.set(hour, offset);
  }
  return offset ?? intlOffset(t, timeZone);
}

/** The wall clock Intl shows for `t`, read as UTC, minus `t`: the offset, to the second. */
function intlOffset(t: number, timeZone: string): number {
  const p = Object.fromEntries(formatter(timeZone).formatToParts(new Date(t)).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(t / 1000) * 1000;
}

/** The UTC instant a local day begins (DST-safe: the offset is read at that instant). */
export function startOfLocalDay(day: string, timeZone: string): Date {
  return localInstant(day, '00:00:00', timeZone);
}

/** The UTC instant of a wall-clock time `HH:MM:SS` on a local day. */
export function localInstant(day: string, time: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [hh, mm, ss] = time.split(':').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm, ss);
  const offsetAt = (t: number) => {
    const local = localTime(new Date(t), timeZone);
    const [ly, lm, ld] = local.day.split('-').map(Number) as [number, number, number];
    const [h, mi, s] = local.time.split(':').map(Number) as [number, number, number];
    return Date.UTC(ly, lm - 1, ld, h, mi, s) - t;
  };
  const guess = wall - offsetAt(wall);
  return new Date(wall - offsetAt(guess));
}

/** `2026-01-31` plus 1 -> `2026-02-01`; `n` may be negative. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export const nextDay = (day: string) => addDays(day, 1);

/** The longest range of days one request covers (a report, a data API request): its work is bounded by it. */
export const MAX_RANGE_DAYS = 400;

/** Days from `from` to `to`, both included (0 when `to` is before `from`): counted, never walked,
 * so a range of any length costs the same. */
export function dayCount(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1);
}

/** The instants of local days `from`..`to`, both included: a query's `{$gte, $lt}`. */
export function localDaysBetween(from: string, to: string, timeZone: string): { $gte: Date; $lt: Date } {
  return { $gte: startOfLocalDay(from, timeZone), $lt: startOfLocalDay(nextDay(to), timeZone) };
}

export { isCalendarDay } from '@ringtrail/shared';
