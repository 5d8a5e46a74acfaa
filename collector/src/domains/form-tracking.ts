// A domain's form tracking (ours): off by default; when on, the tag loads its form capture
// (tracker/src/forms.ts) and the site's forms' submissions are captured without the site changing
// them. `fields`: names of fields to capture beside those found by their type, autocomplete and
// common names (never passwords, hidden or payment card fields).
import { z } from 'zod';

export const formTrackingSettings = z
  .object({
    enabled: z.boolean().default(false),
    fields: z.array(z.string().trim().min(1).max(100)).max(20, 'at most 20 field names').default([]),
  })
  .strict();
export type FormTrackingSettings = z.infer<typeof formTrackingSettings>;
export const FORM_TRACKING_OFF: FormTrackingSettings = { enabled: false, fields: [] };
