// The back end's forms (issue 43): the forms log and its CSV, one submission's page, and a person's
// verdict on one.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { formPage, formsCsv, formsPage, rowOf, type FormFilters } from '../reports/forms-log.ts';
import { sendCsv, sourceClassFilter, tagFilter, yesNo } from './report-routes.ts';
import type { FormWrites } from '../forms/form-writes.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { reportRange } from '../reports/day-range.ts';
import { auditing, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import { domainOf } from './settings-routes.ts';
import { valid } from '../http/manage-validate.ts';
import { verdictBody } from './verdict-routes.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { AdsCollections } from '../ads/documents.ts';

export function formsRoutes(router: Router, c: DomainCollections & TrackingCollections & FormCollections & WebhookCollections & AdsCollections, can: Can, writes: FormWrites): void {
  router.get('/domains/:domain/reports/forms', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const page = Number(ctx.query.page ?? 1);
    if (!Number.isInteger(page) || page < 1 || page > 10_000) throw new ManageFailure(400, 'page must be a whole number from 1');
    ctx.body = await formsPage(c, domain, reportRange(ctx.query, domain.timeZone), formFilters(ctx.query), page);
  });

  router.get('/domains/:domain/reports/forms.csv', can(RULES.readReports), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const range = reportRange(ctx.query, domain.timeZone);
    sendCsv(ctx, `forms-${domain.name}-${range.from}-${range.to}.csv`, formsCsv(c, domain, range, formFilters(ctx.query)));
  });

  router.get('/domains/:domain/forms/:formId', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const formId = Number(ctx.params.formId);
    const form = Number.isSafeInteger(formId) ? await formPage(c, domain, formId) : null;
    if (!form) throw new ManageFailure(404, `No form submission ${ctx.params.formId} in this domain`);
    ctx.body = form;
  });

  /** Lead, not a lead or spam, as for calls; null undoes it (the spam signals count again). */
  router.put('/domains/:domain/forms/:formId/verdict', can(RULES.giveVerdicts, 'form.verdict'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const { verdict } = valid(verdictBody, bodyOf(ctx.request));
    const formId = Number(ctx.params.formId);
    auditing(ctx, { formId, verdict });
    const form = Number.isSafeInteger(formId) ? await writes.setVerdict(domain, formId, verdict) : null;
    if (!form) throw new ManageFailure(404, `No form submission ${ctx.params.formId} in this domain`);
    ctx.body = rowOf(form);
  });
}

function formFilters(query: Context['query']): FormFilters {
  return {
    source: sourceClassFilter(query.source),
    lead: yesNo(query.lead, 'lead must be true (leads only) or false (submissions that are not)'),
    spam: yesNo(query.spam, 'spam must be true (spam only) or false (no spam)'),
    tag: tagFilter(query.tag),
  };
}
