// Redirect hours as an owner types them in the back end, and as it shows them again.
import { describe, expect, it } from 'vitest';
import { parseTimetable, timetableText } from '../../collector/src/manage/ui/timetable.ts';

describe('timetable text', () => {
  it('reads runs of days and several ranges a day, and writes following days with the same hours as one run', () => {
    const entries = parseTimetable('Mon-Fri 08:00-12:00;14:00-18:00, sat 10:00-12:00');
    expect(entries).toHaveLength(11);
    expect(entries[0]).toEqual({ day: 'mon', from: '08:00', to: '12:00' });
    expect(timetableText(entries, ', ')).toBe('mon-fri 08:00-12:00;14:00-18:00, sat 10:00-12:00');
    expect(timetableText(parseTimetable('monday 09:00-10:00\nwednesday 09:00-10:00'))).toBe('mon 09:00-10:00\nwed 09:00-10:00');
    expect(parseTimetable('  ')).toEqual([]);
  });

  it('names the part that is not a day and hours', () => {
    expect(() => parseTimetable('mon 09:00-12:00, weekend 10:00-12:00')).toThrow('"weekend 10:00-12:00" is not a day and hours, like mon-fri 09:00-18:00');
    expect(() => parseTimetable('fri-mon 09:00-12:00')).toThrow('is not a day and hours');
    expect(() => parseTimetable('mon 09:00')).toThrow('is not a day and hours');
  });
});
