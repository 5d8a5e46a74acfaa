// Parameter validation shared by the families: each problem names its parameter and says
// whether it was missing or invalid; each envelope words them in its own way.
import type { ZodType } from 'zod';

export interface ParamProblem {
  name: string;
  missing: boolean;
  message: string;
}

export type Checked<T> = { ok: true; data: T } | { ok: false; problems: ParamProblem[] };

/** `Missing parameter <name>` or `Invalid parameter <name>: <why>`, as every family but tracking words it. */
export function problemMessage({ name, missing, message }: ParamProblem): string {
  return missing ? `Missing parameter ${name}` : `Invalid parameter ${name}: ${message}`;
}

export function checkParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): Checked<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'body');
    return { name, missing: raw[name] === undefined, message: issue.message };
  });
  return { ok: false, problems };
}
