// The no-answer redirect as /telephony/route tells any carrier: for an online number by the domain's
// `redirect` setting, for an offline one by its allow_redirect and timetable, in the domain's time
// zone (New York here, so a UTC reading of the timetable would be hours off).
import { WEEK_DAYS } from '@ringtrail/shared';
import { describe, expect, it } from 'vitest';
import { localTime } from '../../collector/src/domains/time-zone.ts';
import { inTimetable } from '../../collector/src/telephony/redirects.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { routeCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const ZONE = 'America/New_York';
const USER = { username: 'owner@shop.test', password: 'owner-password-1' };

/** The weekday and minutes of the day it is now in the zone. */
function localNow(zone: string): { day: (typeof WEEK_DAYS)[number]; minutes: number } {
  const { day, time } = localTime(new Date(), zone);
  const weekDay = WEEK_DAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7]!;
  return { day: weekDay, minutes: Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) };
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** An hour around the zone's present time, today: in the timetable now there, hours away from the UTC wall clock. */
function hourAroundNow(zone: string) {
  const { day, minutes } = localNow(zone);
  return { day, from: hhmm(Math.max(0, minutes - 30)), to: hhmm(Math.min(24 * 60, minutes + 30)) };
}

/** The whole of tomorrow, local: not now. */
function tomorrow(zone: string) {
  const { day } = localNow(zone);
  return { day: WEEK_DAYS[(WEEK_DAYS.indexOf(day) + 1) % 7]!, from: '00:00', to: '24:00' };
}

describe('no-answer redirects on their timetable', () => {
  const fixture = trackingFixture({ timeZone: ZONE, users: [USER], settings: { redirectPhone: '0611000000', offlineApiKey: 'offline-tz-key', redirectAfterSeconds: 25 } });
  const s = useSeededCollector('redirects', fixture, { telephonyApiKey: TELEPHONY_KEY });
  const route = (number: string) => routeCall(s.collector.baseUrl, { tracking_number: number });
  const offline = (fields: Record<string, string>) => s.collector.get('/offline-numbers-api', { key: 'offline-tz-key', ...fields });

  it('redirects an online number inside the domain’s timetable, in its time zone, and not outside it or when off', async () => {
    const manage = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const view = await s.collector.post('/ospView', viewParams());
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    expect((await route(number)).body.redirect).toBeNull(); // redirects are off by default

    const inside = await manage.call('PATCH', '/domains/shop.test', { redirect: { enabled: true, timetable: [hourAroundNow(ZONE)] } });
    expect(inside.status).toBe(200);
    expect(inside.body.redirect).toEqual({ enabled: true, timetable: [hourAroundNow(ZONE)] });
    expect((await route(number)).body).toMatchObject({ reason: 'online', destination: '0123456789', redirect: { destination: '0611000000', afterSeconds: 25 } });

    await manage.call('PATCH', '/domains/shop.test', { redirect: { enabled: true, timetable: [tomorrow(ZONE)] } });
    expect((await route(number)).body.redirect).toBeNull();

    await manage.call('PATCH', '/domains/shop.test', { redirect: { enabled: true, timetable: [] } }); // no timetable: always
    expect((await route(number)).body.redirect).toEqual({ destination: '0611000000', afterSeconds: 25 });
    await manage.call('PATCH', '/domains/shop.test', { redirect: { enabled: false, timetable: [] } });
    expect((await route(number)).body.redirect).toBeNull();
  });

  it('redirects an offline number when its allow_redirect is 1 and the local time is in its timetable', async () => {
    await offline({ action: 'assign', phone_number: '0144556677', description: 'radio', type: '6' });
    expect((await route('0100000001')).body).toMatchObject({ reason: 'offline', destination: '0144556677', redirect: null }); // allow_redirect defaults to 0

    const now = hourAroundNow(ZONE);
    const set = await offline({ action: 'redirect_setup', tracking_number: '0100000001', allow_redirect: '1', [`timetable[${now.day}]`]: `${now.from}-${now.to}` });
    expect(set.body).toMatchObject({ allow_redirect: '1', timetable: [now] });
    expect((await route('0100000001')).body.redirect).toEqual({ destination: '0611000000', afterSeconds: 25 });

    const later = tomorrow(ZONE);
    await offline({ action: 'redirect_setup', tracking_number: '0100000001', allow_redirect: '1', [`timetable[${later.day}]`]: `${later.from}-${later.to}` });
    expect((await route('0100000001')).body.redirect).toBeNull();
    await offline({ action: 'redirect_setup', tracking_number: '0100000001', allow_redirect: '1', timetable: '0' });
    expect((await route('0100000001')).body.redirect).not.toBeNull();
  });

  it('has nowhere to redirect without a redirect number, and refuses a timetable that is not one', async () => {
    const manage = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const backwards = await manage.call('PATCH', '/domains/shop.test', { redirect: { enabled: true, timetable: [{ day: 'mon', from: '18:00', to: '09:00' }] } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toBe('redirect.timetable.0.to: must end after it starts');
    expect((await manage.call('PATCH', '/domains/shop.test', { redirectAfterSeconds: 2 })).body.error).toBe('redirectAfterSeconds: must be 5 to 120 seconds');
    expect((await manage.call('PATCH', '/domains/shop.test', { redirectPhone: null })).body.redirectPhone).toBeNull();
    expect((await route('0100000001')).body.redirect).toBeNull();
  });
});

describe('inTimetable', () => {
  it('reads the range of the local day of the week, from included, to excluded, across a DST change', () => {
    const week = [{ day: 'sun' as const, from: '09:00', to: '12:00' }];
    // Sunday 8 March 2026, New York moves from UTC-5 to UTC-4 at 02:00 local.
    expect(inTimetable(week, new Date('2026-03-08T13:00:00Z'), ZONE)).toBe(true); // 09:00 EDT
    expect(inTimetable(week, new Date('2026-03-08T12:59:59Z'), ZONE)).toBe(false); // 08:59 EDT
    expect(inTimetable(week, new Date('2026-03-08T16:00:00Z'), ZONE)).toBe(false); // 12:00 EDT
    expect(inTimetable(week, new Date('2026-03-01T14:30:00Z'), ZONE)).toBe(true); // 09:30 EST, a week before
    expect(inTimetable(week, new Date('2026-03-09T13:30:00Z'), ZONE)).toBe(false); // Monday
    expect(inTimetable(week, new Date('2026-03-08T10:30:00Z'), 'UTC')).toBe(true);
    expect(inTimetable(week, new Date('2026-03-08T10:30:00Z'), 'Asia/Tokyo')).toBe(false); // 19:30 there
    expect(inTimetable([], new Date(), ZONE)).toBe(true);
    expect(inTimetable([{ day: 'sat', from: '23:00', to: '24:00' }], new Date('2026-03-08T04:59:00Z'), ZONE)).toBe(true); // Saturday 23:59 EST
  });
});
