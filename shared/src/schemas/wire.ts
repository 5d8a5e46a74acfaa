// Building blocks for parameters that arrive either as form strings or as JSON values.
import { z } from 'zod';
import { normalizePhone } from '../phone.ts';

export const wireInt = z.union(
  [z.number().int(), z.string().regex(/^-?\d+$/).transform(Number)],
  { error: 'must be an integer' },
);

export const wireBool = z.union(
  [z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')],
  { error: 'must be true or false' },
);

export const wireText = z.string({ error: 'must be a string' });

export const httpUrl = wireText.refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, 'must be a full http or https URL');

/** A real calendar date written YYYY-MM-DD (not `0000-00-00`, not `2026-02-30`). Never throws. */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d\d-\d\d$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's format for `expiresAt` and most dates. */
export function formatUtcDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** A phone number in any common format, as its normalized digits. */
export const phoneDigits = wireText.transform((value, ctx) => {
  const digits = normalizePhone(value);
  if (!digits) ctx.addIssue({ code: 'custom', message: 'is not a phone number' });
  return digits ?? '';
});
