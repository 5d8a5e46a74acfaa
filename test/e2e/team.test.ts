// A team in a real browser: the owner invites an analyst and an agent with links; each chooses a
// password and signs in; the analyst reads reports and meets no setting (the API refuses one too);
// the agent marks a call as a lead and sees no settings; the owner sees both in Activity; a shared
// link opens the overview signed out, and stops once revoked.
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowserSite } from '../helpers/browser-site.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@acme.test', password: 'owner password 1' };

const b = useBrowserSite('e2e_team', (origin) => {
  const fixture = trackingFixture({ users: [OWNER], allowedOrigins: [origin] });
  fixture.accounts[0]!.name = 'Acme';
  fixture.accounts[0]!.domains[0]!.name = 'acme.test';
  return fixture;
}, { telephonyApiKey: TELEPHONY_KEY, demoPages: false });

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `team-${name}.png`), fullPage: true });

/** A page of its own context that records script errors. */
async function newPage(viewport = { width: 1280, height: 860 }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await b.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors };
}

/** The member's own request with their browser's session: what the API answers them. */
async function asMember(context: BrowserContext, method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const cookie = (await context.cookies(`${b.collector.baseUrl}/manage/`)).map((c) => `${c.name}=${c.value}`).join('; ');
  const { csrfToken } = await (await fetch(`${b.collector.baseUrl}/manage/api/session`, { headers: { cookie } })).json();
  const res = await fetch(`${b.collector.baseUrl}/manage/api${apiPath}`, { method, headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: await res.json() };
}

async function invite(owner: Page, email: string, role: string): Promise<string> {
  await owner.getByLabel('E-mail').fill(email);
  await owner.getByTestId('invite').locator('select[name=role]').selectOption(role);
  await owner.getByTestId('invite').getByLabel('acme.test').check();
  const link = owner.getByTestId('link');
  const before = (await link.count()) ? await link.innerText() : '';
  await owner.getByRole('button', { name: 'Make an invitation link' }).click();
  await owner.waitForFunction((earlier) => document.querySelector('[data-testid=link]')?.textContent?.includes('token=') && document.querySelector('[data-testid=link]')!.textContent !== earlier, before);
  return link.innerText();
}

async function accept(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.getByLabel('Password (at least 12 characters)').fill(password);
  await page.getByLabel('The same again').fill(password);
}

describe('a team in Chromium', () => {
  it('invites an analyst and an agent, who work within their roles; the owner sees it all; a shared link opens signed out', async () => {
    const call = await reportCall(b.collector.baseUrl, { callRef: 'team-call-1', trackingNumber: '0800000001', startDate: new Date(), duration: 40 });
    expect(call.status).toBe(200);

    // The owner invites two people.
    const owner = await newPage();
    await owner.page.goto(`${b.collector.baseUrl}/manage/`);
    await owner.page.getByLabel('E-mail').fill(OWNER.username);
    await owner.page.getByLabel('Password').fill(OWNER.password);
    await owner.page.getByRole('button', { name: 'Sign in' }).click();
    await owner.page.getByRole('link', { name: 'Members' }).click();
    await owner.page.getByRole('heading', { name: 'Members of Acme' }).waitFor();
    const analystLink = await invite(owner.page, 'ana@acme.test', 'analyst');
    const agentLink = await invite(owner.page, 'gus@acme.test', 'agent');
    expect(analystLink).toMatch(/\/manage\/#\/accept\?token=[\w-]{43}$/);
    await owner.page.getByText('gus@acme.test').first().waitFor();
    await shot(owner.page, '1-members');

    // The analyst: a password of their own, the reports, no setting.
    const analyst = await newPage();
    await accept(analyst.page, analystLink, 'analyst password 1');
    await analyst.page.getByRole('heading', { name: 'Join Acme' }).waitFor();
    await shot(analyst.page, '2-invitation');
    await analyst.page.getByRole('button', { name: 'Join and sign in' }).click();
    await analyst.page.getByRole('heading', { name: 'Overview' }).waitFor();
    const analystTabs = await analyst.page.locator('.top nav a').allInnerTexts();
    expect(analystTabs).toEqual(['Overview', 'Calls', 'Forms', 'Number pools', 'Agents']);
    expect(await analyst.page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    await shot(analyst.page, '3-analyst-overview');
    await analyst.page.getByRole('link', { name: 'Calls' }).click();
    await analyst.page.getByRole('link', { name: 'Download CSV' }).waitFor();
    expect(await analyst.page.locator('select.verdict').count()).toBe(0); // verdicts are read, not given
    expect(await asMember(analyst.context, 'PATCH', '/domains/acme.test', { currency: 'USD' })).toEqual({ status: 403, body: { error: "Your role (analyst) may not change a domain's settings, numbers, keys or blocked callers: that takes an owner or admin" } });
    // Used once.
    const again = await newPage();
    await again.page.goto(analystLink);
    await again.page.getByText('This invitation was already used').waitFor();
    await shot(again.page, '4-link-used');

    // The agent: the calls log only; marks the call as a lead.
    const agent = await newPage();
    await accept(agent.page, agentLink, 'agent password 12');
    await agent.page.getByRole('button', { name: 'Join and sign in' }).click();
    await agent.page.getByRole('heading', { name: 'Calls' }).waitFor();
    expect(await agent.page.locator('.top nav a').allInnerTexts()).toEqual(['Calls', 'Forms']);
    expect(await agent.page.getByRole('link', { name: 'Download CSV' }).count()).toBe(0);
    // The select shows the choice at once; its PUT's answer means the verdict and its audit entry are stored.
    const verdictSaved = agent.page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/verdict'));
    await agent.page.getByLabel(/^Verdict on call/).selectOption('lead');
    expect((await verdictSaved).status()).toBe(200);
    await agent.page.waitForFunction(() => (document.querySelector('select.verdict') as HTMLSelectElement | null)?.value === 'lead');
    await shot(agent.page, '5-agent-calls');
    expect((await asMember(agent.context, 'GET', '/domains/acme.test/install')).status).toBe(403);

    // The owner sees both in Activity.
    await owner.page.goto(`${b.collector.baseUrl}/manage/#/acme.test/activity?scope=account`);
    const activity = owner.page.getByTestId('activity');
    await activity.getByText('call.verdict').waitFor();
    const rows = await activity.locator('tbody tr').allInnerTexts();
    expect(rows.find((r) => r.includes('call.verdict'))).toContain('gus@acme.test');
    expect(rows.filter((r) => r.includes('member.join')).map((r) => (r.includes('ana@') ? 'ana' : 'gus')).sort()).toEqual(['ana', 'gus']);
    await shot(owner.page, '6-activity');

    // A shared link, opened signed out; revoked, it stops.
    await owner.page.getByRole('link', { name: 'Settings' }).click();
    const shared = owner.page.getByTestId('shared-links');
    await shared.getByLabel('Label').fill('For the client');
    await shared.getByRole('button', { name: 'Make a link' }).click();
    const sharedUrl = await shared.getByTestId('link').innerText();
    expect(sharedUrl).toMatch(/\/shared\/[\w-]{43}$/);
    const client = await newPage({ width: 1100, height: 860 });
    const opened = await client.page.goto(sharedUrl);
    expect(opened!.status()).toBe(200);
    await client.page.getByRole('heading', { name: 'Overview of acme.test' }).waitFor();
    await client.page.locator('[data-tile="Calls"] strong').filter({ hasText: '1' }).waitFor();
    expect(await client.page.locator('body').innerText()).not.toContain('0611223344');
    await shot(client.page, '7-shared-report');
    await owner.page.reload();
    await shared.getByRole('cell', { name: 'For the client' }).waitFor();
    expect(await shared.locator('tbody tr').first().innerText()).toMatch(/\t1\t/); // opened once
    await shot(owner.page, '8-shared-links');
    await shared.getByRole('button', { name: 'Revoke' }).click();
    await shared.getByRole('cell', { name: 'For the client' }).waitFor({ state: 'detached' });
    const gone = await client.page.goto(sharedUrl);
    expect(gone!.status()).toBe(404);
    await client.page.getByText('This shared link does not exist, or was revoked').waitFor();

    // The agent's domains taken away: their row says so, and their session ended.
    await owner.page.getByRole('link', { name: 'Members' }).click();
    await owner.page.getByRole('button', { name: 'Change the domains of gus@acme.test' }).click();
    await owner.page.locator('tr[data-member="gus@acme.test"]').getByLabel('acme.test', { exact: true }).uncheck();
    await owner.page.locator('tr[data-member="gus@acme.test"]').getByRole('button', { name: 'Save' }).click();
    await owner.page.locator('tr[data-member="gus@acme.test"] td').nth(2).filter({ hasText: /^none/ }).waitFor();
    await shot(owner.page, '9-members-after');
    await agent.page.reload();
    await agent.page.getByRole('button', { name: 'Sign in' }).waitFor();

    // Profile: the owner's sessions.
    await owner.page.getByRole('link', { name: OWNER.username }).click();
    await owner.page.getByTestId('sessions').getByText('this one').waitFor();
    await shot(owner.page, '10-profile');
    for (const p of [owner, analyst, agent, client, again]) {
      expect(p.errors).toEqual([]);
      await p.context.close();
    }
  }, 120_000);
});
