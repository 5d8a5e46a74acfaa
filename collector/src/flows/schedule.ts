// A schedule step's answer at an instant: open or closed, in the domain's time zone (daylight saving
// included: the local clock is read from the zone's offset at that instant, domains/time-zone.ts).
// A holiday wins over the week; a day without ranges is closed; a range ends before its `to`.
import { WEEK_DAYS } from '@ringtrail/shared';
import { localTime } from '../domains/time-zone.ts';
import type { FlowStep } from './steps.ts';

/** Opening hours: a schedule step's, or the texting hours of a text back (texting/text-back.ts). */
export type OpeningHours = Pick<Extract<FlowStep, { kind: 'schedule' }>, 'week' | 'holidays'>;

export interface ScheduleAnswer {
  open: boolean;
  /** Why, in words for the call's path: `Tuesday 10:15`, `holiday Christmas`. */
  why: string;
}

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function scheduleAt(step: OpeningHours, at: Date, timeZone: string): ScheduleAnswer {
  const { day, time } = localTime(at, timeZone);
  const hhmm = time.slice(0, 5);
  const holiday = step.holidays.find((h) => h.from <= day && day <= (h.to ?? h.from));
  if (holiday) return { open: false, why: `holiday${holiday.name ? ` ${holiday.name}` : ''} (${day})` };
  const [y, m, d] = day.split('-').map(Number);
  const weekday = (new Date(Date.UTC(y!, m! - 1, d!)).getUTCDay() + 6) % 7; // Monday first, as WEEK_DAYS
  const open = step.week[WEEK_DAYS[weekday]!].some((r) => r.from <= hhmm && hhmm < r.to);
  return { open, why: `${DAY_NAMES[weekday]} ${hhmm}` };
}
