// The agent service's envelope (spec document 3): `status: OK` with `resultsNb` and `results`, or
// `status: NOK` with `error`, HTTP 200; an unexpected failure is NOK with HTTP 500.
import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import type { Logger } from '../logger.ts';
import { bodyRejection, envelope } from './envelope.ts';
import { checkParams, problemMessage } from './params.ts';

export class AgentFailure extends Error {}

export function agentEnvelope(log: Logger): Middleware {
  const answer = (error: string) => ({ status: 'NOK', error });
  const known = (err: unknown) => {
    const message = err instanceof AgentFailure ? err.message : bodyRejection(err);
    return message ? { status: 200, body: answer(message) } : null;
  };
  return envelope(log, 'agent', known, { status: 500, body: answer('Internal error: retry later') });
}

/** An invalid key is quoted by its first few characters only: never enough to leak a real key. */
export function invalidKeyMessage(key: unknown): string {
  if (typeof key !== 'string' || key === '') return 'Missing apiKey';
  return `Invalid apiKey ${key.slice(0, Math.min(4, Math.floor(key.length / 2)))}...`;
}

export function parseAgentParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): T {
  const checked = checkParams(schema, raw);
  if (checked.ok) return checked.data;
  throw new AgentFailure(problemMessage(checked.problems[0]!));
}
