// HTTP in for the back end's reports: overview, calls log (and its CSVs), number pools, agents.
// Dates are local days of the domain (`from`, `to`, YYYY-MM-DD); the last 30 days by default.
import { flowAnswerers } from '../reports/flow-answerers.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { AdsCollections } from '../ads/documents.ts';
import { Readable } from 'node:stream';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { CALL_STATUSES } from '@ringtrail/shared';
import { canonicalIn, countryOf } from '../domains/phone-numbers.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { AgentService } from '../agent/service.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { callsCsv, callsPage, NOBODY, type CallFilters } from '../reports/calls-log.ts';
import { ENDED, type Ended } from '../telephony/outcome.ts';
import { googleAdsCsv, microsoftAdsCsv } from '../reports/conversion-files.ts';
import { reportRange, type DayRange } from '../reports/day-range.ts';
import { overviewWithPrevious } from '../reports/overview.ts';
import { poolsReport } from '../reports/pools.ts';
import { domainOf } from './settings-routes.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { maySee, RULES, type Rule } from '../team/roles.ts';
import { accountOf } from './webhooks.ts';
import { callPage } from '../reports/call-page.ts';
import { transcriptSearch } from './transcript-search.ts';
import { transcriptTexts } from '../data/transcript-texts.ts';
import { serveRecording } from '../recordings/serve.ts';
import { deleteRecording } from '../recordings/retention.ts';
import type { RecordingStates } from '../recordings/states.ts';
import type { RecordingStore } from '../recordings/store.ts';
import { TOUCH_MODELS, type TouchModel } from '../reports/touch-models.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { CommerceCollections } from '../commerce/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import type { FlowCollections } from '../flows/documents.ts';
import { flowReport } from '../reports/flow-report.ts';
import { OUTCOMES } from '../analysis/answer.ts';

/** The overview's `model`: how its tables credit calls and sales; last touch when not given. */
function touchModelOf(value: unknown): TouchModel {
  if (value === undefined) return 'last-touch';
  if (!TOUCH_MODELS.includes(value as TouchModel)) throw new ManageFailure(400, `model must be one of ${TOUCH_MODELS.join(', ')}`);
  return value as TouchModel;
}

export function reportRoutes(router: Router, c: TeamCollections & DomainCollections & TrackingCollections & OfflineCollections & TelephonyCollections & DataCollections & ReportCollections & FormCollections & CommerceCollections & TranscriptCollections & WebhookCollections & AdsCollections & FlowCollections, agents: AgentService, can: Can, recordings?: { store: RecordingStore; states: RecordingStates }): void {
  /** The calls log's filters, narrowed to the calls a search by words (`q`) found, and that search. */
  const searchedFilters = async (ctx: Context, domain: DomainDoc, range: DayRange) => {
    const filters = callFilters(ctx.query, countryOf(domain));
    const search = await transcriptSearch(c, domain, range, ctx.query.q);
    return { filters: search ? { ...filters, callIds: search.callIds } : filters, search };
  };
  const report = (path: string, answer: (ctx: Context, domain: DomainDoc) => Promise<void>, rule: Rule = RULES.readReports) =>
    router.get(`/domains/:domain/reports/${path}`, can(rule), async (ctx) => answer(ctx, await domainOf(c, ctx)));

  // Ours (flows/): calls by menu choice, ring group and who answered.
  report('flows', async (ctx, domain) => {
    ctx.body = await flowReport(c, domain, reportRange(ctx.query, domain.timeZone));
  });

  report('overview', async (ctx, domain) => {
    ctx.body = await overviewWithPrevious(c, domain, reportRange(ctx.query, domain.timeZone), touchModelOf(ctx.query.model));
  });

  report('calls', async (ctx, domain) => {
    const page = Number(ctx.query.page ?? 1);
    if (!Number.isInteger(page) || page < 1 || page > 10_000) throw new ManageFailure(400, 'page must be a whole number from 1');
    const range = reportRange(ctx.query, domain.timeZone);
    // `q`: only the calls whose transcripts say it, each with the line that does (transcripts/search.ts).
    const { filters, search } = await searchedFilters(ctx, domain, range);
    const answer = await callsPage(c, domain, range, filters, page);
    if (!search) return void (ctx.body = answer);
    const lines = await search.linesOf(answer.calls.map((call) => call.callId));
    ctx.body = { ...answer, calls: answer.calls.map((call) => ({ ...call, transcriptMatch: lines.get(call.callId) ?? null })), search: { q: ctx.query.q, matches: search.callIds.length, stopped: search.stopped } };
  }, RULES.readCalls);

  report('calls.csv', async (ctx, domain) => {
    const range = reportRange(ctx.query, domain.timeZone);
    const { filters } = await searchedFilters(ctx, domain, range);
    sendCsv(ctx, `calls-${domain.name}-${range.from}-${range.to}.csv`, callsCsv(c, domain, range, filters, (ids) => transcriptTexts(c, ids)));
  });

  report('google-ads.csv', async (ctx, domain) => {
    const range = reportRange(ctx.query, domain.timeZone);
    sendCsv(ctx, `google-ads-${domain.name}-${range.from}-${range.to}.csv`, googleAdsCsv(c, domain, range));
  });

  report('microsoft-ads.csv', async (ctx, domain) => {
    const range = reportRange(ctx.query, domain.timeZone);
    sendCsv(ctx, `microsoft-ads-${domain.name}-${range.from}-${range.to}.csv`, microsoftAdsCsv(c, domain, range));
  });

  /** One call's page: its row, its verdict's author, the match in words, the visit's pages, cart and orders. */
  router.get('/domains/:domain/calls/:callId', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const callId = Number(ctx.params.callId);
    const page = Number.isSafeInteger(callId) ? await callPage(c, agents, domain, callId, { username: memberOf(ctx)._id, role: memberOf(ctx).role }) : null;
    if (!page) throw new ManageFailure(404, `No call ${ctx.params.callId} in this domain`);
    ctx.body = page;
  });

  /** The call's recording, to play (with byte ranges, so a player seeks) or, with `?download=1`, to keep. */
  router.get('/domains/:domain/calls/:callId/recording', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const callId = Number(ctx.params.callId);
    const call = Number.isSafeInteger(callId) ? await c.calls.findOne({ _id: callId, domainId: domain._id }, { projection: { recording: 1 } }) : null;
    if (!call || !recordings || !serveRecording(ctx, recordings.store, call, ctx.query.download === '1')) throw new ManageFailure(404, `No recording of call ${ctx.params.callId} in this domain`);
  });

  /** Deletes the call's recording (its audio; the call says when and by whom). Turning recording off deletes nothing. */
  router.delete('/domains/:domain/calls/:callId/recording', can(RULES.manageDomain, 'recording.delete'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const callId = Number(ctx.params.callId);
    auditing(ctx, { callId });
    const own = Number.isSafeInteger(callId) && (await c.calls.countDocuments({ _id: callId, domainId: domain._id }, { limit: 1 })) > 0;
    if (!own || !recordings || !(await deleteRecording(recordings.states, recordings.store, callId, memberOf(ctx)._id))) throw new ManageFailure(404, `No recording of call ${ctx.params.callId} in this domain`);
    ctx.status = 204;
  });

  report('pools', async (ctx, domain) => {
    const { from, to } = reportRange(ctx.query, domain.timeZone);
    ctx.body = { from, to, ...(await poolsReport(c, domain, from, to)) };
  });

  /** The account's agents, as /agent-api/agentStats computes them (days of its first domain), over
   * the domains the member may see: a member granted some domains sees those domains' figures only. */
  router.get('/reports/agents', can(RULES.readReports), async (ctx) => {
    const member = memberOf(ctx);
    const account = await accountOf(c, member.accountId);
    const seen = (await c.domains.find({ accountId: account._id }, { sort: { _id: 1 }, projection: { name: 1, timeZone: 1 } }).toArray()).filter((d) => maySee(member, d.name));
    const { from, to } = reportRange(ctx.query, seen[0]?.timeZone ?? 'UTC');
    const [stats, answerers] = await Promise.all([seen.length ? agents.stats(account, { startDate: from, endDate: to }, new Date(), seen.map((d) => d._id)) : [], flowAnswerers(c, seen, { from, to })]);
    // Ours (issue 81): who answered through a call flow, beside the spec's agents.
    ctx.body = { from, to, agents: stats, flowAnswerers: answerers };
  });
}

/** A source class to filter by (calls-log.ts sourceFilter); undefined when not given. */
export function sourceClassFilter(source: unknown): string | undefined {
  if (source === undefined || source === '') return undefined;
  if (typeof source !== 'string' || !/^[a-z]+$/.test(source)) throw new ManageFailure(400, 'source must be a source class: paid, organic, social, referral, direct, offline or unattributed');
  return source;
}

/** A filter's `true` or `false`; undefined when not given. */
export function yesNo(value: unknown, refusal: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value !== 'true' && value !== 'false') throw new ManageFailure(400, refusal);
  return value === 'true';
}

/** `country`: the domain's, which reads the number filter as its people write it. */
function callFilters(query: Context['query'], country: string): CallFilters {
  const { status, source, number, firstCall, lead, spam } = query;
  const filters: CallFilters = {};
  if (status) {
    if (typeof status !== 'string' || !([...CALL_STATUSES, 'ONGOING'] as string[]).includes(status)) throw new ManageFailure(400, `status must be one of ${[...CALL_STATUSES, 'ONGOING'].join(', ')}`);
    filters.status = status as CallFilters['status'];
  }
  filters.source = sourceClassFilter(source);
  if (number) {
    const digits = typeof number === 'string' ? canonicalIn(number, country) : null;
    if (!digits) throw new ManageFailure(400, 'number must be a phone number');
    filters.trackingNumber = digits;
  }
  filters.firstCall = yesNo(firstCall, 'firstCall must be true (first calls only) or false (repeat calls only)');
  filters.lead = yesNo(lead, 'lead must be true (leads only) or false (calls that are not)');
  filters.spam = yesNo(spam, 'spam must be true (calls marked spam only) or false (the calls the overview counts: no spam, no blocked caller)');
  filters.tag = tagFilter(query.tag);
  if (query.outcome !== undefined && query.outcome !== '') {
    if (typeof query.outcome !== 'string' || !(OUTCOMES as readonly string[]).includes(query.outcome)) throw new ManageFailure(400, `outcome must be one of ${OUTCOMES.join(', ')}`);
    filters.outcome = query.outcome;
  }
  const score = (name: 'scoreMin' | 'scoreMax') => {
    const raw = query[name];
    if (raw === undefined || raw === '') return undefined;
    const n = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(n) || n < 0 || n > 100) throw new ManageFailure(400, `${name} must be a whole number from 0 to 100`);
    return n;
  };
  filters.scoreMin = score('scoreMin');
  filters.scoreMax = score('scoreMax');
  if (query.direction !== undefined && query.direction !== '') {
    if (query.direction !== 'outbound') throw new ManageFailure(400, 'direction must be outbound (the calls placed from the back end), or absent (the calls received)');
    filters.direction = 'outbound';
  }
  if (query.ended !== undefined && query.ended !== '') {
    if (typeof query.ended !== 'string' || !(ENDED as readonly string[]).includes(query.ended)) throw new ManageFailure(400, `ended must be one of ${ENDED.join(', ')}`);
    filters.ended = query.ended as Ended;
  }
  if (query.answeredBy !== undefined && query.answeredBy !== '') {
    if (typeof query.answeredBy !== 'string' || query.answeredBy.length > 254) throw new ManageFailure(400, 'answeredBy must be a member, a number, or nobody, given once');
    filters.answeredBy = query.answeredBy.trim().toLowerCase() === NOBODY ? NOBODY : query.answeredBy.trim();
  }
  return filters;
}

/** A tag's name to filter by (compared as stored: the account's spelling), or none. */
export function tagFilter(tag: unknown): string | undefined {
  if (tag === undefined || tag === '') return undefined;
  if (typeof tag !== 'string' || tag.length > 40) throw new ManageFailure(400, 'tag must be a tag\'s name, given once');
  return tag;
}

export function sendCsv(ctx: Context, filename: string, lines: AsyncGenerator<string>): void {
  sendFile(ctx, filename, 'text/csv; charset=utf-8', lines);
}

/** A download, written as its generator yields it. */
export function sendFile(ctx: Context, filename: string, type: string, chunks: AsyncGenerator<string>): void {
  ctx.type = type;
  ctx.set('Content-Disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`);
  ctx.body = Readable.from(chunks);
}
