// What a rule is made of, as a person sends it (`POST/PUT …/rules`), checked field by field: its
// moment, its conditions and its actions. Bounded: MAX_CONDITIONS a rule, text of at most 200
// characters compared as text (never made into a regular expression), numbers within sane ranges.
import type { Filter } from 'mongodb';
import { z } from 'zod';
import { ANALYSIS_OUTCOMES, SENTIMENTS, type CallDoc } from '../telephony/documents.ts';
import { VERDICTS } from '../telephony/leads.ts';

export const MAX_RULES = 100;
export const MAX_CONDITIONS = 20;
export const MAX_ACTIONS = 10;

/** When a rule runs: a call has ended (answered or not), a call's transcript is ready, the language
 * model has read the call (analysis/), a form was sent; ours (issue 68): a text was received. */
export const RULE_MOMENTS = ['call-ended', 'transcript-ready', 'analysis-ready', 'form-sent', 'text-received'] as const;
export type RuleMoment = (typeof RULE_MOMENTS)[number];

/** The calls a call moment's rule is tested on (a past period's, a preview's): those that reached it. */
export function callsAtMoment(moment: RuleMoment): Filter<CallDoc> {
  // A call placed from the back end (issue 68) is no rule's.
  const received = { direction: { $ne: 'outbound' as const } };
  if (moment === 'transcript-ready') return { ...received, 'transcript.status': 'ready' };
  if (moment === 'analysis-ready') return { ...received, 'analysis.status': 'ready' };
  return { ...received, status: { $ne: null } };
}

const text = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').describe('Text, compared in lower case');
const textOp = z.enum(['is', 'contains'], { error: 'must be is or contains' }).describe('is: equal; contains: within it');
const isOnly = z.literal('is', { error: 'must be is' }).describe('is');
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const yesNo = z.enum(['yes', 'no'], { error: 'must be yes or no' }).describe('yes or no');
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day, HH:MM').describe('HH:MM in the domain time zone');

/** The attribution's text fields: the visit's (or offline number's) source, and its first page's. */
export const TEXT_FIELDS = ['sourceClass', 'source', 'medium', 'campaign', 'keyword', 'landingPage'] as const;

export const ruleCondition = z.discriminatedUnion(
  'field',
  [
    z.object({ field: z.enum(TEXT_FIELDS).describe('The attribution: source class (paid, organic…), source (paid:google, or its name google), utm_medium, utm_campaign, keyword, landing page'), op: textOp, value: text }).strict(),
    z.object({ field: z.literal('trackingNumber').describe('The number called'), op: isOnly, value: text }).strict(),
    z.object({ field: z.literal('pool').describe("The number's pool (its type)"), op: isOnly, value: z.number().int().min(0).max(1_000_000).describe('A pool type') }).strict(),
    z.object({ field: z.literal('duration').describe("The call's seconds"), op: z.enum(['atLeast', 'atMost'], { error: 'must be atLeast or atMost' }).describe('atLeast or atMost'), value: z.number().int().min(0, 'must be 0 or more').max(86_400, 'must be at most 86400 seconds').describe('Seconds') }).strict(),
    z.object({ field: z.enum(['answered', 'firstCall', 'hadLead']).describe("Answered; the caller's first call; the person had a lead before"), op: isOnly, value: z.boolean({ error: 'must be true or false' }).describe('true or false') }).strict(),
    z.object({ field: z.literal('callerCountry').describe("The caller's country, from their number"), op: isOnly, value: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code').transform((v) => v.toUpperCase()).describe('ISO 3166 code, FR') }).strict(),
    z.object({ field: z.literal('callerArea').describe("The caller's area: how their national number starts"), op: z.literal('startsWith', { error: 'must be startsWith' }).describe('startsWith'), value: z.string().regex(/^\d{1,8}$/, 'must be 1 to 8 digits of the national number').describe('Digits, 01') }).strict(),
    z.object({ field: z.literal('dayOfWeek').describe('The day in the domain time zone'), op: z.literal('in', { error: 'must be in' }).describe('in'), value: z.array(z.enum(DAYS, { error: `must be one of ${DAYS.join(', ')}` })).min(1, 'needs a day').max(7).describe('mon to sun') }).strict(),
    z.object({ field: z.literal('timeOfDay').describe('The time in the domain time zone (from included, to not; over midnight when to is earlier)'), op: z.literal('between', { error: 'must be between' }).describe('between'), value: z.object({ from: clock, to: clock }).strict().describe('{from, to}') }).strict(),
    z.object({ field: z.literal('keyPhrase').describe("A key phrase's label heard in the transcript"), op: z.literal('said', { error: 'must be said' }).describe('said'), value: text, speaker: z.enum(['caller', 'agent', 'any'], { error: 'must be caller, agent or any' }).default('any').describe('Who said it') }).strict(),
    z.object({ field: z.literal('outcome').describe("An outcome the language model judged (a person's correction wins)"), name: z.enum(ANALYSIS_OUTCOMES, { error: `must be one of ${ANALYSIS_OUTCOMES.join(', ')}` }).describe('The outcome'), op: isOnly, value: yesNo }).strict(),
    z.object({ field: z.literal('leadScore').describe("The language model's lead score"), op: z.enum(['atLeast', 'atMost'], { error: 'must be atLeast or atMost' }).describe('atLeast or atMost'), value: z.number().int().min(0, 'must be 0 or more').max(100, 'must be at most 100').describe('0 to 100') }).strict(),
    z.object({ field: z.literal('sentiment').describe("The caller's sentiment, as the language model read it"), op: isOnly, value: z.enum(SENTIMENTS, { error: `must be one of ${SENTIMENTS.join(', ')}` }).describe(SENTIMENTS.join(', ')) }).strict(),
    z.object({ field: z.literal('answer').describe("The language model's answer to one of the domain's questions"), question: text.describe('The question, as the analysis settings ask it (compared in lower case)'), op: isOnly, value: yesNo }).strict(),
    z.object({ field: z.literal('formField').describe("A form's field"), op: z.literal('contains', { error: 'must be contains' }).describe('contains'), name: text.describe("The field's name"), value: text }).strict(),
    z.object({ field: z.literal('words').describe("Ours (issue 68): a text's words, in lower case"), op: textOp, value: text }).strict(),
  ],
  { error: 'must be a known condition: sourceClass, source, medium, campaign, keyword, landingPage, trackingNumber, pool, duration, answered, firstCall, hadLead, callerCountry, callerArea, dayOfWeek, timeOfDay, keyPhrase, outcome, leadScore, sentiment, answer, formField or words' },
);
export type RuleCondition = z.infer<typeof ruleCondition>;
export type ConditionField = RuleCondition['field'];

/** A mail action's recipients at most: members and an address. */
export const MAX_MAIL_MEMBERS = 20;
const mailAddress = z.email({ error: 'must be an e-mail address' }).max(254, 'must be at most 254 characters').transform((a) => a.toLowerCase());

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2000, 'must be at most 2000 characters');

export const ruleAction = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('tag').describe('Add a tag'), tag: text.describe("One of the account's tags") }).strict(),
    z.object({ type: z.literal('value').describe("Set the lead's value"), amount: z.number({ error: 'must be a number' }).finite('must be a number').min(0, 'must be 0 or more').max(1_000_000_000, 'must be at most 1000000000').describe("In the domain's currency") }).strict(),
    z.object({ type: z.literal('verdict').describe('Set the verdict'), verdict: z.enum(VERDICTS, { error: `must be one of ${VERDICTS.join(', ')}` }).describe('lead, not-lead or spam') }).strict(),
    z.object({ type: z.literal('chat').describe("Post to a chat channel's incoming webhook (Slack's format)"), url: httpUrl.describe('The incoming webhook URL') }).strict(),
    z.object({ type: z.literal('push').describe("Push the account's webhook event rule") }).strict(),
    z
      .object({
        type: z.literal('mail').describe('Mail chosen members or an address, gathered like the alerts: a burst is one mail a minute to each'),
        members: z.array(z.string().trim().toLowerCase().min(1, 'must not be empty').max(254)).max(MAX_MAIL_MEMBERS, `at most ${MAX_MAIL_MEMBERS} members`).default([]).describe("The account's members to mail (their usernames)"),
        address: mailAddress.optional().describe('An address to mail, in the team or not'),
      })
      .strict()
      .refine((a) => a.members.length > 0 || a.address !== undefined, { message: 'needs members or an address', path: ['members'] }),
  ],
  { error: 'must be a known action: tag, value, verdict, chat, push or mail' },
);
export type RuleAction = z.infer<typeof ruleAction>;

export const ruleBody = z
  .object({
    name: z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters').describe("The rule's name"),
    moment: z.enum(RULE_MOMENTS, { error: `must be one of ${RULE_MOMENTS.join(', ')}` }).describe('When it runs'),
    match: z.enum(['all', 'any'], { error: 'must be all or any' }).default('all').describe('All the conditions, or any'),
    conditions: z.array(ruleCondition).max(MAX_CONDITIONS, `at most ${MAX_CONDITIONS} conditions a rule`).default([]).describe('None: every call or form of the moment'),
    actions: z.array(ruleAction).min(1, 'needs an action').max(MAX_ACTIONS, `at most ${MAX_ACTIONS} actions a rule`).describe('What it does'),
    enabled: z.boolean().default(true).describe('Off: kept, not run'),
  })
  .strict();
export type RuleBody = z.infer<typeof ruleBody>;

/** Conditions that only a call has, and those only a form has. */
const CALL_ONLY: ConditionField[] = ['trackingNumber', 'pool', 'duration', 'answered', 'firstCall', 'callerCountry', 'callerArea', 'keyPhrase', 'outcome', 'leadScore', 'sentiment', 'answer'];
const FORM_ONLY: ConditionField[] = ['formField'];
/** What a text has of a call's: the number texted and the texter's number; and its words, its own. */
const TEXT_OF_CALL: ConditionField[] = ['trackingNumber', 'pool', 'callerCountry', 'callerArea'];
const TEXT_ONLY: ConditionField[] = ['words'];
/** A text's rule only tells (a text keeps no tags, value or verdict). */
const TEXT_ACTIONS: RuleAction['type'][] = ['chat', 'push', 'mail'];
/** Conditions on the language model's reading: known once the call is analysed. */
const ANALYSIS_ONLY: ConditionField[] = ['outcome', 'leadScore', 'sentiment', 'answer'];

/** Why a rule could never match, or never be tested at its moment; null when it can. Each reason names the field. */
export function neverMatches(rule: Pick<RuleBody, 'moment' | 'match' | 'conditions'>): string | null {
  for (const [i, condition] of rule.conditions.entries()) {
    if (rule.moment === 'text-received' && (FORM_ONLY.includes(condition.field) || (CALL_ONLY.includes(condition.field) && !TEXT_OF_CALL.includes(condition.field)))) return `conditions.${i}.field: ${condition.field} is ${FORM_ONLY.includes(condition.field) ? "a form's" : "a call's"}, and this rule runs when a text is received`;
    if (rule.moment !== 'text-received' && TEXT_ONLY.includes(condition.field)) return `conditions.${i}.field: words are a text's: use the moment text-received`;
    if (rule.moment === 'form-sent' && CALL_ONLY.includes(condition.field)) return `conditions.${i}.field: ${condition.field} is a call's, and this rule runs when a form is sent`;
    if (rule.moment !== 'form-sent' && rule.moment !== 'text-received' && FORM_ONLY.includes(condition.field)) return `conditions.${i}.field: ${condition.field} is a form's, and this rule runs for calls`;
    if (condition.field === 'keyPhrase' && rule.moment !== 'transcript-ready' && rule.moment !== 'analysis-ready') return `conditions.${i}.field: a key phrase is known once the transcript is ready: use the moment transcript-ready`;
    if (ANALYSIS_ONLY.includes(condition.field) && rule.moment !== 'analysis-ready') return `conditions.${i}.field: ${condition.field} is known once the call is analysed: use the moment analysis-ready`;
  }
  if (rule.match !== 'all') return null;
  const atLeast = Math.max(...rule.conditions.flatMap((c) => (c.field === 'duration' && c.op === 'atLeast' ? [c.value] : [])));
  const atMost = Math.min(...rule.conditions.flatMap((c) => (c.field === 'duration' && c.op === 'atMost' ? [c.value] : [])));
  if (atLeast > atMost) return `conditions: a duration of at least ${atLeast} s and at most ${atMost} s can never match`;
  const scoreAtLeast = Math.max(...rule.conditions.flatMap((c) => (c.field === 'leadScore' && c.op === 'atLeast' ? [c.value] : [])));
  const scoreAtMost = Math.min(...rule.conditions.flatMap((c) => (c.field === 'leadScore' && c.op === 'atMost' ? [c.value] : [])));
  if (scoreAtLeast > scoreAtMost) return `conditions: a lead score of at least ${scoreAtLeast} and at most ${scoreAtMost} can never match`;
  for (const field of ['answered', 'firstCall', 'hadLead'] as const) {
    const values = new Set(rule.conditions.flatMap((c) => (c.field === field ? [c.value] : [])));
    if (values.size > 1) return `conditions: ${field} is both true and false, which can never match`;
  }
  for (const field of ['trackingNumber', 'pool', 'callerCountry', 'sentiment'] as const) {
    const values = new Set(rule.conditions.flatMap((c) => (c.field === field ? [String(c.value)] : [])));
    if (values.size > 1) return `conditions: ${field} is ${[...values].join(' and ')} at once, which can never match`;
  }
  return null;
}

/** Why a rule's action cannot be taken at its moment; null when all can. */
export function actionRefused(rule: Pick<RuleBody, 'moment' | 'actions'>): string | null {
  if (rule.moment !== 'text-received') return null;
  const i = rule.actions.findIndex((a) => !TEXT_ACTIONS.includes(a.type));
  return i < 0 ? null : `actions.${i}.type: a text keeps no tags, value or verdict: a text-received rule may chat, push or mail`;
}
