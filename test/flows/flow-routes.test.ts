// The call flows' routes as the back end calls them: a flow refused with the field named and nothing
// stored, made, listed, tested in the simulator (nothing dialled, no turn taken), changed, deleted;
// each member setting their own phone and availability, which the ring groups and simulator read.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';

const OWNER = { username: 'owner@shop.test', password: 'flow routes owner password' };
const ADA = { username: 'ada@shop.test', password: 'flow routes ada password', role: 'agent', domains: ['shop.test'] };
const BEN = { username: 'ben@shop.test', password: 'flow routes ben password', role: 'agent', domains: ['shop.test'] };
const OUTSIDER = { username: 'eve@shop.test', password: 'flow routes eve password', role: 'agent', domains: [] };
const WEEKDAYS = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ from: '09:00', to: '18:00' }]]));

const flowBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Opening hours, else voicemail',
  start: 'hours',
  assignedTo: { pools: [1] },
  steps: {
    hours: { kind: 'schedule', week: WEEKDAYS, holidays: [{ from: '2026-12-25', name: 'Christmas' }], open: 'menu', closed: 'voicemail' },
    menu: { kind: 'menu', prompt: { text: 'Press 1 for sales, 2 for support.' }, options: [{ key: '1', label: 'Sales', next: 'team' }, { key: '2', label: 'Support', next: 'voicemail' }], default: 'voicemail' },
    team: { kind: 'ring', strategy: 'round-robin', targets: [{ member: ADA.username }, { member: BEN.username, weight: 2 }, { number: '01 55 55 44 44', name: 'Front desk' }], noAnswer: 'voicemail' },
    voicemail: { kind: 'voicemail' },
  },
  ...overrides,
});

describe('call flow routes', () => {
  const s = useSeededCollector('flow_routes', trackingFixture({ timeZone: 'Europe/Paris', users: [OWNER, ADA, BEN, OUTSIDER] as never, settings: { whisper: true } }));

  it('refuses a flow naming the field, and stores nothing', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const refused = async (body: unknown) => {
      const res = await owner.call('POST', '/domains/shop.test/flows', body);
      expect(res.status).toBe(400);
      return res.body.error as string;
    };
    const base = flowBody();
    expect(await refused({ ...base, steps: { ...base.steps, menu: { ...base.steps.menu, options: [{ key: '1', label: 'Sales', next: 'team' }, { key: '1', label: 'Support', next: 'voicemail' }] } } })).toBe('steps.menu.options.1.key: key 1 is used twice');
    expect(await refused({ ...base, steps: { ...base.steps, team: { ...base.steps.team, ringSeconds: 3 } } })).toBe('steps.team.ringSeconds: must be 5 to 120 seconds');
    expect(await refused({ ...base, steps: { ...base.steps, lost: { kind: 'hangup' } } })).toBe('steps.lost: no way from the start reaches it');
    expect(await refused({ ...base, steps: { ...base.steps, team: { ...base.steps.team, targets: [{ member: OUTSIDER.username }, { member: 'nobody@else.test' }] } } })).toBe(`steps.team.targets.0.member: ${OUTSIDER.username} does not see this domain; steps.team.targets.1.member: nobody@else.test is not a member of the account`);
    expect(await refused({ ...base, assignedTo: { pools: [42], numbers: ['0600000000'] } })).toBe('assignedTo.pools.0: the domain has no pool of type 42; assignedTo.numbers.0: 0600000000 is not a tracking number of the domain');
    expect(await refused({ ...base, steps: { ...base.steps, hours: { ...base.steps.hours, open: 'hours' } } })).toBe('steps.hours.open: leads back to hours: a flow has no loops (a menu repeats itself with repeats)');
    expect((await owner.get('/domains/shop.test/flows')).body.flows).toEqual([]);
  });

  it('makes, lists, simulates, changes and deletes a flow', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const ada = await signedInClient(s.collector.baseUrl, ADA.username, ADA.password);
    const ben = await signedInClient(s.collector.baseUrl, BEN.username, BEN.password);
    // Members set their own phone (as their domain's country writes it) and availability.
    expect((await ada.call('PUT', '/profile/availability', { phone: '06 11 00 00 01' })).body).toEqual({ phone: '0611000001', available: true });
    expect((await ben.call('PUT', '/profile/availability', { phone: '+33 6 11 00 00 02', available: false })).body).toEqual({ phone: '0611000002', available: false });
    expect(await ada.call('PUT', '/profile/availability', { phone: 'call me' })).toMatchObject({ status: 400, body: { error: 'phone: "call me" is not a phone number' } });
    expect((await ben.get('/profile/availability')).body).toEqual({ phone: '0611000002', available: false });

    const made = await owner.call('POST', '/domains/shop.test/flows', flowBody());
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ id: expect.stringMatching(/^flow_/), name: 'Opening hours, else voicemail', assignedTo: { domain: false, pools: [1], numbers: [] } });
    expect(made.body.steps.team.targets[2]).toEqual({ number: '0155554444', name: 'Front desk', weight: 1 });
    const list = (await owner.get('/domains/shop.test/flows')).body;
    expect(list.flows).toHaveLength(1);
    expect(list.members).toEqual(expect.arrayContaining([{ username: ADA.username, role: 'agent', hasPhone: true, available: true }, { username: BEN.username, role: 'agent', hasPhone: true, available: false }]));
    expect(list.members.map((m: any) => m.username)).not.toContain(OUTSIDER.username);
    // An agent may not change flows.
    expect((await ada.get('/domains/shop.test/flows')).status).toBe(403);

    const simulate = (body: unknown) => owner.call('POST', `/domains/shop.test/flows/${made.body.id}/simulate`, body);
    // A Tuesday at 10:00 in Paris, key 1: the team rings (Ben unavailable, skipped), Ada answers.
    const open = (await simulate({ at: '2026-12-01T10:00:00+01:00', caller: '06 22 00 00 01', keys: ['1'], answeredBy: ADA.username, source: 'paid:google', keyword: 'plumber' })).body;
    expect(open.path.map((p: any) => `${p.step}: ${p.outcome}`)).toEqual(['hours: open (Tuesday 10:00)', 'menu: prompt played', 'menu: pressed 1 (Sales)', 'team: ring round-robin', `team: ${ADA.username} answered`]);
    expect(open.heard).toEqual([{ step: 'menu', say: 'Press 1 for sales, 2 for support.' }]);
    expect(open.rings).toEqual([{ step: 'team', strategy: 'round-robin', ringSeconds: 20, legs: [{ name: ADA.username, number: '0611000001', hears: 'Call from Google Ads, keyword plumber' }, { name: 'Front desk', number: '0155554444', hears: 'Call from Google Ads, keyword plumber' }], skipped: [`${BEN.username}: unavailable`] }]);
    expect(open.ends).toBe(`answered by ${ADA.username}`);
    // Christmas: closed, the voicemail; nobody dialled, no turn taken.
    const christmas = (await simulate({ at: '2026-12-25T10:00:00+01:00' })).body;
    expect(christmas.path[0].outcome).toBe('closed (holiday Christmas (2026-12-25))');
    expect(christmas.ends).toBe('voicemail (at most 120 s)');
    expect(await s.t.c.ringTurns.countDocuments()).toBe(0);
    expect(await s.t.c.calls.countDocuments()).toBe(0);
    expect(await simulate({ keys: ['x'] })).toMatchObject({ status: 400, body: { error: 'keys.0: must be a key of the keypad: 0 to 9, * or #' } });

    const changed = await owner.call('PUT', `/domains/shop.test/flows/${made.body.id}`, flowBody({ name: 'Hours' }));
    expect(changed.body.name).toBe('Hours');
    expect((await owner.call('PUT', '/domains/shop.test/flows/flow_none', flowBody())).status).toBe(404);
    expect((await owner.call('DELETE', `/domains/shop.test/flows/${made.body.id}`)).status).toBe(204);
    expect((await owner.get('/domains/shop.test/flows')).body.flows).toEqual([]);
  });
});
