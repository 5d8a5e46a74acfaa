// The overview of a domain over a range of local days: visits, views, calls, form leads and sales in
// total, per day, per source class, per keyword, campaign and landing page (dimensions.ts), the
// calls, form leads and sales of the tables credited by a touch model (last touch, last non-direct,
// first touch), and the people who became leads. It reads counters only (traffic-days.ts, with
// call-sources.ts, form-sources.ts and people/lead-people.ts; dimension-months.ts): a year is one
// range of at most 366 small documents and 12 months of the tables.
import type { CreditedCounts, TrafficDayDoc, ReportCollections } from './documents.ts';
import { MODEL_FIELD, modelPrefix, type TouchModel } from './touch-models.ts';
import { DimensionMonths, splitByMonth } from './dimension-months.ts';
import { DAY_FIELD, DIMENSIONS, valueOfKey, type Dimension } from './dimensions.ts';
import { TrafficDays } from './traffic-days.ts';
import { daysBetween, previousRange, type DayRange } from './day-range.ts';

export const SOURCE_CLASSES = ['paid', 'organic', 'social', 'referral', 'direct'] as const;
/** Rows of each table shown (keywords, campaigns, landing pages), those with the most calls (then visits) first. */
const TABLE_ROWS = 50;

export interface Row {
  visits: number;
  views: number;
  calls: number;
  /** Ours: the calls that were their caller's first to the domain. */
  newCallers: number;
  /** Ours: the calls that are leads (telephony/leads.ts), and leads per visit. */
  leads: number;
  leadRate: number;
  /** Ours: the form submissions that are leads (reports/form-sources.ts). */
  formLeads: number;
  /** Ours (totals, days and sources only): the people whose first lead, a call or a form, was in the
   * period, each once however many contacts they made (people/lead-people.ts). */
  leadPeople?: number;
  /** Calls per visit (tables), or calls that came from a page view per view (totals, days: an
   * offline number's or an unattributed call came from no view); 0 without visits or views. */
  conversionRate: number;
  orders: number;
  revenue: number;
}

export interface Overview {
  from: string;
  to: string;
  /** Ours: how the source and keyword tables credit calls and sales (reports/touch-models.ts). */
  model: TouchModel;
  currency: string;
  /** `blocked`: calls of blocked callers, `spam`: calls a person marked spam; `calls` and every
   * other figure leave both out. Ours: `forms`, the form submissions but spam, `formSpam` the spam. */
  /** `missed`, `abandoned`, `voicemails`: ours (issue 80), the calls nobody answered, told apart. */
  totals: Row & { answered: number; missed: number; abandoned: number; voicemails: number; blocked: number; spam: number; forms: number; formSpam: number };
  days: ({ day: string } & Row)[];
  sources: ({ source: string } & Row)[];
  keywords: ({ keyword: string } & Row)[];
  /** Ours: by utm_campaign, and by the path of the visit's first page. */
  campaigns: ({ campaign: string } & Row)[];
  landingPages: ({ path: string } & Row)[];
  /** Ours (transcripts/): the calls in which each key phrase label was heard, by source class and by
   * campaign as the model credits them, the most heard first. */
  keyPhrases: KeyPhraseRow[];
  /** Ours (rules/): calls by tag, by source class and campaign as the model credits them, the most first. */
  tags: KeyPhraseRow[];
  /** Ours (rules/): the values set on calls and form submissions (by people and rules), in the domain's
   * currency, summed as the counts are: in total, by source class, keyword, campaign and landing page as
   * the model credits them. Apart from the rows, which keep their shape; a row without value is left out. */
  values: Values;
  /** Ours (analysis/): what the language model read in the calls, counted as the calls are: the
   * appointments booked, the sales made and the average lead score, in total, by source class,
   * keyword and campaign as the model credits them (rows with an analysed call only). */
  analysis: AnalysisFigures;
  /** Ours: the period of the same length just before, to compare with: its totals and its days. */
  previous?: { from: string; to: string; totals: Overview['totals']; days: Overview['days'] };
}

export interface Values {
  total: number;
  /** The total of the period just before (beside `previous`). */
  previousTotal?: number;
  sources: Record<string, number>;
  keywords: { keyword: string; value: number }[];
  campaigns: { campaign: string; value: number }[];
  landingPages: { path: string; value: number }[];
}

/** The analysed calls of a row, the appointments and sales among them, and their average lead score (null: none analysed). */
export interface AnalysisRow {
  analysed: number;
  appointments: number;
  sales: number;
  averageLeadScore: number | null;
}

export interface AnalysisFigures extends AnalysisRow {
  sources: Record<string, AnalysisRow>;
  keywords: ({ keyword: string } & AnalysisRow)[];
  campaigns: ({ campaign: string } & AnalysisRow)[];
}

export interface KeyPhraseRow {
  label: string;
  calls: number;
  sources: Record<string, number>;
  /** The campaigns with the most of these calls first (at most TABLE_ROWS). */
  campaigns: { campaign: string; calls: number }[];
}

interface Counts {
  visits: number;
  views: number;
  calls: number;
  newCallers: number;
  leads: number;
  formLeads: number;
  leadPeople: number;
  /** Calls credited to a visit: of a source class of the web. */
  webCalls: number;
  orders: number;
  revenueCents: number;
  valueCents: number;
  /** The analysis's (ANALYSIS_PARTS). */
  analysed: number;
  appointments: number;
  salesMade: number;
  scoreSum: number;
}

const zero = (): Counts => ({ visits: 0, views: 0, calls: 0, newCallers: 0, leads: 0, formLeads: 0, leadPeople: 0, webCalls: 0, orders: 0, revenueCents: 0, valueCents: 0, analysed: 0, appointments: 0, salesMade: 0, scoreSum: 0 });
/** Where the analysis's counts are among a day's calls (call-sources.ts), and what they count. */
const ANALYSIS_PARTS = { analysed: 'analysed', booked: 'appointments', sold: 'salesMade', score: 'scoreSum' } as const;
const COUNTS = Object.keys(zero()) as (keyof Counts)[];

export async function overview(c: ReportCollections, domain: { _id: string; currency: string }, from: string, to: string, model: TouchModel = 'last-touch', withTables = true): Promise<Overview> {
  const { months, edgeDays } = splitByMonth(from, to);
  const traffic = new TrafficDays(c);
  const p = modelPrefix(model);
  // The tables: whole months from their monthly counters, the days at the edges from theirs. The
  // totals' calls from a view are the last touch's `calls.src`, whatever the model.
  const parts = Object.keys(ANALYSIS_PARTS) as (keyof typeof ANALYSIS_PARTS)[];
  const tableFields = DIMENSIONS.flatMap((d) => [DAY_FIELD[d], `calls.${p}${DAY_FIELD[d]}`, `calls.new.${p}${DAY_FIELD[d]}`, `calls.lead.${p}${DAY_FIELD[d]}`, `forms.lead.${p}${DAY_FIELD[d]}`, `calls.value.${p}${DAY_FIELD[d]}`, `forms.value.${p}${DAY_FIELD[d]}`, ...parts.map((part) => `calls.${part}.${p}${DAY_FIELD[d]}`)]);
  const analysisFields: Record<string, 1> = Object.fromEntries(parts.flatMap((part) => [[`calls.${part}.total`, 1], [`calls.${part}.${p}src`, 1]]));
  const [days, monthTables, edges] = await Promise.all([
    traffic.read(domain._id, from, to, { visits: 1, views: 1, src: 1, sales: 1, 'calls.total': 1, 'calls.answered': 1, 'calls.missed': 1, 'calls.abandoned': 1, 'calls.voicemail': 1, 'calls.blocked': 1, 'calls.spam': 1, 'calls.src': 1, [`calls.${p}src`]: 1, 'calls.new.total': 1, [`calls.new.${p}src`]: 1, 'calls.lead.total': 1, [`calls.lead.${p}src`]: 1, 'forms.total': 1, 'forms.spam': 1, 'forms.lead.total': 1, [`forms.lead.${p}src`]: 1, 'leadPeople.total': 1, [`leadPeople.${p}src`]: 1, 'calls.kp': 1, [`calls.${p}kps`]: 1, [`calls.${p}kpc`]: 1, 'calls.tg': 1, [`calls.${p}tgs`]: 1, [`calls.${p}tgc`]: 1, 'calls.value.total': 1, [`calls.value.${p}src`]: 1, 'forms.value.total': 1, [`forms.value.${p}src`]: 1, ...analysisFields }),
    withTables ? new DimensionMonths(c).read(domain._id, months, model) : null,
    withTables ? traffic.readDays(domain._id, edgeDays, Object.fromEntries(tableFields.map((f) => [f, 1]))) : [],
  ]);
  // The counters of the calls as the model credits them: the last touch's are at the top.
  const field = MODEL_FIELD[model];
  const credited = (counts: (CreditedCounts & Partial<Record<'firstTouch' | 'lastNonDirect', CreditedCounts>>) | undefined) => (field ? counts?.[field] : counts);
  const trafficOf = new Map(days.map((d) => [d.day, d]));
  const totals = zero();
  const sources = new Map<string, Counts>();
  for (const day of days) {
    add(totals, dayCounts(day));
    // Visits and views are their own source's in every model; sales as the model credits them.
    for (const [key, counts] of Object.entries(day.src ?? {})) add(entry(sources, key), field ? { visits: counts.visits, views: counts.views } : counts);
    if (field) for (const [key, sales] of Object.entries(day.sales?.[field] ?? {})) add(entry(sources, key), sales);
    for (const [key, calls] of Object.entries(credited(day.calls)?.src ?? {})) entry(sources, key).calls += calls;
    for (const [key, calls] of Object.entries(credited(day.calls?.new)?.src ?? {})) entry(sources, key).newCallers += calls;
    for (const [key, calls] of Object.entries(credited(day.calls?.lead)?.src ?? {})) entry(sources, key).leads += calls;
    for (const [key, forms] of Object.entries(credited(day.forms?.lead)?.src ?? {})) entry(sources, key).formLeads += forms;
    for (const [key, people] of Object.entries(credited(day.leadPeople)?.src ?? {})) entry(sources, key).leadPeople += people;
    for (const values of [credited(day.calls?.value), credited(day.forms?.value)]) for (const [key, cents] of Object.entries(values?.src ?? {})) entry(sources, key).valueCents += cents;
    for (const part of parts) for (const [key, n] of Object.entries(credited(day.calls?.[part])?.src ?? {})) entry(sources, key)[ANALYSIS_PARTS[part]] += n;
  }
  /** A table's rows: its months' counters, then its edge days'. */
  const table = (d: Dimension) => {
    const rows = new Map<string, Counts>();
    for (const [key, counts] of monthTables?.[d] ?? []) add(entry(rows, key), { ...counts, newCallers: counts.newCalls, valueCents: counts.callValueCents + counts.formValueCents, analysed: counts.analysedCalls, scoreSum: counts.leadScoreSum });
    const f = DAY_FIELD[d];
    for (const day of edges) {
      for (const [key, counts] of Object.entries(day[f] ?? {})) add(entry(rows, key), { visits: counts.visits, ...((field ? counts[field] : counts) ?? {}) });
      for (const [key, calls] of Object.entries(credited(day.calls)?.[f] ?? {})) entry(rows, key).calls += calls;
      for (const [key, calls] of Object.entries(credited(day.calls?.new)?.[f] ?? {})) entry(rows, key).newCallers += calls;
      for (const [key, calls] of Object.entries(credited(day.calls?.lead)?.[f] ?? {})) entry(rows, key).leads += calls;
      for (const [key, forms] of Object.entries(credited(day.forms?.lead)?.[f] ?? {})) entry(rows, key).formLeads += forms;
      for (const values of [credited(day.calls?.value), credited(day.forms?.value)]) for (const [key, cents] of Object.entries(values?.[f] ?? {})) entry(rows, key).valueCents += cents;
      for (const part of parts) for (const [key, n] of Object.entries(credited(day.calls?.[part])?.[f] ?? {})) entry(rows, key)[ANALYSIS_PARTS[part]] += n;
    }
    return [...rows.entries()]
      .map(([key, counts]) => ({ name: valueOfKey(key), counts, ...tableRow(counts) }))
      .sort((a, b) => b.calls - a.calls || b.visits - a.visits || a.name.localeCompare(b.name))
      .slice(0, TABLE_ROWS);
  };
  const [keywords, campaigns, landingPages] = [table('keyword'), table('campaign'), table('landingPage')];
  /** The rows' values, those with one. */
  const valuesOf = <K extends string>(rows: ReturnType<typeof table>, name: K) => rows.filter((r) => r.counts.valueCents).map((r) => ({ [name]: r.name, value: r.counts.valueCents / 100 }) as Record<K, string> & { value: number });
  const rowsOf = <K extends string>(rows: ReturnType<typeof table>, name: K) => rows.map(({ name: n, counts: _, ...r }) => ({ [name]: n, ...r }) as Record<K, string> & Row);
  /** The rows' analysis figures, those with an analysed call. */
  const analysedOf = <K extends string>(rows: ReturnType<typeof table>, name: K) => rows.filter((r) => r.counts.analysed).map((r) => ({ [name]: r.name, ...analysisRow(r.counts) }) as Record<K, string> & AnalysisRow);
  const classes = [...SOURCE_CLASSES, ...[...sources.keys()].filter((k) => !(SOURCE_CLASSES as readonly string[]).includes(k)).sort()];
  return {
    from,
    to,
    model,
    currency: domain.currency,
    totals: {
      ...row(totals, 'views'),
      answered: sum(days, (day) => day.calls?.answered),
      missed: sum(days, (day) => day.calls?.missed),
      abandoned: sum(days, (day) => day.calls?.abandoned),
      voicemails: sum(days, (day) => day.calls?.voicemail),
      blocked: sum(days, (day) => day.calls?.blocked),
      spam: sum(days, (day) => day.calls?.spam),
      forms: sum(days, (day) => day.forms?.total),
      formSpam: sum(days, (day) => day.forms?.spam),
    },
    days: daysBetween(from, to).map((day) => ({ day, ...row(dayCounts(trafficOf.get(day)), 'views') })),
    sources: classes.map((source) => ({ source, ...row(sources.get(source) ?? zero(), 'visits') })),
    keywords: rowsOf(keywords, 'keyword'),
    campaigns: rowsOf(campaigns, 'campaign'),
    landingPages: rowsOf(landingPages, 'path'),
    keyPhrases: labelRows(days.map((day) => ({ all: day.calls?.kp, bySource: credited(day.calls)?.kps, byCampaign: credited(day.calls)?.kpc }))),
    tags: labelRows(days.map((day) => ({ all: day.calls?.tg, bySource: credited(day.calls)?.tgs, byCampaign: credited(day.calls)?.tgc }))),
    values: {
      total: totals.valueCents / 100,
      sources: Object.fromEntries(classes.flatMap((source) => (sources.get(source)?.valueCents ? [[source, sources.get(source)!.valueCents / 100]] : []))),
      keywords: valuesOf(keywords, 'keyword'),
      campaigns: valuesOf(campaigns, 'campaign'),
      landingPages: valuesOf(landingPages, 'path'),
    },
    analysis: {
      ...analysisRow(totals),
      sources: Object.fromEntries(classes.flatMap((source) => (sources.get(source)?.analysed ? [[source, analysisRow(sources.get(source)!)]] : []))),
      keywords: analysedOf(keywords, 'keyword'),
      campaigns: analysedOf(campaigns, 'campaign'),
    },
  };
}

function analysisRow(counts: Counts): AnalysisRow {
  return { analysed: counts.analysed, appointments: counts.appointments, sales: counts.salesMade, averageLeadScore: counts.analysed ? Math.round((counts.scoreSum / counts.analysed) * 10) / 10 : null };
}

/** A table of labels (key phrases heard, tags): each label's calls, by source class and campaign. */
function labelRows(days: { all?: Record<string, number> | undefined; bySource?: Record<string, Record<string, number>> | undefined; byCampaign?: Record<string, Record<string, number>> | undefined }[]): KeyPhraseRow[] {
  const rows = new Map<string, { calls: number; sources: Map<string, number>; campaigns: Map<string, number> }>();
  const rowOf = (key: string) => rows.get(key) ?? rows.set(key, { calls: 0, sources: new Map(), campaigns: new Map() }).get(key)!;
  const addTo = (into: Map<string, number>, key: string, n: number) => into.set(key, (into.get(key) ?? 0) + n);
  for (const day of days) {
    for (const [key, n] of Object.entries(day.all ?? {})) rowOf(key).calls += n;
    for (const [key, bySource] of Object.entries(day.bySource ?? {})) for (const [source, n] of Object.entries(bySource)) addTo(rowOf(key).sources, source, n);
    for (const [key, byCampaign] of Object.entries(day.byCampaign ?? {})) for (const [campaign, n] of Object.entries(byCampaign)) addTo(rowOf(key).campaigns, campaign, n);
  }
  return [...rows.entries()]
    .filter(([, r]) => r.calls > 0)
    .map(([key, r]) => ({
      label: valueOfKey(key),
      calls: r.calls,
      sources: Object.fromEntries([...r.sources].filter(([, n]) => n > 0)),
      campaigns: [...r.campaigns].filter(([, n]) => n > 0).map(([k, calls]) => ({ campaign: valueOfKey(k), calls })).sort((a, b) => b.calls - a.calls || a.campaign.localeCompare(b.campaign)).slice(0, TABLE_ROWS),
    }))
    .sort((a, b) => b.calls - a.calls || a.label.localeCompare(b.label));
}

const sum = (days: TrafficDayDoc[], count: (day: TrafficDayDoc) => number | undefined) => days.reduce((n, day) => n + (count(day) ?? 0), 0);

const entry = (table: Map<string, Counts>, key: string) => table.get(key) ?? table.set(key, zero()).get(key)!;

function dayCounts(day: TrafficDayDoc | undefined): Partial<Counts> {
  const webCalls = SOURCE_CLASSES.reduce((n, source) => n + (day?.calls?.src?.[source] ?? 0), 0);
  return { visits: day?.visits, views: day?.views, calls: day?.calls?.total, newCallers: day?.calls?.new?.total, leads: day?.calls?.lead?.total, formLeads: day?.forms?.lead?.total, leadPeople: day?.leadPeople?.total, webCalls, orders: day?.sales?.orders, revenueCents: day?.sales?.revenueCents, valueCents: (day?.calls?.value?.total ?? 0) + (day?.forms?.value?.total ?? 0), analysed: day?.calls?.analysed?.total, appointments: day?.calls?.booked?.total, salesMade: day?.calls?.sold?.total, scoreSum: day?.calls?.score?.total };
}

function add(into: Counts, counts: Partial<Counts>): void {
  for (const key of COUNTS) into[key] += counts[key] ?? 0;
}

function row(counts: Partial<Counts>, per: 'visits' | 'views'): Row {
  const visits = counts.visits ?? 0;
  const views = counts.views ?? 0;
  const calls = counts.calls ?? 0;
  const [converted, base] = per === 'visits' ? [calls, visits] : [counts.webCalls ?? 0, views];
  const leads = counts.leads ?? 0;
  return { visits, views, calls, newCallers: counts.newCallers ?? 0, leads, leadRate: rate(leads, visits), formLeads: counts.formLeads ?? 0, leadPeople: counts.leadPeople ?? 0, conversionRate: rate(converted, base), orders: counts.orders ?? 0, revenue: (counts.revenueCents ?? 0) / 100 };
}

/** A row of a table of named things: no count of people (they are counted by source class only). */
function tableRow(counts: Partial<Counts>): Row {
  const { leadPeople: _, ...rest } = row(counts, 'visits');
  return rest;
}

/** A share to four decimals; 0 over nothing. */
const rate = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 10_000 : 0);

/** The overview of a range, with the period of the same length just before it beside it. */
export async function overviewWithPrevious(c: ReportCollections, domain: { _id: string; currency: string }, range: DayRange, model: TouchModel = 'last-touch'): Promise<Overview> {
  const before = previousRange(range);
  const [current, previous] = await Promise.all([overview(c, domain, range.from, range.to, model), overview(c, domain, before.from, before.to, model, false)]);
  return { ...current, values: { ...current.values, previousTotal: previous.values.total }, previous: { ...before, totals: previous.totals, days: previous.days } };
}
