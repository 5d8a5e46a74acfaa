// A log's filter: a select bound to one query parameter of the route ('' when none is chosen).
import type { Route } from './route.ts';

/** `choices`: the value, its words, and optionally what it means (the option's title). */
export function QuerySelect({ label, name, route, set, choices }: { label: string; name: string; route: Route; set: (query: Record<string, string>) => void; choices: [value: string, words: string, title?: string][] }) {
  return (
    <select aria-label={label} value={route.query[name] ?? ''} onChange={(e) => set({ [name]: (e.target as HTMLSelectElement).value })}>
      {choices.map(([value, words, title]) => (
        <option value={value} title={title}>
          {words}
        </option>
      ))}
    </select>
  );
}

/** The source classes a log filters by. */
export const SOURCES = ['paid', 'organic', 'social', 'referral', 'direct', 'offline', 'unattributed'];

export const sourceChoices = (sources: string[]): [string, string][] => [['', 'Every source'], ...sources.map((s): [string, string] => [s, s])];
export const LEAD_CHOICES: [string, string][] = [['', 'Leads or not'], ['true', 'Leads'], ['false', 'Not leads']];
/** How a call ended (issue 80), each way nobody answered apart. */
export const ENDED_CHOICES: [string, string, string?][] = [
  ['', 'Answered or not'],
  ['answered', 'Answered', 'By a person or a forward target'],
  ['missed', 'Missed', 'A phone rang (or was busy) and nobody answered'],
  ['abandoned', 'Abandoned', 'The caller hung up in a call flow before any phone rang: a menu, a message, a greeting'],
  ['voicemail', 'Voicemail', 'Nobody answered; the caller left a message'],
];
