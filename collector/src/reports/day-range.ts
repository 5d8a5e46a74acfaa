// The range of local days a report covers: `from` and `to` (YYYY-MM-DD, both included), by
// default the last 30 days of the domain's time zone.
import { ManageFailure } from '../http/manage-envelope.ts';
import { addDays, dayCount, isCalendarDay, localTime, MAX_RANGE_DAYS, nextDay } from '../domains/time-zone.ts';

const DEFAULT_DAYS = 30;

export interface DayRange {
  from: string;
  to: string;
}

export function reportRange(query: Record<string, unknown>, timeZone: string, now = new Date()): DayRange {
  const to = dayParam(query.to, 'to') ?? localTime(now, timeZone).day;
  const from = dayParam(query.from, 'from') ?? addDays(to, 1 - DEFAULT_DAYS);
  if (from > to) throw new ManageFailure(400, 'from must not be after to');
  if (dayCount(from, to) > MAX_RANGE_DAYS) throw new ManageFailure(400, `A report covers at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}

/** The days just before the range, as many as it has: what "this period against the last" compares. */
export function previousRange({ from, to }: DayRange): DayRange {
  const days = dayCount(from, to);
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

function dayParam(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !isCalendarDay(value)) throw new ManageFailure(400, `${name} must be a date YYYY-MM-DD`);
  return value;
}

/** Every day from `from` to `to`, both included (stops after MAX_RANGE_DAYS + 1). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length <= MAX_RANGE_DAYS; day = nextDay(day)) days.push(day);
  return days;
}
