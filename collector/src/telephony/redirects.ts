// The no-answer redirect: a call nobody answers within the domain's `redirectAfterSeconds` (or that
// finds the line busy) goes on to the domain's `redirectPhone`, when the number's rule allows it at
// the call's local time. An offline number's rule is its `allow_redirect` and `timetable` (offline
// numbers API); an online pool number's is the domain's `redirect` setting, of the same shape.
import { WEEK_DAYS, type RedirectPlan, type TimetableEntry } from '@ringtrail/shared';
import { DEFAULT_REDIRECT_AFTER_SECONDS } from '../domains/settings.ts';
import { localTime } from '../domains/time-zone.ts';
import type { DomainDoc, TrackingNumberDoc } from '../domains/documents.ts';
import type { OfflineAssignmentDoc } from '../offline/documents.ts';

/** What of a route (routing.ts) its redirect depends on: named here, so routing and redirects do
 * not import each other. */
export interface Routed {
  domain: DomainDoc | null;
  destination: string | null;
  number: Pick<TrackingNumberDoc, 'usage'> | null;
  offline: Pick<OfflineAssignmentDoc, 'allowRedirect' | 'timetable'> | null;
}

/** Whether `at`, in the zone's wall-clock time, falls in one of the ranges of its day of the week
 * (from included, to excluded). No range at all (`timetable=0`): always. */
export function inTimetable(timetable: TimetableEntry[], at: Date, timeZone: string): boolean {
  if (timetable.length === 0) return true;
  const { day, time } = localTime(at, timeZone);
  const weekDay = WEEK_DAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7]; // getUTCDay: 0 is Sunday
  const hhmm = time.slice(0, 5);
  return timetable.some((range) => range.day === weekDay && range.from <= hhmm && hhmm < range.to);
}

/** Where the routed call goes if unanswered, or null: no redirect number, nothing to redirect from,
 * or the number's rule is off or out of its hours. */
export function redirectOf(route: Routed, at: Date): RedirectPlan | null {
  const domain = route.domain;
  const to = domain?.redirectPhone;
  if (!domain || !to || !route.destination || to === route.destination) return null;
  const rule = route.offline ? { enabled: route.offline.allowRedirect, timetable: route.offline.timetable } : route.number?.usage === 'online' ? domain.redirect : undefined;
  if (!rule?.enabled || !inTimetable(rule.timetable, at, domain.timeZone)) return null;
  return { destination: to, afterSeconds: domain.redirectAfterSeconds ?? DEFAULT_REDIRECT_AFTER_SECONDS };
}
