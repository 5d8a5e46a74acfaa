// The bodies of the back end's settings requests that are not a domain's settings, as zod checks
// them (and the OpenAPI document shows them).
import { z } from 'zod';
import { phoneIn, timetableEntries } from '../domains/settings.ts';
import { DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { webhookEvents } from '../webhooks/events.ts';

/** GET /locale's query: the browser's IANA time zone, or a country the person chose. */
export const localeQuery = z.object({
  timeZone: z.string().max(100).optional().describe("The browser's IANA time zone (Intl.DateTimeFormat().resolvedOptions().timeZone)"),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code').optional().describe('A country chosen instead: its currency'),
});

/** The pushes an account asks for beside view, cart and order (webhooks/events.ts). */
export const webhookEventsBody = z.object({ events: webhookEvents });
export const webhookUrl = z.object({ url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).nullable() });
/** Bodies with numbers, read in the domain's country; the constants (a French domain's) document them. */
export const numbersBodyIn = (country: string) => z.object({ numbers: z.array(phoneIn(country)).min(1, 'name at least one number').max(1000) });
export const numbersBody = numbersBodyIn(DEFAULT_COUNTRY);
/** An offline number's no-answer redirect: the offline numbers API's `allow_redirect` and `timetable`. */
export const offlineRedirect = z.object({ allowRedirect: z.boolean(), timetable: timetableEntries.default([]) });
/** Ours: false, the number's calls are never recorded (a line that must not be); true: as the domain says. */
export const offlineRecording = z.object({ recording: z.boolean() });
export const offlineAssignmentIn = (country: string) => z.object({ destination: phoneIn(country), description: z.string().trim().min(1, 'is required').max(255) }).extend(offlineRedirect.partial().shape).extend(offlineRecording.partial().shape);
export const offlineAssignment = offlineAssignmentIn(DEFAULT_COUNTRY);
