// Each domain's clock (its time zone and its country's locale), known once the domains are loaded:
// every screen of a domain writes its dates with it (format.ts `when`, `day`).
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { BROWSER_CLOCK, localeOf, type Clock } from './format.ts';

export const ClocksContext = createContext<Map<string, Clock>>(new Map());

export function clocksOf(domains: { name: string; country: string; timeZone: string }[]): Map<string, Clock> {
  return new Map(domains.map((d) => [d.name, { timeZone: d.timeZone, locale: localeOf(d.country) }]));
}

/** The clock of a domain; the browser's for none. */
export function useClock(domain: string | null): Clock {
  return useContext(ClocksContext).get(domain ?? '') ?? BROWSER_CLOCK;
}
