// /offline-numbers-api and /list over HTTP: every action, every error of the spec, the idempotency rules.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { API_KEY, viewParams } from '../helpers/fixtures.ts';

const KEY = 'offline-test-key';

const fixture = {
  accounts: [
    {
      name: 'Offline account',
      domains: [
        {
          name: 'print.test',
          apiKey: API_KEY,
          offlineApiKey: KEY,
          offlineApiEnabled: true,
          pools: [
            { type: 1, usage: 'online', numbers: ['0800000001'] },
            { type: 6, usage: 'offline', numbers: ['0100000001', '0100000002'] },
            { type: 5, usage: 'offline', costGroup: 'A', numbers: ['0899000001'] },
            { type: 5, usage: 'offline', costGroup: 'B', numbers: ['0899000002'] },
            { type: 7, usage: 'offline', numbers: ['0200000001'] },
          ],
        },
        { name: 'closed.test', offlineApiKey: 'closed-offline-key', pools: [{ type: 6, usage: 'offline', numbers: ['0100000009'] }] },
      ],
    },
  ],
};

describe('offline numbers API', () => {
  const s = useSeededCollector('offline', fixture);
  const api = (query: string | Record<string, unknown>) =>
    s.collector.get('/offline-numbers-api', typeof query === 'string' ? `key=${KEY}&${query}` : { key: KEY, ...query });

  it('refuses a missing or wrong key, and a domain without the API, with HTTP 200', async () => {
    for (const key of [undefined, '', 'nope']) {
      const res = await s.collector.get('/offline-numbers-api', { key, action: 'check', tracking_number: '0100000001' });
      expect(res).toEqual({ status: 200, body: { status: 'error', error: 'Invalid API key' } });
    }
    const closed = await s.collector.get('/offline-numbers-api/list', { key: 'closed-offline-key' });
    expect(closed.body).toEqual({ status: 'error', error: 'Access denied to this API' });
    const tracking = await s.collector.get('/offline-numbers-api/list', { key: API_KEY });
    expect(tracking.body.error).toBe('Invalid API key');
  });

  it('names a missing or invalid parameter', async () => {
    expect((await api({})).body).toEqual({ status: 'error', error: 'Missing parameter action' });
    expect((await api({ action: 'delete' })).body.error).toMatch(/^Invalid parameter action/);
    expect((await api({ action: 'assign', phone_number: '0123456789', description: 'x' })).body.error).toBe('Missing parameter type');
    expect((await api({ action: 'check' })).body.error).toBe('Missing parameter tracking_number or phone_number');
    expect((await api({ action: 'redirect_setup', tracking_number: '0100000001' })).body.error).toBe('Missing parameter allow_redirect');
    expect((await api({ action: 'assign', phone_number: 'abc', description: 'x', type: 6 })).body.error).toMatch(/^Invalid parameter phone_number/);
  });

  it('takes only the offline reference types, 1 to 34', async () => {
    for (const type of [35, 36, 13, 0]) {
      const res = await api({ action: 'assign', phone_number: '0123456789', description: 'x', type });
      expect(res.body.error).toMatch(/^Invalid parameter type: must be a type of the offline reference/);
    }
  });

  it('assigns, checks, reassigns and unassigns a number for a print campaign', async () => {
    const assigned = await api({ action: 'assign', phone_number: '01 23 45 67 89', description: 'Flyer spring', type: 6, allow_redirect: 1 });
    expect(assigned.body).toEqual({
      status: 'success',
      phone_number: '0123456789',
      tracking_number: '0100000001',
      description: 'Flyer spring',
      type: 6,
      allow_redirect: '1',
      timetable: 0,
    });
    const checked = await api({ action: 'check', tracking_number: '0100000001' });
    expect(checked.body).toEqual(assigned.body);

    const moved = await api({ action: 'reassign', tracking_number: '0100000001', phone_number: '0987654321', description: 'Flyer summer' });
    expect(moved.body).toMatchObject({ phone_number: '0987654321', tracking_number: '0100000001', description: 'Flyer summer', allow_redirect: '1' });

    const released = await api({ action: 'unassign', tracking_number: '0100000001' });
    expect(released.body).toMatchObject({ status: 'success', tracking_number: '0100000001', phone_number: '0987654321', released: ['0100000001'] });
    const again = await api({ action: 'unassign', tracking_number: '0100000001' });
    expect(again.body).toMatchObject({ status: 'success', tracking_number: '0100000001', released: ['0100000001'] });
    expect((await api({ action: 'check', tracking_number: '0100000001' })).body).toEqual({ status: 'error', error: 'Tracking number not assigned' });
  });

  it('answers No tracking number available when the type or cost group is used up', async () => {
    const first = await api({ action: 'assign', phone_number: '0111111111', description: 'Billboard', type: 7 });
    expect(first.body.tracking_number).toBe('0200000001');
    const second = await api({ action: 'assign', phone_number: '0111111112', description: 'Billboard 2', type: 7 });
    expect(second.body).toEqual({ status: 'error', error: 'No tracking number available' });
    const none = await api({ action: 'assign', phone_number: '0111111112', description: 'x', type: 8 });
    expect(none.body.error).toBe('No tracking number available');

    const groupB = await api({ action: 'assign', phone_number: '0111111113', description: 'Premium', type: 5, cost_group: 'B' });
    expect(groupB.body.tracking_number).toBe('0899000002');
    const groupBAgain = await api({ action: 'assign', phone_number: '0111111113', description: 'Premium', type: 5, cost_group: 'B' });
    expect(groupBAgain.body.error).toBe('No tracking number available');
  });

  it('refuses a chosen number that is in use, unknown, or online', async () => {
    await api({ action: 'assign', phone_number: '0122222222', description: 'Card', type: 6, tracking_number: '0100000002' });
    const taken = await api({ action: 'assign', phone_number: '0133333333', description: 'Card 2', type: 6, tracking_number: '0100000002' });
    expect(taken.body).toEqual({ status: 'error', error: 'Tracking number already assigned' });
    const otherType = await api({ action: 'assign', phone_number: '0133333333', description: 'Card 3', type: 7, tracking_number: '0100000001' });
    expect(otherType.body).toEqual({ status: 'error', error: 'Unknown tracking number' });
    for (const number of ['0100000099', '0800000001', '0100000009']) {
      expect((await api({ action: 'check', tracking_number: number })).body).toEqual({ status: 'error', error: 'Unknown tracking number' });
      expect((await api({ action: 'unassign', tracking_number: number })).body.error).toBe('Unknown tracking number');
    }
    await api({ action: 'unassign', tracking_number: '0100000002' });
  });

  it('finds by phone number what a timed-out assign allocated, and unassigns by phone number once', async () => {
    const assigned = await api({ action: 'assign', phone_number: '0144444444', description: 'Catalogue', type: 6 });
    const checked = await api({ action: 'check', phone_number: '+33 1 44 44 44 44' });
    expect(checked.body.tracking_number).toBe(assigned.body.tracking_number);

    const released = await api({ action: 'unassign', phone_number: '0144444444' });
    expect(released.body).toMatchObject({ status: 'success', phone_number: '0144444444', released: [assigned.body.tracking_number] });
    const again = await api({ action: 'unassign', phone_number: '0144444444' });
    expect(again.body).toMatchObject({ status: 'success', released: [] });
    expect((await api({ action: 'check', phone_number: '0144444444' })).body).toEqual({ status: 'error', error: 'No tracking number assigned to this phone number' });
  });

  it('sets up the redirect timetable and unsets it with 0', async () => {
    const assigned = await api({ action: 'assign', phone_number: '0155555555', description: 'Radio', type: 6 });
    const number = assigned.body.tracking_number;
    const setup = await api(`action=redirect_setup&tracking_number=${number}&allow_redirect=1&timetable[mon]=09:00-12:00;14:00-18:00&timetable[Friday]=10:00-16:00`);
    expect(setup.body).toMatchObject({
      status: 'success',
      tracking_number: number,
      allow_redirect: '1',
      timetable: [
        { day: 'mon', from: '09:00', to: '12:00' },
        { day: 'mon', from: '14:00', to: '18:00' },
        { day: 'fri', from: '10:00', to: '16:00' },
      ],
    });
    const repeat = await api(`action=redirect_setup&tracking_number=${number}&allow_redirect=1&timetable[mon]=09:00-12:00;14:00-18:00&timetable[Friday]=10:00-16:00`);
    expect(repeat.body).toEqual(setup.body);
    const flagOnly = await api({ action: 'redirect_setup', phone_number: '0155555555', allow_redirect: 0 });
    expect(flagOnly.body).toMatchObject({ allow_redirect: '0', timetable: setup.body.timetable });
    const unset = await api({ action: 'redirect_setup', tracking_number: number, allow_redirect: 0, timetable: 0 });
    expect(unset.body).toMatchObject({ allow_redirect: '0', timetable: 0 });

    for (const bad of ['timetable[mon]=12:00-09:00', 'timetable[mon]=9-12', 'timetable[funday]=09:00-12:00', 'timetable=2']) {
      const res = await api(`action=redirect_setup&tracking_number=${number}&allow_redirect=1&${bad}`);
      expect(res.body.error).toMatch(/^Invalid parameter timetable/);
    }
    expect((await api({ action: 'check', tracking_number: number })).body.timetable).toBe(0);
    await api({ action: 'unassign', tracking_number: number });
  });

  it('gives one number to one of two simultaneous assigns', async () => {
    const answers = await Promise.all(
      ['0166666661', '0166666662', '0166666663'].map((phone) => api({ action: 'assign', phone_number: phone, description: 'Race', type: 5, cost_group: 'A' })),
    );
    expect(answers.filter((a) => a.body.status === 'success').map((a) => a.body.tracking_number)).toEqual(['0899000001']);
    expect(answers.filter((a) => a.body.error === 'No tracking number available')).toHaveLength(2);
  });

  it('lists every offline number, assigned or free, with and without details', async () => {
    const list = await s.collector.get('/offline-numbers-api/list', { key: KEY });
    expect(list.body).toEqual({
      '0100000001': null,
      '0100000002': null,
      '0200000001': '0111111111',
      '0899000001': expect.stringMatching(/^016666666\d$/),
      '0899000002': '0111111113',
    });
    const details = await s.collector.get('/offline-numbers-api/list', { key: KEY, details: 1 });
    expect(details.body.tracking_number_details).toHaveLength(5);
    expect(details.body.tracking_number_details).toContainEqual({
      tracking_phone: '0200000001',
      destination_phone: '0111111111',
      description: 'Billboard',
      product_name: 'print.test',
      last_update: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(details.body.tracking_number_details).toContainEqual(expect.objectContaining({ tracking_phone: '0100000001', destination_phone: null, last_update: expect.any(String) }));
  });

  it('never hands an offline number to a web visitor', async () => {
    const view = await s.collector.post('/ospView', viewParams({ type: 6 }));
    expect(view.body.status).toBe('INVALID_PARAMETER');
    const online = await s.collector.post('/ospView', viewParams());
    expect(online.body.surtaxPhones['0123456789'].surtaxPhoneNumber).toBe('08.00.00.00.01');
  });
});
