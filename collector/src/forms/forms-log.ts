// The back end's forms log (ours): a domain's submissions of a range, newest first, a page at a time,
// with the count; one submission with the visitor's pages; a person's verdict on one, which wins
// over the spam signals. Knows nothing of HTTP.
import type { Collections } from '../db/collections.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { localDaysBetween } from '../domains/time-zone.ts';
import type { DayRange } from '../reports/day-range.ts';
import { LOG_COUNT_LIMIT, LOG_PAGE_SIZE } from '../reports/calls-log.ts';
import type { VERDICTS } from '../telephony/leads.ts';
import type { FormDoc, FormSpamReason } from './documents.ts';

/** The words of a call's verdict (telephony/leads.ts). */
export type FormVerdict = (typeof VERDICTS)[number];

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
});

export async function formsPage(c: Collections, domain: DomainDoc, range: DayRange, page: number): Promise<{ forms: FormRow[]; page: number; pageSize: number; hasMore: boolean; total: number; totalCapped: boolean }> {
  const filter = { domainId: domain._id, submittedAt: localDaysBetween(range.from, range.to, domain.timeZone) };
  const [forms, total] = await Promise.all([
    c.forms.find(filter, { sort: { submittedAt: -1, _id: -1 }, skip: (page - 1) * LOG_PAGE_SIZE, limit: LOG_PAGE_SIZE + 1 }).toArray(),
    c.forms.countDocuments(filter, { limit: LOG_COUNT_LIMIT }),
  ]);
  return { forms: forms.slice(0, LOG_PAGE_SIZE).map(rowOf), page, pageSize: LOG_PAGE_SIZE, hasMore: forms.length > LOG_PAGE_SIZE, total, totalCapped: total >= LOG_COUNT_LIMIT };
}

/** One submission, and the visitor's pages of its visit up to it. */
export async function formPage(c: Collections, domain: DomainDoc, formId: number): Promise<(FormRow & { pages: { url: string; title: string; at: Date }[] }) | null> {
  const form = await c.forms.findOne({ _id: formId, domainId: domain._id });
  if (!form) return null;
  const views = form.visitId === null ? [] : await c.views.find({ visitId: form.visitId, createdAt: { $lte: form.submittedAt } }, { projection: { url: 1, pageTitle: 1, createdAt: 1 }, sort: { createdAt: 1 }, limit: 200 }).toArray();
  return { ...rowOf(form), pages: views.map((v) => ({ url: v.url, title: v.pageTitle, at: v.createdAt })) };
}

/** Spam and lead from the signals and a person's verdict, which wins. */
export function judged(signal: FormDoc['signal'], verdict: FormVerdict | null): Pick<FormDoc, 'spam' | 'lead'> {
  if (verdict === null) return { spam: signal, lead: signal === null };
  return { spam: verdict === 'spam' ? 'verdict' : null, lead: verdict === 'lead' };
}
