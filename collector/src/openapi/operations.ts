// Every endpoint the collector serves, described by the zod schemas that validate it (shared/ and
// the back end's own), with each answer's HTTP status and envelope. document.ts turns this list
// into OpenAPI 3.1; test/openapi checks it against the routes the app really has.
import {
  agentStatsRequest,
  browserClickRequest,
  browserExpirationRequest,
  browserConsentRequest,
  browserFormRequest,
  browserViewRequest,
  callReport,
  callStartRequest,
  cartRequest,
  deliveryLogRequest,
  offlineListRequest,
  offlineRequest,
  orderRequest,
  ospClickRequest,
  ospExpirationRequest,
  ospViewRequest,
  routeQuery,
  setAgentRequest,
  smsReport,
  flowRequest,
} from '@ringtrail/shared';
import { z, type ZodType } from 'zod';
import { domainName, domainSettings, poolSettings } from '../domains/settings.ts';
import { carrierConnectBody } from '../carriers/connections.ts';
import { diallingBody } from '../dialling/settings.ts';
import { buyBody, importBody, priceQuery, searchQuery } from '../manage/carrier-routes.ts';
import { localeQuery, numbersBody, offlineAssignment, offlineRecording, offlineRedirect, webhookEventsBody, webhookUrl } from '../manage/bodies.ts';
import { blockedCallerBody } from '../manage/blocklist-routes.ts';
import { verdictBody } from '../manage/verdict-routes.ts';
import { applyBody, tagsBody, valueBody } from '../manage/rule-routes.ts';
import { ruleBody } from '../rules/rule-input.ts';
import { googleConnection, metaConnection, microsoftConnection } from '../ads/connection-input.ts';
import { conversionsQuery } from '../ads/conversions-list.ts';
import { tagBody } from '../rules/tags.ts';
import { flowBodyIn } from '../flows/steps.ts';
import { simulateBody } from '../flows/simulate.ts';
import { availabilityBody } from '../manage/flow-routes.ts';
import { outcomeBody } from '../manage/analysis-routes.ts';
import { hubspotBody, salesforceBody } from '../crm/connections.ts';
import { conversationChange, noteBody, replyBody } from '../manage/texting-routes.ts';
import { campaignBody } from '../texting/us-registration.ts';
import { credentialsBody } from '../manage/softphone-routes.ts';
import { callBackBody } from '../manage/call-back-routes.ts';
import { textingSettingsBody } from '../texting/settings.ts';
import { TOUCH_MODELS } from '../reports/touch-models.ts';
import { signUpBody } from '../team/sign-up.ts';
import { invitationAccept, invitationCheck, passwordChange, passwordResetRequest } from '../manage/session-routes.ts';
import { memberChange, memberInvite } from '../team/members.ts';
import { sharedLinkBody } from '../team/shared-links.ts';
import { alertChoicesBody } from '../alerts/choices.ts';
import * as answer from './envelopes.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Response {
  description: string;
  /** JSON answer; absent with `type` for another media type, absent alone for no body. */
  schema?: ZodType;
  type?: string;
}

export interface Operation {
  method: Method;
  /** As the router writes it: `/domains/:domain`. */
  path: string;
  tag: string;
  summary: string;
  query?: z.ZodObject;
  /** Sent as a form (`application/x-www-form-urlencoded`) or as JSON. */
  body?: ZodType;
  /** Ours: a body of bytes, of these media types (a recording). */
  binaryBody?: string[];
  /** `bearer`: the platform key; `session`: the back end's cookie (and its CSRF token on changes); `twilio`: a signed request. */
  auth?: 'bearer' | 'session' | 'twilio';
  responses: Record<number, Response>;
}

export const TAGS = {
  tracking: 'Call tracking',
  browser: 'Browser doors',
  offline: 'Offline numbers',
  data: 'Call and SMS data',
  commerce: 'Carts and orders',
  agent: 'Call-center agents',
  telephony: 'Telephony',
  manage: 'Back end',
  service: 'Service',
};

/** What each family is, and how it answers: the reference's group headings, and a line of every
 * operation's description. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  [TAGS.tracking]: 'Server-side page views and clicks: tracking numbers from the pool, held for a time. Form or JSON body with `api_key`; answers `status` OK, WARNING (no number available, already expired) or the kind of error (MISSING_PARAMETER, INVALID_PARAMETER, AUTHENTICATION_ERROR) with `errorMessage`; SYSTEM_ERROR with HTTP 500 on an internal error.',
  [TAGS.browser]: "What tracker.js calls from a site's pages, with the domain's public key, for its allowed origins only (CORS). Same answers as call tracking, plus what the tracker needs.",
  [TAGS.offline]: "Permanent numbers for print, radio and the like, each forwarded to a destination. `key` in the query; answers HTTP 200 with `status` success or error (`error`).",
  [TAGS.data]: "A domain's calls and SMS of a date range, a page at a time or a row per day. `api_key` in the query; answers HTTP 200 with `status` OK or ERROR (`errors`, every problem at once).",
  [TAGS.commerce]: 'Carts and orders of a shop, tied to the visit and the call that led to them. `key` in the body; answers `status` success or error (`message`).',
  [TAGS.agent]: "For a call center: the ringing call's context, its agent, and statistics. `apiKey` in the body; answers `status` OK or NOK (`error`).",
  [TAGS.telephony]: 'For a carrier or PBX: where a call goes, and what happened to calls and SMS (Bearer TELEPHONY_API_KEY), and the Twilio adapter (X-Twilio-Signature). Answers `status` OK or ERROR (`error`).',
  [TAGS.manage]: "The site owner's back end: a signed-in session (cookie `rt_session`) and its CSRF token on every change. Answers JSON, errors as `{error}` with their HTTP status.",
  [TAGS.service]: 'Health, the tracker script, metrics, this reference and the demo.',
};

const json = (description: string, schema: ZodType): Response => ({ description, schema });

// --- the spec's families ---------------------------------------------------------------------

const trackingOp = (path: string, summary: string, body: ZodType, ok: ZodType): Operation => ({
  method: 'post',
  path,
  tag: TAGS.tracking,
  summary,
  body,
  responses: { 200: json('The answer, or WARNING, MISSING_PARAMETER, INVALID_PARAMETER, AUTHENTICATION_ERROR', ok), 500: json('SYSTEM_ERROR: worth retrying', answer.tracking.problem) },
});

const browserOp = (path: string, summary: string, body: ZodType, ok: ZodType): Operation => ({
  method: 'post',
  path,
  tag: TAGS.browser,
  summary,
  body,
  responses: {
    200: json('The answer, or a tracking problem', ok),
    403: json('AUTHENTICATION_ERROR: the page origin is not allowed for this key', answer.tracking.problem),
    429: json('WARNING: too many requests, with Retry-After', answer.tracking.problem),
    500: json('SYSTEM_ERROR', answer.tracking.problem),
  },
});

/** The data API's query: checked by data/request.ts, which lists every problem at once. */
const dataQuery = z.object({
  api_key: z.string(),
  type: z.enum(['calls', 'sms', 'forms']).describe('calls, sms, or (ours) forms: the domain\'s form submissions'),
  start_date: z.string().describe('YYYY-MM-DD'),
  end_date: z.string().describe('YYYY-MM-DD'),
  page: z.string().describe('1 or more'),
  limit: z.string().describe('10 to 5000'),
  group_by_day: z.enum(['true', 'false']).optional(),
  phone: z.string().optional(),
  tracking_phone: z.string().optional(),
  caller_phone: z.string().optional(),
  status: z.string().optional().describe('Comma-separated call statuses'),
  offline_phone_description: z.string().optional(),
  direction: z.enum(['outbound']).optional().describe('Ours: `outbound` lists the calls members placed from the back end (click-to-call), which the other listings and their counts leave out; calls only'),
});

const commerceOp = (path: string, summary: string, body: ZodType): Operation => ({
  method: 'post',
  path,
  tag: TAGS.commerce,
  summary,
  body,
  responses: { 200: json('success, or error with its message', answer.commerce.answer), 500: json('Internal error: retry', answer.commerce.answer) },
});

const products = { products: z.unknown().optional().describe('Bracket fields products[i][id|name|quantity|price|details] (variant A) or a JSON array (variant B)') };

const agentOp = (path: string, summary: string, body: z.ZodObject): Operation => ({
  method: 'post',
  path,
  tag: TAGS.agent,
  summary,
  body: body.extend({ apiKey: z.string() }),
  responses: { 200: json('OK with resultsNb and results, or NOK with error', answer.agent.answer), 500: json('NOK: internal error', answer.agent.error) },
});

const telephonyOp = (method: Method, path: string, summary: string, request: { query?: z.ZodObject; body?: ZodType }, ok = json('OK', answer.telephony.ok)): Operation => ({
  method,
  path,
  tag: TAGS.telephony,
  summary,
  ...request,
  auth: 'bearer',
  responses: {
    200: ok,
    400: json('The report is invalid: every problem at once', answer.telephony.error),
    401: json('No or a wrong bearer key', answer.telephony.error),
    403: json('Telephony is off on this server', answer.telephony.error),
    500: json('Internal error: retry', answer.telephony.error),
  },
});

const twilioOp = (path: string, summary: string, type: string, query?: z.ZodObject): Operation => ({
  method: 'post',
  path,
  tag: TAGS.telephony,
  summary,
  ...(query ? { query } : {}),
  body: z.object({}).loose().describe("Twilio's webhook fields (To, From, CallSid, CallStatus, Digits, Body...)"),
  auth: 'twilio',
  responses: { 200: { description: 'TwiML or an empty answer', type }, 400: json('Invalid fields', answer.telephony.error), 403: json('Missing or wrong X-Twilio-Signature, or Twilio is off', answer.telephony.error), 500: json('Internal error', answer.telephony.error) },
});

// --- the back end ---------------------------------------------------------------------------

const MANAGE_ERRORS: Record<number, Response> = {
  400: json('A setting or parameter is invalid: the error names it', answer.manage.error),
  401: json('Not signed in', answer.manage.error),
  403: json('Missing or wrong CSRF token, a cross-site request, or a role that may not (the error names what is missing)', answer.manage.error),
  404: json("Not found, or another account's, or a domain the member is not given", answer.manage.error),
  409: json('In conflict with what is stored (taken, in use, assigned)', answer.manage.error),
  500: json('Internal error', answer.manage.error),
};

const manageOp = (method: Method, path: string, summary: string, ok: Response, request: { query?: z.ZodObject; body?: ZodType } = {}, okStatus = 200): Operation => ({
  method,
  path: `/manage/api${path}`,
  tag: TAGS.manage,
  summary,
  ...request,
  auth: 'session',
  responses: { [okStatus]: ok, ...MANAGE_ERRORS },
});

const range = z.object({ from: z.string().optional().describe('YYYY-MM-DD, domain time zone'), to: z.string().optional().describe('YYYY-MM-DD') });
const formFilters = range.extend({ source: z.string().optional().describe('A source class: paid, organic, social, referral, direct or unattributed'), lead: z.enum(['true', 'false']).optional().describe('Only leads (true), or only submissions that are not (false)'), spam: z.enum(['true', 'false']).optional().describe('Only spam (true), or none (false)'), tag: z.string().optional().describe("Ours: only the submissions with this tag (its name)") });
const callFilters = range.extend({ status: z.string().optional(), source: z.string().optional(), number: z.string().optional(), q: z.string().optional().describe('Ours: only the calls whose transcripts say these words: a word, a "phrase in quotes", several (all said), optionally `caller:` or `agent:` first; at most 200 characters'), firstCall: z.enum(['true', 'false']).optional().describe("Ours: only callers' first calls (true), or only repeat calls (false)"), lead: z.enum(['true', 'false']).optional().describe('Ours: only leads (true), or only calls that are not (false)'), spam: z.enum(['true', 'false']).optional().describe('Ours: only calls marked spam (true), or only the calls the overview counts: no spam, no blocked caller (false)'), tag: z.string().optional().describe('Ours: only the calls with this tag (its name)'), outcome: z.string().optional().describe('Ours: only the calls whose analysis says yes to this outcome (appointmentBooked, quoteGiven, saleMade, existingCustomer, spam, followUpNeeded)'), scoreMin: z.string().optional().describe("Ours: only the calls whose analysis scored the lead at least this (0 to 100)"), scoreMax: z.string().optional().describe('Ours: …at most this'), answeredBy: z.string().optional().describe("Ours: only the calls a call flow's ring group rang that this member or number answered (its name), or `nobody`"), direction: z.enum(['outbound']).optional().describe('Ours: `outbound` lists the calls members placed from the back end; absent: the calls received (the overview counts those)'), ended: z.enum(['answered', 'missed', 'abandoned', 'voicemail']).optional().describe('Ours: only the calls that ended so: answered (by a person or a forward target), missed (rang or busy, nobody answered), abandoned (the caller left a call flow before any phone rang), voicemail (one was left)') });
const csv = (description: string): Response => ({ description, type: 'text/csv' });
const object = (description: string) => json(description, answer.manage.object);
/** An operation whose attempts count against the sign-in limits. */
/** A route that asks the carrier: its refusals in words with the carrier's code (400, 429), and 502/504 when it is unreachable or slow. */
const carrierOp = (op: Operation): Operation => ({
  ...op,
  responses: {
    ...op.responses,
    400: json("Bad input, or the carrier's refusal with its code", z.union([answer.manage.error, answer.manage.carrierError])),
    409: json('No carrier account is connected, or SECRETS_KEY is not set', answer.manage.error),
    429: json('The carrier asks to slow down', answer.manage.carrierError),
    502: json('The carrier could not be reached', answer.manage.carrierError),
    504: json('The carrier did not answer in time (10 s)', answer.manage.carrierError),
  },
});
const tooMany = (op: Operation): Operation => ({ ...op, responses: { ...op.responses, 429: json('Too many attempts, with Retry-After', answer.manage.error) } });
const activityQuery = z.object({ username: z.string().optional().describe("Only this member's changes"), kind: z.string().optional().describe('Only changes of this kind: domain, key, pool, numbers, offline-number, webhook, carrier, form, person, member, password, session, call, recording, caller, shared-link, account'), before: z.string().optional().describe("Entries before this time (the last entry's at): the next page") });
/** A link's routes: open to anyone who has the token; a used, expired or revoked one says which. */
const linkOp = (path: string, summary: string, body: ZodType, ok: Response): Operation => ({
  method: 'post',
  path: `/manage/api${path}`,
  tag: TAGS.manage,
  summary,
  body,
  responses: { 200: ok, 400: MANAGE_ERRORS[400]!, 403: json('Cross-site request refused', answer.manage.error), 404: json('No such link', answer.manage.error), 409: json('The address already has a login', answer.manage.error), 410: json('The link was used, revoked or expired: the error says which', answer.manage.error), 429: json('Too many attempts, with Retry-After', answer.manage.error), 500: MANAGE_ERRORS[500]! },
});

export const OPERATIONS: Operation[] = [
  trackingOp('/ospView', 'A page view: the visit and view ids, and a tracking number per phone in direct display', ospViewRequest, answer.tracking.view),
  trackingOp('/ospClick', 'A click on a number (click display): a tracking number for it', ospClickRequest, answer.tracking.click),
  trackingOp('/ospExpiration', "Extends or ends a tracking number's assignment", ospExpirationRequest, answer.tracking.expiration),

  browserOp('/t/view', "tracker.js: a page view, with the public key; CORS for the domain's origins. Ours (issue 79): the answer's `X-Visit-Key` header carries the visit's key; a `visit_id` is continued only with it as `visit_key`, else a new visit starts", browserViewRequest, answer.tracking.browserView),
  browserOp('/t/click', 'tracker.js: a click on a number, or a number shown after the view; beside /ospClick\'s `surtaxPhone`, ours: `surtaxPhones`, the number in every form the tag may read the site phone in', browserClickRequest, answer.tracking.browserClick),
  browserOp('/t/expiration', "tracker.js: keeps the page's number while it is open", browserExpirationRequest, answer.tracking.expiration),
  browserOp('/t/consent', "Ours: tracker-ads.js: the visitor's answer to Google's consent mode for ads (ad_storage, ad_user_data), kept on the visit: denied, its calls and forms send no identifier of the visitor to the ad platforms", browserConsentRequest, answer.tracking.consent),
  (() => {
    const op = browserOp('/t/form', "Ours: tracker-forms.js: a form's submission (its contact fields as one JSON text), attributed to the visit; a lead unless spam (the hidden field filled, or sent within 2 s of the page opening)", browserFormRequest, answer.tracking.form);
    return {
      ...op,
      responses: {
        ...op.responses,
        400: json('INVALID_PARAMETER or MISSING_PARAMETER: fields is not a flat list of text values, or another parameter is wrong', answer.tracking.problem),
        403: json("AUTHENTICATION_ERROR: the page origin is not allowed for this key, or the domain's form tracking is off", answer.tracking.problem),
        413: json('INVALID_PARAMETER: the body is over 64 KB', answer.tracking.problem),
      },
    };
  })(),

  {
    method: 'get',
    path: '/offline-numbers-api',
    tag: TAGS.offline,
    summary: 'assign, unassign, reassign, check or redirect_setup an offline number',
    query: offlineRequest.extend({ key: z.string() }),
    responses: { 200: json('The number\'s state, or status error', z.union([answer.offline.state, answer.offline.error])), 500: json('Internal error', answer.offline.error) },
  },
  {
    method: 'get',
    path: '/offline-numbers-api/list',
    tag: TAGS.offline,
    summary: "The domain's offline numbers",
    query: offlineListRequest.extend({ key: z.string() }),
    responses: { 200: json('The numbers, or status error', z.union([answer.offline.list, answer.offline.error])), 500: json('Internal error', answer.offline.error) },
  },

  {
    method: 'get',
    path: '/data-api',
    tag: TAGS.data,
    summary: 'Calls or SMS of a date range, a page at a time, or a row per day',
    query: dataQuery,
    responses: { 200: json('OK with results, or ERROR with every problem', z.union([answer.data.ok, answer.data.error])), 500: json('Cannot handle request: retry', answer.data.error) },
  },
  {
    method: 'get',
    path: '/data-api/calls/:callId/recording',
    tag: TAGS.data,
    summary: "Ours: a record's `recording`, the call's audio (WAV or MP3) to the same api_key: the whole file, or the byte range asked for (Range: bytes=…, answered 206); `download=1` to keep it",
    query: z.object({ api_key: z.string().describe('The data API key of the domain'), download: z.enum(['1']).optional().describe('Answer it as an attachment') }),
    responses: {
      200: { description: 'The audio', type: 'audio/wav' },
      206: { description: 'The byte range asked for, with Content-Range', type: 'audio/wav' },
      403: json('Invalid api key', answer.data.error),
      404: json('The call has no stored recording, or is not of this key', answer.data.error),
      416: { description: 'A range outside the file', type: 'audio/wav' },
      500: json('Cannot handle request: retry', answer.data.error),
    },
  },

  commerceOp('/api/customer-cart', 'Creates or replaces a cart', cartRequest.extend({ key: z.string(), ...products })),
  commerceOp('/api/customer-order', 'Creates or updates an order (variant A with a cart, variant B alone)', orderRequest.extend({ key: z.string(), ...products })),

  agentOp('/agent-api/callStart', 'The ringing call and what is known of its caller; opens the live pushes', callStartRequest),
  agentOp('/agent-api/setAgentToCall', 'Names the agent on a call', setAgentRequest),
  agentOp('/agent-api/agentStats', 'Statistics per agent (ours)', agentStatsRequest),
  agentOp('/agent-api/webhookDeliveries', "The account's webhook attempts (ours)", deliveryLogRequest),

  telephonyOp('get', '/telephony/route', 'Where a call to a tracking number goes, its no-answer redirect and whisper', { query: routeQuery }, json('The route', answer.telephony.route)),
  telephonyOp('post', '/telephony/calls', 'A call, reported by the carrier (again when its outcome is known)', { body: callReport }),
  (() => {
    const op = telephonyOp('post', '/telephony/calls/:callId/recording', "Ours: the call's recording itself, streamed into the database (Content-Type audio/wav or audio/mpeg, at most 200 MB); once per call", {});
    return { ...op, binaryBody: ['audio/wav', 'audio/mpeg'], responses: { ...op.responses, 404: json('No such call', answer.telephony.error) } };
  })(),
  telephonyOp('post', '/telephony/sms', 'An SMS to a tracking number', { body: smsReport }),
  (() => {
    const op = telephonyOp('post', '/telephony/flow', "Ours: a PBX walks a call through its number's call flow. The first request (callRef, trackingNumber, callerPhone) routes and records the call and answers its first actions; each next one gives back the `step` the answer named with what happened there (`input`: the key pressed, empty for none; `answered` or `no-answer` after a dial, with `answeredBy` and `seconds`; `recorded` after a record). Answers {status, callId, step, actions: [{action: say|play|gather|dial|record|hangup, …}]}; a number without a flow answers one dial to its destination", { body: flowRequest });
    return { ...op, responses: { ...op.responses, 404: json('An unknown tracking number, or a step of a call never started', answer.telephony.error) } };
  })(),
  twilioOp('/telephony/twilio/voice', "Twilio's voice webhook: forwards the call", 'text/xml'),
  twilioOp('/telephony/twilio/dial', "Twilio's <Dial action>: the forwarded leg's outcome (DialCallStatus, DialCallDuration), or the no-answer redirect's <Dial>", 'text/xml', z.object({ leg: z.enum(['redirect']).optional().describe('The redirect leg ended') })),
  twilioOp('/telephony/twilio/recording', "Twilio's <Dial recordingStatusCallback> (AccountSid, CallSid, RecordingSid, RecordingUrl, RecordingStatus, RecordingDuration, RecordingChannels): the answered leg's recording is fetched into the database, once", 'text/xml'),
  twilioOp('/telephony/twilio/whisper', "Twilio's <Number url>: the whisper said to whoever answers", 'text/xml', z.object({ call: z.string().describe('The call id') })),
  twilioOp('/telephony/twilio/status', "Twilio's status callback: the outcome of a call that reached no <Dial>, and its billed length", 'text/xml'),
  twilioOp('/telephony/twilio/sms', "Twilio's messaging webhook: the text is kept (the spec's SMS) and, ours, joins its conversation in the texting inbox (STOP, START and HELP acted on)", 'text/xml'),
  twilioOp('/telephony/twilio/outbound', "Ours: click-to-call, the member picked up: TwiML that says whom they call and dials the person with the tracking number as caller id (`call` names the call), recorded per the domain's settings", 'text/xml', z.object({ call: z.string().describe('The call placed') })),
  twilioOp('/telephony/twilio/outbound-answer', "Ours: click-to-call, the person picked up: the domain's recording announcement, said to them", 'text/xml', z.object({ call: z.string().describe('The call placed') })),
  twilioOp('/telephony/twilio/outbound-dial', "Ours: click-to-call, the person's leg ended (<Dial action>): DialCallStatus and DialCallDuration become the call's outcome and length", 'text/xml', z.object({ call: z.string().describe('The call placed') })),
  twilioOp('/telephony/twilio/outbound-status', "Ours: click-to-call, the member's leg ended (status callback): without the person's leg, the member did not pick up", 'text/xml', z.object({ call: z.string().describe('The call placed') })),
  twilioOp('/telephony/twilio/text-status', "Ours: Twilio's status callback of a text sent from the inbox (`text` names it): MessageStatus (queued, sent, delivered, undelivered, failed) and ErrorCode move it on, never backwards; taken only signed by the account that owns its tracking number", 'text/xml', z.object({ text: z.string().describe('The text sent (out:…)') })),
  {
    method: 'get',
    path: '/telephony/flow-audio/:id',
    tag: TAGS.telephony,
    summary: "Ours: a call flow's recorded prompt (WAV or MP3), as Twilio's <Play> and a PBX fetch it: no key (every caller hears it)",
    responses: { 200: { description: 'The audio', type: 'audio/wav' }, 404: json('No such audio file', answer.telephony.error) },
  },
  {
    method: 'get',
    path: '/listen/:callId',
    tag: TAGS.telephony,
    summary: "Ours: a call's recording (a voicemail's in its missed-call mail, a CRM engagement's), played without a sign-in by the link RingTrail made: `until` (Unix seconds) and `key` (an HMAC of the call and its time under the domain's secret); byte ranges answered",
    query: z.object({ until: z.string().describe('The link plays until then, Unix seconds'), key: z.string().describe("The link's key") }),
    responses: { 200: { description: 'The audio (206 for a byte range)', type: 'audio/wav' }, 404: { description: 'Past its time, a wrong key, or the recording deleted', type: 'text/plain' } },
  },
  twilioOp('/telephony/twilio/flow', "Ours: a call flow's callbacks: the <Gather action> (Digits or SpeechResult) at a menu, a ring group's <Dial action> (DialCallStatus: answered, the next leg rung in turn, or the group's noAnswer step), the <Record action> of a voicemail; answers the flow's next TwiML", 'text/xml', z.object({ call: z.string().describe('The call id'), on: z.enum(['gather', 'ring', 'record']).describe('What ended'), step: z.string().describe("The flow's step"), tries: z.string().optional().describe("A menu's replays so far"), order: z.string().optional().describe("A ring group's legs, in the order they ring"), leg: z.string().optional().describe('The leg that rang'), since: z.string().optional().describe('When it started ringing, ms') })),
  twilioOp('/telephony/twilio/flow-answer', "Ours: a ring group leg's <Number url>: who answered, after how long; says the whisper when it is on", 'text/xml', z.object({ call: z.string().describe('The call id'), step: z.string(), target: z.string().describe("The target's place in the group"), since: z.string().optional() })),

  {
    method: 'post',
    path: '/manage/api/session',
    tag: TAGS.manage,
    summary: 'Signs in: sets the rt_session cookie, answers the CSRF token',
    body: z.object({ username: z.string(), password: z.string() }),
    responses: { 200: object('Who is signed in, and the CSRF token'), 400: MANAGE_ERRORS[400]!, 401: json('Wrong username or password', answer.manage.error), 403: json('Cross-site request refused', answer.manage.error), 429: json('Too many attempts, with Retry-After', answer.manage.error), 500: MANAGE_ERRORS[500]! },
  },
  manageOp('get', '/session', 'Who is signed in', object('The session')),
  manageOp('delete', '/session', 'Signs out', { description: 'Signed out' }, {}, 204),
  {
    method: 'post',
    path: '/manage/api/signup',
    tag: TAGS.manage,
    summary: 'A new account and its first user, signed in (when the server allows sign-up)',
    body: signUpBody,
    responses: { 201: object('Who is signed in, and the CSRF token'), 400: MANAGE_ERRORS[400]!, 403: json('Sign-up is off, or a cross-site request', answer.manage.error), 409: json('The account name or e-mail is taken', answer.manage.error), 429: json('Too many sign-ups, with Retry-After', answer.manage.error), 500: MANAGE_ERRORS[500]! },
  },
  { method: 'get', path: '/manage/api/config', tag: TAGS.manage, summary: 'Whether sign-up is open, and whether this server sends e-mail', responses: { 200: json('The settings the sign-in page needs', z.object({ signUp: z.boolean().describe('The sign-up page is open'), mail: z.boolean().describe('A forgotten password is reset by e-mail (false: by an owner)') })) } },
  manageOp('get', '/locale', "What a new domain's set-up proposes for the browser's time zone (or a chosen country): the country and its currency", object('country, currency'), { query: localeQuery }),
  manageOp('get', '/domains', "The account's domains", json('The domains', answer.manage.list)),
  manageOp('post', '/domains', 'A new domain', object('The domain'), { body: domainSettings.extend({ name: domainName }) }, 201),
  manageOp('get', '/domains/:domain', 'A domain: settings, keys set, pools, numbers', object('The domain')),
  manageOp('patch', '/domains/:domain', 'Changes the settings sent, the others stay', object('The domain'), { body: domainSettings.partial() }),
  manageOp('post', '/domains/:domain/keys/:kind', 'A new key (api, data, offline, customer, public), answered once', object('The key')),
  manageOp('get', '/domains/:domain/install', 'The script tag and when the last view arrived', object('The install check')),
  manageOp('post', '/domains/:domain/pools', 'A new pool', object('The domain'), { body: poolSettings }, 201),
  manageOp('post', '/domains/:domain/pools/:type/numbers', 'Adds numbers to a pool, all or none', json('The numbers', answer.manage.list), { body: numbersBody }),
  manageOp('delete', '/domains/:domain/numbers/:number', 'Removes a number nobody holds', { description: 'Removed' }, {}, 204),
  carrierOp(manageOp('post', '/domains/:domain/pools/:type/numbers/import', "Ours: imports numbers of the account's carrier account into the pool, each wired to the collector (voice, status and SMS URLs at PUBLIC_URL; its former ones kept): each number's outcome, and where its calls went before (movedFrom)", object('{results: [{number, ok, error?, movedFrom?}]}'), { body: importBody })),
  carrierOp(manageOp('get', '/domains/:domain/pools/:type/numbers/available', "Ours: numbers on sale at the carrier for the pool (its type, the domain's country), up to 20, none known here; `reason` when there are none (an area code or country the carrier does not serve is no error)", object('{numbers, reason?}'), { query: searchQuery })),
  carrierOp(manageOp('get', '/domains/:domain/pools/:type/numbers/price', "Ours (issue 81): what `count` numbers of the pool's type cost a month, as the carrier lists them for the domain's country (Twilio's Pricing API: its current price, discounts applied): `price` {amount, currency} or null when it lists none, and `monthlyTotal`. The back end shows it and asks to confirm before buying", object('{price, count, monthlyTotal}'), { query: priceQuery })),
  carrierOp(manageOp('post', '/domains/:domain/pools/:type/numbers/buy', 'Ours: buys numbers into the pool at the carrier (searched by the pool\'s type and the domain\'s country, areaCode, contains), each wired at once; one taken meanwhile is reported, never retried: each number\'s outcome, and why there were fewer. With `monthlyPrice` (ours, issue 81: the price a number the person confirmed), nothing is bought when the carrier lists more now (409, with its `price`). The activity log records who bought which numbers at what monthly price and total', object('{results: [{number, ok, error?}], reason?}'), { body: buyBody })),
  manageOp('get', '/domains/:domain/numbers/:number/release', "Ours: what releasing a number imported or bought through the carrier would do (restored as it was, or released at the carrier), and its calls of the last 30 days: what a person confirms", object('{number, origin, released, callsLast30Days}')),
  carrierOp(manageOp('post', '/domains/:domain/numbers/:number/release', 'Ours: takes a number imported or bought through the carrier out of its pool and gives it back: an imported one with its URLs as they were, a bought one released at the carrier', object('{number, released}'))),
  carrierOp(manageOp('post', '/domains/:domain/numbers/:number/fix', "Ours: wires a number to the collector again, when the check found its calls going elsewhere", object('{number, voiceUrl}'))),
  manageOp('post', '/domains/:domain/offline-numbers/:number/assign', "An offline number's campaign", json('The numbers', answer.manage.list), { body: offlineAssignment }),
  manageOp('post', '/domains/:domain/offline-numbers/:number/unassign', 'Ends an offline number\'s campaign', json('The numbers', answer.manage.list)),
  manageOp('post', '/domains/:domain/offline-numbers/:number/redirect', "An offline number's no-answer redirect (allow_redirect and timetable)", json('The numbers', answer.manage.list), { body: offlineRedirect }),
  manageOp('post', '/domains/:domain/offline-numbers/:number/recording', "Ours: an assigned offline number's calls recorded as the domain says (true) or never (false)", json('The numbers', answer.manage.list), { body: offlineRecording }),
  manageOp('get', '/domains/:domain/blocked-callers', "The domain's blocked callers, newest first: id, number (as the caller privacy shows it), addedAt, addedBy", json('The entries', answer.manage.list)),
  manageOp('post', '/domains/:domain/blocked-callers', 'Blocks a caller, any format', object('The entry'), { body: blockedCallerBody }, 201),
  manageOp('delete', '/domains/:domain/blocked-callers/:entry', 'Unblocks a caller, by entry id or number', { description: 'Unblocked' }, {}, 204),
  manageOp('post', '/domains/:domain/calls/:callId/block-caller', "Blocks a call's caller", object('The entry')),
  manageOp('delete', '/domains/:domain/calls/:callId/block-caller', "Unblocks a call's caller", { description: 'Unblocked' }, {}, 204),
  {
    method: 'get',
    path: '/manage/api/domains/:domain/calls/:callId/recording',
    tag: TAGS.manage,
    summary: "The call's recording (WAV or MP3) to play: the whole file, or the byte range asked for (Range: bytes=…, answered 206), so a player seeks; `download=1` to keep it",
    query: z.object({ download: z.enum(['1']).optional().describe('Answer it as an attachment') }),
    auth: 'session',
    responses: { 200: { description: 'The audio', type: 'audio/wav' }, 206: { description: 'The byte range asked for, with Content-Range', type: 'audio/wav' }, 416: { description: 'A range outside the file', type: 'audio/wav' }, ...MANAGE_ERRORS },
  },
  manageOp('delete', '/domains/:domain/calls/:callId/recording', "Deletes the call's recording (its audio; the call says when and by whom); 404 when it has none stored", { description: 'Deleted' }, {}, 204),
  {
    method: 'get',
    path: '/manage/api/domains/:domain/calls/:callId/transcript',
    tag: TAGS.manage,
    summary: "Ours: the call's transcript: its turns (speaker caller, agent or null, start and end in seconds, text; card numbers `[redacted]`), the key phrases spotted, the language, engine and model; `format=txt` as text, `format=vtt` as WebVTT captions; 404 when it has none",
    query: z.object({ format: z.enum(['json', 'txt', 'vtt']).optional().describe('json (the default), txt or vtt'), download: z.enum(['1']).optional().describe('Answer it as an attachment') }),
    auth: 'session',
    responses: { 200: json('The transcript', answer.manage.object), ...MANAGE_ERRORS },
  },
  manageOp('get', '/domains/:domain/transcription', "Ours: the speech-to-text engine the collector uses (name, model, whether it is English only and answers now), the language the domain's calls are transcribed in, and why they cannot be (`refusal`), or null", object('{configured, engine, language, refusal}')),
  manageOp('get', '/domains/:domain/reports/forms', "Ours: the forms log: a range's form submissions, newest first, 50 a page, with the count (from, to, page; source, lead, spam)", object('{forms, page, pageSize, hasMore, total, totalCapped}'), { query: formFilters.extend({ page: z.string().optional().describe('1 or more') }) }),
  manageOp('get', '/domains/:domain/reports/forms.csv', 'Ours: the forms log as CSV, its fields as `name: value` lines', csv('CSV, one submission per line'), { query: formFilters }),
  manageOp('get', '/domains/:domain/forms/:formId', "Ours: one form submission: its fields, what led to it, lead or spam, the verdict, and the visitor's pages up to it", object('The submission')),
  manageOp('put', '/domains/:domain/forms/:formId/verdict', "Ours: a person's word on a form submission (lead, not-lead, spam), which wins over the spam signals; null undoes it", object('The submission as the forms log shows it'), { body: verdictBody }),
  manageOp('get', '/domains/:domain/people', "Ours: the person of a phone number (any form, read in the domain's country) or an e-mail address: one lookup by its key; 404 when none", object('{personId}'), { query: z.object({ phone: z.string().optional().describe('A phone number'), email: z.string().optional().describe('An e-mail address') }) }),
  manageOp('get', '/domains/:domain/people/:personId', "Ours: a person's timeline: their phones (as the caller privacy shows them) and e-mail addresses, first touch, and their visits, calls, texts, form submissions and sales (the orders of their visits and calls) in time order (the latest 200 of each); erasedAt once erased; a person joined to another answers as the one it lives on as; and (ours, `crm`) their records in the domain's CRMs, with links", object('The timeline')),
  manageOp('get', '/domains/:domain/people/:personId/export', "Ours: everything stored of a person, on request (their right of access), as a JSON file: their keys, calls, forms and texts as the data API's records, visits with their pages, carts and orders (owners and admins; in the activity log)", object('The JSON file')),
  manageOp('post', '/domains/:domain/people/:personId/merge', "Ours: merges two people a person decided are one (such as two that a form named at once: its e-mail one's, its phone another's), the older living on; owners and admins, in the activity log. The person it lives on as", object('{personId}'), { body: z.object({ with: z.number().int().describe('The other person') }) }),
  manageOp('delete', '/domains/:domain/people/:personId', "Ours: erases a person on request: their contacts' personal fields (numbers, e-mail addresses, form values, visitor ids and addresses) and recordings go, their keys too; the contacts stay, anonymous, and so do the counts. How many of each were erased, and (ours, `crm`) the records they left in the domain's CRMs, with links, for the owner to remove there: they are never sent again; and (ours, `conversations`) how many texting conversations lost their number and words (an opt-out stays, as a hash of the number)", object('{calls, forms, texts, visits, recordings, conversations, crm}')),
  manageOp('get', '/account/tags', "Ours: the account's tags (name, colour), which people and rules put on calls and forms", object('{tags}')),
  manageOp('post', '/account/tags', "Ours: a new tag of the account (a name once an account, whatever its case; a colour #rrggbb, or one given); owners and admins", object('{name, colour}'), { body: tagBody }, 201),
  manageOp('get', '/domains/:domain/rules', "Ours: the domain's rules in order: name, moment (call-ended, transcript-ready, analysis-ready, form-sent, text-received), match (all or any), conditions, actions, enabled", object('{rules}')),
  manageOp('post', '/domains/:domain/rules', "Ours: a new rule, last in order (at most 100 a domain, 20 conditions a rule); refused, naming the field, when a condition or action is unknown, a tag is not the account's, a chat webhook is not https or private (outside development), or the conditions can never match", object('The rule'), { body: ruleBody }, 201),
  manageOp('put', '/domains/:domain/rules/:ruleId', 'Ours: a rule changed (switched off with `enabled: false`, kept)', object('The rule'), { body: ruleBody }),
  manageOp('delete', '/domains/:domain/rules/:ruleId', 'Ours: a rule deleted', { description: 'Deleted' }, {}, 204),
  manageOp('post', '/domains/:domain/rules/:ruleId/preview', 'Ours: what the rule would have matched and done over the last 30 days, changing nothing', object('{from, to, checked, matched, matches}')),
  manageOp('post', '/domains/:domain/rules/:ruleId/apply', "Ours: applies the rule to a period's past calls (or forms) in the background, at most 366 days and 20,000 of them; no chat message or push; recorded, and undoable. The run, state running", object('The run'), { body: applyBody }, 202),
  manageOp('get', '/domains/:domain/rules/:ruleId/runs', "Ours: the rule's runs over past calls, newest first: period, state (running, done, undoing, undone), who, how many tested, changed and put back", object('{runs}')),
  manageOp('post', '/domains/:domain/rules/:ruleId/runs/:runId/undo', 'Ours: undoes a finished run in the background: what it changed is put back where it is still as the run left it. The run, state undoing', object('The run'), {}, 202),
  manageOp('put', '/domains/:domain/calls/:callId/tags', "Ours: a call's tags, as a person sets them (a tag taken off is never put back by a rule)", object('The call as the calls log shows it'), { body: tagsBody }),
  manageOp('put', '/domains/:domain/calls/:callId/value', "Ours: a lead's value in the domain's currency, set by a person (no rule changes it after); null clears it", object('The call as the calls log shows it'), { body: valueBody }),
  manageOp('put', '/domains/:domain/forms/:formId/tags', "Ours: a form submission's tags, as a person sets them", object('The submission as the forms log shows it'), { body: tagsBody }),
  manageOp('get', '/domains/:domain/calls/:callId', "A call's page: the calls log's row with the verdict's author, the match in words, the visit's pages up to the call, its current cart and orders", object('The call')),
  manageOp('put', '/domains/:domain/calls/:callId/verdict', "A person's word on a call (lead, not-lead, spam: spam also blocks the caller), which wins over the lead rule; null undoes it", object('The call as the calls log shows it'), { body: verdictBody }),
  tooMany(manageOp('put', '/session/password', 'Changes one\'s password (the current one required, counted as a sign-in attempt); every other session of the member ends', object('How many sessions ended'), { body: passwordChange })),
  manageOp('get', '/session/sessions', "The member's signed-in sessions: device, address, last seen", object('The sessions')),
  manageOp('delete', '/session/sessions/:id', 'Ends one of the member\'s sessions', { description: 'Ended' }, {}, 204),
  manageOp('delete', '/session/sessions', 'Ends every session of the member but this one', object('How many sessions ended')),
  linkOp('/invitations/check', "What an invitation or reset link is for (kind, username, account, role), or why it cannot be used", invitationCheck, object('The link')),
  linkOp('/invitations/accept', 'Chooses the password of an invitation or reset link and signs in, as POST /session does', invitationAccept, object('Who is signed in, and the CSRF token')),
  {
    method: 'post',
    path: '/manage/api/password-reset',
    tag: TAGS.manage,
    summary: 'Forgot password: a reset link by e-mail when mail is configured; the same answer whether the address has a login or not',
    body: passwordResetRequest,
    responses: { 200: object('mailSent (false: this server sends no e-mail; true: a link goes to the address if it has a login) and what to do next, the same for every address'), 400: MANAGE_ERRORS[400]!, 403: json('Cross-site request refused', answer.manage.error), 429: json('Too many requests for the address or from this one, with Retry-After', answer.manage.error), 500: MANAGE_ERRORS[500]! },
  },
  manageOp('get', '/account/members', "The account's members (username, role, domains: null for every domain, lastSignInAt) and invitations waiting (owners)", object('Members and invitations')),
  manageOp('post', '/account/members', 'Invites a person by e-mail and role: answers the invitation link (7 days, used once) to copy, also mailed to them when mail is configured', object('The invitation: url, expiresAt, mailed'), { body: memberInvite }, 201),
  manageOp('patch', '/account/members/:username', "Changes a member's role or domains (null: every domain); their sessions end. Never the last owner", object('The member'), { body: memberChange }),
  manageOp('delete', '/account/members/:username', 'Removes a member, whose sessions end; never the last owner', { description: 'Removed' }, {}, 204),
  manageOp('post', '/account/members/:username/reset', 'A link with which the member chooses a new password (7 days, used once), also mailed to them when mail is configured', object('The link: url, expiresAt, mailed'), {}, 201),
  manageOp('delete', '/account/invitations/:id', 'Revokes an invitation not used yet', { description: 'Revoked' }, {}, 204),
  manageOp('get', '/account/activity', 'The audit trail, newest first: who changed what, when, from which address (owners: all; admins: their domains)', object('The entries'), { query: activityQuery }),
  manageOp('get', '/domains/:domain/activity', "The audit trail of one domain, newest first", object('The entries'), { query: activityQuery }),
  manageOp('get', '/domains/:domain/shared-links', "The domain's read-only report links that work: label, password or not, openings", object('The links')),
  manageOp('post', '/domains/:domain/shared-links', 'A read-only report link (overview, sources, keywords, campaigns, landing pages, calls per day), optionally with a password: answers its url once', object('The link: id, url'), { body: sharedLinkBody }, 201),
  manageOp('delete', '/domains/:domain/shared-links/:id', 'Revokes a shared link: its url answers 404', { description: 'Revoked' }, {}, 204),
  manageOp('get', '/account', 'The account: webhook URL, which secrets are set', object('The account')),
  manageOp('get', '/domains/:domain/ads', "Ours: the Conversions screen: each ad platform (connected, broken and why) with how many of the domain's leads are in each state (counted up to 10,000), and the leads' conversions newest first, 50 a page, by platform and state (whoever sees calls)", object('{platforms: [{platform, connected, broken, counts}], conversions: [{platform, kind, id, state, at, queuedAt, reason?}], page, more}'), { query: conversionsQuery }),
  manageOp('get', '/domains/:domain/ads/:platform', "Ours: the domain's connection to an ad platform (google, microsoft, meta): its ids (settings), what the credentials are (never the secret), when and by whom it was connected, and whether the platform refused them at the last send (broken)", object('The connection')),
  manageOp('put', '/domains/:domain/ads/:platform', "Ours: connects the domain to an ad platform: Google Ads (operatingAccountId, conversionActionId, a serviceAccountKey or oauth), Microsoft Advertising (customerId, accountId, conversionName, developerToken, oauth) or Meta (datasetId, accessToken). The credentials are checked with the platform at once and sealed (SECRETS_KEY); refused credentials keep nothing", object('The connection'), { body: z.union([googleConnection, microsoftConnection, metaConnection]).describe("The platform's ids and credentials") }),
  manageOp('delete', '/domains/:domain/ads/:platform', "Ours: forgets the domain's connection to the platform (leads already sent stay sent)", { description: 'Removed' }, {}, 204),
  manageOp('post', '/domains/:domain/ads/:platform/test', "Ours: sends the platform a made-up lead that it checks and keeps nothing of (Google's validateOnly): ok, and the platform's answer", object('{ok, platform, answer, requestId?, status?}')),
  manageOp('get', '/domains/:domain/crm/:crm', "Ours: the domain's connection to its CRM (`hubspot` or `salesforce`): its account, what the credentials are (never the secrets), what it sends, the default owner, whether the CRM refused the credentials (broken), and its last 50 deliveries (`id` call:<id> or form:<id>, records with links, state queued, sent, updated or failed, error)", object('The connection and its deliveries')),
  manageOp('put', '/domains/:domain/crm/:crm', "Ours: connects the domain to its CRM: HubSpot by a private app's `accessToken`, Salesforce by a connected app's `credentials` (`flow` jwt: clientId, username, privateKey; or refresh-token: clientId, clientSecret, refreshToken; `sandbox`), checked with the CRM at once (HubSpot: our properties made where missing) and sealed (SECRETS_KEY); what is sent (`send`: calls, forms, onlyLeads, onlyFirstCallers) and the `defaultOwner`. Without credentials, changes those of the stored connection. Refused credentials keep nothing and say the CRM's words", object('The connection'), { body: z.union([hubspotBody, salesforceBody]) }),
  manageOp('delete', '/domains/:domain/crm/:crm', "Ours: forgets the domain's connection to its CRM (what was sent stays there)", { description: 'Removed' }, {}, 204),
  manageOp('post', '/domains/:domain/crm/:crm/test', 'Ours: tries the stored credentials again: the connection, mended when it works (400 with the CRM\'s words when it does not)', object('The connection')),
  manageOp('get', '/domains/:domain/conversations', "Ours: the domain's texting inbox: a conversation per texter and tracking number (id, name: the person's, from their forms or a member (ours, issue 81), phone as the caller privacy shows it, trackingNumber, personId, lastAt, lastText, lastDirection, unread, assignee, optedOut), newest first, paged; `unread=true` only those with unread texts, `mine=true` only those assigned to me; `unreadConversations` counts the domain's", object('{conversations, total, unreadConversations, page, limit}'), { query: z.object({ unread: z.enum(['true', 'false']).optional(), mine: z.enum(['true', 'false']).optional(), page: z.string().optional().describe('From 1'), limit: z.string().optional().describe('1 to 100; default 50') }) }),
  manageOp('get', '/domains/:domain/conversations/:conversationId', "Ours: a thread: the conversation, and its texts (`type: text`: direction inbound or outbound, body, at, status received, queued, sent, delivered, undelivered or failed, error in words, segments, by; `source` only on the first text of a conversation that a visit led to, never on STOP, HELP and the like) with the person's calls and forms and the team's notes (`type: note`: id, at, by, text; ours, issue 81) between them, newest last", object('{conversation, entries, firstName}')),
  manageOp('get', '/domains/:domain/conversations/:conversationId/texts/:textId/media/:index', "Ours (issue 81): a picture (or file) of an MMS received, the text's `media[index]`, read from the carrier with the account's credentials (Twilio: its Media resource, at most 5 MB); PNG, JPEG, GIF and WebP answered as images, anything else as an attachment; 409 without a carrier", { description: 'The picture', type: 'image/jpeg' }),
  manageOp('post', '/domains/:domain/conversations/:conversationId/notes', 'Ours (issue 81): a note on the conversation for the team, never texted; the latest 100 are kept, gone with an erase of the person. Agents and above; in the activity log', object('{id, at, by, text}'), { body: noteBody }, 201),
  manageOp('post', '/domains/:domain/conversations/:conversationId/messages', "Ours: texts the person from the tracking number they wrote to, through the account's carrier (Twilio's Messages API): at most 1600 characters; refused (400) to a number that opted out (saying when and with which word), without a connected carrier, or when the carrier cannot text the number (its words and code). The text is `queued`, then moved on by the carrier's signed status callbacks. Agents and above; in the activity log", object('The text sent'), { body: replyBody }, 201),
  manageOp('put', '/domains/:domain/conversations/:conversationId', 'Ours: assigns the conversation to a member who answers leads (an owner, admin or agent who sees the domain; null: nobody), marks it read (`read: true`: its unread count back to 0) and/or names the texter (`name`, kept on their person: their forms never overwrite it; null forgets it; agents and above)', object('The conversation'), { body: conversationChange }),
  manageOp('post', '/domains/:domain/people/:personId/call', "Ours: calls the person back from a tracking number (the one they texted or called last, or `trackingNumber`): the carrier (Twilio's Calls API) rings the member's own phone first (their profile's, or `phone`, kept there when they have none), says whom they call, then dials the person with the tracking number as caller id, recorded per the domain's recording settings. The call is `direction: outbound`: never a lead, a first-time caller nor attributed, counted by no report; 400 without a carrier, a phone or a tracking number. Agents and above; in the activity log", object('{callId, direction, status}'), { body: callBackBody }, 201),
  manageOp('get', '/domains/:domain/texting', "Ours: the domain's texting settings: `businessName` (the name HELP's answer gives; null: the account's, `defaultBusinessName`), `helpText` (the answer to HELP; null: the default naming the business), `savedReplies` ({name, body}, `{firstName}` filled where known) and `textBack` ({enabled, message, hours}: ours, issue 80); `helpTextSent` is what HELP is answered with now", object('{businessName, helpText, savedReplies, textBack, defaultBusinessName, helpTextSent}')),
  manageOp('put', '/domains/:domain/texting', "Ours: sets the domain's texting settings: the business's name, the answer to HELP, the saved replies, the text back of a missed caller (issue 80). Owners and admins", object('{businessName, helpText, savedReplies, textBack}'), { body: textingSettingsBody }),
  manageOp('get', '/domains/:domain/texting/us-registration', "Ours (issue 81): US texting from local numbers (A2P 10DLC), read from the account's Twilio each time: `required` (a US domain), each local tracking number at the carrier (`number` E.164, `shown`, `service` the Messaging Service it belongs to or null, `campaign` {sid, status VERIFIED, PENDING, IN_PROGRESS, FAILED…, useCase, brandRegistrationSid} or null, `registered` only when that campaign is VERIFIED), the account's `brands` ({sid, status, failureReason}), `ready` when every number may text, and `brandConsoleUrl` where a brand is registered. A text from an unregistered number fails with Twilio's 30034, said in words. Owners and admins; 409 without a carrier", object('{required, numbers, brands, ready, brandConsoleUrl}')),
  manageOp('post', '/domains/:domain/texting/us-registration/campaign', "Ours (issue 81): registers the A2P 10DLC campaign of the domain's US local numbers under the account's brand: a Messaging Service holding them (one of theirs without a campaign, else one made, `RingTrail <domain>`, each number's own webhook kept), the numbers not in a service added, the campaign (use case, description, message flow, 2 to 5 samples; HELP and STOP answered as the domain does) submitted to Twilio for review: its status then `PENDING` or `IN_PROGRESS`, polled through the GET. Owners and admins; in the activity log", object('{sid, status, useCase, brandRegistrationSid}'), { body: campaignBody }, 201),
  manageOp('get', '/domains/:domain/crm/:crm/owners', "Ours (issue 81): the CRM's users who may own records (HubSpot's owners, Salesforce's active users; at most 200: {id, name, email}), read through the domain's stored connection, for the default owner; 409 when not connected; a CRM that cannot be reached is said in words, its reason after \"The reason:\"", object('{owners}')),
  manageOp('get', '/domains/:domain/crm/:crm/preview', "Ours (issue 81): what the domain's last call received would be sent as, before anything is connected or sent: the CRM's objects (`objects`), the person looked for or made (phones, e-mail, name, first source and campaign) and the activity (title, body with its facts in words, at, duration, answered, from, to, campaign); all null without a call", object('{callId, crm, objects, person, activity}')),
  manageOp('post', '/domains/:domain/crm/:crm/resend/:deliveryId', 'Ours: queues a delivery again (`call:<id>` or `form:<id>`): the same records are updated, none made twice', object('{queued}'), {}, 202),
  manageOp('post', '/softphone/credentials', "Ours (issue 82): the signed-in member's credentials for the SIP edge their browser's softphone registers with, for SOFTPHONE_TTL_HOURS (4 by default), never stored: `wsUri`, `sipUri` (`sip:m<20 hex>@<domain>`, the member's stable SIP user), `authorizationUser` (`<expiry, Unix seconds>:<user>`) and `password` (base64 of HMAC-SHA1 of it under SOFTPHONE_SECRET: what Kamailio's auth_ephemeral and coturn's use-auth-secret check), `iceServers` (the TURN ones with the same pair), `expiresAt`. Answered with Cache-Control: no-store; 409 when the server has no softphone. Owners, admins and agents", object('{provider, wsUri, sipUri, authorizationUser, password, iceServers, expiresAt}'), { body: credentialsBody }),
  manageOp('get', '/account/dialling', "Ours (issue 79): where the account's calls and texts may go: `countries` (its own, or its domains' when `countriesOwn` is false), the special ranges `allowed`, and the hourly `limits` of calls placed and texts sent, per member and per account. Owners only", object('{countries, countriesOwn, allowed, limits, ranges}')),
  manageOp('put', '/account/dialling', "Ours (issue 79): changes the dialling rules: what the body names replaces, what it leaves out stays; `countries: null` goes back to the domains' countries. Checked wherever a number is dialled or texted: click-to-call, a member's phone, a flow's plain target or forward, the no-answer redirect, a text. Owners only; in the activity log", object('{countries, countriesOwn, allowed, limits, ranges}'), { body: diallingBody }),
  manageOp('get', '/account/carrier', "Ours: the account's carrier account (provider, accountSid, apiKey, name, connectedAt; never the secret), and whether SECRETS_KEY is set", object('The connection')),
  carrierOp(manageOp('put', '/account/carrier', "Ours: connects a Twilio account by its auth token, or an API key and secret, checked against Twilio at once; the secret is sealed (SECRETS_KEY) and never shown again. 409 without SECRETS_KEY", object('The connection'), { body: carrierConnectBody })),
  carrierOp(manageOp('post', '/account/carrier/check', 'Ours: checks now that every number imported or bought through the carrier still sends its calls here (also done once a day): how many were checked, and those whose voice URL points elsewhere or that left the carrier account (voiceUrl null)', object('{checked, miswired: [{domain, number, voiceUrl}]}'))),
  manageOp('delete', '/account/carrier', "Ours: forgets the account's carrier account (its numbers stay as they are at the carrier)", { description: 'Removed' }, {}, 204),
  carrierOp(manageOp('get', '/account/carrier/numbers', "Ours: the carrier account's numbers (E.164), where their voice, status and SMS URLs point now, the pool each is in here (null: none), and whether its calls come here", object('{numbers}'))),
  manageOp('put', '/account/webhook', 'Sets or clears the webhook URL (the first one makes the secret)', object('The new secret, if one was made'), { body: webhookUrl }),
  manageOp('put', '/account/webhook/events', 'Which pushes the account asks for beside view, cart and order (ours): `call`, `form`, `transcript`, `rule`, `analysis`, `text`, `text-status`', object('The events'), { body: webhookEventsBody }),
  manageOp('post', '/account/webhook/test', 'Queues a signed test push (type "test", callId 0) to the webhook URL', object('The queued message id'), {}, 202),
  manageOp('get', '/alerts', "The member's own alert choices for each domain they see (missed calls, new leads, first-time callers, spam blocked: immediate, hourly or off; warnings, weekly and monthly summaries), and whether mail is configured", object('mail, domains')),
  manageOp('put', '/domains/:domain/alerts', "Changes some of the member's own alert choices for a domain; the others keep theirs", object('The domain and its choices'), { body: alertChoicesBody }),
  manageOp('get', '/mail', 'Whether mail is configured (SMTP_URL) and its sender; the mails that could not be sent (an owner or admin: all of the account; others: their own), newest first', object('configured, from, failures')),
  manageOp('post', '/mail/test', 'Queues a test e-mail to the signed-in member; 409 when mail is not configured', object('The address it goes to'), {}, 202),
  manageOp('post', '/account/webhook/secret', 'A new webhook signing secret, answered once', object('The secret')),
  manageOp('post', '/account/keys/call-center', 'A new call-center key, answered once', object('The key')),
  manageOp('get', '/account/deliveries', 'The delivery log, newest first', json('Attempts', answer.manage.list), { query: z.object({ limit: z.string().optional() }) }),
  manageOp('post', '/account/deliveries/:id/resend', "Queues a logged push's body again", object('The new message id'), {}, 202),
  manageOp('get', '/domains/:domain/reports/overview', 'Visits, views, calls, form leads, sales: in total, per day, per source class, per keyword, campaign and landing page (calls, form leads and sales credited by a touch model), and the people who became leads', object('The overview'), {
    query: range.extend({ model: z.enum(TOUCH_MODELS).optional().describe("How the source and keyword tables credit calls and sales: the calling visit (last-touch, the default), the visitor's latest visit that was not direct (last-non-direct), or their first visit of the 90 days before (first-touch)") }),
  }),
  manageOp('get', '/domains/:domain/reports/flows', 'Ours: the calls that went through a call flow: by menu choice, by ring group (answered, missed, answer rate, average seconds to answer) and by who answered; at most the newest 20,000 calls of the range (`cut` says so)', object('{from, to, calls, cut, voicemails, nobody: {missed, abandoned, voicemail}, menuChoices, ringGroups, answeredBy}'), { query: range }),
  manageOp('get', '/domains/:domain/flows', "Ours: the domain's call flows (name, start, steps, assignedTo) and the members a ring group may ring (hasPhone, available)", object('{flows, members}')),
  manageOp('post', '/domains/:domain/flows', 'Ours: a new call flow (at most 50 a domain; 50 steps, 10 deep, 20 targets a ring group, no loops); refused whole with every problem naming its field (a key used twice, a step no way reaches, a member not of the account or not seeing the domain, ring seconds out of 5 to 120, a pool or number given to another flow)', object('The flow'), { body: flowBodyIn('FR') }, 201),
  manageOp('put', '/domains/:domain/flows/:flowId', 'Ours: a call flow changed (its numbers and pools with it)', object('The flow'), { body: flowBodyIn('FR') }),
  manageOp('delete', '/domains/:domain/flows/:flowId', 'Ours: a call flow deleted: its numbers go back to the domain default (or the domain-wide flow)', { description: 'Deleted' }, {}, 204),
  (() => {
    const op = manageOp('post', '/domains/:domain/flow-audio', "Ours: a recorded prompt for the domain's call flows (Content-Type audio/wav or audio/mpeg, at most 5 MB: 413 past it, said or chunked), streamed into the database; a flow's prompt names it by `audio: id` (12 random bytes, nobody guesses another's); 409 past the domain's 50 files or 100 MB; a file no flow names is removed a day after its upload", object('{id, size, contentType}'), {}, 201);
    return { ...op, binaryBody: ['audio/wav', 'audio/mpeg'] };
  })(),
  manageOp('post', '/domains/:domain/flows/:flowId/simulate', 'Ours: "Test this flow": a call at a chosen time, from a chosen caller, pressing the keys given; the path, what the caller hears, each ring group\'s legs and what whoever answers hears, how it ends. Nothing is dialled or stored', object('{path, heard, rings, ends}'), { body: simulateBody }),
  manageOp('get', '/domains/:domain/analysis', "Ours: the language model that reads the domain's calls (`server` without credentials, `model`; `configured` false and `refusal` saying how to set one when there is none) and the domain's analysis settings (`enabled`, `questions`)", object('{configured, server, model, enabled, questions}')),
  manageOp('post', '/domains/:domain/analysis/try', 'Ours: the language model reads a sample call (in the domain\'s language where there is one, else English) with the domain\'s questions: `seconds`, `format` (json_schema or json_object), the sample `transcript`, the model\'s `raw` answer as it came and the checked `analysis`; 409 without a model, 429 while a try runs, 502 with the model\'s words when it gives no answer', object('{server, model, seconds, format, transcript, raw, analysis}')),
  manageOp('put', '/domains/:domain/calls/:callId/analysis/outcomes/:name', "Ours: a person corrects an outcome the language model gave (appointmentBooked, quoteGiven, saleMade, existingCustomer, spam, followUpNeeded): their word wins and the call's history keeps it; 409 when the call has no analysis", object('{outcome, answer, by}'), { body: outcomeBody }),
  manageOp('get', '/profile/availability', 'Ours: your own phone (rung by ring groups) and whether you take calls', object('{phone, available}')),
  manageOp('put', '/profile/availability', 'Ours: sets your own phone (null clears it) and availability; every role, each their own', object('{phone, available}'), { body: availabilityBody }),
  manageOp('get', '/domains/:domain/reports/calls', 'The calls log, a page of 50, newest first', object('A page of calls'), { query: callFilters.extend({ page: z.string().optional() }) }),
  manageOp('get', '/domains/:domain/reports/calls.csv', 'The calls log as CSV', csv('CSV, one call per line'), { query: callFilters }),
  manageOp('get', '/domains/:domain/reports/google-ads.csv', "Google Ads' offline conversion import file: leads and sales with a gclid", csv('The import file'), { query: range }),
  manageOp('get', '/domains/:domain/reports/microsoft-ads.csv', "Microsoft Advertising's offline conversions bulk file: leads and sales with an msclkid (ours)", csv('The bulk file'), { query: range }),
  manageOp('get', '/domains/:domain/reports/pools', 'Numbers held now and at peak, hours the pools ran out, recommended sizes', object('The pools report'), { query: range }),
  manageOp('get', '/reports/agents', "The account's agents: `agents`, the spec's (named by callStart or setAgentToCall, as /agent-api/agentStats counts them), and `flowAnswerers` (ours, issue 81): who answered calls through a call flow's ring groups, members by username and plain numbers by name ({member, name, callsAnswered, talkSeconds, averageRingSeconds}), over the domains the member sees", object('{from, to, agents, flowAnswerers}'), { query: range }),

  { method: 'get', path: '/mail/unsubscribe/:token', tag: TAGS.manage, summary: "A mail's unsubscribe link, for anyone who has it: asks to confirm; says when the link was used, or does not work (forged, or older than 90 days)", responses: { 200: { description: 'HTML', type: 'text/html' }, 404: { description: 'The link does not work: HTML', type: 'text/html' } } },
  { method: 'post', path: '/mail/unsubscribe/:token', tag: TAGS.manage, summary: 'One-click unsubscribe (RFC 8058, List-Unsubscribe-Post): turns off the one choice the link names, once', responses: { 200: { description: 'Done, or already done: HTML', type: 'text/html' }, 404: { description: 'The link does not work: HTML', type: 'text/html' } } },
  { method: 'get', path: '/shared/:token', tag: TAGS.manage, summary: "A shared report link's page, for anyone who has it (counted as an opening)", responses: { 200: { description: 'HTML', type: 'text/html' }, 404: { description: 'No such link, or revoked: HTML', type: 'text/html' } } },
  {
    method: 'get',
    path: '/shared/:token/report',
    tag: TAGS.manage,
    summary: "A shared link's report: overview totals, calls per day, sources, keywords, campaigns and landing pages; no caller numbers",
    query: range,
    responses: { 200: object('The report'), 400: MANAGE_ERRORS[400]!, 401: json('The link asks for its password', answer.manage.error), 404: json('No such link, or revoked', answer.manage.error), 500: MANAGE_ERRORS[500]! },
  },
  {
    method: 'post',
    path: '/shared/:token/unlock',
    tag: TAGS.manage,
    summary: "Types a shared link's password: a cookie for this link",
    body: z.object({ password: z.string().describe("The link's password") }),
    responses: { 204: { description: 'Unlocked' }, 400: MANAGE_ERRORS[400]!, 401: json('Wrong password', answer.manage.error), 404: json('No such link, or revoked', answer.manage.error), 429: json('Too many attempts, with Retry-After', answer.manage.error), 500: MANAGE_ERRORS[500]! },
  },
  { method: 'get', path: '/manage', tag: TAGS.manage, summary: 'Sends to /manage/', responses: { 302: { description: 'To /manage/' } } },
  { method: 'get', path: '/manage/', tag: TAGS.manage, summary: "The back end's page", responses: { 200: { description: 'HTML', type: 'text/html' } } },
  { method: 'get', path: '/manage/assets/:file', tag: TAGS.manage, summary: "The back end's script and styles (app.js, app.css)", responses: { 200: { description: 'The file', type: 'application/octet-stream' }, 404: { description: 'No such asset' } } },

  { method: 'get', path: '/', tag: TAGS.service, summary: 'A page linking the back end, this reference, the demo site (when on) and /healthz', responses: { 200: { description: 'HTML', type: 'text/html' } } },
  { method: 'get', path: '/healthz', tag: TAGS.service, summary: 'Liveness', responses: { 200: json('ok', answer.health) } },
  { method: 'get', path: '/readyz', tag: TAGS.service, summary: 'Readiness: the database answers', responses: { 200: json('ready', answer.health), 503: json('database unreachable', answer.health) } },
  { method: 'get', path: '/tracker.js', tag: TAGS.service, summary: 'The tracker sites load', responses: { 200: { description: 'The script', type: 'application/javascript' }, 304: { description: 'Not modified (ETag)' }, 503: { description: 'Not built', type: 'text/plain' } } },
  { method: 'get', path: '/tracker-ads.js', tag: TAGS.service, summary: "Ours: the ads consent tracker.js loads where a domain is connected to an ad platform (its key in the query): it reads Google's consent mode from the page's dataLayer and sends it to /t/consent", responses: { 200: { description: 'The script', type: 'application/javascript' }, 304: { description: 'Not modified (ETag)' }, 503: { description: 'Not built', type: 'text/plain' } } },
  { method: 'get', path: '/tracker-forms.js', tag: TAGS.service, summary: "Ours: the form capture tracker.js loads where a domain's form tracking is on (its key and extra field names in the query, read by the script itself)", responses: { 200: { description: 'The script', type: 'application/javascript' }, 304: { description: 'Not modified (ETag)' }, 503: { description: 'Not built', type: 'text/plain' } } },
  {
    method: 'get',
    path: '/metrics',
    tag: TAGS.service,
    summary: 'Prometheus metrics, behind Authorization: Bearer <METRICS_KEY>',
    responses: { 200: { description: 'The Prometheus text format', type: 'text/plain' }, 401: { description: 'Missing or wrong bearer key', type: 'text/plain' }, 404: { description: 'Metrics are off (no METRICS_KEY)', type: 'text/plain' } },
  },
  { method: 'get', path: '/openapi.json', tag: TAGS.service, summary: 'This document', responses: { 200: json('OpenAPI 3.1', z.object({ openapi: z.string() }).loose()) } },
  { method: 'get', path: '/docs', tag: TAGS.service, summary: 'This document, readable', responses: { 200: { description: 'HTML', type: 'text/html' } } },
  { method: 'get', path: '/docs/assets/:file', tag: TAGS.service, summary: "The reference page's script and styles", responses: { 200: { description: 'The file', type: 'application/octet-stream' }, 404: { description: 'No such asset' } } },
];

/** The demo site's pages, served when DEMO is on. */
export const DEMO_OPERATIONS: Operation[] = ['/demo', '/demo/click', '/demo/demo.css', '/demo/demo.js'].map((path) => ({
  method: 'get',
  path,
  tag: TAGS.service,
  summary: 'The demo site (DEMO)',
  responses: { 200: { description: 'The page or file', type: 'text/html' } },
}));
