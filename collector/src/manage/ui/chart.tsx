// Calls and visits per day, drawn by uPlot (small, fast, canvas): calls as bars on the left axis,
// visits as a line on the right one.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { day, type Clock } from './format.ts';

export interface DailyPoint {
  day: string;
  calls: number;
  visits: number;
}

const DAY = 86_400;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
/** Counts: whole steps only. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 50_000, 100_000, 1_000_000];
/** A day on the axis as the domain's people write it without the year (`25/11`, `11/25`); whole in the legend. */
const dayLabel = (ts: number, locale: string) => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: '2-digit', day: '2-digit' }).format(new Date(ts * 1000));

/** `previous`: the days of the period before, drawn over these day by day (its first on their first). */
export function CallsChart({ days, previous, clock }: { days: DailyPoint[]; previous?: DailyPoint[] | undefined; clock: Clock }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current!;
    const bars = uPlot.paths.bars!({ size: [0.6, 40] });
    const plot = new uPlot(
      {
        width: el.clientWidth || 800,
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        legend: { live: false },
        cursor: { points: { show: false } },
        scales: {
          // Half a day either side, so the first and last days' bars are whole.
          x: { time: true, range: (_u, min, max) => [min - DAY / 2, max + DAY / 2] },
          calls: { range: (_u, _min, max) => [0, Math.max(1, max)] },
          visits: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          { stroke: '#5b6472', grid: { stroke: '#eef0f3' }, incrs: [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY, 91 * DAY], values: (_u, splits) => splits.map((ts) => dayLabel(ts, clock.locale)) },
          { scale: 'calls', label: 'Calls', stroke: '#5b6472', grid: { stroke: '#eef0f3' }, incrs: COUNT_STEPS },
          { scale: 'visits', label: 'Visits', side: 1, stroke: '#5b6472', grid: { show: false }, incrs: COUNT_STEPS },
        ],
        series: [
          { label: 'Day', value: (_u, ts) => (ts == null ? '' : day(new Date(ts * 1000).toISOString().slice(0, 10), clock)) },
          { label: 'Calls', scale: 'calls', stroke: '#1f6feb', fill: 'rgba(31,111,235,0.75)', paths: bars, points: { show: false } },
          { label: 'Visits', scale: 'visits', stroke: '#f08c00', width: 2, points: { show: false } },
          ...(previous ? [{ label: 'Calls, period before', scale: 'calls', stroke: '#6e7781', width: 2, dash: [6, 4], points: { show: false } }] : []),
        ],
      },
      [days.map((d) => dayStart(d.day)), days.map((d) => d.calls), days.map((d) => d.visits), ...(previous ? [days.map((_, i) => previous[i]?.calls ?? null)] : [])],
      el,
    );
    const resize = () => plot.setSize({ width: el.clientWidth, height: 260 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [days, previous, clock.locale]);
  return <div class="chart" ref={box} data-testid="calls-chart" />;
}
