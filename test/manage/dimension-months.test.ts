// A report's range splits into the whole months read from monthly counters of the tables and the days
// at its edges: together, every day of the range once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../collector/src/domains/time-zone.ts';
import { daysBetween } from '../../collector/src/reports/day-range.ts';
import { splitByMonth } from '../../collector/src/reports/dimension-months.ts';

const monthDays = (month: string) => daysBetween(`${month}-01`, addDays(`${month}-01`, 31)).filter((d) => d.startsWith(month));

describe('splitByMonth', () => {
  it('covers every day of the range once, with months only where the range holds all their days', () => {
    const day = fc.integer({ min: 0, max: 3 * 365 }).map((n) => addDays('2023-12-01', n));
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 400 }), (from, length) => {
        const to = addDays(from, length);
        const { months, edgeDays } = splitByMonth(from, to);
        const covered = [...months.flatMap(monthDays), ...edgeDays].sort();
        expect(covered).toEqual(daysBetween(from, to));
        for (const month of months) expect(monthDays(month).every((d) => d >= from && d <= to)).toBe(true);
        // An edge day's month is never whole in the range.
        for (const d of edgeDays) expect(months).not.toContain(d.slice(0, 7));
      }),
    );
  });

  it('splits a year into its twelve months, and a mid-month range into days', () => {
    expect(splitByMonth('2025-01-01', '2025-12-31')).toEqual({ months: Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`), edgeDays: [] });
    expect(splitByMonth('2025-01-30', '2025-03-02')).toEqual({ months: ['2025-02'], edgeDays: ['2025-01-30', '2025-01-31', '2025-03-01', '2025-03-02'] });
  });
});
