// Days for the reports and the data API that hold "now" in any domain time zone, and still do when
// the test crosses midnight: a report of today alone fails between 23:00 and 00:00 UTC for a Paris domain.
const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** From yesterday to tomorrow (UTC days, YYYY-MM-DD). */
export function daysAroundNow(): { from: string; to: string } {
  return { from: utcDay(-1), to: utcDay(1) };
}
