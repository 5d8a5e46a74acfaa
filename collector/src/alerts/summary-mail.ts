// The weekly or monthly summary as a mail: each figure against the period before (+/- %), the top
// sources and keywords by leads, the missed calls, and the calls per day as a small bar chart drawn
// with table cells (no image: mail clients block them). A plain-text part says the same.
import { day, localeOf, type Clock } from '../domains/dates.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { facts, html, mailPage, type Html } from '../mail/layout.ts';
import { unsubscribeHeaders, type MailBody } from '../mail/message.ts';
import { change, count, money, SOURCE_NAMES } from '../reports/figures.ts';
import type { Summary } from './summaries.ts';

/** The tallest bar of the chart, in pixels. */
const BAR_PX = 60;

export interface SummaryMail {
  summary: Summary;
  to: string;
  domain: Pick<DomainDoc, '_id' | 'timeZone' | 'country'>;
  publicUrl: string;
  unsubscribeUrl: string;
}

export function summaryMail({ summary, to, domain, publicUrl, unsubscribeUrl }: SummaryMail): MailBody {
  const { overview: o, period } = summary;
  const clock: Clock = { timeZone: domain.timeZone, locale: localeOf(domain.country ?? 'FR') };
  const range = `${day(o.from, clock)} to ${day(o.to, clock)}`;
  const before = o.previous!.totals;
  const label = period === 'week' ? 'Weekly' : 'Monthly';
  const versus = (now: number, then: number, written = count) => `${written(now)} (${written(then)} before, ${change(now, then)})`;
  const rows: [string, string][] = [
    ['Visits', versus(o.totals.visits, before.visits)],
    ['Calls', versus(o.totals.calls, before.calls)],
    ['New callers', versus(o.totals.newCallers, before.newCallers)],
    ['Leads', versus(o.totals.leads, before.leads)],
    ['Missed calls', versus(summary.missedCalls, summary.missedBefore)],
    ['Sales', versus(o.totals.orders, before.orders)],
    ['Revenue', versus(o.totals.revenue, before.revenue, (n) => money(n, o.currency))],
  ];
  const top = (title: string, list: { name: string; leads: number; calls: number }[]) =>
    list.length ? [title, ...list.map((r) => `  ${r.name}: ${count(r.leads)} leads, ${count(r.calls)} calls`)] : [];
  const sources = summary.topSources.map((r) => ({ name: SOURCE_NAMES[r.source] ?? r.source, leads: r.leads, calls: r.calls }));
  const keywords = summary.topKeywords.map((r) => ({ name: r.keyword, leads: r.leads, calls: r.calls }));
  const link = `${publicUrl}/manage/#/${encodeURIComponent(domain._id)}/overview?from=${o.from}&to=${o.to}`;
  const footer = `You receive this because the ${period === 'week' ? 'weekly' : 'monthly'} summary of ${domain._id} is on for you in RingTrail (Profile), or an operator sent it.`;
  const text = [
    `${label} summary of ${domain._id}, ${range}, against the ${period === 'week' ? 'week' : 'period'} before.`,
    '',
    ...rows.map(([name, value]) => `${name}: ${value}`),
    '',
    ...top('Top sources by leads:', sources),
    ...top('Top keywords by leads:', keywords),
    '',
    `Calls per day: ${o.days.map((d) => count(d.calls)).join(' ')}`,
    '',
    `The overview: ${link}`,
    footer,
    `Unsubscribe: ${unsubscribeUrl}`,
    '',
  ].join('\n');
  const body = html`<p style="margin:0 0 8px">${range}, against the ${period === 'week' ? 'week' : 'period'} before.</p>
${facts(rows)}
${topTable('Top sources by leads', sources)}${topTable('Top keywords by leads', keywords)}
<p style="margin:16px 0 4px;font-weight:600">Calls per day</p>
${chart(o.days.map((d) => ({ label: day(d.day, clock).slice(0, 5), calls: d.calls })))}`;
  return {
    to,
    subject: `${label} summary of ${domain._id}: ${count(o.totals.calls)} calls, ${count(o.totals.leads)} leads (${range})`,
    text,
    html: mailPage({ heading: `${label} summary of ${domain._id}`, body, link: { url: link, label: 'Open the overview' }, footer, unsubscribeUrl }),
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}

function topTable(title: string, list: { name: string; leads: number; calls: number }[]): Html | '' {
  if (!list.length) return '';
  return html`<p style="margin:16px 0 4px;font-weight:600">${title}</p>${facts(list.map((r) => [r.name, `${count(r.leads)} leads, ${count(r.calls)} calls`]))}`;
}

/** Bars of calls per day: one table cell each, its height the day's share of the busiest day. */
function chart(days: { label: string; calls: number }[]): Html {
  const most = Math.max(1, ...days.map((d) => d.calls));
  const width = Math.max(8, Math.floor(520 / Math.max(1, days.length)) - 4);
  return html`<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:separate;border-spacing:2px 0"><tr style="vertical-align:bottom">${days.map(
    (d) => html`<td title="${d.label}: ${d.calls}" style="width:${width}px;vertical-align:bottom;text-align:center;font-size:10px;color:#5b6472">${d.calls}<div style="height:${Math.max(1, Math.round((d.calls / most) * BAR_PX))}px;background:#1d63ed;border-radius:2px 2px 0 0"></div></td>`,
  )}</tr><tr>${days.map((d) => html`<td style="font-size:10px;color:#5b6472;text-align:center;padding-top:2px">${days.length <= 10 ? d.label : ''}</td>`)}</tr></table>`;
}
