// The pushes an account may ask for beside the call center's view, cart and order (ours).
import { z } from 'zod';

/** `call`: each call as it ends and when its lead changes; `form`: each form submission that is not spam;
 * `transcript`: a call's transcript, once made (transcripts/); `rule`: a domain's rule that matched a
 * call or a form, with what it did (rules/); `analysis`: what the language model read in a call, once
 * ready (analysis/); `text`: each text received or sent in the texting inbox, `text-status`: each
 * status a sent text's carrier brings (texting/). */
export const WEBHOOK_EVENTS = ['call', 'form', 'transcript', 'rule', 'analysis', 'text', 'text-status'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A list of events, each once. */
export const webhookEvents = z.array(z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` })).transform((events) => [...new Set(events)]);
