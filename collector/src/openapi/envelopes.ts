// Each family's answers as zod schemas, for the OpenAPI document: the error envelope the family
// always uses, and its success answer (as precise as the family's own schemas go).
import { browserClickAnswer, browserViewAnswer, dataAnswer, ospClickResponse, ospExpirationResponse, ospViewResponse, trackingProblem } from '@ringtrail/shared';
import { z } from 'zod';

export const tracking = {
  view: z.union([ospViewResponse, trackingProblem]),
  click: z.union([ospClickResponse, trackingProblem]),
  expiration: z.union([ospExpirationResponse, trackingProblem]),
  browserView: z.union([browserViewAnswer, trackingProblem]),
  browserClick: z.union([browserClickAnswer, trackingProblem]),
  /** Ours: a form submission stored. */
  form: z.union([z.object({ status: z.literal('OK'), formId: z.number().int().describe('The submission\'s id'), lead: z.boolean().describe('A lead: not spam') }), trackingProblem]),
  /** Ours: the visitor's consent for ads kept. */
  consent: z.union([z.object({ status: z.literal('OK') }), trackingProblem]),
  problem: trackingProblem,
};

export const offline = {
  error: z.object({ status: z.literal('error'), error: z.string() }),
  state: z.object({ status: z.literal('success'), phone_number: z.string().nullable(), tracking_number: z.string(), description: z.string().nullable(), type: z.number().int() }).loose(),
  list: z.union([
    z.record(z.string(), z.string().nullable()),
    z.object({ tracking_number_details: z.array(z.object({ tracking_phone: z.string(), destination_phone: z.string().nullable(), description: z.string().nullable(), product_name: z.string(), last_update: z.string().nullable() })) }),
  ]),
};

export const data = {
  error: z.object({ status: z.literal('ERROR'), errors: z.array(z.string()) }),
  ok: dataAnswer,
};

export const commerce = {
  answer: z.union([z.object({ status: z.literal('success') }).loose(), z.object({ status: z.literal('error'), message: z.string() })]),
};

export const agent = {
  answer: z.union([z.object({ status: z.literal('OK'), resultsNb: z.number().int(), results: z.array(z.unknown()) }), z.object({ status: z.literal('NOK'), error: z.string() })]),
  error: z.object({ status: z.literal('NOK'), error: z.string() }),
};

export const telephony = {
  ok: z.object({ status: z.literal('OK') }).loose(),
  route: z.object({
    status: z.literal('OK'),
    trackingNumber: z.string(),
    destination: z.string().nullable().describe('Where to forward the call; null: nowhere (ask for the code, or refuse it)'),
    reason: z.enum(['online', 'expired', 'overflow', 'offline', 'not-assigned', 'code-required', 'unknown-number', 'blocked']),
    forcedStatus: z.string().nullable().describe('The call status (see the data API) the call carries whatever its outcome: NOTASSIGNED, EXPIRED, CALLER_PHONE_BLACKLISTED'),
    codeDigits: z.number().int().optional().describe('code-required: how many digits to ask for'),
    visitId: z.number().int().optional().describe('The visit the call is credited to'),
    redirect: z
      .object({ destination: z.string(), afterSeconds: z.number().int() })
      .nullable()
      .describe('Ours: dial `destination` when the first leg is not answered within `afterSeconds` or is busy; null: no redirect'),
    whisper: z.string().nullable().describe('Ours: the sentence to say to whoever answers before connecting the caller; null: whisper off'),
    recording: z
      .object({ announcement: z.string().nullable(), language: z.string(), channels: z.enum(['dual', 'mono']) })
      .nullable()
      .describe("Ours: say `announcement` to the caller (in `language`; null: nothing) before forwarding, and record the forwarded leg from its answer, each party on its own channel (`dual`) or mixed (`mono`); null: do not record"),
  }),
  error: z.object({ status: z.literal('ERROR'), error: z.string() }),
};

export const manage = {
  error: z.object({ error: z.string() }),
  /** Ours: a carrier's refusal, in words, with its own code (Twilio's error codes). */
  carrierError: z.object({
    error: z.string(),
    code: z.number().int().nullable().describe("The carrier's own code (Twilio: 20003 authenticate, 21422 number not available, 20429 too many requests); null when it did not answer"),
    carrierError: z.enum(['credentials', 'unavailable', 'suspended', 'rate-limited', 'timeout', 'unreachable', 'refused']).describe('What it means'),
  }),
  object: z.object({}).loose(),
  list: z.array(z.object({}).loose()),
};

export const health = z.object({ status: z.string() });
