// Ours: a form submission as the tag's form capture sends it to /t/form (collector/src/forms/),
// authenticated by the domain's public key like the other browser doors. The captured fields come as
// one JSON text, a flat list of names and text values, capped; anything else is refused whole.
import { z } from 'zod';
import { ospViewFields } from './tracking.ts';
import { httpUrl, wireInt, wireText } from './wire.ts';

/** What one submission may carry: values are cut to this by the tag, and refused past it here. */
export const FORM_VALUE_MAX = 2000;
export const FORM_FIELDS_MAX = 50;
export const FORM_BYTES_MAX = 16 * 1024;
/** A submission sooner than this after the page opened is a robot's (spam). */
export const FORM_TOO_FAST_MS = 2000;

const FLAT = 'must be a flat list of names and text values (a JSON object of strings)';

/** The captured fields: `{"name": "Ada", "email": "ada@example.com"}` as text. */
export const formFields = wireText.transform((text, ctx): Record<string, string> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: FLAT });
    return z.NEVER;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string')) {
    ctx.addIssue({ code: 'custom', message: FLAT });
    return z.NEVER;
  }
  const fields = parsed as Record<string, string>;
  const names = Object.keys(fields);
  if (names.length > FORM_FIELDS_MAX) ctx.addIssue({ code: 'custom', message: `must have at most ${FORM_FIELDS_MAX} fields` });
  if (names.some((name) => name.length === 0 || name.length > 100)) ctx.addIssue({ code: 'custom', message: 'field names must be 1 to 100 characters' });
  if (Object.values(fields).some((v) => v.length > FORM_VALUE_MAX)) ctx.addIssue({ code: 'custom', message: `values must be at most ${FORM_VALUE_MAX} characters` });
  if (new TextEncoder().encode(text).length > FORM_BYTES_MAX) ctx.addIssue({ code: 'custom', message: `must be at most ${FORM_BYTES_MAX} bytes` });
  return fields;
});

export const browserFormRequest = z.object({
  key: wireText,
  visit_id: ospViewFields.shape.visit_id,
  /** The page the form is on. */
  url: httpUrl,
  fields: formFields,
  /** The form's name or id, when it has one. */
  form_name: wireText.max(200, 'must be at most 200 characters').optional(),
  /** The hidden field the tag adds, which people never fill: anything in it marks the submission spam. */
  honeypot: wireText.max(FORM_VALUE_MAX).optional(),
  /** Milliseconds from the page opening to the submission. */
  elapsed_ms: wireInt.refine((v) => v >= 0, 'must be 0 or more').optional(),
  unique_visitor_id: ospViewFields.shape.unique_visitor_id,
});
export type BrowserFormRequest = z.infer<typeof browserFormRequest>;
