// The back end's forms log (ours): a domain's submissions of a range, newest first, a page at a time,
// with the count, filtered by source class, lead and spam; the same as CSV; one submission with the
// visitor's pages; how a person's verdict on one wins over the spam signals. Knows nothing of HTTP.
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { AdsCollections } from '../ads/documents.ts';
import { retryingJobs, type RetryingJob } from './retrying-jobs.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { localDaysBetween, localTime } from '../domains/time-zone.ts';
import type { DayRange } from './day-range.ts';
import type { Filter } from 'mongodb';
import { CSV_MAX_ROWS, LOG_COUNT_LIMIT, LOG_PAGE_SIZE, sourceFilter } from './calls-log.ts';
import { UNATTRIBUTED } from './call-sources.ts';
import { csvLine } from './csv.ts';
import type { FormDoc, FormSpamReason, FormCollections, FormVerdict } from '../forms/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';

/** The words of a call's verdict (telephony/leads.ts). */
export interface FormRow {
  formId: number;
  submittedAt: Date;
  pageUrl: string;
  formName: string | null;
  source: string | null;
  keyword: string | null;
  fields: Record<string, string>;
  lead: boolean;
  spam: FormSpamReason | null;
  verdict: FormVerdict | null;
  personId: number | null;
  /** Ours (rules/): its tags and a lead's value. */
  tags: string[];
  value: number | null;
}

export const rowOf = (f: FormDoc): FormRow => ({
  formId: f._id,
  submittedAt: f.submittedAt,
  pageUrl: f.pageUrl,
  formName: f.formName,
  source: f.source,
  keyword: f.keyword,
  fields: f.fields,
  lead: f.lead,
  spam: f.spam,
  verdict: f.verdict ?? null,
  personId: f.personId,
  tags: f.tags ?? [],
  value: f.value ?? null,
});

export interface FormFilters {
  /** A source class (`paid`), or `unattributed`. */
  source?: string | undefined;
  lead?: boolean | undefined;
  /** Spam only (true), or none (false). */
  spam?: boolean | undefined;
  /** Only the submissions with this tag (rules/). */
  tag?: string | undefined;
}

function filterOf(domain: DomainDoc, range: DayRange, filters: FormFilters): Filter<FormDoc> {
  return {
    domainId: domain._id,
    submittedAt: localDaysBetween(range.from, range.to, domain.timeZone),
    ...sourceFilter(filters.source),
    ...(filters.tag ? { tags: filters.tag } : {}),
    ...(filters.lead !== undefined ? { lead: filters.lead } : {}),
    ...(filters.spam !== undefined ? { spam: filters.spam ? { $ne: null } : null } : {}),
  };
}

export async function formsPage(c: FormCollections & WebhookCollections & AdsCollections, domain: DomainDoc, range: DayRange, filters: FormFilters, page: number): Promise<{ forms: (FormRow & { retrying: RetryingJob[] })[]; page: number; pageSize: number; hasMore: boolean; total: number; totalCapped: boolean }> {
  const filter = filterOf(domain, range, filters);
  const [forms, total] = await Promise.all([
    c.forms.find(filter, { sort: { submittedAt: -1, _id: -1 }, skip: (page - 1) * LOG_PAGE_SIZE, limit: LOG_PAGE_SIZE + 1 }).toArray(),
    c.forms.countDocuments(filter, { limit: LOG_COUNT_LIMIT }),
  ]);
  const shown = forms.slice(0, LOG_PAGE_SIZE);
  const retrying = await retryingJobs(c, 'form', shown.map((f) => f._id), domain.timeZone);
  return { forms: shown.map((f) => ({ ...rowOf(f), retrying: retrying.get(f._id) ?? [] })), page, pageSize: LOG_PAGE_SIZE, hasMore: forms.length > LOG_PAGE_SIZE, total, totalCapped: total >= LOG_COUNT_LIMIT };
}

const CSV_COLUMNS = ['Form id', 'Submitted', 'Page', 'Form', 'Source', 'Keyword', 'Campaign', 'Phone', 'E-mail', 'Fields', 'Lead', 'Spam', 'Verdict', 'gclid', 'msclkid', 'Person'];

/** The submissions of the range, newest first, at most CSV_MAX_ROWS; times in the domain's zone, the
 * fields as `name: value` lines, text as sent (csvLine neutralises a formula). */
export async function* formsCsv(c: FormCollections, domain: DomainDoc, range: DayRange, filters: FormFilters): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS);
  const cursor = c.forms.find(filterOf(domain, range, filters), { sort: { submittedAt: -1, _id: -1 }, limit: CSV_MAX_ROWS, batchSize: 1000 });
  for await (const f of cursor) {
    const { day, time } = localTime(f.submittedAt, domain.timeZone);
    const fields = Object.entries(f.fields).map(([name, value]) => `${name}: ${value}`).join('\n');
    yield csvLine([f._id, `${day} ${time}`, f.pageUrl, f.formName, f.source ?? UNATTRIBUTED, f.keyword, f.lastTouch?.campaign, f.phone, f.email, fields, f.lead, f.spam, f.verdict, f.gclid, f.msclkid, f.personId]);
  }
}

/** One submission, and the visitor's pages of its visit up to it. */
export async function formPage(c: TrackingCollections & FormCollections & WebhookCollections & AdsCollections, domain: DomainDoc, formId: number): Promise<(FormRow & { pages: { url: string; title: string; at: Date }[]; retrying: RetryingJob[] }) | null> {
  const form = await c.forms.findOne({ _id: formId, domainId: domain._id });
  if (!form) return null;
  const views = form.visitId === null ? [] : await c.views.find({ visitId: form.visitId, createdAt: { $lte: form.submittedAt } }, { projection: { url: 1, pageTitle: 1, createdAt: 1 }, sort: { createdAt: 1 }, limit: 200 }).toArray();
  const retrying = await retryingJobs(c, 'form', [form._id], domain.timeZone);
  return { ...rowOf(form), pages: views.map((v) => ({ url: v.url, title: v.pageTitle, at: v.createdAt })), retrying: retrying.get(form._id) ?? [] };
}
