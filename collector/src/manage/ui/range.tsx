// The range of days a report covers: presets and two date fields, kept in the route's query.
import { navigate, type Route } from './route.ts';

const PRESETS: [string, number][] = [
  ['7 days', 7],
  ['30 days', 30],
  ['90 days', 90],
  ['1 year', 365],
];

/** The day `n` days before today, on the browser's calendar. */
function daysAgo(n: number): string {
  const d = new Date(Date.now() - n * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Without a range in the route, the reports cover the last 30 days (the API's default too). */
const DEFAULT_DAYS = 30;

function RangePicker({ route }: { route: Route }) {
  const set = (query: Record<string, string>) => navigate({ ...route, query: { ...route.query, page: '', ...query } });
  const from = route.query.from || daysAgo(DEFAULT_DAYS - 1);
  const to = route.query.to || daysAgo(0);
  return (
    <div class="range">
      {PRESETS.map(([label, days]) => (
        <button type="button" class={from === daysAgo(days - 1) && to === daysAgo(0) ? 'active' : ''} onClick={() => set({ from: daysAgo(days - 1), to: '' })}>
          {label}
        </button>
      ))}
      <input type="date" aria-label="From" value={from} onChange={(e) => set({ from: (e.target as HTMLInputElement).value })} />
      <span>to</span>
      <input type="date" aria-label="To" value={to} onChange={(e) => set({ to: (e.target as HTMLInputElement).value })} />
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
