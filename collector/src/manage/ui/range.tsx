// The range of days a report covers: presets and two date fields, kept in the route's query.
import { navigate, type Route } from './route.ts';

const PRESETS: [string, number][] = [
  ['7 days', 7],
  ['30 days', 30],
  ['90 days', 90],
  ['1 year', 365],
];

function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
}

function RangePicker({ route }: { route: Route }) {
  const set = (query: Record<string, string>) => navigate({ ...route, query: { ...route.query, page: '', ...query } });
  return (
    <div class="range">
      {PRESETS.map(([label, days]) => (
        <button type="button" class={route.query.from === daysAgo(days - 1) && !route.query.to ? 'active' : ''} onClick={() => set({ from: daysAgo(days - 1), to: '' })}>
          {label}
        </button>
      ))}
      <input type="date" aria-label="From" value={route.query.from ?? ''} onChange={(e) => set({ from: (e.target as HTMLInputElement).value })} />
      <span>to</span>
      <input type="date" aria-label="To" value={route.query.to ?? ''} onChange={(e) => set({ to: (e.target as HTMLInputElement).value })} />
    </div>
  );
}

/** The range of the route as the API's query (the API fills in what is left out). */
export const rangeQuery = (route: Route) => ({ from: route.query.from, to: route.query.to });

/** A report's title, with the range it covers beside it. */
export function ReportHeading({ title, route }: { title: string; route: Route }) {
  return (
    <div class="heading">
      <h1>{title}</h1>
      <RangePicker route={route} />
    </div>
  );
}
