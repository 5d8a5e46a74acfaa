// The reports' traffic counters per day and their tables' counters per month (keywords, campaigns,
// landing pages): the shapes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';

/** Visits, views or sales of a day, in total or for one source class or keyword. */
export interface TrafficCounts {
  visits?: number;
  views?: number;
  orders?: number;
  revenueCents?: number;
}

export interface CallSourceCounts {
  total?: number;
  answered?: number;
  /** Ours (issue 80): calls nobody answered, told apart: rung and missed, abandoned in a flow before any phone rang, a voicemail left. */
  missed?: number;
  abandoned?: number;
  voicemail?: number;
  /** Calls of blocked callers (CALLER_PHONE_BLACKLISTED): in none of the other counters. */
  blocked?: number;
  /** Calls a person marked spam: in none of the other counters either. */
  spam?: number;
  src?: Record<string, number>;
  kw?: Record<string, number>;
  /** Ours: the same calls by the source and keyword of the visitor's first touch and last non-direct
   * one (reports/touch-models.ts); `src` and `kw` above are the last touch's. */
  firstTouch?: CreditedCounts;
  lastNonDirect?: CreditedCounts;
  /** The callers' first calls among them (ours): `total`, by source class and by keyword, by model. */
  new?: { total?: number } & CreditedCounts & TouchCounts;
  /** The leads among them (ours, telephony/leads.ts), the same way. */
  lead?: { total?: number } & CreditedCounts & TouchCounts;
  /** Ours (transcripts/): calls by key phrase label heard; by source class and campaign in `kps`, `kpc`. */
  kp?: Record<string, number>;
  kps?: Record<string, Record<string, number>>;
  kpc?: Record<string, Record<string, number>>;
  /** Ours (rules/): calls by tag; by source class and campaign in `tgs`, `tgc`. */
  tg?: Record<string, number>;
  tgs?: Record<string, Record<string, number>>;
  tgc?: Record<string, Record<string, number>>;
  /** Ours (rules/): the calls' values in cents, at the places they are counted in (`total`, `src`, `cmp`…). */
  value?: { total?: number } & CreditedCounts & TouchCounts;
  /** Ours (analysis/): the calls analysed, those that booked an appointment, those that made a sale,
   * and the sum of their lead scores, at the same places. */
  analysed?: { total?: number } & CreditedCounts & TouchCounts;
  booked?: { total?: number } & CreditedCounts & TouchCounts;
  sold?: { total?: number } & CreditedCounts & TouchCounts;
  score?: { total?: number } & CreditedCounts & TouchCounts;
}

/** Form submissions of a day: all but spam (`total`), spam, and the leads among them as calls are counted. */
export interface FormSourceCounts {
  total?: number;
  spam?: number;
  lead?: { total?: number } & CreditedCounts & TouchCounts;
  /** Ours (rules/): the submissions' values in cents, as calls' are. */
  value?: { total?: number } & CreditedCounts & TouchCounts;
}

/** Calls by source class and by the key of each table (reports/dimensions.ts): keyword, campaign, landing page. */
export interface CreditedCounts {
  src?: Record<string, number>;
  kw?: Record<string, number>;
  cmp?: Record<string, number>;
  lp?: Record<string, number>;
  /** Ours (transcripts/): calls by key phrase label heard, then by source class, or by campaign key. */
  kps?: Record<string, Record<string, number>>;
  kpc?: Record<string, Record<string, number>>;
  tgs?: Record<string, Record<string, number>>;
  tgc?: Record<string, Record<string, number>>;
}

interface TouchCounts {
  firstTouch?: CreditedCounts;
  lastNonDirect?: CreditedCounts;
}

/** Sales credited to one source class. */
export interface SourceSales {
  orders?: number;
  revenueCents?: number;
}

/** A domain's traffic of one local day (reports/traffic-days.ts). */
export interface TrafficDayDoc extends TrafficCounts {
  _id: string; // `<domainId>|<YYYY-MM-DD>`
  domainId: string;
  day: string;
  botViews?: number;
  /** The day's last view, bots' included: the back end's "views have arrived" check. */
  lastViewAt?: Date;
  /** By the visit's source class. */
  src?: Record<string, TrafficCounts>;
  /** By the visit's keyword, campaign and landing page, keyed by `keyOf(value)` (reports/dimensions.ts):
   * visits, and sales by the last touch (at the top) and the other touch models (under their field). */
  kw?: Record<string, DimensionCounts>;
  cmp?: Record<string, DimensionCounts>;
  lp?: Record<string, DimensionCounts>;
  /** All sales; by the last touch's source class they are in `src`, by the other touch models here (ours). */
  sales?: { orders: number; revenueCents: number; firstTouch?: Record<string, SourceSales>; lastNonDirect?: Record<string, SourceSales> };
  /** Calls whose outcome is known (reports/call-sources.ts): all, answered, by source class and by keyword. */
  calls?: CallSourceCounts;
  /** Ours: form submissions (reports/form-sources.ts). */
  forms?: FormSourceCounts;
  /** Ours: people whose first lead was this day (people/lead-people.ts): all, by source class, by model. */
  leadPeople?: { total?: number; src?: Record<string, number>; firstTouch?: { src?: Record<string, number> }; lastNonDirect?: { src?: Record<string, number> } };
  /** By online pool type, then local hour `HH`: visitors refused a number (the pool was exhausted, or
   * held back: their address held its limit), and the most numbers held. */
  pools?: Record<string, { refused?: Record<string, number>; heldBack?: Record<string, number>; peak?: Record<string, number> }>;
}

/** One value's visits and sales in a day's table. */
export interface DimensionCounts extends SourceSales {
  visits?: number;
  firstTouch?: SourceSales;
  lastNonDirect?: SourceSales;
}

/** A domain's counters per keyword of one month (keyed by `keyOf`, reports/dimension-months.ts), at the
 * top; per campaign and landing page the same under `cmp` and `lp`. */
export interface KeywordMonthDoc extends MonthTable {
  _id: string; // `<domainId>|<YYYY-MM>`
  domainId: string;
  month: string;
  cmp?: MonthTable;
  lp?: MonthTable;
}

/** One table's counters of a month, per key. */
export interface MonthTable extends MonthCredited {
  visits?: Record<string, number>;
  /** Ours: calls, sales by the other touch models (reports/touch-models.ts). */
  firstTouch?: MonthCredited;
  lastNonDirect?: MonthCredited;
}

/** Calls, first calls of their callers, leads, sales and their revenue, per key. */
export interface MonthCredited {
  calls?: Record<string, number>;
  newCalls?: Record<string, number>;
  leads?: Record<string, number>;
  /** Ours: form submissions that are leads (reports/form-sources.ts). */
  formLeads?: Record<string, number>;
  orders?: Record<string, number>;
  revenueCents?: Record<string, number>;
  /** Ours (rules/): the values of calls and of form submissions, in cents. */
  callValueCents?: Record<string, number>;
  formValueCents?: Record<string, number>;
}

/** The reports family's collections, as its services receive them. */
export interface ReportCollections {
  trafficDays: Collection<TrafficDayDoc>;
  keywordMonths: Collection<KeywordMonthDoc>;
}

export function reportCollections(db: Db): ReportCollections {
  return collectionsNamed<ReportCollections>(db, { trafficDays: 'traffic_days', keywordMonths: 'keyword_months' });
}
