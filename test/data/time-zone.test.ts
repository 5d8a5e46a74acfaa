// Local times of a domain's time zone, read from Intl once per hour: the same as Intl read each time,
// around every kind of offset change.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localTime } from '../../collector/src/domains/time-zone.ts';

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Pacific/Apia'];

function intlReading(t: number, timeZone: string): { day: string; time: string } {
  const f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((part) => [part.type, part.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
}

describe('localTime', () => {
  it('reads the same wall clock as Intl, at any instant of 2000-2040, in zones with half-hour, 45-minute and half-hour DST offsets', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.constantFrom(...ZONES), (t, zone) => {
        expect(localTime(new Date(t), zone)).toEqual(intlReading(t, zone));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads every second around the 2026 offset changes of Paris and Lord Howe as Intl does', () => {
    // Paris: 29 March 01:00 UTC and 25 October 01:00 UTC. Lord Howe moves by 30 minutes at 15:00/15:30 UTC.
    for (const [zone, at] of [['Europe/Paris', Date.UTC(2026, 2, 29, 1)], ['Europe/Paris', Date.UTC(2026, 9, 25, 1)], ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15)], ['Australia/Lord_Howe', Date.UTC(2026, 9, 3, 15, 30)]] as const) {
      for (let t = at - 3600_000; t < at + 3600_000; t += 7_000) expect(localTime(new Date(t), zone)).toEqual(intlReading(t, zone));
    }
  });
});
