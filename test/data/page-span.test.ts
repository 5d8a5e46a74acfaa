// Where a page of the data API falls among the days of its range, from the days' counts alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageSpan } from '../../collector/src/data/service.ts';

describe('pageSpan', () => {
  it('covers exactly the records of the page: the first is the skip-th of the first day, none past the last day', () => {
    const days = fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 12 }).map((counts) => counts.map((calls, i) => ({ date: `2026-01-${String(i + 1).padStart(2, '0')}`, calls, duration: 0, revenue: 0 })));
    fc.assert(
      fc.property(days, fc.nat({ max: 80 }), fc.integer({ min: 1, max: 20 }), (rows, offset, limit) => {
        // Every record, named by its day, in order.
        const records = rows.flatMap((d) => Array.from({ length: d.calls }, () => d.date));
        const page = records.slice(offset, offset + limit);
        const span = pageSpan(rows, offset, limit);
        if (page.length === 0) {
          expect(span).toBeNull();
          return;
        }
        expect(span).not.toBeNull();
        const fromFirstDay = records.filter((day) => day >= span!.firstDay && day <= span!.lastDay);
        expect(fromFirstDay.slice(span!.skip, span!.skip + limit)).toEqual(page);
        expect(span!.firstDay).toBe(page[0]);
        // The span reads no day after the one the page ends on, unless the page runs to the range's end.
        if (page.length === limit) expect(span!.lastDay).toBe(page.at(-1));
      }),
      { numRuns: 500 },
    );
  });
});
