// Who may call what: every route of the management API called as each role, as a member limited
// to another domain, as a member of another account and signed out, against the table below,
// which is written here, not read from the code: a route added later without a rule, or with a
// rule other than this table's, fails.
import { describe, expect, it } from 'vitest';
import { AgentService } from '../../collector/src/agent/service.ts';
import { LiveCalls } from '../../collector/src/agent/live-calls.ts';
import { createLogger } from '../../collector/src/logger.ts';
import type { AllCollections } from '../../collector/src/house/all-collections.ts';
import { manageRoutes } from '../../collector/src/manage/routes.ts';
import { DEFAULT_SIGN_IN_LIMITS, SignInLimit } from '../../collector/src/team/sign-in-limit.ts';
import { OfflineNumbers } from '../../collector/src/offline/service.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { wireCallWrites, wireFormWrites } from '../../collector/src/house/writes.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { teamFixture, TEAM_PASSWORD } from '../helpers/team.ts';

type Who = 'owner' | 'admin' | 'analyst' | 'agent';
const ALL: Who[] = ['owner', 'admin', 'analyst', 'agent'];
const READERS: Who[] = ['owner', 'admin', 'analyst'];
const DOMAIN_ADMINS: Who[] = ['owner', 'admin'];
const OWNER: Who[] = ['owner'];

/** Each route (as the router names it): who may call it ('anyone': signed in or not), and a call
 * of it that changes nothing a later call needs (an invalid body, an unknown id). */
const TABLE: Record<string, { may: Who[] | 'anyone'; call: [string, unknown?] }> = {
  'GET /manage/api/config': { may: 'anyone', call: ['/config'] },
  'POST /manage/api/signup': { may: 'anyone', call: ['/signup', {}] },
  'POST /manage/api/session': { may: 'anyone', call: ['/session', {}] },
  'POST /manage/api/invitations/check': { may: 'anyone', call: ['/invitations/check', { token: 'x'.repeat(43) }] },
  'POST /manage/api/invitations/accept': { may: 'anyone', call: ['/invitations/accept', { token: 'x'.repeat(43), password: 'a password of mine' }] },
  'POST /manage/api/password-reset': { may: 'anyone', call: ['/password-reset', {}] },
  'GET /manage/api/session': { may: ALL, call: ['/session'] },
  'DELETE /manage/api/session': { may: ALL, call: ['/session'] },
  'PUT /manage/api/session/password': { may: ALL, call: ['/session/password', { current: 'not mine', password: 'short' }] },
  'GET /manage/api/session/sessions': { may: ALL, call: ['/session/sessions'] },
  'DELETE /manage/api/session/sessions/:id': { may: ALL, call: ['/session/sessions/unknown'] },
  'DELETE /manage/api/session/sessions': { may: ALL, call: ['/session/sessions'] },
  'GET /manage/api/account/members': { may: OWNER, call: ['/account/members'] },
  'POST /manage/api/account/members': { may: OWNER, call: ['/account/members', { username: 'not an address', role: 'agent' }] },
  'PATCH /manage/api/account/members/:username': { may: OWNER, call: ['/account/members/nobody@team.test', { role: 'nope' }] },
  'DELETE /manage/api/account/members/:username': { may: OWNER, call: ['/account/members/nobody@team.test'] },
  'POST /manage/api/account/members/:username/reset': { may: OWNER, call: ['/account/members/nobody@team.test/reset'] },
  'DELETE /manage/api/account/invitations/:id': { may: OWNER, call: ['/account/invitations/unknown'] },
  'GET /manage/api/account/activity': { may: DOMAIN_ADMINS, call: ['/account/activity'] },
  'GET /manage/api/domains/:domain/activity': { may: DOMAIN_ADMINS, call: ['/domains/a.test/activity'] },
  'GET /manage/api/mail': { may: ALL, call: ['/mail'] },
  'GET /manage/api/alerts': { may: ALL, call: ['/alerts'] },
  'PUT /manage/api/domains/:domain/alerts': { may: ALL, call: ['/domains/a.test/alerts', { weekly: 'yes' }] },
  'POST /manage/api/mail/test': { may: ALL, call: ['/mail/test'] },
  'GET /manage/api/locale': { may: ALL, call: ['/locale?timeZone=America/Chicago'] },
  'GET /manage/api/domains': { may: ALL, call: ['/domains'] },
  'POST /manage/api/domains': { may: DOMAIN_ADMINS, call: ['/domains', { name: '' }] },
  'GET /manage/api/domains/:domain': { may: ALL, call: ['/domains/a.test'] },
  'PATCH /manage/api/domains/:domain': { may: DOMAIN_ADMINS, call: ['/domains/a.test', { timeZone: 'Not/AZone' }] },
  'POST /manage/api/domains/:domain/keys/:kind': { may: DOMAIN_ADMINS, call: ['/domains/a.test/keys/nope'] },
  'GET /manage/api/domains/:domain/install': { may: DOMAIN_ADMINS, call: ['/domains/a.test/install'] },
  'POST /manage/api/domains/:domain/pools': { may: DOMAIN_ADMINS, call: ['/domains/a.test/pools', {}] },
  'POST /manage/api/domains/:domain/pools/:type/numbers': { may: DOMAIN_ADMINS, call: ['/domains/a.test/pools/1/numbers', {}] },
  'DELETE /manage/api/domains/:domain/numbers/:number': { may: DOMAIN_ADMINS, call: ['/domains/a.test/numbers/0800999999'] },
  'POST /manage/api/domains/:domain/pools/:type/numbers/import': { may: DOMAIN_ADMINS, call: ['/domains/a.test/pools/1/numbers/import', {}] },
  'GET /manage/api/domains/:domain/reports/forms': { may: ALL, call: ['/domains/a.test/reports/forms'] },
  'GET /manage/api/domains/:domain/forms/:formId': { may: ALL, call: ['/domains/a.test/forms/1'] },
  'PUT /manage/api/domains/:domain/forms/:formId/verdict': { may: ['owner', 'admin', 'agent'], call: ['/domains/a.test/forms/1/verdict', { verdict: 'lead' }] },
  'GET /manage/api/domains/:domain/people': { may: ALL, call: ['/domains/a.test/people?phone=0611111111'] },
  'GET /manage/api/domains/:domain/people/:personId': { may: ALL, call: ['/domains/a.test/people/1'] },
  'GET /manage/api/domains/:domain/people/:personId/export': { may: DOMAIN_ADMINS, call: ['/domains/a.test/people/999999/export'] },
  'DELETE /manage/api/domains/:domain/people/:personId': { may: DOMAIN_ADMINS, call: ['/domains/a.test/people/999999'] },
  'POST /manage/api/domains/:domain/people/:personId/merge': { may: DOMAIN_ADMINS, call: ['/domains/a.test/people/999999/merge', { with: 999998 }] },
  'GET /manage/api/domains/:domain/pools/:type/numbers/available': { may: DOMAIN_ADMINS, call: ['/domains/a.test/pools/1/numbers/available'] },
  'POST /manage/api/domains/:domain/pools/:type/numbers/buy': { may: DOMAIN_ADMINS, call: ['/domains/a.test/pools/1/numbers/buy', {}] },
  'GET /manage/api/domains/:domain/numbers/:number/release': { may: DOMAIN_ADMINS, call: ['/domains/a.test/numbers/0800999999/release'] },
  'POST /manage/api/domains/:domain/numbers/:number/release': { may: DOMAIN_ADMINS, call: ['/domains/a.test/numbers/0800999999/release'] },
  'POST /manage/api/domains/:domain/numbers/:number/fix': { may: DOMAIN_ADMINS, call: ['/domains/a.test/numbers/0800999999/fix'] },
  'POST /manage/api/domains/:domain/offline-numbers/:number/assign': { may: DOMAIN_ADMINS, call: ['/domains/a.test/offline-numbers/0100000001/assign', {}] },
  'POST /manage/api/domains/:domain/offline-numbers/:number/redirect': { may: DOMAIN_ADMINS, call: ['/domains/a.test/offline-numbers/0100000001/redirect', {}] },
  'POST /manage/api/domains/:domain/offline-numbers/:number/recording': { may: DOMAIN_ADMINS, call: ['/domains/a.test/offline-numbers/0100000001/recording', {}] },
  'POST /manage/api/domains/:domain/offline-numbers/:number/unassign': { may: DOMAIN_ADMINS, call: ['/domains/a.test/offline-numbers/0199999999/unassign'] },
  'GET /manage/api/domains/:domain/shared-links': { may: DOMAIN_ADMINS, call: ['/domains/a.test/shared-links'] },
  'POST /manage/api/domains/:domain/shared-links': { may: DOMAIN_ADMINS, call: ['/domains/a.test/shared-links', { label: 7 }] },
  'DELETE /manage/api/domains/:domain/shared-links/:id': { may: DOMAIN_ADMINS, call: ['/domains/a.test/shared-links/unknown'] },
  'GET /manage/api/domains/:domain/blocked-callers': { may: DOMAIN_ADMINS, call: ['/domains/a.test/blocked-callers'] },
  'POST /manage/api/domains/:domain/blocked-callers': { may: DOMAIN_ADMINS, call: ['/domains/a.test/blocked-callers', {}] },
  'DELETE /manage/api/domains/:domain/blocked-callers/:entry': { may: DOMAIN_ADMINS, call: ['/domains/a.test/blocked-callers/0611111111'] },
  'POST /manage/api/domains/:domain/calls/:callId/block-caller': { may: DOMAIN_ADMINS, call: ['/domains/a.test/calls/999/block-caller'] },
  'DELETE /manage/api/domains/:domain/calls/:callId/block-caller': { may: DOMAIN_ADMINS, call: ['/domains/a.test/calls/999/block-caller'] },
  'PUT /manage/api/domains/:domain/calls/:callId/verdict': { may: ['owner', 'admin', 'agent'], call: ['/domains/a.test/calls/999/verdict', { verdict: 'lead' }] },
  'GET /manage/api/domains/:domain/calls/:callId': { may: ALL, call: ['/domains/a.test/calls/999'] },
  'GET /manage/api/domains/:domain/calls/:callId/recording': { may: ALL, call: ['/domains/a.test/calls/999/recording'] },
  'DELETE /manage/api/domains/:domain/calls/:callId/recording': { may: DOMAIN_ADMINS, call: ['/domains/a.test/calls/999/recording'] },
  'GET /manage/api/domains/:domain/calls/:callId/transcript': { may: ALL, call: ['/domains/a.test/calls/999/transcript'] },
  'GET /manage/api/domains/:domain/transcription': { may: ALL, call: ['/domains/a.test/transcription'] },
  'GET /manage/api/account/tags': { may: ALL, call: ['/account/tags'] },
  'POST /manage/api/account/tags': { may: ['owner', 'admin'], call: ['/account/tags', {}] },
  'GET /manage/api/domains/:domain/rules': { may: READERS, call: ['/domains/a.test/rules'] },
  'POST /manage/api/domains/:domain/rules': { may: DOMAIN_ADMINS, call: ['/domains/a.test/rules', {}] },
  'PUT /manage/api/domains/:domain/rules/:ruleId': { may: DOMAIN_ADMINS, call: ['/domains/a.test/rules/rule_none', {}] },
  'DELETE /manage/api/domains/:domain/rules/:ruleId': { may: DOMAIN_ADMINS, call: ['/domains/a.test/rules/rule_none'] },
  'POST /manage/api/domains/:domain/rules/:ruleId/preview': { may: READERS, call: ['/domains/a.test/rules/rule_none/preview'] },
  'POST /manage/api/domains/:domain/rules/:ruleId/apply': { may: DOMAIN_ADMINS, call: ['/domains/a.test/rules/rule_none/apply', {}] },
  'GET /manage/api/domains/:domain/rules/:ruleId/runs': { may: READERS, call: ['/domains/a.test/rules/rule_none/runs'] },
  'POST /manage/api/domains/:domain/rules/:ruleId/runs/:runId/undo': { may: DOMAIN_ADMINS, call: ['/domains/a.test/rules/rule_none/runs/run_none/undo'] },
  'PUT /manage/api/domains/:domain/calls/:callId/tags': { may: ALL, call: ['/domains/a.test/calls/999/tags', { tags: [] }] },
  'PUT /manage/api/domains/:domain/calls/:callId/value': { may: ['owner', 'admin', 'agent'], call: ['/domains/a.test/calls/999/value', { value: 10 }] },
  'PUT /manage/api/domains/:domain/forms/:formId/tags': { may: ALL, call: ['/domains/a.test/forms/1/tags', { tags: [] }] },
  'GET /manage/api/domains/:domain/reports/overview': { may: READERS, call: ['/domains/a.test/reports/overview'] },
  'GET /manage/api/domains/:domain/reports/flows': { may: READERS, call: ['/domains/a.test/reports/flows'] },
  'GET /manage/api/domains/:domain/reports/calls': { may: ALL, call: ['/domains/a.test/reports/calls'] },
  'GET /manage/api/domains/:domain/reports/calls.csv': { may: READERS, call: ['/domains/a.test/reports/calls.csv'] },
  'GET /manage/api/domains/:domain/reports/forms.csv': { may: READERS, call: ['/domains/a.test/reports/forms.csv'] },
  'GET /manage/api/domains/:domain/reports/google-ads.csv': { may: READERS, call: ['/domains/a.test/reports/google-ads.csv'] },
  'GET /manage/api/domains/:domain/reports/microsoft-ads.csv': { may: READERS, call: ['/domains/a.test/reports/microsoft-ads.csv'] },
  'GET /manage/api/domains/:domain/reports/pools': { may: READERS, call: ['/domains/a.test/reports/pools'] },
  'GET /manage/api/reports/agents': { may: READERS, call: ['/reports/agents'] },
  'GET /manage/api/account': { may: OWNER, call: ['/account'] },
  'GET /manage/api/domains/:domain/ads': { may: ALL, call: ['/domains/a.test/ads'] },
  'GET /manage/api/domains/:domain/ads/:platform': { may: DOMAIN_ADMINS, call: ['/domains/a.test/ads/google'] },
  'PUT /manage/api/domains/:domain/ads/:platform': { may: DOMAIN_ADMINS, call: ['/domains/a.test/ads/google', {}] },
  'DELETE /manage/api/domains/:domain/ads/:platform': { may: DOMAIN_ADMINS, call: ['/domains/a.test/ads/nowhere'] },
  'POST /manage/api/domains/:domain/ads/:platform/test': { may: DOMAIN_ADMINS, call: ['/domains/a.test/ads/google/test'] },
  'GET /manage/api/domains/:domain/flows': { may: DOMAIN_ADMINS, call: ['/domains/a.test/flows'] },
  'POST /manage/api/domains/:domain/flows': { may: DOMAIN_ADMINS, call: ['/domains/a.test/flows', {}] },
  'PUT /manage/api/domains/:domain/flows/:flowId': { may: DOMAIN_ADMINS, call: ['/domains/a.test/flows/flow_none', {}] },
  'DELETE /manage/api/domains/:domain/flows/:flowId': { may: DOMAIN_ADMINS, call: ['/domains/a.test/flows/flow_none'] },
  'POST /manage/api/domains/:domain/flow-audio': { may: DOMAIN_ADMINS, call: ['/domains/a.test/flow-audio', {}] },
  'POST /manage/api/domains/:domain/flows/:flowId/simulate': { may: DOMAIN_ADMINS, call: ['/domains/a.test/flows/flow_none/simulate', {}] },
  'PUT /manage/api/domains/:domain/calls/:callId/analysis/outcomes/:name': { may: ['owner', 'admin', 'agent'], call: ['/domains/a.test/calls/1/analysis/outcomes/spam', { answer: 'no' }] },
  'GET /manage/api/domains/:domain/analysis': { may: ALL, call: ['/domains/a.test/analysis'] },
  'GET /manage/api/domains/:domain/crm/:crm': { may: DOMAIN_ADMINS, call: ['/domains/a.test/crm/hubspot'] },
  'PUT /manage/api/domains/:domain/crm/:crm': { may: DOMAIN_ADMINS, call: ['/domains/a.test/crm/hubspot', {}] },
  'DELETE /manage/api/domains/:domain/crm/:crm': { may: DOMAIN_ADMINS, call: ['/domains/a.test/crm/hubspot'] },
  'POST /manage/api/domains/:domain/crm/:crm/test': { may: DOMAIN_ADMINS, call: ['/domains/a.test/crm/hubspot/test'] },
  'POST /manage/api/domains/:domain/crm/:crm/resend/:deliveryId': { may: DOMAIN_ADMINS, call: ['/domains/a.test/crm/hubspot/resend/call:1'] },
  'POST /manage/api/domains/:domain/analysis/try': { may: DOMAIN_ADMINS, call: ['/domains/a.test/analysis/try'] },
  'GET /manage/api/domains/:domain/conversations': { may: ALL, call: ['/domains/a.test/conversations'] },
  'GET /manage/api/domains/:domain/conversations/:conversationId': { may: ALL, call: ['/domains/a.test/conversations/cv_none'] },
  'POST /manage/api/domains/:domain/conversations/:conversationId/messages': { may: ['owner', 'admin', 'agent'], call: ['/domains/a.test/conversations/cv_none/messages', { body: 'Hello' }] },
  'PUT /manage/api/domains/:domain/conversations/:conversationId': { may: ALL, call: ['/domains/a.test/conversations/cv_none', {}] },
  'GET /manage/api/domains/:domain/texting': { may: ALL, call: ['/domains/a.test/texting'] },
  'POST /manage/api/domains/:domain/people/:personId/call': { may: ['owner', 'admin', 'agent'], call: ['/domains/a.test/people/1/call', {}] },
  'PUT /manage/api/domains/:domain/texting': { may: DOMAIN_ADMINS, call: ['/domains/a.test/texting', {}] },
  'GET /manage/api/domains/:domain/conversations/:conversationId/texts/:textId/media/:index': { may: ALL, call: ['/domains/a.test/conversations/cv_none/texts/in:1/media/0'] },
  'POST /manage/api/domains/:domain/conversations/:conversationId/notes': { may: ['owner', 'admin', 'agent'], call: ['/domains/a.test/conversations/cv_none/notes', { text: 'A note' }] },
  'GET /manage/api/domains/:domain/crm/:crm/owners': { may: DOMAIN_ADMINS, call: ['/domains/a.test/crm/hubspot/owners'] },
  'GET /manage/api/domains/:domain/crm/:crm/preview': { may: DOMAIN_ADMINS, call: ['/domains/a.test/crm/hubspot/preview'] },
  'GET /manage/api/domains/:domain/pools/:type/numbers/price': { may: DOMAIN_ADMINS, call: ['/domains/a.test/pools/1/numbers/price'] },
  'GET /manage/api/domains/:domain/texting/us-registration': { may: DOMAIN_ADMINS, call: ['/domains/a.test/texting/us-registration'] },
  'POST /manage/api/domains/:domain/texting/us-registration/campaign': { may: DOMAIN_ADMINS, call: ['/domains/a.test/texting/us-registration/campaign', {}] },
  'GET /manage/api/profile/availability': { may: ALL, call: ['/profile/availability'] },
  'POST /manage/api/softphone/credentials': { may: ['owner', 'admin', 'agent'], call: ['/softphone/credentials', {}] },
  'PUT /manage/api/profile/availability': { may: ALL, call: ['/profile/availability', {}] },
  'GET /manage/api/account/dialling': { may: OWNER, call: ['/account/dialling'] },
  'PUT /manage/api/account/dialling': { may: OWNER, call: ['/account/dialling', { countries: ['nowhere'] }] },
  'GET /manage/api/account/carrier': { may: OWNER, call: ['/account/carrier'] },
  'PUT /manage/api/account/carrier': { may: OWNER, call: ['/account/carrier', {}] },
  'DELETE /manage/api/account/carrier': { may: OWNER, call: ['/account/carrier'] },
  'GET /manage/api/account/carrier/numbers': { may: OWNER, call: ['/account/carrier/numbers'] },
  'POST /manage/api/account/carrier/check': { may: OWNER, call: ['/account/carrier/check'] },
  'PUT /manage/api/account/webhook': { may: OWNER, call: ['/account/webhook', {}] },
  'PUT /manage/api/account/webhook/events': { may: OWNER, call: ['/account/webhook/events', {}] },
  'POST /manage/api/account/webhook/test': { may: OWNER, call: ['/account/webhook/test'] },
  'POST /manage/api/account/webhook/secret': { may: OWNER, call: ['/account/webhook/secret'] },
  'POST /manage/api/account/keys/call-center': { may: OWNER, call: ['/account/keys/call-center'] },
  'GET /manage/api/account/deliveries': { may: OWNER, call: ['/account/deliveries'] },
  'POST /manage/api/account/deliveries/:id/resend': { may: OWNER, call: ['/account/deliveries/unknown/resend'] },
};

/** The router's routes, each with the rule its guard names (undefined: no guard). */
function servedRoutes(c: AllCollections) {
  const services = { outbox: new Outbox(c), agents: new AgentService(c, new LiveCalls(c)), offline: new OfflineNumbers(c), callWrites: wireCallWrites(c), formWrites: wireFormWrites(c) };
  const router = manageRoutes(c, new SignInLimit(c, DEFAULT_SIGN_IN_LIMITS), services, { signUp: true, publicWebhooksOnly: true, mail: {}, publicUrl: 'http://127.0.0.1:8080' }, createLogger('silent'));
  return router.stack.filter((layer) => layer.methods.length).flatMap((layer) => {
    const guard = layer.stack.find((fn) => 'rule' in fn) as { rule?: { roles: readonly string[] | null } } | undefined;
    return layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ route: `${method} ${layer.path}`, roles: guard?.rule ? guard.rule.roles : undefined }));
  });
}

const refusedForRole = (role: string) => ({ status: 403, body: { error: expect.stringMatching(new RegExp(`^Your role \\(${role}\\) may not .+: that takes an (owner|admin)`)) } });

describe('roles, route by route', () => {
  const s = useSeededCollector('manage_roles', teamFixture(), { signInLimits: { perIp: 10_000, perUsernameAndIp: 10_000, signUpsPerIp: 10_000 } });
  const clients = {} as Record<Who | 'limitedAdmin' | 'rival', ManageClient>;
  const signIn = async () => {
    for (const who of [...ALL, 'limitedAdmin', 'rival'] as const) clients[who] ??= await signedInClient(s.collector.baseUrl, `${who}@${who === 'rival' ? 'rival' : 'team'}.test`, TEAM_PASSWORD);
  };
  /** DELETE /session signs its client out: it is called with a session of its own. */
  const clientFor = async (who: keyof typeof clients, route: string) => (route === 'DELETE /manage/api/session' ? signedInClient(s.collector.baseUrl, `${who}@${who === 'rival' ? 'rival' : 'team'}.test`, TEAM_PASSWORD) : clients[who]);

  it('names a rule for every route, and the table has every route with that rule', () => {
    const served = servedRoutes(s.t.c);
    expect(served.filter((r) => r.roles === undefined).map((r) => r.route)).toEqual([]);
    expect(served.map((r) => r.route).sort()).toEqual(Object.keys(TABLE).sort());
    for (const { route, roles } of served) {
      const may = TABLE[route]!.may;
      expect([route, roles === null ? 'anyone' : [...roles!].sort()]).toEqual([route, may === 'anyone' ? 'anyone' : [...may].sort()]);
    }
  });

  it('answers each role as the table says: allowed, or 403 naming what the role may not do', async () => {
    await signIn();
    for (const [route, { may, call }] of Object.entries(TABLE)) {
      const method = route.split(' ')[0]!;
      for (const role of ALL) {
        const answer = await (await clientFor(role, route)).call(method, call[0], call[1]);
        if (may === 'anyone' || may.includes(role)) {
          expect([route, role, answer.status]).not.toEqual([route, role, 403]);
          expect([route, role, answer.status]).not.toEqual([route, role, 401]);
          expect([route, role, answer.body?.error]).not.toEqual([route, role, 'No such domain']);
          expect([route, role, answer.status < 500]).toEqual([route, role, true]);
        } else {
          expect({ route, role, status: answer.status, body: answer.body }).toEqual({ route, role, ...refusedForRole(role) });
        }
      }
    }
  });

  it('answers 401 signed out, and 404 for a domain outside the member\'s or of another account', async () => {
    await signIn();
    for (const [route, { may, call }] of Object.entries(TABLE)) {
      const method = route.split(' ')[0]!;
      if (may !== 'anyone') {
        const res = await fetch(`${s.collector.baseUrl}/manage/api${call[0]}`, { method, headers: { 'content-type': 'application/json' }, ...(call[1] !== undefined ? { body: JSON.stringify(call[1]) } : {}) });
        expect([route, res.status]).toEqual([route, 401]);
      }
      if (!call[0].includes('/domains/a.test')) continue;
      const elsewhere = call[0].replace('/domains/a.test', '/domains/b.test');
      // Limited to a.test: b.test does not exist for them (their role allowing the route).
      for (const who of ['analyst', 'agent', 'limitedAdmin'] as const) {
        const role = who === 'limitedAdmin' ? 'admin' : who;
        if (may !== 'anyone' && !may.includes(role)) continue;
        const res = await clients[who].call(method, elsewhere, call[1]);
        expect({ route, who, status: res.status, body: res.body }).toEqual({ route, who, status: 404, body: { error: 'No such domain' } });
      }
      const rival = await (await clientFor('rival', route)).call(method, call[0], call[1]);
      expect({ route, status: rival.status, body: rival.body }).toEqual({ route, status: 404, body: { error: 'No such domain' } });
    }
  });

  it('lists only the domains a member is given', async () => {
    await signIn();
    const names = async (who: keyof typeof clients) => (await clients[who].get('/domains')).body.map((d: { name: string }) => d.name);
    expect(await names('owner')).toEqual(['a.test', 'b.test']);
    expect(await names('admin')).toEqual(['a.test', 'b.test']);
    expect(await names('limitedAdmin')).toEqual(['a.test']);
    expect(await names('analyst')).toEqual(['a.test']);
    expect(await names('agent')).toEqual(['a.test']);
  });
});
