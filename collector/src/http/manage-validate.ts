// Settings sent to the back end, checked by their zod schema: the first problem, named by its
// field, is the answer's error (`allowedOrigins.0: must be an http or https URL`).
import type { z } from 'zod';
import { ManageFailure } from './manage-envelope.ts';

export function valid<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  throw new ManageFailure(400, field ? `${field}: ${issue.message}` : issue.message);
}
