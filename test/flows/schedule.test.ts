// A schedule step open or closed at an instant, in the domain's time zone: the week's ranges,
// holidays over the week, and the Sundays the clocks change (Paris, New York).
import { describe, expect, it } from 'vitest';
import { scheduleAt } from '../../collector/src/flows/schedule.ts';
import { flowBodyIn } from '../../collector/src/flows/steps.ts';

const week = { mon: [{ from: '09:00', to: '12:30' }, { from: '14:00', to: '18:00' }], sat: [{ from: '10:00', to: '24:00' }], sun: [{ from: '01:00', to: '04:00' }] };
const step = flowBodyIn('FR').parse({
  name: 'Hours',
  start: 'h',
  steps: { h: { kind: 'schedule', week, holidays: [{ from: '2026-12-25', name: 'Christmas' }, { from: '2026-08-03', to: '2026-08-14' }], open: 'x', closed: 'y' }, x: { kind: 'hangup' }, y: { kind: 'hangup' } },
}).steps.h as Parameters<typeof scheduleAt>[0];

const at = (iso: string) => new Date(iso);

describe('a schedule step', () => {
  it('is open within a weekday range and closed outside it, in the domain time zone', () => {
    // Monday 2026-11-30: Paris is UTC+1.
    expect(scheduleAt(step, at('2026-11-30T08:00:00Z'), 'Europe/Paris')).toEqual({ open: true, why: 'Monday 09:00' });
    expect(scheduleAt(step, at('2026-11-30T07:59:00Z'), 'Europe/Paris')).toEqual({ open: false, why: 'Monday 08:59' });
    expect(scheduleAt(step, at('2026-11-30T11:30:00Z'), 'Europe/Paris').open).toBe(false); // 12:30: the range has ended
    expect(scheduleAt(step, at('2026-11-30T16:59:00Z'), 'Europe/Paris').open).toBe(true);
    // Tuesday has no range: closed all day. Saturday's range runs to midnight.
    expect(scheduleAt(step, at('2026-12-01T10:00:00Z'), 'Europe/Paris').open).toBe(false);
    expect(scheduleAt(step, at('2026-12-05T22:59:00Z'), 'Europe/Paris')).toEqual({ open: true, why: 'Saturday 23:59' });
    // The same instant is Monday 09:00 in Paris and Monday 03:00 in New York.
    expect(scheduleAt(step, at('2026-11-30T08:00:00Z'), 'America/New_York')).toEqual({ open: false, why: 'Monday 03:00' });
  });

  it('is closed on a holiday whatever the week says, and on each day of a named closure', () => {
    // Monday 3 and 10 August would be open at 10:00, but they are within the closure.
    expect(scheduleAt(step, at('2026-08-03T08:00:00Z'), 'Europe/Paris')).toEqual({ open: false, why: 'holiday (2026-08-03)' });
    expect(scheduleAt(step, at('2026-08-10T08:00:00Z'), 'Europe/Paris').open).toBe(false);
    expect(scheduleAt(step, at('2026-08-17T08:00:00Z'), 'Europe/Paris').open).toBe(true); // the Monday after
    expect(scheduleAt(step, at('2026-12-25T10:00:00Z'), 'Europe/Paris').why).toBe('holiday Christmas (2026-12-25)');
    // The holiday is the domain's local day: 23:30 UTC on the 24th is already the 25th in Paris.
    expect(scheduleAt(step, at('2026-12-24T23:30:00Z'), 'Europe/Paris').why).toBe('holiday Christmas (2026-12-25)');
  });

  it("reads the local clock on the Sundays the clocks change, in Paris and New York", () => {
    // Paris, 29 March 2026: 02:00 becomes 03:00 (UTC+1 to UTC+2). The range is 01:00 to 04:00 local.
    expect(scheduleAt(step, at('2026-03-29T00:30:00Z'), 'Europe/Paris')).toEqual({ open: true, why: 'Sunday 01:30' });
    expect(scheduleAt(step, at('2026-03-29T01:30:00Z'), 'Europe/Paris')).toEqual({ open: true, why: 'Sunday 03:30' });
    expect(scheduleAt(step, at('2026-03-29T02:00:00Z'), 'Europe/Paris')).toEqual({ open: false, why: 'Sunday 04:00' });
    // Paris, 25 October 2026: 03:00 becomes 02:00 again (UTC+2 to UTC+1): 01:30 UTC is 02:30 local, still open.
    expect(scheduleAt(step, at('2026-10-25T01:30:00Z'), 'Europe/Paris')).toEqual({ open: true, why: 'Sunday 02:30' });
    expect(scheduleAt(step, at('2026-10-25T03:00:00Z'), 'Europe/Paris')).toEqual({ open: false, why: 'Sunday 04:00' });
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT.
    expect(scheduleAt(step, at('2026-03-08T06:59:00Z'), 'America/New_York')).toEqual({ open: true, why: 'Sunday 01:59' });
    expect(scheduleAt(step, at('2026-03-08T07:00:00Z'), 'America/New_York')).toEqual({ open: true, why: 'Sunday 03:00' });
    expect(scheduleAt(step, at('2026-03-08T08:00:00Z'), 'America/New_York')).toEqual({ open: false, why: 'Sunday 04:00' });
  });
});
