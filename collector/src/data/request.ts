// The data API's parameters, checked all at once so one answer lists every problem.
import { CALL_STATUSES, type CallStatus } from '@ringtrail/shared';
import { canonicalIn, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { dayCount, isCalendarDay, MAX_RANGE_DAYS } from '../domains/time-zone.ts';
import { DataFailure } from '../http/data-envelope.ts';

export const LIMIT_MIN = 10;
export const LIMIT_MAX = 5000;
const REQUIRED = ['type', 'start_date', 'end_date', 'page', 'limit'] as const;

export interface DataRequest {
  /** `forms` is ours: the domain's form submissions (forms/). */
  type: 'calls' | 'sms' | 'forms';
  startDay: string;
  endDay: string;
  page: number;
  limit: number;
  groupByDay: boolean;
  phone?: string;
  trackingPhone?: string;
  callerPhone?: string;
  statuses?: CallStatus[];
  offlineDescription?: string;
  /** Ours (issue 68): `outbound`, the calls members placed from the back end (which no other listing counts). */
  direction?: 'outbound';
}

/** `country`: the domain's, which reads its phone filters written without their country code. */
export function parseDataRequest(raw: Record<string, unknown>, country = DEFAULT_COUNTRY): DataRequest {
  const errors: string[] = [];
  const text = (name: string): string | undefined => {
    const v = raw[name];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v;
    errors.push(`Invalid parameter ${name}`);
    return undefined;
  };
  for (const name of REQUIRED) if (raw[name] === undefined || raw[name] === '') errors.push(`Missing parameter ${name}`);

  const type = text('type');
  if (type && type !== 'calls' && type !== 'sms' && type !== 'forms') errors.push('Invalid parameter type');
  const day = (name: string) => {
    const v = text(name);
    if (v && !isCalendarDay(v)) errors.push(`Invalid date ${v}`);
    return v;
  };
  const startDay = day('start_date');
  const endDay = day('end_date');
  if (startDay && endDay && isCalendarDay(startDay) && isCalendarDay(endDay)) {
    if (startDay > endDay) errors.push('Invalid parameter end_date: before start_date');
    // Ours: a request's work is bounded by its range (every day of it is a row of group_by_day).
    else if (dayCount(startDay, endDay) > MAX_RANGE_DAYS) errors.push(`Invalid parameter end_date: a request covers at most ${MAX_RANGE_DAYS} days`);
  }
  const pageText = text('page');
  if (pageText && !/^[1-9]\d{0,8}$/.test(pageText)) errors.push('Invalid parameter page');
  const limitText = text('limit');
  const limit = Number(limitText);
  if (limitText && !(/^\d+$/.test(limitText) && limit >= LIMIT_MIN && limit <= LIMIT_MAX)) errors.push(`Limit must be between ${LIMIT_MIN} and ${LIMIT_MAX}`);
  const groupText = text('group_by_day');
  if (groupText !== undefined && groupText !== 'true' && groupText !== 'false') errors.push('Invalid parameter group_by_day');

  const phoneFilter = (name: string) => {
    const v = text(name);
    if (v === undefined || v === '') return undefined;
    const digits = canonicalIn(v, country, { anyPossible: true }); // a filter matching nothing harms no one
    if (!digits) errors.push(`Invalid parameter ${name}`);
    return digits ?? undefined;
  };
  const phone = phoneFilter('phone');
  const trackingPhone = phoneFilter('tracking_phone');
  const callerPhone = phoneFilter('caller_phone');
  const statusText = text('status');
  const statuses = statusText ? statusText.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  if (statuses?.some((s) => !(CALL_STATUSES as readonly string[]).includes(s))) errors.push('Invalid parameter status');
  const offlineDescription = text('offline_phone_description') || undefined;
  const direction = text('direction') || undefined;
  if (direction !== undefined && (direction !== 'outbound' || type !== 'calls')) errors.push('Invalid parameter direction');
  if (type === 'sms') {
    // An SMS has no destination, status, offline source or daily rows.
    for (const name of ['phone', 'status', 'offline_phone_description', 'group_by_day'] as const) {
      if (raw[name] !== undefined && !(name === 'group_by_day' && raw[name] === 'false')) errors.push(`Invalid parameter ${name}: not for type=sms`);
    }
  }
  if (type === 'forms') {
    // A form has no numbers, status, offline source or daily rows: a range and pages only.
    for (const name of ['phone', 'tracking_phone', 'caller_phone', 'status', 'offline_phone_description', 'group_by_day'] as const) {
      if (raw[name] !== undefined && !(name === 'group_by_day' && raw[name] === 'false')) errors.push(`Invalid parameter ${name}: not for type=forms`);
    }
  }
  if (errors.length > 0) throw new DataFailure([...new Set(errors)]);
  return {
    type: type as DataRequest['type'],
    startDay: startDay!,
    endDay: endDay!,
    page: Number(pageText),
    limit,
    groupByDay: groupText === 'true',
    ...(phone ? { phone } : {}),
    ...(trackingPhone ? { trackingPhone } : {}),
    ...(callerPhone ? { callerPhone } : {}),
    ...(statuses?.length ? { statuses: statuses as CallStatus[] } : {}),
    ...(offlineDescription ? { offlineDescription } : {}),
    ...(direction ? { direction: 'outbound' as const } : {}),
  };
}
