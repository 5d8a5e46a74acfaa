// Answers of the data service (/data-api): call records, daily rows, SMS records. The zod schemas describe them
// for the API reference; the types the collector builds them with are inferred from the schemas.
import { z } from 'zod';

/** A person's verdict on a call, as the data API, the call push and the calls CSV write it. */
/** Ours (issue 56): a lead's conversion with each ad platform. */
const adsConversions = z.array(
  z.object({
    platform: z.string().describe('google, microsoft or meta'),
    state: z.string().describe('queued, sent, accepted (Google processed it), rejected, not-sent; retracting or retracted once a sent lead became not a lead'),
    at: z.string().describe('When it reached that state, ISO 8601 in UTC'),
    reason: z.string().optional().describe("Why it was rejected (the platform's words), not sent (no click id, no consent, too old, not connected, no longer a lead) or not retracted"),
  }),
);

export const VERDICT_WORDS = ['lead', 'not_lead', 'spam'] as const;
export type VerdictWord = (typeof VERDICT_WORDS)[number];

export const callRecord = z.object({
  start_date: z.string().describe('When the call started, DD/MM/YYYY HH:MM:SS in the domain time zone'),
  caller: z.string().describe("The caller's number, as the domain's caller privacy shows it"),
  tracking_number: z.string().describe('The tracking number called'),
  phone: z.string().describe('The destination the call was forwarded to'),
  trigger_type: z.number().int().describe('How the number was shown: see Trigger types'),
  source: z.string().describe('Where the visitor came from (source class, or the offline campaign)'),
  url: z.string().describe('The page that showed the number'),
  referer: z.string().describe("That page's referrer"),
  keyword: z.string().describe('The search or ad keyword'),
  call_path: z.string().describe("The visit's pages, in order"),
  status: z.string().describe('The call status: see Call statuses'),
  duration: z.number().int().describe('Seconds of conversation'),
  billing_duration: z.number().int().describe('Seconds billed'),
  revenue: z.number().describe('Revenue the carrier reported for the call'),
  postcode: z.string().describe('The postcode the caller keyed in, if asked'),
  keypad: z.string().describe('What the caller keyed in'),
  is_redirect: z.boolean().describe('The call went to the no-answer redirect'),
  expired_redirect: z.boolean().describe('The number was no longer held by a visit when the call came in (the assignment had expired)'),
  answer_time: z.number().int().describe('Seconds from the call coming in to its answer'),
  visit_id: z.string().optional().describe('The visit the call is credited to'),
  gclid: z.string().optional().describe("The visit's Google click id"),
  msclkid: z.string().optional().describe("Ours: the visit's Microsoft Advertising click id, present only when known"),
  fbclid: z.string().optional().describe("Ours: the visit's Meta (Facebook, Instagram) click id, present only when known"),
  client_data: z.string().optional().describe('The client data of the view, as a string (JSON for an object)'),
  match_confidence: z.enum(['certain', 'likely', 'possible', 'none']).optional().describe('Ours: how sure the visit match is'),
  match_candidates: z.number().int().optional().describe('Ours: how many visits held the number before the call'),
  first_call: z
    .boolean()
    .nullable()
    .optional()
    .describe("Ours: the caller's first call to the domain; null for an anonymous caller; absent from records rendered before it was kept (npm run rebuild-summaries adds it)"),
  lead: z.boolean().nullable().optional().describe("Ours: a lead, by the domain's lead rule or a person's verdict; absent from records rendered before it was kept"),
  first_touch_source: z
    .string()
    .nullable()
    .optional()
    .describe("Ours: the source (as `source`) of the caller's first visit of the 90 days before the call, linked by the visitor id; the calling visit's own when it carried none; null when no visit led to the call"),
  first_touch_keyword: z.string().nullable().optional().describe("Ours: that first visit's keyword; null when it had none"),
  first_touch_at: z.string().nullable().optional().describe('Ours: when that first visit started, ISO 8601 in UTC (2026-11-20T09:15:02Z); null when no visit led to the call'),
  call_id: z.number().int().optional().describe("Ours: the call's id, stable across pages and reports (the calls log's and the call push's callId): what to deduplicate on; absent from records rendered before it was kept (npm run rebuild-summaries adds it)"),
  verdict: z.enum(VERDICT_WORDS).nullable().optional().describe("Ours: a person's verdict on the call (lead, not_lead, spam), which wins over the lead rule; null when nobody gave one"),
  person_id: z.number().int().nullable().optional().describe("Ours: the person the call is one of (the contacts sharing a phone number, an e-mail address or a visitor id), shared with their form submissions; null for an anonymous caller without a visit; absent from records rendered before people were joined"),
  utm_campaign: z.string().nullable().optional().describe("Ours: the utm_campaign of the visit that led to the call (in its first page's address); null when it had none or no visit led to the call; absent from records rendered before it was kept (npm run rebuild-summaries adds it)"),
  recording: z
    .string()
    .nullable()
    .optional()
    .describe("Ours: where the call's recording is served (GET, with the same api_key parameter as the data API; byte ranges answered), e.g. https://collector.example/data-api/calls/42/recording; null when it has no stored recording"),
  transcript: z
    .string()
    .nullable()
    .optional()
    .describe("Ours: what was said in the call's recording, one turn a line, `caller: …` and `agent: …` (a mono recording's lines have no speaker); card numbers are `[redacted]`; empty when nothing was said; null when the call has no transcript"),
  key_phrases: z
    .array(z.string())
    .nullable()
    .optional()
    .describe("Ours: the labels of the domain's key phrases heard in the transcript (e.g. booked, price), in the domain's order; null when the call has no transcript"),
  tags: z.array(z.string()).optional().describe("Ours: the account's tags on the call (their names), put by a person or a rule; absent from records rendered before tags were kept"),
  value: z.number().nullable().optional().describe("Ours: the lead's value in the domain's currency, set by a person or a rule; null when none; absent from records rendered before values were kept"),
  ads_conversions: adsConversions.optional().describe('Ours: where the lead is with each ad platform the domain is connected to; absent until the lead was queued for one'),
  flow_path: z
    .array(
      z.object({
        step: z.string().describe("The step's key in its flow (`menu`, `sales`)"),
        name: z.string().optional().describe("The step's name as a person gave it (\"Sales team\"); absent when it has none"),
        kind: z.string().describe("The step's kind: `schedule`, `menu`, `ring`, `route`, `voicemail`, `forward`, `say` or `hangup`"),
        input: z.string().optional().describe('The key pressed or the word said, at a menu'),
        target: z.string().optional().describe("The member's name or the number rung, at a ring group"),
        outcome: z.string().describe('What happened there, in words'),
        at: z.string().describe('When, ISO 8601 in UTC'),
      }),
    )
    .optional()
    .describe('Ours: the steps the call took through its call flow, in order (`{step, kind, input?, target?, outcome, at}`: "pressed 2 (Support)", "Ada did not answer (20 s)"); absent for a call that went through no flow (the domain\'s default forward)'),
  answered_by: z.string().nullable().optional().describe("Ours: who answered the call rung through a flow's ring group: the member's name or the number; null when nobody did; absent for a call that went through no flow"),
  analysis: z
    .object({
      summary: z.string(),
      intent: z.string(),
      outcomes: z.record(z.string(), z.enum(['yes', 'no', 'unknown'])),
      lead_score: z.number().int(),
      sentiment: z.enum(['positive', 'neutral', 'negative']),
      answers: z.array(z.object({ question: z.string(), answer: z.enum(['yes', 'no', 'unknown']) })),
    })
    .optional()
    .describe("Ours: what the domain's language model read in the call (docs/analysis.md): a summary, the caller's intent, the outcomes (appointmentBooked, quoteGiven, saleMade, existingCustomer, spam, followUpNeeded: yes, no or unknown; a yes only with its quote found in the transcript), the lead score 0 to 100, the caller's sentiment, the domain's questions answered; absent until the call is analysed"),
  outcome: z.enum(['voicemail', 'abandoned']).optional().describe('Ours, for a call through a call flow whose `status` is NORESPONSE: `voicemail` when nobody answered and the caller left a voicemail (its audio is the `recording`); `abandoned` when the caller hung up before any phone rang (in a menu, a message, a greeting: `abandoned` says where); absent otherwise (a call rung and not answered is missed)'),
  abandoned: z
    .object({ step: z.string().describe('The step the caller left at'), name: z.string().optional().describe("That step's name, when it has one"), kind: z.string().describe("That step's kind"), seconds: z.number().int().describe('How long the caller stayed on the line') })
    .optional()
    .describe('Ours: where and after how long the caller of an `abandoned` call hung up; absent otherwise'),
  crm: z.array(z.object({ crm: z.string(), object: z.string(), id: z.string().nullable(), state: z.string() })).optional().describe("Ours: the call's records in the domain's CRMs (HubSpot, Salesforce) and their state (sent, updated, failed); absent until it was sent to one"),
  direction: z.literal('outbound').optional().describe('Ours: `outbound` for a call a member placed from the back end (click-to-call): `caller` is then the person called, and it is never a lead, a first-time caller nor attributed; absent on calls received'),
  placed_by: z.string().nullable().optional().describe('Ours: the member who placed an outbound call; absent on calls received'),
});
export type CallRecord = z.infer<typeof callRecord>;

export const dailyRow = z.object({
  date: z.string().describe('The local day, YYYY-MM-DD'),
  calls: z.number().int().describe("The day's calls"),
  duration: z.number().int().describe('Their seconds of conversation'),
  revenue: z.number().describe('Their revenue, to the cent'),
});
export type DailyRow = z.infer<typeof dailyRow>;

export const smsRecord = z.object({
  sent_date: z.string().describe('When the SMS was sent, YYYY-MM-DD HH:MM:SS in the domain time zone'),
  caller_phone: z.string().describe("The sender's number, as the domain's caller privacy shows it"),
  tracking_phone: z.string().describe('The tracking number it was sent to'),
  id: z.number().int().describe("The SMS's id"),
  message_content: z.union([z.string(), z.array(z.string())]).describe('The text, or its parts'),
});
export type SmsRecord = z.infer<typeof smsRecord>;

/** Ours: a form submission (type=forms), the contact fields as the visitor sent them. */
export const formRecord = z.object({
  form_id: z.number().int().describe("Ours: the submission's id, stable across pages: what to deduplicate on"),
  start_date: z.string().describe('When it was sent, DD/MM/YYYY HH:MM:SS in the domain time zone (as a call\'s start_date)'),
  source: z.string().describe("The visit's source, as a call's (paid:google, organic:bing, direct...); empty when no visit led to it"),
  keyword: z.string().describe("The visit's keyword; empty when none"),
  page_url: z.string().describe('The page the form is on'),
  form_name: z.string().nullable().describe("The form's name or id, when it has one"),
  fields: z.record(z.string(), z.string()).describe('The captured fields, name to value, as text (never passwords, hidden or payment card fields)'),
  lead: z.boolean().describe('A lead: not spam'),
  spam: z.enum(['honeypot', 'too-fast', 'verdict']).nullable().describe('Why it is spam: the hidden field filled, sent within 2 s of the page opening, or a person said so; null when not'),
  visit_id: z.string().nullable().describe('The visit that led to it'),
  gclid: z.string().nullable().describe("The visit's Google Ads click id"),
  person_id: z.number().int().nullable().describe("Ours: the person this contact is one of (those sharing a phone number, an e-mail address or a visitor id), shared with their calls; null for spam, or without any of them"),
  tags: z.array(z.string()).describe("Ours: the account's tags on the submission (their names), put by a person or a rule"),
  value: z.number().nullable().describe("Ours: the lead's value in the domain's currency, set by a rule; null when none"),
  ads_conversions: adsConversions.optional().describe('Ours: where the lead is with each ad platform the domain is connected to; absent until the lead was queued for one'),
});
export type FormRecord = z.infer<typeof formRecord>;

export const dataAnswer = z.union([
  z.object({
    status: z.literal('OK'),
    total_results: z.number().int().describe('Records in the whole range'),
    next_page: z.number().int().optional().describe('The next page; absent on the last'),
    results: z.array(z.union([callRecord, smsRecord, formRecord])),
  }),
  z.object({ status: z.literal('OK'), results: z.array(dailyRow).describe('One row per day of the range (group_by_day=true)') }),
]);
export type DataAnswer = z.infer<typeof dataAnswer>;
