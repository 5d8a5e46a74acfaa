// Wire formats of the offline numbers service (spec document 1): /offline-numbers-api and /list.
import { z } from 'zod';
import { isOfflineNumberType } from '../number-types.ts';
import { phoneDigits, wireInt, wireText } from './wire.ts';

export const OFFLINE_ACTIONS = ['assign', 'unassign', 'reassign', 'check', 'redirect_setup'] as const;
export type OfflineAction = (typeof OFFLINE_ACTIONS)[number];

export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export interface TimetableEntry {
  day: WeekDay;
  from: string;
  to: string;
}

export const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** A day given as `mon` or `monday`, any case. */
function weekDayOf(name: string): WeekDay | null {
  const day = name.trim().toLowerCase().slice(0, 3);
  return (WEEK_DAYS as readonly string[]).includes(day) && /^[a-z]+$/i.test(name.trim()) ? (day as WeekDay) : null;
}

/** Entries sorted by day of the week, then start. */
export function sortTimetable(entries: TimetableEntry[]): TimetableEntry[] {
  return entries.sort((a, b) => WEEK_DAYS.indexOf(a.day) - WEEK_DAYS.indexOf(b.day) || a.from.localeCompare(b.from));
}

/** `0` unsets; else `timetable[<day>]=09:00-12:00;14:00-18:00`, each range from < to. */
const timetable = z.union([z.literal('0'), z.record(z.string(), wireText)], { error: 'must be 0 or ranges per day' }).transform((value, ctx): TimetableEntry[] => {
  if (value === '0') return [];
  const entries: TimetableEntry[] = [];
  for (const [name, ranges] of Object.entries(value)) {
    const day = weekDayOf(name);
    if (!day) {
      ctx.addIssue({ code: 'custom', message: `"${name}" is not a day name` });
      continue;
    }
    for (const range of ranges.split(';').map((r) => r.trim()).filter(Boolean)) {
      const [from = '', to = '', ...rest] = range.split('-').map((t) => t.trim());
      if (rest.length > 0 || !HH_MM.test(from) || !HH_MM.test(to) || from >= to) {
        ctx.addIssue({ code: 'custom', message: `"${range}" of ${name} is not a range HH:MM-HH:MM` });
      } else {
        entries.push({ day, from, to });
      }
    }
  }
  return sortTimetable(entries);
});

export const offlineRequest = z.object({
  action: z.enum(OFFLINE_ACTIONS, { error: `must be one of ${OFFLINE_ACTIONS.join(', ')}` }),
  phone_number: phoneDigits.optional(),
  tracking_number: phoneDigits.optional(),
  description: wireText.max(255, 'must be at most 255 characters').optional(),
  type: wireInt.refine(isOfflineNumberType, 'must be a type of the offline reference (1 to 34) or one of ours (100 to 102)').optional(),
  cost_group: wireText.min(1).optional(),
  allow_redirect: z.enum(['0', '1'], { error: 'must be 0 or 1' }).optional(),
  timetable: timetable.optional(),
  /** Its meaning is not shown by the spec: kept as sent, unused. */
  operator: wireText.optional(),
});
export type OfflineRequest = z.infer<typeof offlineRequest>;

/** What each action needs; `one of` lists take either identifier. */
export const OFFLINE_REQUIRED: Record<OfflineAction, { all: (keyof OfflineRequest)[]; oneOf?: (keyof OfflineRequest)[] }> = {
  assign: { all: ['phone_number', 'description', 'type'] },
  unassign: { all: [], oneOf: ['tracking_number', 'phone_number'] },
  reassign: { all: ['phone_number', 'tracking_number'] },
  check: { all: [], oneOf: ['tracking_number', 'phone_number'] },
  redirect_setup: { all: ['allow_redirect'], oneOf: ['tracking_number', 'phone_number'] },
};

export const offlineListRequest = z.object({
  details: z.enum(['0', '1'], { error: 'must be 0 or 1' }).default('0'),
});

/** The current state of one number, as every write action and `check` answer it. */
export interface OfflineNumberState {
  status: 'success';
  phone_number: string | null;
  tracking_number: string;
  description: string | null;
  type: number;
  allow_redirect: '0' | '1';
  timetable: 0 | TimetableEntry[];
}

export interface OfflineNumberDetails {
  tracking_phone: string;
  destination_phone: string | null;
  description: string | null;
  product_name: string;
  last_update: string | null;
}

export interface OfflineError {
  status: 'error';
  error: string;
}
