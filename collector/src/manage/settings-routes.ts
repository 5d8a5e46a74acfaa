// HTTP in for the back end's settings: domains, keys, pools and numbers, the install check, and
// the account's webhook. Every route is of the signed-in user's account: another account's domain
// answers 404 like a domain that does not exist.
import { BlockedCallers } from '../telephony/blocked-callers.ts';
import type Router from '@koa/router';
import { z } from 'zod';
import type { Context } from 'koa';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { DOMAIN_KEY_FIELDS, type DomainKeyKind } from '../domains/keys.ts';
import { countryOfBody, domainName, domainSettings, domainSettingsIn, poolNumbersCountry, poolSettingsIn } from '../domains/settings.ts';
import { recordingSettingsIn } from '../domains/recording-settings.ts';
import { respotMessage } from '../transcripts/transcriber.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import { domainNumberNamed } from '../domains/pool-numbers.ts';
import { callersDisplay, withPhoneDisplay } from '../domains/phone-display.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, refusedAs400 } from '../http/manage-envelope.ts';
import type { RateLimitCollections } from '../http/documents.ts';
import { DiallingPolicies } from '../dialling/policies.ts';
import { DiallingRefused } from '../dialling/refused.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { createDomain, DOMAIN_NOT_FOUND, domainOfAccount, domainsOfAccount, keyStatus, lastViewAt, rotateDomainKey, updateDomain } from './domains.ts';
import { addNumbers, addPool, listNumbers, numbersShown, poolOf, removeNumber } from './numbers.ts';
import type { OfflineNumbers } from '../offline/service.ts';
import { assignOffline, setOfflineRecording, setOfflineRedirect, unassignOffline } from './offline-numbers.ts';
import { localeQuery, numbersBodyIn, offlineAssignmentIn, offlineRecording, offlineRedirect, webhookEventsBody, webhookUrl } from './bodies.ts';
import { valid } from '../http/manage-validate.ts';
import { currencyOf, localeOfTimeZone } from '../domains/locale.ts';
import { auditing, memberOf, type Can, type SignedIn } from '../team/access.ts';
import { maySee, RULES } from '../team/roles.ts';
import { accountOf, deliveries, resend, rotateCallCenterKey, rotateWebhookSecret, sendTestPush, setWebhookUrl } from './webhooks.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { PeopleCollections } from '../people/documents.ts';

const accountIdOf = (ctx: Context) => memberOf(ctx).accountId;
/** Settings whose value the activity log never keeps: it says they changed. */
const SECRET_SETTINGS = new Set(['ga4ApiSecret']);

type SettingChange = { field: string; from: unknown; to: unknown } | { field: string; changed: true };

/** What a change of settings changed, not every field of the form: each field's value before and
 * after as the back end shows it, a secret only as changed. */
function settingChanges(fields: string[], before: DomainDoc, after: DomainDoc, shownBefore: object, shownAfter: object): SettingChange[] {
  const shown = (view: object, field: string) => (view as Record<string, unknown>)[field] ?? null;
  return fields.flatMap((field): SettingChange[] => {
    if (SECRET_SETTINGS.has(field)) return before[field as keyof DomainDoc] !== after[field as keyof DomainDoc] ? [{ field, changed: true }] : [];
    const [from, to] = [shown(shownBefore, field), shown(shownAfter, field)];
    return JSON.stringify(from) !== JSON.stringify(to) ? [{ field, from, to }] : [];
  });
}

/** The domain named in the path, if it is the signed-in account's and the member may see it
 * (otherwise 404, as for a domain that does not exist); the audit entry names it. */
export async function domainOf(c: DomainCollections, ctx: Context): Promise<DomainDoc> {
  const domain = await domainOfAccount(c, accountIdOf(ctx), ctx.params.domain!);
  if (!maySee(memberOf(ctx), domain.name)) throw new ManageFailure(404, DOMAIN_NOT_FOUND);
  (ctx.state as SignedIn).auditDomain = domain.name;
  return domain;
}

/** A domain as the back end shows it: its settings (its own numbers in its national form, which
 * read back to the same number), which keys it has, and the public key. Secrets are write-only:
 * said to be set or not (ga4ApiSecretSet), never shown, to any role. */
function domainView(domain: DomainDoc) {
  const { ga4ApiSecret, ...settings } = domainSettings.parse(domain);
  const national = (number: string) => nationalOf(number, settings.country);
  return {
    name: domain.name,
    ...settings,
    sitePhones: settings.sitePhones.map(national),
    redirectPhone: settings.redirectPhone && national(settings.redirectPhone),
    // Never set, or set before a field of it was: the defaults of the domain's country (the announcement in its language).
    recording: { ...recordingSettingsIn(settings.country).parse({}), ...domain.recording },
    pools: domain.pools,
    keys: keyStatus(domain),
    publicKey: domain.publicKey ?? null,
    ga4ApiSecretSet: Boolean(ga4ApiSecret),
    ...withPhoneDisplay([...domain.sitePhones, domain.redirectPhone], settings.country),
  };
}

/** The tracking number a route's `:number` names (pool-numbers.ts). */
export async function numberParam(c: DomainCollections, ctx: Context, domain: DomainDoc): Promise<string> {
  return (await domainNumberNamed(c, domain, ctx.params.number!)) ?? ctx.params.number!;
}

export function settingsRoutes(router: Router, c: TeamCollections & DomainCollections & TrackingCollections & OfflineCollections & TelephonyCollections & DataCollections & ReportCollections & FormCollections & PeopleCollections & WebhookCollections & RateLimitCollections, outbox: Outbox, offline: OfflineNumbers, can: Can, { publicWebhooksOnly, publicUrl }: { publicWebhooksOnly: boolean; publicUrl: string }): void {
  const dialling = new DiallingPolicies(c);
  /** The no-answer redirect is dialled on the owner's bill: it passes the account's dialling rules
   * (a new domain's own country among them). */
  const redirectAllowed = async (accountId: string, redirectPhone: string | null | undefined, country?: string) => {
    if (redirectPhone) await refusedAs400(async () => dialling.check(accountId, [{ field: 'redirectPhone', number: redirectPhone }], await dialling.of(accountId, country)), DiallingRefused);
  };

  router.get('/domains', can(RULES.member), async (ctx) => {
    const member = memberOf(ctx);
    ctx.body = (await domainsOfAccount(c, member.accountId)).filter((d) => maySee(member, d.name)).map(domainView);
  });

  /** What a new domain's set-up proposes: the country of the browser's time zone (or the country
   * chosen) and its currency. */
  router.get('/locale', can(RULES.member), (ctx) => {
    const { timeZone, country } = valid(localeQuery, ctx.query);
    ctx.body = country ? { country: country.toUpperCase(), currency: currencyOf(country) } : localeOfTimeZone(timeZone ?? 'UTC');
  });

  router.post('/domains', can(RULES.manageDomain, 'domain.create'), parseBody, async (ctx) => {
    const body = bodyOf(ctx.request);
    // The name first: its problem is the one to say (`127.0.0.1` makes `https://www.127.0.0.1` no origin either).
    const { name, ...settings } = valid(z.object({ name: domainName, ...domainSettingsIn(countryOfBody(body)).shape }), body);
    const member = memberOf(ctx);
    await redirectAllowed(member.accountId, settings.redirectPhone, settings.country);
    const domain = await createDomain(c, member.accountId, name.toLowerCase(), settings);
    // An admin limited to some domains sees the one they made.
    if (member.domains) await c.users.updateOne({ _id: member._id }, { $addToSet: { domains: domain.name } });
    (ctx.state as SignedIn).auditDomain = domain.name;
    ctx.status = 201;
    ctx.body = domainView(domain);
  });

  router.get('/domains/:domain', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    // Ours: whether numbers can be bought and imported through the account's carrier account.
    const carrierConnected = Boolean(await c.accounts.findOne({ _id: domain.accountId, carrier: { $exists: true } }, { projection: { _id: 1 } }));
    // Every number the settings screen shows as the domain's country writes it: its own, its
    // tracking numbers, and its blocked callers when it shows callers whole.
    const [view, shown] = [domainView(domain), await numbersShown(c, domain)];
    // The blocked callers keyed as their list carries them: canonical, masked as the privacy says.
    const blocked = (await new BlockedCallers(c).list(domain._id)).map((e) => e.number);
    const whole = domain.callerPrivacy === 'none' ? withPhoneDisplay(blocked, countryOf(domain)).phoneDisplay : {};
    const phoneDisplay = { ...view.phoneDisplay, ...shown.phoneDisplay, ...whole, ...callersDisplay(blocked, domain, (caller) => caller).phoneDisplay };
    ctx.body = { ...view, ...shown, carrierConnected, ...(Object.keys(phoneDisplay).length ? { phoneDisplay } : {}) };
  });

  router.patch('/domains/:domain', can(RULES.manageDomain, 'domain.settings'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = bodyOf(ctx.request);
    // Numbers sent with a new country are read in it.
    const changes = valid(domainSettingsIn(countryOfBody(body, countryOf(domain))).partial().strict(), body);
    const sent = onlySent(changes, body);
    await redirectAllowed(domain.accountId, sent.redirectPhone, sent.country);
    const updated = await updateDomain(c, domain, sent);
    const after = domainView(updated);
    const changed = settingChanges(Object.keys(sent), domain, updated, domainView(domain), after);
    auditing(ctx, { settings: changed.map((change) => change.field), changes: changed });
    // New key phrases: the transcripts already made are spotted again, in the background.
    if (changed.some((change) => change.field === 'keyPhrases')) await outbox.enqueue(respotMessage(domain.accountId, domain._id));
    ctx.body = after;
  });

  router.post('/domains/:domain/keys/:kind', can(RULES.manageDomain, 'key.rotate'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const kind = ctx.params.kind!;
    if (!Object.hasOwn(DOMAIN_KEY_FIELDS, kind)) throw new ManageFailure(404, `No key ${kind}: keys are ${Object.keys(DOMAIN_KEY_FIELDS).join(', ')}`);
    auditing(ctx, { kind }); // never the key itself
    ctx.body = { kind, key: await rotateDomainKey(c, domain, kind as DomainKeyKind) };
  });

  router.get('/domains/:domain/install', can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const last = await lastViewAt(c, domain._id);
    ctx.body = {
      scriptTag: domain.publicKey ? `<script async src="${publicUrl}/tracker.js" data-key="${domain.publicKey}"></script>` : null,
      allowedOrigins: domain.allowedOrigins,
      lastViewAt: last?.toISOString() ?? null,
      refusedOrigins: [...(domain.refusedOrigins ?? [])].sort((a, b) => b.lastAt.getTime() - a.lastAt.getTime()).map((r) => ({ origin: r.origin, count: r.count, lastAt: r.lastAt.toISOString() })),
    };
  });

  router.post('/domains/:domain/pools', can(RULES.manageDomain, 'pool.add'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = bodyOf(ctx.request);
    const { costGroup, overflowNumber, ...pool } = valid(poolSettingsIn(poolNumbersCountry(body.type, countryOf(domain))), body);
    auditing(ctx, { type: pool.type, usage: pool.usage });
    ctx.status = 201;
    ctx.body = domainView(await addPool(c, domain, { ...pool, ...(costGroup ? { costGroup } : {}), ...(overflowNumber ? { overflowNumber } : {}) }));
  });

  router.post('/domains/:domain/pools/:type/numbers', can(RULES.manageDomain, 'numbers.add'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const pool = poolOf(domain, Number(ctx.params.type));
    const { numbers } = valid(numbersBodyIn(poolNumbersCountry(pool.type, countryOf(domain))), bodyOf(ctx.request));
    auditing(ctx, { type: pool.type, numbers });
    await addNumbers(c, domain, pool, numbers);
    ctx.body = await listNumbers(c, domain);
  });

  router.delete('/domains/:domain/numbers/:number', can(RULES.manageDomain, 'numbers.remove'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const number = await numberParam(c, ctx, domain);
    auditing(ctx, { number });
    await removeNumber(c, domain, number);
    ctx.status = 204;
  });

  router.post('/domains/:domain/offline-numbers/:number/assign', can(RULES.manageDomain, 'offline-number.assign'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const { destination, description, recording, ...redirect } = valid(offlineAssignmentIn(countryOf(domain)), bodyOf(ctx.request));
    const number = await numberParam(c, ctx, domain);
    auditing(ctx, { number, destination, description, ...(recording === undefined ? {} : { recording }) });
    await assignOffline(c, offline, domain, number, destination, description, redirect);
    if (recording !== undefined) await setOfflineRecording(c, domain, number, recording);
    ctx.body = await listNumbers(c, domain);
  });

  /** Ours: an assigned offline number's calls recorded as the domain says, or never. */
  router.post('/domains/:domain/offline-numbers/:number/recording', can(RULES.manageDomain, 'offline-number.recording'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const number = await numberParam(c, ctx, domain);
    const { recording } = valid(offlineRecording, bodyOf(ctx.request));
    auditing(ctx, { number, recording });
    await setOfflineRecording(c, domain, number, recording);
    ctx.body = await listNumbers(c, domain);
  });

  router.post('/domains/:domain/offline-numbers/:number/redirect', can(RULES.manageDomain, 'offline-number.redirect'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const number = await numberParam(c, ctx, domain);
    const redirect = valid(offlineRedirect, bodyOf(ctx.request));
    auditing(ctx, { number, allowRedirect: redirect.allowRedirect });
    await setOfflineRedirect(offline, domain, number, redirect);
    ctx.body = await listNumbers(c, domain);
  });

  router.post('/domains/:domain/offline-numbers/:number/unassign', can(RULES.manageDomain, 'offline-number.unassign'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const number = await numberParam(c, ctx, domain);
    auditing(ctx, { number });
    await unassignOffline(offline, domain, number);
    ctx.body = await listNumbers(c, domain);
  });

  router.get('/account', can(RULES.manageAccount), async (ctx) => {
    const account = await accountOf(c, accountIdOf(ctx));
    ctx.body = { name: account.name, webhookUrl: account.webhookUrl ?? null, webhookSecretSet: Boolean(account.webhookSecret), webhookEvents: account.webhookEvents ?? [], callCenterKeySet: Boolean(account.callCenterApiKeyHash) };
  });

  router.put('/account/webhook/events', can(RULES.manageAccount, 'webhook.events'), parseBody, async (ctx) => {
    const { events } = valid(webhookEventsBody, bodyOf(ctx.request));
    auditing(ctx, { events });
    await c.accounts.updateOne({ _id: accountIdOf(ctx) }, { $set: { webhookEvents: events } });
    ctx.body = { webhookEvents: events };
  });

  router.put('/account/webhook', can(RULES.manageAccount, 'webhook.url'), parseBody, async (ctx) => {
    const { url } = valid(webhookUrl, bodyOf(ctx.request));
    auditing(ctx, { url });
    ctx.body = await setWebhookUrl(c, await accountOf(c, accountIdOf(ctx)), url, { publicOnly: publicWebhooksOnly });
  });

  router.post('/account/webhook/test', can(RULES.manageAccount, 'webhook.test'), async (ctx) => {
    ctx.status = 202;
    ctx.body = { id: await sendTestPush(outbox, await accountOf(c, accountIdOf(ctx))) };
  });

  router.post('/account/webhook/secret', can(RULES.manageAccount, 'key.rotate'), async (ctx) => {
    auditing(ctx, { kind: 'webhook-secret' });
    ctx.body = { secret: await rotateWebhookSecret(c, await accountOf(c, accountIdOf(ctx))) };
  });

  router.post('/account/keys/call-center', can(RULES.manageAccount, 'key.rotate'), async (ctx) => {
    auditing(ctx, { kind: 'call-center' });
    ctx.body = { kind: 'call-center', key: await rotateCallCenterKey(c, await accountOf(c, accountIdOf(ctx))) };
  });

  router.get('/account/deliveries', can(RULES.manageAccount), async (ctx) => {
    const limit = Math.min(Math.max(Number(ctx.query.limit) || 50, 1), 500);
    const log = await deliveries(c, await accountOf(c, accountIdOf(ctx)), limit);
    ctx.body = log.map((d) => ({ id: d._id, messageId: d.messageId, attempt: d.attempt, at: d.at.toISOString(), kind: d.kind, type: d.label, stream: d.stream, outcome: d.outcome, httpStatus: d.httpStatus, error: d.error, body: d.body }));
  });

  router.post('/account/deliveries/:id/resend', can(RULES.manageAccount, 'webhook.resend'), async (ctx) => {
    ctx.status = 202;
    auditing(ctx, { delivery: ctx.params.id });
    ctx.body = { id: await resend(c, outbox, await accountOf(c, accountIdOf(ctx)), ctx.params.id!) };
  });
}

/** The settings the request named: zod fills the others with their defaults, which would reset them. */
function onlySent<T extends object>(parsed: T, body: Record<string, unknown>): Partial<T> {
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => k in body)) as Partial<T>;
}
