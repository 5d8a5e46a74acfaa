// A team over HTTP: invitations and their states, role changes and removals that end sessions at
// once, the last owner kept, passwords and sessions, the audit trail, and shared report links.
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../collector/src/house/migrations.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { teamFixture, TEAM_PASSWORD } from '../helpers/team.ts';

const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.split('?')[1]).get('token')!;

describe('a team', () => {
  const s = useSeededCollector('manage_team', teamFixture(), { signInLimits: { perIp: 10_000, perUsernameAndIp: 10_000, signUpsPerIp: 10_000 } });
  const signIn = (who: string, password = TEAM_PASSWORD) => signedInClient(s.collector.baseUrl, who, password);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${s.collector.baseUrl}/manage/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json(), cookie: res.headers.get('set-cookie') };
  };
  let owner: ManageClient;

  it('invites a person by link: they choose a password, are signed in with their role, and the link is used once', async () => {
    owner = await signIn('owner@team.test');
    const invited = await owner.call('POST', '/account/members', { username: 'Nina@Team.test', role: 'analyst', domains: ['b.test'] });
    expect(invited).toMatchObject({ status: 201, body: { invitation: { url: expect.stringMatching(/\/manage\/#\/accept\?token=[\w-]{43}$/), expiresAt: expect.any(String) } } });
    const expires = new Date(invited.body.invitation.expiresAt).getTime() - Date.now();
    expect(expires).toBeGreaterThan(7 * 86400_000 - 60_000);
    expect(expires).toBeLessThanOrEqual(7 * 86400_000);
    const token = tokenOf(invited.body.invitation.url);
    // Stored as its digest only.
    expect(JSON.stringify(await s.t.c.invitations.find().toArray())).not.toContain(token);
    expect((await owner.get('/account/members')).body.invitations).toMatchObject([{ username: 'nina@team.test', role: 'analyst', domains: ['b.test'] }]);
    // Two accepts at once: one wins.
    const both = await Promise.all([post('/invitations/accept', { token, password: 'nina chose this one' }), post('/invitations/accept', { token, password: 'nina chose this two' })]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 410]);
    const won = both.find((a) => a.status === 200)!;
    expect(won.body).toMatchObject({ username: 'nina@team.test', account: 'Team', role: 'analyst', domains: ['b.test'], csrfToken: expect.any(String) });
    expect(won.cookie).toMatch(/^rt_session=/);
    const members = (await owner.get('/account/members')).body;
    expect(members.members.find((m: { username: string }) => m.username === 'nina@team.test')).toMatchObject({ role: 'analyst', domains: ['b.test'], lastSignInAt: expect.any(String) });
    expect(members.invitations).toEqual([]);
    const nina = await signIn('nina@team.test', both[0]!.status === 200 ? 'nina chose this one' : 'nina chose this two');
    expect((await nina.get('/domains')).body.map((d: { name: string }) => d.name)).toEqual(['b.test']);
  });

  it('says why a link cannot be used: unknown, revoked, used or expired; never a 500', async () => {
    expect(await post('/invitations/check', { token: 'x'.repeat(43) })).toMatchObject({ status: 404, body: { error: expect.stringMatching(/^This link is not valid/) } });
    expect(await post('/invitations/check', { token: 'short' })).toMatchObject({ status: 404 });
    expect(await post('/invitations/check', { token: ['array'] })).toMatchObject({ status: 400 });
    const revoked = await owner.call('POST', '/account/members', { username: 'gone@team.test', role: 'agent', domains: ['a.test'] });
    expect((await owner.call('DELETE', `/account/invitations/${revoked.body.invitation.id}`)).status).toBe(204);
    expect(await post('/invitations/accept', { token: tokenOf(revoked.body.invitation.url), password: 'a password of mine' })).toMatchObject({ status: 410, body: { error: 'This invitation was revoked: ask for a new one' } });
    const late = await owner.call('POST', '/account/members', { username: 'late@team.test', role: 'agent', domains: ['a.test'] });
    await s.t.c.invitations.updateOne({ _id: late.body.invitation.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await post('/invitations/accept', { token: tokenOf(late.body.invitation.url), password: 'a password of mine' })).toMatchObject({ status: 410, body: { error: expect.stringMatching(/^This invitation expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC: ask for a new one$/) } });
    expect(await s.t.c.users.findOne({ _id: 'late@team.test' })).toBeNull();
  });

  it("refuses to invite a member twice, or another account's login without naming the account", async () => {
    expect(await owner.call('POST', '/account/members', { username: 'agent@team.test', role: 'agent' })).toMatchObject({ status: 409, body: { error: 'agent@team.test is already a member: change their role instead' } });
    const rival = await owner.call('POST', '/account/members', { username: 'rival@rival.test', role: 'agent' });
    expect(rival.status).toBe(409);
    expect(rival.body.error).not.toMatch(/Rival|r\.test/);
    expect(await owner.call('POST', '/account/members', { username: 'x@team.test', role: 'boss' })).toMatchObject({ status: 400, body: { error: 'role: must be one of owner, admin, analyst, agent' } });
    expect(await owner.call('POST', '/account/members', { username: 'x@team.test', role: 'agent', domains: ['r.test'] })).toMatchObject({ status: 400, body: { error: 'domains: name only domains of this account' } });
    expect(await owner.call('PATCH', '/account/members/agent@team.test', {})).toMatchObject({ status: 400, body: { error: 'name a role, or domains (null: every domain)' } });
  });

  it('ends the sessions of a member whose role changes or who is removed, at once', async () => {
    const agent = await signIn('agent@team.test');
    expect((await agent.get('/domains/a.test/reports/calls')).status).toBe(200);
    expect((await owner.call('PATCH', '/account/members/agent@team.test', { role: 'analyst' })).body).toMatchObject({ username: 'agent@team.test', role: 'analyst', domains: ['a.test'] });
    expect((await agent.get('/domains/a.test/reports/calls')).status).toBe(401);
    const analyst = await signIn('agent@team.test');
    expect((await analyst.get('/domains/a.test/reports/overview')).status).toBe(200);
    expect((await owner.call('DELETE', '/account/members/agent@team.test')).status).toBe(204);
    expect(await analyst.get('/domains/a.test/reports/overview')).toMatchObject({ status: 401, body: { error: 'Not signed in' } });
    await expect(signIn('agent@team.test')).rejects.toThrow(/401/);
  });

  it('never removes nor demotes the last owner, even two owners demoting each other at once', async () => {
    expect(await owner.call('PATCH', '/account/members/owner@team.test', { role: 'admin' })).toMatchObject({ status: 409, body: { error: expect.stringMatching(/^The last owner/) } });
    expect(await owner.call('DELETE', '/account/members/owner@team.test')).toMatchObject({ status: 409 });
    expect((await owner.call('PATCH', '/account/members/admin@team.test', { role: 'owner' })).status).toBe(200);
    owner = await signIn('owner@team.test');
    const second = await signIn('admin@team.test');
    const [a, b] = await Promise.all([owner.call('PATCH', '/account/members/admin@team.test', { role: 'admin' }), second.call('PATCH', '/account/members/owner@team.test', { role: 'admin' })]);
    expect([a.status, b.status]).not.toEqual([200, 200]);
    expect(await s.t.c.users.countDocuments({ accountId: 'Team', role: 'owner' })).toBeGreaterThanOrEqual(1);
    // Back to one owner, owner@team.test.
    await s.t.c.users.updateOne({ _id: 'owner@team.test' }, { $set: { role: 'owner' } });
    await s.t.c.users.updateOne({ _id: 'admin@team.test' }, { $set: { role: 'admin' } });
    owner = await signIn('owner@team.test');
  });

  it("changes one's password with the current one, ending every other session; lists and ends sessions", async () => {
    const here = await signIn('admin@team.test');
    const there = await signIn('admin@team.test');
    expect(await here.call('PUT', '/session/password', { current: 'not it at all', password: 'a new admin password' })).toMatchObject({ status: 400, body: { error: 'current: is not your current password' } });
    expect(await here.call('PUT', '/session/password', { current: TEAM_PASSWORD, password: 'password1234' })).toMatchObject({ status: 400, body: { error: 'password: is one of the most common passwords: choose another' } });
    const listed = (await here.get('/session/sessions')).body.sessions;
    expect(listed.filter((x: { current: boolean }) => x.current)).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: expect.any(String), device: expect.any(String), address: expect.any(String), lastSeenAt: expect.any(String) });
    expect((await here.call('PUT', '/session/password', { current: TEAM_PASSWORD, password: 'a new admin password' })).status).toBe(200);
    expect((await there.get('/session')).status).toBe(401);
    expect((await here.get('/session')).status).toBe(200);
    const third = await signIn('admin@team.test', 'a new admin password');
    const id = (await third.get('/session/sessions')).body.sessions.find((x: { current: boolean }) => x.current).id;
    expect((await here.call('DELETE', `/session/sessions/${id}`)).status).toBe(204);
    expect((await third.get('/session')).status).toBe(401);
    await here.call('PUT', '/session/password', { current: 'a new admin password', password: TEAM_PASSWORD });
  });

  it('writes every change to the audit trail: who, when, from where, what; never a key; kept after what it names is gone', async () => {
    const admin = await signIn('limitedAdmin@team.test');
    expect((await admin.call('POST', '/domains/a.test/keys/data')).status).toBe(200);
    const key = (await owner.call('POST', '/domains/b.test/keys/api')).body.key as string;
    // The whole form sent, one field changed: the entry says what changed, from what to what (issue 52).
    const form = (await owner.get('/domains/b.test')).body;
    expect((await owner.call('PATCH', '/domains/b.test', { currency: 'USD', timeZone: form.timeZone, displayMode: form.displayMode })).status).toBe(200);
    const all = (await owner.get('/account/activity')).body.entries;
    expect(all[0]).toEqual({ at: expect.any(String), username: 'owner@team.test', action: 'domain.settings', kind: 'domain', domain: 'b.test', ip: expect.any(String), details: { settings: ['currency'], changes: [{ field: 'currency', from: form.currency, to: 'USD' }] } });
    expect(all[1]).toMatchObject({ username: 'owner@team.test', action: 'key.rotate', domain: 'b.test', details: { kind: 'api' } });
    expect(all[2]).toMatchObject({ username: 'limitedadmin@team.test', action: 'key.rotate', domain: 'a.test' });
    expect(JSON.stringify(await s.t.c.auditLog.find().toArray())).not.toContain(key);
    expect(all.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['member.invite', 'member.join', 'member.change', 'member.remove', 'member.revoke', 'password.change', 'session.end']));
    // An admin limited to a.test sees a.test's entries only; filters by person and kind.
    const theirs = (await admin.get('/account/activity')).body.entries;
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((e: { domain?: string }) => e.domain === 'a.test')).toBe(true);
    expect((await owner.get('/account/activity?username=limitedAdmin@team.test')).body.entries.every((e: { username: string }) => e.username === 'limitedadmin@team.test')).toBe(true);
    expect((await owner.get('/account/activity?kind=member')).body.entries.every((e: { kind: string }) => e.kind === 'member')).toBe(true);
    expect((await owner.get('/domains/b.test/activity')).body.entries.every((e: { domain: string }) => e.domain === 'b.test')).toBe(true);
    // The removed agent's entries (none) and the removal itself stay.
    expect((await owner.get('/account/activity?kind=member')).body.entries.find((e: { action: string }) => e.action === 'member.remove')).toMatchObject({ details: { member: 'agent@team.test' } });
    expect((await admin.get('/account/activity?before=yesterday')).status).toBe(400);
  });

  it('shares a read-only report by link: open signed out, no caller numbers, counted, password, revoked', async () => {
    const made = await owner.call('POST', '/domains/a.test/shared-links', { label: 'For the client' });
    expect(made).toMatchObject({ status: 201, body: { id: expect.any(String), url: expect.stringMatching(/\/shared\/[\w-]{43}$/) } });
    const url = made.body.url as string;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const report = await (await fetch(`${url}/report`)).json();
    expect(report).toMatchObject({ domain: 'a.test', totals: expect.any(Object), days: expect.any(Array), sources: expect.any(Array), keywords: expect.any(Array) });
    expect(Object.keys(report).sort()).toEqual(['campaigns', 'country', 'currency', 'days', 'domain', 'from', 'keywords', 'label', 'landingPages', 'previous', 'sources', 'timeZone', 'to', 'totals']);
    expect((await owner.get('/domains/a.test/shared-links')).body.links[0]).toMatchObject({ id: made.body.id, label: 'For the client', openings: 1, passwordProtected: false });
    // With a password: the report waits for it.
    const locked = (await owner.call('POST', '/domains/a.test/shared-links', { label: 'Locked', password: 'client secret' })).body.url as string;
    expect((await fetch(`${locked}/report`)).status).toBe(401);
    const unlock = (password: string) => fetch(`${locked}/unlock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }) });
    expect((await unlock('not the secret')).status).toBe(401);
    const opened = await unlock('client secret');
    expect(opened.status).toBe(204);
    const pass = opened.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${locked}/report`, { headers: { cookie: pass } })).status).toBe(200);
    // Counted when the report is shown (issue 52): not for the page nor its password prompt, nor another range of a report shown.
    await fetch(locked);
    await fetch(`${locked}/report?opening=0`, { headers: { cookie: pass } });
    const counted = (await owner.get('/domains/a.test/shared-links')).body.links.find((l: { label: string }) => l.label === 'Locked');
    expect(counted.openings).toBe(1);
    // Revoked: the link answers 404, page and report.
    expect((await owner.call('DELETE', `/domains/a.test/shared-links/${made.body.id}`)).status).toBe(204);
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(`${url}/report`)).status).toBe(404);
    expect((await fetch(`${s.collector.baseUrl}/shared/${'y'.repeat(43)}`)).status).toBe(404);
    expect((await owner.get('/account/activity?kind=shared-link')).body.entries.map((e: { action: string }) => e.action)).toEqual(['shared-link.revoke', 'shared-link.create', 'shared-link.create']);
  });

  it('makes every user stored before roles an owner, once', async () => {
    await s.t.c.users.insertOne({ _id: 'old@team.test', accountId: 'Team', passwordHash: 'x', createdAt: new Date() } as never);
    await migrateDatabase(s.t.c);
    await migrateDatabase(s.t.c);
    expect(await s.t.c.users.findOne({ _id: 'old@team.test' })).toMatchObject({ role: 'owner' });
    expect(await s.t.c.users.findOne({ _id: 'analyst@team.test' })).toMatchObject({ role: 'analyst' });
  });
});
