// The bodies of the back end's settings requests that are not a domain's settings, as zod checks
// them (and the OpenAPI document shows them).
import { z } from 'zod';
import { phone, timetableEntries } from '../domains/settings.ts';
import { webhookEvents } from '../webhooks/events.ts';

/** The pushes an account asks for beside view, cart and order (webhooks/events.ts). */
export const webhookEventsBody = z.object({ events: webhookEvents });
export const webhookUrl = z.object({ url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).nullable() });
export const numbersBody = z.object({ numbers: z.array(phone).min(1, 'name at least one number').max(1000) });
/** An offline number's no-answer redirect: the offline numbers API's `allow_redirect` and `timetable`. */
export const offlineRedirect = z.object({ allowRedirect: z.boolean(), timetable: timetableEntries.default([]) });
export const offlineAssignment = z.object({ destination: phone, description: z.string().trim().min(1, 'is required').max(255) }).extend(offlineRedirect.partial().shape);
