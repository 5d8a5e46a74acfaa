// Redirect timetables as people type them: `mon-fri 09:00-12:00;14:00-18:00`, one day (or run of
// days) per line or after a comma. Empty: always.
export interface TimetableEntry {
  day: string;
  from: string;
  to: string;
}

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Entries as text: following days with the same hours as one run (`mon-fri 09:00-18:00`). */
export function timetableText(entries: TimetableEntry[], separator = '\n'): string {
  const hoursOf = (day: string) => entries.filter((e) => e.day === day).map((e) => `${e.from}-${e.to}`).join(';');
  const runs: { first: string; last: string; hours: string }[] = [];
  for (const day of DAYS) {
    const hours = hoursOf(day);
    const run = runs.at(-1);
    if (!hours) continue;
    if (run && run.hours === hours && DAYS.indexOf(run.last) === DAYS.indexOf(day) - 1) run.last = day;
    else runs.push({ first: day, last: day, hours });
  }
  return runs.map((r) => `${r.first === r.last ? r.first : `${r.first}-${r.last}`} ${r.hours}`).join(separator);
}

/** The entries the text names; throws an Error naming the first part that is not a day and ranges. */
export function parseTimetable(text: string): TimetableEntry[] {
  const entries: TimetableEntry[] = [];
  for (const part of text.split(/[\n,]+/).map((p) => p.trim()).filter(Boolean)) {
    const m = /^([a-z]{3})[a-z]*(?:\s*-\s*([a-z]{3})[a-z]*)?\s+(.+)$/i.exec(part);
    const first = DAYS.indexOf(m?.[1]?.toLowerCase() ?? '');
    const last = m?.[2] ? DAYS.indexOf(m[2].toLowerCase()) : first;
    const ranges = m?.[3]?.split(';').map((r) => r.trim().split(/\s*-\s*/)) ?? [];
    if (!m || first < 0 || last < first || ranges.some((r) => r.length !== 2)) throw new Error(`"${part}" is not a day and hours, like mon-fri 09:00-18:00`);
    for (const day of DAYS.slice(first, last + 1)) for (const [from, to] of ranges) entries.push({ day, from: from!, to: to! });
  }
  return entries;
}
