// HTTP in for rules (rules/, issue 55): the account's tags, a domain's rules (their preview over the
// last 30 days), and what a person marks on a call or a form (tags, a call's value). Owners and
// admins write rules and tags; analysts read rules and tag; agents tag and value the calls they see.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { FormWrites } from '../forms/form-writes.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, refusedAs400 } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import type { PeopleCollections } from '../people/documents.ts';
import { rowOf as formRowOf } from '../reports/forms-log.ts';
import { rowOf } from '../reports/calls-log.ts';
import type { RuleCollections, RuleDoc, RuleRunDoc } from '../rules/documents.ts';
import { RuleRuns, RunRefused } from '../rules/rule-runs.ts';
import { reportRange } from '../reports/day-range.ts';
import { localDaysBetween } from '../domains/time-zone.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import { Outbox } from '../webhooks/outbox.ts';
import { HandMarks } from '../rules/hand-marks.ts';
import { previewRule } from '../rules/preview.ts';
import { pastTexts } from '../texting/rule-texts.ts';
import type { TextingCollections } from '../texting/documents.ts';
import { ruleBody } from '../rules/rule-input.ts';
import { RuleRefused, RuleStore } from '../rules/rule-store.ts';
import { tagBody, TagRefused, Tags, tagName } from '../rules/tags.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES, type Rule } from '../team/roles.ts';
import { webhookShown } from '../rules/webhook-shown.ts';
import { mailNamed, stoppedOf } from '../alerts/rule-mails.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { domainOf } from './settings-routes.ts';

export const tagsBody = z.object({ tags: z.array(tagName).max(50, 'at most 50 tags').describe("All its tags, names of the account's") }).strict();
export const valueBody = z.object({ value: z.number({ error: 'must be a number, or null to clear it' }).finite('must be a number').min(0, 'must be 0 or more').max(1_000_000_000, 'must be at most 1000000000').nullable().describe("In the domain's currency; null clears it") }).strict();

/** A refusal of this family as the back end's 400. */
const refusing = <T>(work: () => Promise<T>) => refusedAs400(work, RuleRefused, TagRefused, RunRefused);

/** A rule as its readers see it: a chat action's webhook whole (`whole`: the member may edit rules)
 * or as its host and last four characters (rules/webhook-shown.ts). */
const ruleView = ({ _id, domainId: _domain, ...rule }: RuleDoc, whole: boolean, stopped: readonly string[] = []) => {
  // Who left by any rule's link of the account is mailed by this one no more either (rule-mails.ts).
  const unsubscribed = [...new Set([...(rule.unsubscribed ?? []), ...mailNamed(rule).filter((recipient) => stopped.includes(recipient))])];
  return {
    id: _id,
    ...rule,
    ...(unsubscribed.length ? { unsubscribed } : {}),
    actions: rule.actions.map((action) => (action.type === 'chat' && !whole ? { ...action, url: webhookShown(action.url) } : action)),
  };
};

/** Whether the member signed in may edit rules, and so read their webhooks whole. */
const editsRules = (ctx: Context) => (RULES.writeRules.roles as readonly string[] | undefined)?.includes(memberOf(ctx).role) ?? false;

export const applyBody = z.object({ from: z.string().describe('The first day, YYYY-MM-DD in the domain time zone'), to: z.string().describe('The last day, YYYY-MM-DD (at most 366 days in all)') }).strict();

const runView = ({ _id, domainId: _domain, ...run }: RuleRunDoc) => ({ id: _id, ...run });

export function ruleRoutes(router: Router, c: RuleCollections & DomainCollections & TelephonyCollections & FormCollections & PeopleCollections & WebhookCollections & TeamCollections & TextingCollections, can: Can, calls: CallWrites, forms: FormWrites, { publicOnly, runs = new RuleRuns(c, calls, forms, new Outbox(c)) }: { publicOnly: boolean; runs?: RuleRuns }): void {
  const tags = new Tags(c);
  const rules = new RuleStore(c, publicOnly);
  const marks = new HandMarks(c, calls, forms);

  router.get('/account/tags', can(RULES.readCalls), async (ctx) => {
    ctx.body = { tags: (await tags.list(memberOf(ctx).accountId)).map(({ name, colour }) => ({ name, colour })) };
  });

  router.post('/account/tags', can(RULES.writeRules, 'tag.create'), parseBody, async (ctx) => {
    const body = valid(tagBody, bodyOf(ctx.request));
    auditing(ctx, { tag: body.name });
    const tag = await refusing(() => tags.create(memberOf(ctx).accountId, body, memberOf(ctx)._id));
    ctx.status = 201;
    ctx.body = { name: tag.name, colour: tag.colour };
  });

  router.get('/domains/:domain/rules', can(RULES.readRules), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const stopped = await stoppedOf(c, domain.accountId);
    ctx.body = { rules: (await rules.list(domain._id)).map((rule) => ruleView(rule, editsRules(ctx), stopped)) };
  });

  router.post('/domains/:domain/rules', can(RULES.writeRules, 'rule.create'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = valid(ruleBody, bodyOf(ctx.request));
    const rule = await refusing(() => rules.create(domain, body, memberOf(ctx)._id));
    auditing(ctx, { rule: rule.name, ruleId: rule._id });
    ctx.status = 201;
    ctx.body = ruleView(rule, true);
  });

  router.put('/domains/:domain/rules/:ruleId', can(RULES.writeRules, 'rule.update'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = valid(ruleBody, bodyOf(ctx.request));
    const rule = await refusing(() => rules.update(domain, ctx.params.ruleId!, body, memberOf(ctx)._id));
    if (!rule) throw new ManageFailure(404, `No rule ${ctx.params.ruleId} in this domain`);
    auditing(ctx, { rule: rule.name, ruleId: rule._id, enabled: rule.enabled });
    ctx.body = ruleView(rule, true);
  });

  router.delete('/domains/:domain/rules/:ruleId', can(RULES.writeRules, 'rule.delete'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const rule = await rules.get(domain._id, ctx.params.ruleId!);
    if (!rule || !(await rules.delete(domain._id, rule._id))) throw new ManageFailure(404, `No rule ${ctx.params.ruleId} in this domain`);
    auditing(ctx, { rule: rule.name, ruleId: rule._id });
    ctx.status = 204;
  });

  router.post('/domains/:domain/rules/:ruleId/preview', can(RULES.readRules), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const rule = await rules.get(domain._id, ctx.params.ruleId!);
    if (!rule) throw new ManageFailure(404, `No rule ${ctx.params.ruleId} in this domain`);
    ctx.body = await previewRule(c, domain, rule, (domainId, from, to, limit) => pastTexts(c, domainId, from, to, limit));
  });

  router.post('/domains/:domain/rules/:ruleId/apply', can(RULES.writeRules, 'rule.apply'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const rule = await rules.get(domain._id, ctx.params.ruleId!);
    if (!rule) throw new ManageFailure(404, `No rule ${ctx.params.ruleId} in this domain`);
    const range = reportRange(valid(applyBody, bodyOf(ctx.request)), domain.timeZone);
    const { $gte, $lt } = localDaysBetween(range.from, range.to, domain.timeZone);
    const run = await refusing(() => runs.start(domain, rule, $gte, $lt, memberOf(ctx)._id));
    auditing(ctx, { rule: rule.name, ruleId: rule._id, runId: run._id, from: range.from, to: range.to });
    ctx.status = 202;
    ctx.body = runView(run);
  });

  router.get('/domains/:domain/rules/:ruleId/runs', can(RULES.readRules), async (ctx) => {
    const domain = await domainOf(c, ctx);
    ctx.body = { runs: (await runs.list(domain._id, ctx.params.ruleId!)).map(runView) };
  });

  router.post('/domains/:domain/rules/:ruleId/runs/:runId/undo', can(RULES.writeRules, 'rule.undo'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const known = await c.ruleRuns.findOne({ _id: ctx.params.runId!, domainId: domain._id, ruleId: ctx.params.ruleId! }, { projection: { _id: 1 } });
    const run = known && (await refusing(() => runs.undo(domain, known._id, memberOf(ctx)._id)));
    if (!run) throw new ManageFailure(404, `No run ${ctx.params.runId} of this rule`);
    auditing(ctx, { rule: run.ruleName, ruleId: run.ruleId, runId: run._id });
    ctx.status = 202;
    ctx.body = runView(run);
  });

  /** A person's mark on one call or form: its body checked, the change audited, its row answered. */
  const markRoute = <S extends z.ZodType>(kind: 'call' | 'form', suffix: string, rule: Rule, schema: S, mark: (domain: DomainDoc, id: number, body: z.infer<S>, by: string) => Promise<unknown | null>) =>
    router.put(`/domains/:domain/${kind}s/:${kind}Id/${suffix}`, can(rule, `${kind}.${suffix}`), parseBody, async (ctx) => {
      const domain = await domainOf(c, ctx);
      const body = valid(schema, bodyOf(ctx.request));
      const param = ctx.params[`${kind}Id`];
      const id = Number(param);
      auditing(ctx, { [`${kind}Id`]: id, ...(body as object) });
      const row = Number.isSafeInteger(id) ? await refusing(() => mark(domain, id, body, memberOf(ctx)._id)) : null;
      if (!row) throw new ManageFailure(404, kind === 'call' ? `No call ${param} in this domain` : `No form submission ${param} in this domain`);
      ctx.body = row;
    });
  const callRow = (domain: DomainDoc) => (call: CallDoc | null) => call && rowOf(call, domain);
  markRoute('call', 'tags', RULES.tagCalls, tagsBody, (domain, id, { tags: names }, by) => marks.tagCall(domain, id, names, by).then(callRow(domain)));
  markRoute('call', 'value', RULES.giveVerdicts, valueBody, (domain, id, { value }, by) => marks.valueCall(domain, id, value, by).then(callRow(domain)));
  markRoute('form', 'tags', RULES.tagCalls, tagsBody, (domain, id, { tags: names }, by) => marks.tagForm(domain, id, names, by).then((form) => form && formRowOf(form)));
}
